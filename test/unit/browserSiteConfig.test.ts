import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {browserSiteConfig} from '../../src/plugins/browserSiteConfig';

const ROOT = path.join(__dirname, '..', '..');
/** The browser code that reads the site config: Docusaurus's client, the themes in use, and ours. */
const CLIENT_DIRS = [
  'node_modules/@docusaurus/core/lib/client',
  'node_modules/@docusaurus/theme-classic/lib/theme',
  'node_modules/@docusaurus/theme-common/lib',
  'node_modules/@docusaurus/plugin-content-docs/lib/client',
  'node_modules/@easyops-cn/docusaurus-search-local/dist/client',
  'src',
];

describe('the site config the browser gets', () => {
  const full = {
    title: 'A site',
    url: 'https://example.com',
    customFields: {siteSettings: {workerUrl: '/api'}},
    themeConfig: {navbar: {title: 'A site'}, metadata: [{name: 'keywords', content: 'kit'}]},
    headTags: [{tagName: 'link', attributes: {rel: 'manifest'}}],
    presets: [['classic', {docs: {}}]],
    themes: ['search'],
    plugins: [null],
    clientModules: ['./src/clientModules/tracking.ts'],
    staticDirectories: ['static'],
    future: {experimental_router: 'browser'},
  };

  it('keeps what pages read and drops what only the build reads', () => {
    const config = browserSiteConfig(full);
    expect(config).toEqual({
      title: full.title,
      url: full.url,
      customFields: full.customFields,
      themeConfig: full.themeConfig,
      future: full.future,
    });
    expect(full.headTags).toHaveLength(1);
  });

  /** Code that reads one of `keys` from the site config, however it is written. */
  const readsOneOf = (keys: string[]) => {
    const key = `(${keys.join('|')})`;
    return new RegExp(
      [
        `siteConfig\\??\\.${key}\\b`,
        `siteConfig\\??\\.?\\[['"\`]${key}\\b`,
        `\\{[^{}]*\\b${key}\\b[^{}]*\\}\\s*=\\s*siteConfig\\b`,
        `siteConfig\\s*:\\s*\\{[^{}]*\\b${key}\\b`,
      ].join('|'),
    );
  };

  it('finds a reader of a key however it reads it', () => {
    const reads = readsOneOf(['headTags']);
    const readers = [
      'siteConfig.headTags',
      "siteConfig?.['headTags']",
      'const {title, headTags} = siteConfig;',
      'const {siteConfig: {headTags}} = useDocusaurusContext();',
    ];
    expect(readers.filter((code) => !reads.test(code))).toEqual([]);
    expect(
      ['siteConfig.title', 'const {title} = siteConfig;', 'const headTags = [];'].filter((code) => reads.test(code)),
    ).toEqual([]);
  });

  it('drops only keys no browser code reads', () => {
    const reads = readsOneOf(Object.keys(full).filter((key) => !(key in browserSiteConfig(full))));
    const readers = CLIENT_DIRS.flatMap((dir) =>
      readdirSync(path.join(ROOT, dir), {recursive: true, withFileTypes: true})
        .filter((entry) => entry.isFile() && /\.(m?js|tsx?)$/.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name))
        .filter((file) => reads.test(readFileSync(file, 'utf8'))),
    );
    expect(readers.map((file) => path.relative(ROOT, file))).toEqual([]);
  });
});
