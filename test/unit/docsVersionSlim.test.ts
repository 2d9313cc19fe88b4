import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {DOCS_ROUTE_PROPS} from '../../src/plugins/docsVersionSlim';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const slim = require('../../src/plugins/docsVersionSlim/loader.js') as (source: string) => string;
const ROOT = path.join(__dirname, '..', '..');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(path.join(ROOT, dir), {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("the docs version's route props, slimmed", () => {
  it('lose each doc description and keep its id, title and sidebar', () => {
    const version = {
      version: {
        label: '1.1',
        docs: {
          'features/payments': {
            id: 'features/payments',
            title: 'Payments',
            description: 'Stripe Checkout end to end.',
            sidebar: 'docs',
          },
        },
      },
    };
    expect(JSON.parse(slim(JSON.stringify(version)))).toEqual({
      version: {
        label: '1.1',
        docs: {'features/payments': {id: 'features/payments', title: 'Payments', sidebar: 'docs'}},
      },
    });
  });

  it('leave any other route props as they are', () => {
    const doc = JSON.stringify({content: {description: 'kept'}});
    expect(slim(doc)).toBe(doc);
  });

  it('apply to the files the docs plugin writes them to, and to nothing else', () => {
    expect(DOCS_ROUTE_PROPS.test('/site/.docusaurus/docusaurus-plugin-content-docs/default/p/docs-175.json')).toBe(
      true,
    );
    expect(
      DOCS_ROUTE_PROPS.test(
        '/site/.docusaurus/docusaurus-plugin-content-docs/default/site-docs-features-payments-mdx-ac9.json',
      ),
    ).toBe(false);
    expect(DOCS_ROUTE_PROPS.test('/site/.docusaurus/docusaurus-plugin-content-pages/default/p/index.json')).toBe(false);
  });

  it('are safe because no docs page draws a DocCard, the one reader of the descriptions', () => {
    const plugin = path.join(ROOT, 'src', 'plugins', 'docsVersionSlim');
    const readers = [
      ...filesUnder('docs', /\.mdx?$/),
      ...filesUnder('versioned_docs', /\.mdx?$/),
      ...filesUnder('src', /\.(tsx?|jsx?)$/),
      path.join(ROOT, 'sidebars.ts'),
    ]
      .filter((file) => !file.startsWith(plugin))
      .filter((file) => /DocCard|useDocById|generated-index/.test(readFileSync(file, 'utf8')));
    expect(readers.map((file) => path.relative(ROOT, file))).toEqual([]);
  });
});
