/** @jest-environment node */
import {mkdtempSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {excerpt} from '../../src/buildTime/fileExcerpt';
import remarkFileExcerpt from '../../src/buildTime/remarkFileExcerpt';

const file = [
  'const a = 1;',
  'const b = 2;',
  'export const config = {',
  '  name: a,',
  '  plans: [',
  '    {price: b},',
  '  ],',
  '};',
].join('\n');

describe('a quote of a file in the docs', () => {
  it('shows the stretches asked for as the file holds them, with `// ...` where it leaves lines out', () => {
    expect(excerpt(file, [['const a'], ['  plans:', '  ],']], 'config.ts')).toBe(
      ['const a = 1;', '  // ...', '  plans: [', '    {price: b},', '  ],', '  // ...'].join('\n'),
    );
  });

  it('joins stretches that follow each other without a gap, and ends without `// ...` at the end of the file', () => {
    expect(excerpt(file, [['const a'], ['const b', '};']], 'config.ts')).toBe(file);
  });

  it('fails, naming the file, when the file no longer holds a stretch', () => {
    expect(() => excerpt(file, [['const z']], 'config.ts')).toThrow('config.ts holds no line with "const z"');
    expect(() => excerpt(file, [['plans:', 'nowhere']], 'config.ts')).toThrow(
      'config.ts holds no line with "nowhere" after "plans:"',
    );
  });
});

describe('<FileExcerpt> in a docs page, as the page compiles', () => {
  const siteDir = mkdtempSync(path.join(os.tmpdir(), 'excerpt-'));
  writeFileSync(path.join(siteDir, 'config.ts'), file);

  /** The syntax tree MDX gives a `parts={…}` attribute: an array of arrays of string literals. */
  const partsTree = (parts: string[][]) => ({
    type: 'mdxJsxAttributeValueExpression',
    data: {
      estree: {
        type: 'Program',
        body: [
          {
            type: 'ExpressionStatement',
            expression: {
              type: 'ArrayExpression',
              elements: parts.map((part) => ({
                type: 'ArrayExpression',
                elements: part.map((value) => ({type: 'Literal', value})),
              })),
            },
          },
        ],
      },
    },
  });
  const page = (attributes: Array<{name: string; value: unknown}>) => ({
    type: 'root',
    children: [
      {
        type: 'listItem',
        children: [
          {
            type: 'mdxJsxFlowElement',
            name: 'FileExcerpt',
            position: {start: {line: 12}},
            attributes: attributes.map((attribute) => ({type: 'mdxJsxAttribute', ...attribute})),
          },
        ],
      },
    ],
  });
  const compile = (tree: ReturnType<typeof page>) =>
    remarkFileExcerpt({siteDir})(tree as never, {path: path.join(siteDir, 'docs', 'page.mdx')});

  it('becomes a code block titled with the file, quoting it as it is, wherever it stands', () => {
    const tree = page([
      {name: 'file', value: 'config.ts'},
      {name: 'parts', value: partsTree([['  plans:', '  ],']])},
    ]);
    compile(tree);
    expect(tree.children[0]!.children[0]).toEqual({
      type: 'code',
      lang: 'ts',
      meta: 'title="config.ts"',
      value: ['  plans: [', '    {price: b},', '  ],', '  // ...'].join('\n'),
    });
  });

  it('fails the build, naming the page and its line, for a file or a stretch that is not there', () => {
    expect(() =>
      compile(
        page([
          {name: 'file', value: 'gone.ts'},
          {name: 'parts', value: partsTree([['a']])},
        ]),
      ),
    ).toThrow('docs/page.mdx:12: <FileExcerpt> quotes gone.ts, which is not a file of the repository.');
    expect(() =>
      compile(
        page([
          {name: 'file', value: 'config.ts'},
          {name: 'parts', value: partsTree([['const z']])},
        ]),
      ),
    ).toThrow('docs/page.mdx:12: config.ts holds no line with "const z"');
    expect(() =>
      compile(
        page([
          {name: 'file', value: 'config.ts'},
          {name: 'parts', value: partsTree([])},
        ]),
      ),
    ).toThrow('parts must be a literal, non-empty array');
    expect(() => compile(page([{name: 'parts', value: partsTree([['a']])}]))).toThrow('needs file=');
  });
});
