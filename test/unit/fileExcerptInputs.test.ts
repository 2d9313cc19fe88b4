/** @jest-environment node */
import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import remarkFileExcerpt from '../../src/buildTime/remarkFileExcerpt';
import fileExcerptInputs, {quotedFiles} from '../../src/plugins/fileExcerptInputs';

const ROOT = path.resolve(__dirname, '../..');

function site(pages: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quotes-'));
  for (const [file, text] of Object.entries(pages)) {
    mkdirSync(path.dirname(path.join(dir, file)), {recursive: true});
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('the files docs pages quote', () => {
  it('are found in the current docs and in every frozen version, however the tag is written', () => {
    const dir = site({
      'docs/a.mdx': `<FileExcerpt file="src/config/app.ts" parts={[['const a']]} />`,
      'docs/deep/b.md': `Text\n\n<FileExcerpt\n  parts={[['(a) => a', 'x > 1']]}\n  file='src/other.ts'\n/>\n`,
      'versioned_docs/version-1.0/c.mdx': `<FileExcerpt file="src/config/app.ts" parts={[['b']]} />`,
      'docs/notes.txt': `<FileExcerpt file="not-a-page.ts" parts={[['b']]} />`,
    });
    expect(quotedFiles(dir)).toEqual([path.join(dir, 'src/config/app.ts'), path.join(dir, 'src/other.ts')]);
  });

  it('are none for a site without a frozen version or any quote', () => {
    expect(quotedFiles(site({'docs/a.mdx': '# A page'}))).toEqual([]);
  });

  it("include every file this repository's docs quote", () => {
    expect(quotedFiles(ROOT)).toContain(path.join(ROOT, 'src/config/app.ts'));
  });
});

describe('the quoted files as inputs of the docs pages', () => {
  type Rules = Array<{
    test?: RegExp;
    use: Array<{loader: string; options: {remarkPlugins?: unknown[]; dependencies?: string[]}}>;
  }>;
  const configure = (dir: string, rules: Rules) => {
    const plugin = fileExcerptInputs({siteDir: dir} as LoadContext) as Required<Pick<Plugin, 'configureWebpack'>>;
    return plugin.configureWebpack({module: {rules}} as never, false, {} as never, undefined);
  };
  const dir = site({'docs/a.mdx': `<FileExcerpt file="app.ts" parts={[['a']]} />`});

  it("are added to the MDX loader that runs the quoting plugin, next to the docs plugin's own, once", () => {
    const docs = {
      loader: '@docusaurus/mdx-loader',
      options: {remarkPlugins: [[remarkFileExcerpt, {siteDir: dir}]], dependencies: ['/site/.docusaurus/docs.json']},
    };
    const pages = {loader: '@docusaurus/mdx-loader', options: {remarkPlugins: []}};
    const rules: Rules = [
      {test: /\.mdx?$/, use: [docs]},
      {test: /\.mdx?$/, use: [pages]},
    ];
    configure(dir, rules);
    // The server build runs it on the same rule again.
    configure(dir, rules);
    expect(docs.options.dependencies).toEqual(['/site/.docusaurus/docs.json', path.join(dir, 'app.ts')]);
    expect(pages.options).toEqual({remarkPlugins: []});
  });

  it('stop the build when no MDX loader runs the quoting plugin, rather than let quotes go stale', () => {
    expect(() => configure(dir, [{use: [{loader: '@docusaurus/mdx-loader', options: {remarkPlugins: []}}]}])).toThrow(
      'no MDX loader runs remarkFileExcerpt',
    );
  });
});
