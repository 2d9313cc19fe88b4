/**
 * @jest-environment node
 *
 * The docs checker (test/unit/docs.test.ts) must be able to fail: these feed
 * it samples that are wrong in each way it looks for.
 */
import {mkdtempSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {ROOT, envNames, missingFromFile, npmScriptsNamed, readPage, repoPathsNamed} from '../support/docsFacts';
import {typecheckSnippets} from '../support/typecheckSnippets';

function page(markdown: string) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'docs-checker-')), 'page.mdx');
  writeFileSync(file, markdown);
  return readPage(file);
}

describe('reading a page', () => {
  const sample = page(
    [
      'Run `npm run site:dev` or `npm start`, then open `src/config/app.ts`.',
      '',
      '````md',
      '```ts',
      'nested fence, still one block',
      '```',
      '````',
      '',
      '<Firebase>',
      '',
      '  ```tsx title="src/pages/new.tsx"',
      '  export default function New() {}',
      '  ```',
      '',
      '</Firebase>',
    ].join('\n'),
  );

  it('finds blocks with their language, title and line, nested fences included', () => {
    expect(sample.blocks.map(({lang, title, line}) => ({lang, title, line}))).toEqual([
      {lang: 'md', title: undefined, line: 3},
      {lang: 'tsx', title: 'src/pages/new.tsx', line: 11},
    ]);
    expect(sample.blocks[1].code).toBe('export default function New() {}');
  });

  it('finds the npm scripts and repository paths the prose names', () => {
    expect(npmScriptsNamed(sample).sort()).toEqual(['site:dev', 'start']);
    expect(repoPathsNamed(sample)).toEqual(['src/config/app.ts']);
  });
});

describe('quotes', () => {
  const file = 'const a = 1;\nconst b = 2;\n\nexport function c() {\n  return a + b;\n}\n';

  it('accept runs of the file separated by elisions', () => {
    expect(missingFromFile('const a = 1;\n// ...\nexport function c() {\n  return a + b;\n}', file)).toEqual([]);
  });

  it('report a run the file does not hold', () => {
    expect(missingFromFile('const a = 1;\nconst b = 3;', file)).toEqual(['const a = 1;\nconst b = 3;']);
  });
});

it('reads the variables of an environment sample', () => {
  expect(envNames('# comment\nAUTH_PROVIDER=supabase\nexport SUPABASE_URL=x\nnot_a_var=1')).toEqual([
    'AUTH_PROVIDER',
    'SUPABASE_URL',
  ]);
});

describe('type-checking samples', () => {
  it('reports a type error at the line of the sample', () => {
    const errors = typecheckSnippets([
      {
        file: path.join(ROOT, 'docs', 'checker-sample.tsx'),
        code: "import {appConfig} from '@site/src/config';\nconst name: number = appConfig.appName;\nexport {};\n",
      },
    ]);
    expect(errors).toEqual([
      expect.objectContaining({line: 2, message: expect.stringContaining("not assignable to type 'number'")}),
    ]);
  }, 60_000);

  it('resolves relative imports from the path a sample is titled with, and checks worker samples with the worker config', () => {
    const errors = typecheckSnippets([
      {
        file: path.join(ROOT, 'src', 'pages', 'checker-sample.tsx'),
        code: "import {appConfig} from '../config';\nexport const name: string = appConfig.appName;\n",
      },
      {
        file: path.join(ROOT, 'worker', 'src', 'checker-sample.ts'),
        code: 'export async function rows(db: D1Database) {\n  return db.prepare("select 1").all();\n}\n',
      },
    ]);
    expect(errors).toEqual([]);
  }, 60_000);
});
