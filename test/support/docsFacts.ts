/**
 * What the docs claim about this repository, read out of the Markdown so a
 * test can hold each claim to the files: code blocks (with their language and
 * title), inline code, and the pages they sit on.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');
export const DOCS_DIR = path.join(ROOT, 'docs');

export interface CodeBlock {
  /** The page, relative to the repository root. */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The `title="…"` of the fence's meta, if any. */
  title?: string;
  code: string;
}

export interface DocPage {
  file: string;
  source: string;
  blocks: CodeBlock[];
  /** Inline `code` outside code blocks. */
  inlineCode: string[];
  /** The lines outside code blocks, each with its 1-based number. */
  prose: ProseLine[];
}

export interface ProseLine {
  line: number;
  text: string;
}

/** Every Markdown page of the current docs (versioned snapshots are frozen on purpose). */
export function docPages(dir: string = DOCS_DIR): DocPage[] {
  const files = (readdirSync(dir, {recursive: true}) as string[])
    .filter((file) => /\.mdx?$/.test(file))
    .sort()
    .map((file) => path.join(dir, file));
  return files.map((file) => readPage(file));
}

export function readPage(file: string): DocPage {
  const source = readFileSync(file, 'utf8');
  const page = path.relative(ROOT, file);
  const blocks: CodeBlock[] = [];
  const prose: ProseLine[] = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)\s*(.*)$/.exec(lines[i]);
    if (!open) {
      prose.push({line: i + 1, text: lines[i]});
      continue;
    }
    const [, indent, fence, lang, meta] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = lines[j].trim();
      if (close.startsWith(fence[0].repeat(fence.length)) && close.replace(/[`~]/g, '') === '') break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    const title = /title=(["'])(.*?)\1/.exec(meta)?.[2];
    blocks.push({page, line: i + 1, lang: lang.toLowerCase(), title, code: body.join('\n')});
    i = j;
  }
  const inlineCode = [
    ...prose
      .map(({text}) => text)
      .join('\n')
      .matchAll(/`([^`\n]+)`/g),
  ].map((match) => match[1]);
  return {file, source, blocks, inlineCode, prose};
}

/** `npm run <script>` and `npm start`/`npm test` named anywhere on a page. */
export function npmScriptsNamed(page: DocPage): string[] {
  const text = [...page.blocks.map((block) => block.code), ...page.inlineCode].join('\n');
  const named = new Set<string>();
  for (const match of text.matchAll(/\bnpm run ([\w:.-]+)/g)) named.add(match[1]);
  for (const match of text.matchAll(/\bnpm (start|test)\b/g)) named.add(match[1]);
  return [...named];
}

const REPO_PATH =
  /^(?:src|worker|static|docs|scripts|test)\/[\w./@[\]-]+$|^(?:\.env\.example|README\.md|package\.json|docusaurus\.config\.ts|sidebars\.ts|tsconfig\.json|firebase\.json)$/;

/** Inline code that names a file or folder of the repository. */
export function repoPathsNamed(page: DocPage): string[] {
  return [...new Set(page.inlineCode.map((code) => code.trim()).filter((code) => REPO_PATH.test(code)))];
}

/** Lines like `// ...` (or `# ...`, `-- ...`, `{/* ... *\/}`) stand for code left out of a quoted file. */
const ELISION = /^\s*(?:\/\/|#|--|\{?\/\*)\s*(?:\.\.\.|…).*$/;

/**
 * The parts of a block quoted from a real file that are missing from it.
 * A quote may leave code out with an elision line; every run of lines
 * between elisions must appear in the file as it is.
 */
export function missingFromFile(code: string, fileText: string): string[] {
  const normalise = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n');
  const file = normalise(fileText);
  const runs: string[][] = [[]];
  for (const line of code.split('\n')) {
    if (ELISION.test(line)) runs.push([]);
    else runs[runs.length - 1].push(line);
  }
  return runs
    .map((run) => normalise(run.join('\n')).replace(/^\n+|\n+$/g, ''))
    .filter((run) => run.trim() !== '' && !file.includes(run));
}

/** Variable names assigned in a .env-style block. */
export function envNames(code: string): string[] {
  return [...code.matchAll(/^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
}
