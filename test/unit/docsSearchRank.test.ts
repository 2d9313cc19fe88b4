/**
 * @jest-environment node
 *
 * The docs' search ranking (src/plugins/docsSearch/rank.ts) on a small index built the way the
 * search plugin builds its own: what a reader sees first for a few kinds of query.
 */
import lunr from 'lunr';
import {
  CONTENT,
  HEADING,
  KEYWORDS,
  rankSearch,
  TITLE,
  type SearchDocument,
  type WrappedIndex,
} from '../../src/plugins/docsSearch/rank';

interface Page {
  url: string;
  title: string;
  keywords?: string;
  sections: {heading?: string; text: string}[];
}

/** The plugin's five indexes (titles, headings, descriptions, keywords, text) for these pages. */
function indexOf(pages: Page[]): WrappedIndex[] {
  const documents: SearchDocument[][] = [[], [], [], [], []];
  let id = 0;
  for (const {url, title, keywords, sections} of pages) {
    const page = ++id;
    documents[TITLE].push({i: page, t: title, u: url, b: []});
    if (keywords) documents[KEYWORDS].push({i: page, t: keywords, s: title, u: url, p: page});
    for (const {heading, text} of sections) {
      const h = heading ? `#${heading.toLowerCase().replace(/\W+/g, '-')}` : '';
      if (heading) documents[HEADING].push({i: ++id, t: heading, u: url, h, p: page});
      documents[CONTENT].push({i: ++id, t: text, s: heading ?? title, u: url, h, p: page});
    }
  }
  return documents.map((docs, type) => ({
    type,
    documents: docs,
    index: lunr(function () {
      this.ref('i');
      this.field('t');
      this.metadataWhitelist = ['position'];
      for (const doc of docs) this.add({...doc, i: String(doc.i)});
    }),
  }));
}

const SITE = indexOf([
  {
    url: '/docs/features/payments',
    title: 'Payments',
    keywords: 'checkout, test card, refund',
    sections: [
      {text: 'A buyer pays once.'},
      {heading: 'Test it locally', text: 'Pay with the test card 4242 4242 4242 4242.'},
      {heading: 'Refunds', text: 'A full refund revokes the access.'},
    ],
  },
  {
    url: '/docs/components/testimonial-avatars',
    title: 'Testimonial avatars',
    sections: [{text: 'Five faces of happy buyers.'}],
  },
  {url: '/docs/extras', title: 'Extras', sections: [{heading: 'Logo and icons', text: 'The favicon has three sizes.'}]},
  {url: '/docs/components/faq', title: 'FAQ', sections: [{text: 'Questions, and a refund within 7 days.'}]},
  {
    url: '/docs/deployment',
    title: 'Deployment',
    sections: [{heading: 'Deploy the worker', text: 'Watch the logs with wrangler tail.'}],
  },
]);

/** The pages of the suggestions, in order. */
const pagesFor = (input: string) =>
  rankSearch(SITE, input, 8).map((result) => (result.type === TITLE ? result.document.u : result.page!.u));

it('finds what each word finds when no section holds them all', () => {
  expect(pagesFor('favicon refund ')).toEqual(expect.arrayContaining(['/docs/extras', '/docs/features/payments']));
});

it('puts the page whose title or keywords hold the words before a page that mentions them', () => {
  expect(pagesFor('refund ')[0]).toBe('/docs/features/payments');
  expect(pagesFor('test card ')[0]).toBe('/docs/features/payments');
});

it('names a different page in each of the first suggestions', () => {
  const pages = pagesFor('refund ');
  expect(pages.slice(0, 2)).toEqual(['/docs/features/payments', '/docs/components/faq']);
});

it('shows the page itself first when its title is what matched', () => {
  const [first] = rankSearch(SITE, 'deployment ', 8);
  expect(first.type).toBe(TITLE);
  expect(first.document.u).toBe('/docs/deployment');
});

it('reads the word being typed as the start of a longer one, after whole words', () => {
  expect(pagesFor('paym')[0]).toBe('/docs/features/payments');
  expect(pagesFor('test')).toEqual([
    '/docs/features/payments',
    '/docs/components/testimonial-avatars',
    '/docs/features/payments',
  ]);
});

it('forgives a typo in a long word, not in a short one', () => {
  expect(pagesFor('wrangelr ')).toEqual(['/docs/deployment']);
  expect(pagesFor('lgos ')).toEqual([]);
});

it('leaves out punctuation and words too common to index', () => {
  expect(pagesFor('How do I get a refund?')[0]).toBe('/docs/features/payments');
  expect(pagesFor('how do I')).toEqual([]);
});

it('never lists more than the limit', () => {
  expect(rankSearch(SITE, 'a refund test favicon buyer', 2)).toHaveLength(2);
});
