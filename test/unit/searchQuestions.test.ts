/**
 * @jest-environment node
 *
 * The rules of the search questions (test/support/searchQuestions.ts), so the browser test measures
 * what a reader would type: enough questions, every docs page asked about, the synonyms issue 16
 * names, and no question that borrows a word from its page's title.
 */
import lunr from 'lunr';
import {DOCS_URLS} from '../support/docsStructure';
import {docsTitles} from '../support/docsTitles';
import {SEARCH_QUESTIONS} from '../support/searchQuestions';

const titles = docsTitles();

/** A text's words as the search engine indexes them: lower case, no stop words, stemmed. */
function stems(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s\-/]+/)
    .map((word) => word.replace(/^\W+|\W+$/g, ''))
    .filter((word) => word !== '' && lunr.stopWordFilter(new lunr.Token(word, {})))
    .map((word) => lunr.stemmer(new lunr.Token(word, {})).toString());
}

it('has at least 50 questions, each asked once', () => {
  expect(SEARCH_QUESTIONS.length).toBeGreaterThanOrEqual(50);
  const queries = SEARCH_QUESTIONS.map((question) => question.query.toLowerCase());
  expect(queries.filter((query, index) => queries.indexOf(query) !== index)).toEqual([]);
});

it('asks only about pages of the current docs', () => {
  expect(SEARCH_QUESTIONS.filter((question) => !DOCS_URLS.includes(question.page))).toEqual([]);
});

it('asks about every page of the current docs', () => {
  const asked = new Set(SEARCH_QUESTIONS.map((question) => question.page));
  expect(DOCS_URLS.filter((url) => !asked.has(url))).toEqual([]);
});

it('uses the words readers use for what the docs name otherwise', () => {
  const words = SEARCH_QUESTIONS.map((question) => ` ${question.query.toLowerCase()} `);
  for (const synonym of ['test card', 'deploy', 'protect', 'limit', 'redirect uri']) {
    expect(words.filter((query) => query.includes(` ${synonym} `))).not.toEqual([]);
  }
});

it('never borrows a word from the title of the page it expects', () => {
  const borrowed = SEARCH_QUESTIONS.flatMap(({query, page}) => {
    const title = new Set(stems(titles.get(page)!));
    const shared = stems(query).filter((stem) => title.has(stem));
    return shared.length > 0 ? [`"${query}" shares ${shared.join(', ')} with "${titles.get(page)}"`] : [];
  });
  expect(borrowed).toEqual([]);
});
