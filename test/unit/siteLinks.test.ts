import {brokenLinks, type PageLinks} from '../support/siteLinks';

const ORIGINS = ['https://slipway.dev', 'http://127.0.0.1:4321'];
const FILES = new Set(['/img/logo.png', '/index.html', '/docs.html']);
const home: PageLinks = {url: '/', hrefs: [], anchors: ['pricing', 'faq']};
const docs: PageLinks = {url: '/docs', hrefs: [], anchors: ['install']};

const check = (...hrefs: string[]) => brokenLinks([{...home, hrefs}, docs], FILES, ORIGINS);

describe('brokenLinks', () => {
  it('accepts links to built pages, their anchors and built files, written in any of the site’s forms', () => {
    expect(
      check(
        '/docs',
        'docs',
        '/docs/',
        '/docs#install',
        '/#pricing',
        '#faq',
        '/img/logo.png',
        'https://slipway.dev/docs',
        'http://127.0.0.1:4321/#faq',
        '/docs?backend=supabase#install',
      ),
    ).toEqual([]);
  });

  it('accepts an empty fragment and #top, which scroll to the top of any page', () => {
    expect(check('#', '/docs#top')).toEqual([]);
  });

  it('leaves other sites and other schemes alone', () => {
    expect(check('https://stripe.com/nowhere', 'mailto:support@slipway.dev', 'http://localhost:4200/x')).toEqual([]);
  });

  it('reports a link to a page the build does not hold, also on the production origin', () => {
    expect(check('/pricing', 'https://slipway.dev/blog')).toEqual([
      {page: '/', href: '/pricing', problem: 'no page or file /pricing in the build'},
      {page: '/', href: 'https://slipway.dev/blog', problem: 'no page or file /blog in the build'},
    ]);
  });

  it('reports a fragment with no element of that id on the target page', () => {
    expect(check('/docs#pricing', '#install')).toEqual([
      {page: '/', href: '/docs#pricing', problem: 'no element with id "pricing" on /docs'},
      {page: '/', href: '#install', problem: 'no element with id "install" on /'},
    ]);
  });
});
