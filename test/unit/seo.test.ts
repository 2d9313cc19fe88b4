import {appConfig} from '../../src/config';
import {DOCS_PRIORITY, robotsTxt, sitemapPriority, webManifest} from '../../src/seo/searchEngineFiles';
import {productJsonLd} from '../../src/seo/structuredData';
import {siteUrl} from '../../src/seo/siteUrl';

describe('robots.txt', () => {
  it('disallows /dashboard/ and /admin/, sets a crawl delay of 1 and names the sitemap', () => {
    expect(robotsTxt('https://example.com').split('\n')).toEqual([
      'User-agent: *',
      'Allow: /',
      'Disallow: /dashboard/',
      'Disallow: /admin/',
      'Crawl-delay: 1',
      '',
      'Sitemap: https://example.com/sitemap.xml',
      '',
    ]);
  });

  it('uses the configured domain by default', () => {
    expect(robotsTxt()).toContain(`Sitemap: https://${appConfig.domainName}/sitemap.xml`);
  });
});

describe('sitemap priorities', () => {
  it.each([
    ['/', 1.0],
    ['/dashboard', 0.8],
    ['/success', 0.5],
    ['/tos', 0.3],
    ['/privacy-policy', 0.3],
    ['/privacy-policy/', 0.3],
    ['/docs', DOCS_PRIORITY],
    ['/docs/features/seo', DOCS_PRIORITY],
  ])('gives %s %d', (pathname, priority) => {
    expect(sitemapPriority(`${siteUrl}${pathname}`)).toBe(priority);
  });

  it.each(['/error', '/signin', '/docsearch', '/somewhere'])('leaves %s out', (pathname) => {
    expect(sitemapPriority(`${siteUrl}${pathname}`)).toBeNull();
  });
});

describe('the manifest and structured data', () => {
  it('names the app and its theme colour in the manifest', () => {
    expect(webManifest()).toMatchObject({name: appConfig.appName, theme_color: appConfig.themeColor, start_url: '/'});
  });

  it('describes the product with both offers and the rating', () => {
    const product = productJsonLd();
    expect(product.offers.map((offer) => offer.price)).toEqual(['69.00', '99.00']);
    expect(product.aggregateRating).toEqual({'@type': 'AggregateRating', ratingValue: '4.8', reviewCount: 12});
  });
});
