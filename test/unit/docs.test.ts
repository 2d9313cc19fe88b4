/**
 * @jest-environment node
 *
 * The docs describe this very repository, so each claim they make is held to
 * it: TypeScript samples compile (or, when titled with a real file, are
 * quoted from it verbatim), a diff applies to the file it names, npm scripts and file paths exist, and the
 * variables of an environment sample are the ones the example files list.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {
  DOCS_DIR,
  ROOT,
  docPages,
  envNames,
  missingFromFile,
  npmScriptsNamed,
  repoPathsNamed,
  type CodeBlock,
} from '../support/docsFacts';
import {typecheckSnippets, type Snippet, type SnippetError} from '../support/typecheckSnippets';

const pages = docPages();
const scripts = Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts);
const TS_LANGS = new Set(['ts', 'tsx', 'typescript']);
const ENV_FILES: Record<string, string> = {
  '.env': '.env.example',
  '.env.example': '.env.example',
  'worker/.dev.vars': 'worker/.dev.vars.example',
  'worker/.dev.vars.example': 'worker/.dev.vars.example',
};

/** Git-ignored folders that tools create when they first run (wrangler's local D1, the build). */
const OUTPUT_FOLDERS = ['worker/.wrangler/', 'build/', '.docusaurus/'];
const quotesRealFile = (block: CodeBlock) =>
  block.lang !== 'diff' &&
  block.title !== undefined &&
  !(block.title in ENV_FILES) &&
  existsSync(path.join(ROOT, block.title));
const changesRealFile = (block: CodeBlock) =>
  block.lang === 'diff' && block.title !== undefined && existsSync(path.join(ROOT, block.title));

/** What a diff expects the file to hold before the change: its context and removed lines. */
const beforeTheChange = (diff: string) =>
  diff
    .split('\n')
    .filter((line) => !line.startsWith('+'))
    .map((line) => line.slice(1))
    .join('\n');

/** Where a sample compiles: at its titled path, or beside its page. */
function snippetFile(block: CodeBlock): string {
  if (block.title && /^[\w.@[\]-]+(\/[\w.@[\]-]+)*\.tsx?$/.test(block.title)) return path.join(ROOT, block.title);
  const ext = block.lang === 'ts' || block.lang === 'typescript' ? 'ts' : 'tsx';
  return path.join(
    ROOT,
    path.dirname(block.page),
    `${path.basename(block.page).replace(/\.mdx?$/, '')}.snippet-line-${block.line}.${ext}`,
  );
}

function where(error: SnippetError): string {
  return `${path.relative(ROOT, error.file)}:${error.line} ${error.message}`;
}

let compileErrors: Map<string, string[]>;

beforeAll(() => {
  const owner = new Map<string, string>();
  const snippets: Snippet[] = [];
  for (const page of pages) {
    for (const block of page.blocks) {
      if (!TS_LANGS.has(block.lang) || quotesRealFile(block)) continue;
      const file = snippetFile(block);
      owner.set(path.normalize(file), block.page);
      // A sample without imports would be a global script; keep each in its own module scope.
      snippets.push({file, code: `${block.code}\nexport {};\n`});
    }
  }
  const examples = (readdirSync(DOCS_DIR, {recursive: true}) as string[])
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.join(DOCS_DIR, file));
  for (const example of examples) owner.set(path.normalize(example), path.relative(ROOT, example));
  compileErrors = new Map();
  for (const error of typecheckSnippets(snippets, examples)) {
    const page = owner.get(error.file) ?? path.relative(ROOT, error.file);
    compileErrors.set(page, [...(compileErrors.get(page) ?? []), where(error)]);
  }
}, 120_000);

it('finds the docs', () => {
  expect(pages.length).toBeGreaterThan(40);
});

describe.each(pages.map((page) => [path.relative(ROOT, page.file), page] as const))('%s', (name, page) => {
  it('has TypeScript samples that compile', () => {
    expect(compileErrors.get(name) ?? []).toEqual([]);
  });

  it('quotes real files as they are', () => {
    const drift = page.blocks
      .filter(quotesRealFile)
      .flatMap((block) =>
        missingFromFile(block.code, readFileSync(path.join(ROOT, block.title!), 'utf8')).map(
          (run) => `line ${block.line}, ${block.title}: not in the file:\n${run}`,
        ),
      );
    expect(drift).toEqual([]);
  });

  it('shows changes to real files that apply to them as they are', () => {
    const untitled = page.blocks
      .filter((block) => block.lang === 'diff' && block.title === undefined)
      .map((block) => `line ${block.line}: a diff without title="the/file/it/changes"`);
    const drift = page.blocks
      .filter(changesRealFile)
      .flatMap((block) =>
        missingFromFile(beforeTheChange(block.code), readFileSync(path.join(ROOT, block.title!), 'utf8')).map(
          (run) => `line ${block.line}, ${block.title}: the diff expects, and the file does not hold:\n${run}`,
        ),
      );
    expect([...untitled, ...drift]).toEqual([]);
  });

  it('names only npm scripts that exist', () => {
    expect(npmScriptsNamed(page).filter((script) => !scripts.includes(script))).toEqual([]);
  });

  it('names only files that exist or that the page creates', () => {
    // The environment files are git-ignored copies of their examples: a fresh clone has only the
    // examples. The output folders appear on the first run of what makes them.
    const created = new Set([
      ...Object.keys(ENV_FILES),
      ...OUTPUT_FOLDERS,
      ...page.blocks.flatMap((block) => (block.title ? [block.title] : [])),
    ]);
    const missing = repoPathsNamed(page).filter(
      (file) => !created.has(file) && !existsSync(path.join(ROOT, file.replace(/\/$/, ''))),
    );
    expect(missing).toEqual([]);
  });

  it('sets only the variables the example environment files list', () => {
    const unknown = page.blocks
      .filter((block) => block.title !== undefined && block.title in ENV_FILES)
      .flatMap((block) => {
        const example = readFileSync(path.join(ROOT, ENV_FILES[block.title!]), 'utf8');
        const listed = new Set(envNames(example.replace(/^#\s*/gm, '')));
        return envNames(block.code)
          .filter((name) => !listed.has(name))
          .map((name) => `${block.title}: ${name}`);
      });
    expect(unknown).toEqual([]);
  });

  it('has JSON samples that parse', () => {
    const broken = page.blocks
      .filter((block) => block.lang === 'json')
      .flatMap((block) => {
        try {
          JSON.parse(block.code);
          return [];
        } catch (error) {
          return [`line ${block.line}: ${(error as Error).message}`];
        }
      });
    expect(broken).toEqual([]);
  });
});
