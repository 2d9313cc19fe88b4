/**
 * The built pages' bundles, preloaded and run after the first paint (src/plugins/paintFirst.ts).
 * That the order holds in a browser is test/browser/paintFirst.test.ts.
 */
import {runBundlesAfterPaint} from '../../src/plugins/paintFirst';

const RUNTIME = '/assets/js/runtime~main.e0ec0ff5.js';
const MAIN = '/assets/js/main.6a4ef3d7.js';
/** A page as Docusaurus's minifier writes it, with a seller's deferred script beside the bundles. */
const PAGE =
  '<!doctype html><html><head><link rel=stylesheet href=/assets/css/styles.css />' +
  `<script src=${RUNTIME} defer></script><script src=${MAIN} defer></script>` +
  '<script src=https://plausible.io/js/script.js defer></script></head><body><p>Text</p></body></html>';

describe('runBundlesAfterPaint', () => {
  it('turns the bundle tags into low-priority preloads, in place, and leaves other deferred scripts alone', () => {
    const html = runBundlesAfterPaint(PAGE, 'index.html');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(
      `<link rel="preload" as="script" fetchpriority="low" href="${RUNTIME}" data-paint-first><link rel="preload" as="script" fetchpriority="low" href="${MAIN}" data-paint-first>`,
    );
    expect(head).not.toContain(`src=${MAIN}`);
    expect(head).toContain('<script src=https://plausible.io/js/script.js defer></script>');
  });

  it('adds the runner at the end of the body; it reads the bundles from their preloads', () => {
    const html = runBundlesAfterPaint(PAGE, 'index.html');
    expect(html).toMatch(
      /<p>Text<\/p><script>\(function runAfterFirstPaint\(\) \{.*\}\)\(\)<\/script><\/body><\/html>$/,
    );
    expect(html).toContain("document.querySelectorAll('link[data-paint-first]')");
    expect(html).not.toMatch(/\n/);
  });

  it('writes the same runner whatever the bundles are called, so its hash in the Content-Security-Policy holds from build to build', () => {
    const runner = (html: string) => html.slice(html.lastIndexOf('<script>'));
    const renamed = PAGE.replace(MAIN, '/assets/js/main.0123abcd.js').replace(
      RUNTIME,
      '/assets/js/runtime~main.89abcdef.js',
    );
    expect(runner(runBundlesAfterPaint(renamed, 'index.html'))).toBe(runner(runBundlesAfterPaint(PAGE, 'index.html')));
  });

  it('reads quoted attributes too', () => {
    const quoted = PAGE.replace(`src=${MAIN}`, `src="${MAIN}"`);
    expect(runBundlesAfterPaint(quoted, 'index.html')).toContain(`href="${MAIN}"`);
  });

  it('leaves a static page without the bundles as it is', () => {
    const page = '<html><head></head><body><p>Plain</p></body></html>';
    expect(runBundlesAfterPaint(page, 'static/plain.html')).toBe(page);
  });

  it('stops the build, naming the page, when main.js is loaded in a way it does not know', () => {
    const changed = PAGE.replace(`<script src=${MAIN} defer></script>`, `<script type=module src=${MAIN}></script>`);
    expect(() => runBundlesAfterPaint(changed, 'docs/intro.html')).toThrow(
      /docs\/intro\.html loads a bundle in a tag it does not know/,
    );
  });
});
