/**
 * What a map of the repository names: the files, folders, tests and code that `SECURITY.md`, the
 * README's tree, `test/README.md` and `worker/README.md` send a reader to, each with its line and
 * the repository path it means, so that a test can hold every name to the kit.
 *
 * A map names a path in three ways, and only these are read:
 * - inline code shaped like a path (`worker/src/access/grants/seat.ts`, `scripts/local/`, `SECURITY.md`);
 *   not a route (`/dashboard`), a URL, a package (`@octokit/fixtures`), a command or anything
 *   with a space, a variable (`WORKER_URL=/api`), a placeholder (`.env.<name>`), a media type or
 *   one of Firebase Auth's error codes (`auth/user-disabled`);
 * - the target of a Markdown link, read from the map's folder as Markdown reads it;
 * - a line of a tree (a code block with no language): its entry, and the file and folder names
 *   its description gives, which are inside that entry.
 * A test file followed by `›` names tests in it too (`SECURITY.md`'s `file › describe › test`), and
 * a file followed by names of code names code in it (`access/grants/records.ts` `refusalFor`).
 *
 * A path is read from the first of the map's folders (`bases`) that holds its first segment (from
 * the first of them when none does, and it is missing): the way `SECURITY.md` names the worker's
 * files from `worker/src/` (`access/grants/seat.ts`) and `worker/` (`migrations/`) and the rest from the
 * root. A bare file name the map has spelled out in full above it (`access.test.ts` after
 * `test/worker/access.test.ts`) is that file. A link or a `../` path is read from the map's folder.
 */
import path from 'node:path';
import {ROOT, readPage, type ProseLine} from './docsFacts';

const posix = path.posix;

export interface MapDocument {
  /** The map, from the repository root. */
  file: string;
  /** The folders its paths are read from, in order, from the repository root ('' is the root). */
  bases: string[];
}

/** What must be in the kit for a name to hold: a pattern's `*` matches one or more files, a `…` exactly one. */
export type Expect = 'file or folder' | 'folder' | 'some files' | 'one file';

export interface NamedPath {
  map: string;
  line: number;
  /** The name as the map writes it. */
  written: string;
  /** The repository path it means; a folder ends in `/`, a pattern keeps its `*` or `…`. */
  path: string;
  expect: Expect;
}

export interface NamedCode {
  map: string;
  line: number;
  /** The file, as the path it names resolved. */
  file: string;
  /** A name in it, as the map writes it (`refusalFor`, `limits.invitationResends`). */
  name: string;
}

export interface NamedTest {
  map: string;
  line: number;
  /** The test file, as the path it names resolved. */
  file: string;
  /** The title as the map quotes it, `describe › test` split into its levels. */
  levels: string[];
}

/** The kit's files, and the folders that hold them (each ending in `/`). */
export interface Kit {
  files: ReadonlySet<string>;
  folders: ReadonlySet<string>;
}

export function kitOf(files: readonly string[]): Kit {
  const folders = new Set<string>();
  for (const file of files)
    for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1)) folders.add(file.slice(0, at + 1));
  return {files: new Set(files), folders};
}

const EXTENSION =
  /\.(tsx?|jsx?|mjs|cjs|json|jsonc|mdx?|sql|css|ya?ml|toml|txt|xml|html|sh|png|svg|jpe?g|webp|ico|mp4|webm|zip)$/;
const MEDIA_TYPE = /^(application|audio|font|image|multipart|text|video)\/[\w.+-]+$/;
const FIREBASE_ERROR_CODE = /^auth\/[a-z]+(-[a-z]+)+$/;

/** Whether a name, as written, is a repository path (see the header for what is not). */
export function pathShaped(name: string): boolean {
  if (!/^[\w@.*…/-]+$/.test(name) || /^[/@-]/.test(name)) return false;
  if (MEDIA_TYPE.test(name) || FIREBASE_ERROR_CODE.test(name)) return false;
  return name.includes('/') || EXTENSION.test(name) || /^\.[\w.-]+$/.test(name);
}

function expectOf(name: string): Expect {
  if (name.includes('…')) return 'one file';
  if (name.includes('*')) return 'some files';
  return name.endsWith('/') ? 'folder' : 'file or folder';
}

/** A name found in the map, before it is read as a path. */
interface Mention {
  line: number;
  column: number;
  written: string;
  /** The folder a tree reads it from; a name outside a tree is read from the map's bases. */
  scope?: string;
  /** Titles quoted after a test file (`› …`), each split into its levels. */
  titles?: string[][];
  /** Names of code given right after the file, with nothing but spaces and commas between. */
  identifiers?: string[];
}

const TEST_FILE = /`([^`\s]+\.test\.tsx?)`/g;
/** Code a map names beside a file (`access/grants/records.ts` `refusalFor`, `rateLimit.ts` `limits.invitationResends`). */
const IDENTIFIER = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

/** The titles quoted after each test file of a line (or of each cell of a table row). */
function quotedTitles(text: string): Map<number, string[][]> {
  const titles = new Map<number, string[][]>();
  const cells = text.startsWith('|') ? text.split(/(?<!\\)\|/) : [text];
  let offset = 0;
  for (const cell of cells) {
    const files = [...cell.matchAll(TEST_FILE)];
    files.forEach((file, index) => {
      const rest = cell.slice(file.index + file[0].length, files[index + 1]?.index ?? cell.length);
      const quoted = rest
        .split(/;\s*(?=›)/)
        .map((part) => part.trim())
        .filter((part) => part.startsWith('›'))
        .map((part) =>
          part
            .replace(/^›\s*/, '')
            .replace(/[\s;,.]+$/, '')
            .split(/\s›\s/),
        );
      titles.set(offset + file.index, quoted);
    });
    offset += cell.length + 1;
  }
  return titles;
}

/**
 * The names of a paragraph (lines in a row, a table's included): inline code, which may run on to
 * the next line, and link targets, with the titles quoted after a test file. Inline code that is a
 * link's text (`[`test/README.md`](test/README.md)`) is that link.
 */
function proseMentions(paragraph: ProseLine[], own: string): Mention[] {
  const text = paragraph.map((line) => line.text).join('\n');
  const starts = paragraph.map((_, index) =>
    paragraph.slice(0, index).reduce((sum, line) => sum + line.text.length + 1, 0),
  );
  const at = (offset: number) => {
    const index = starts.filter((start) => start <= offset).length - 1;
    return {line: paragraph[index].line, column: offset - starts[index]};
  };
  const titles = new Map(
    paragraph.flatMap(({line, text: row}) =>
      [...quotedTitles(row)].map(([column, quoted]) => [`${line}:${column}`, quoted] as const),
    ),
  );
  const mentions: Mention[] = [];
  // The file the code spans just before named, while only spaces and commas come between.
  let file: Mention | undefined;
  let after = 0;
  for (const code of text.matchAll(/`([^`]+)`/g)) {
    const adjacent = /^[\s,]*$/.test(text.slice(after, code.index));
    after = code.index + code[0].length;
    if (file && adjacent && IDENTIFIER.test(code[1]) && !pathShaped(code[1])) {
      file.identifiers!.push(code[1]);
      continue;
    }
    file = undefined;
    const isLinkText = text[code.index - 1] === '[' && text.startsWith('](', after);
    if (!pathShaped(code[1]) || isLinkText) continue;
    const {line, column} = at(code.index);
    const mention: Mention = {line, column, written: code[1], titles: titles.get(`${line}:${column}`), identifiers: []};
    mentions.push(mention);
    file = mention;
  }
  for (const link of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = link[1].replace(/#.*$/, '');
    if (target === '' || /^[a-z][\w+.-]*:/i.test(target) || target.startsWith('/')) continue;
    mentions.push({...at(link.index), written: target, scope: own});
  }
  return mentions;
}

/** The prose of a page in paragraphs: lines that follow one another, up to a blank line or a code block. */
function paragraphs(prose: ProseLine[]): ProseLine[][] {
  const grouped: ProseLine[][] = [];
  for (const line of prose) {
    const last = grouped.at(-1);
    if (line.text.trim() === '') continue;
    if (last && last.at(-1)!.line === line.line - 1) last.push(line);
    else grouped.push([line]);
  }
  return grouped;
}

/**
 * The names of a tree: each entry (`path`, or `path, sibling`) from the map's folder, and the
 * names in its description inside the entry (inside the map's folder for a file entry). A
 * description line that starts with a folder (`landing/ the landing page's sections`) describes
 * that folder until the next; a folder followed by parentheses (`bench/ (site.ts, README.md)`)
 * holds the names inside them.
 */
function treeMentions(firstLine: number, code: string, own: string): Mention[] {
  const mentions: Mention[] = [];
  let entryScope = own;
  let lineScope = own;
  let parens: string[] = [];
  code.split('\n').forEach((text, index) => {
    const line = firstLine + index;
    if (text.trim() === '') return;
    let description = text;
    let column = 0;
    if (!/^\s/.test(text)) {
      const entry = /^(\S+?)((?:,\s*[^\s,]+)*)(?:\s+|$)/.exec(text);
      if (!entry || !pathShaped(entry[1])) return;
      parens = [];
      entryScope = entry[1].endsWith('/') ? posix.join(own, entry[1]) : own;
      lineScope = entryScope;
      mentions.push({line, column: 0, written: entry[1], scope: own});
      for (const sibling of entry[2]
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)) {
        mentions.push({
          line,
          column: text.indexOf(sibling),
          written: sibling,
          scope: posix.dirname(posix.join(own, entry[1])),
        });
      }
      column = entry[0].length;
      description = text.slice(column);
    }
    const tokens = [...description.matchAll(/[()]|[^\s()]+/g)];
    tokens.forEach((token, at) => {
      const opensParen = tokens[at + 1]?.[0] === '(';
      if (token[0] === '(') {
        const before = tokens[at - 1];
        const folder =
          before && before[0].endsWith('/') && pathShaped(before[0])
            ? posix.join(parens.at(-1) ?? lineScope, before[0])
            : undefined;
        parens.push(folder ?? parens.at(-1) ?? lineScope);
        return;
      }
      if (token[0] === ')') {
        parens.pop();
        return;
      }
      const name = token[0].replace(/[,;:.]+$/, '');
      if (!pathShaped(name)) return;
      const startsSubEntry = at === 0 && name.endsWith('/') && !opensParen && parens.length === 0;
      const scope = startsSubEntry ? entryScope : (parens.at(-1) ?? lineScope);
      mentions.push({line, column: column + token.index, written: name, scope});
      if (startsSubEntry) lineScope = posix.join(entryScope, name);
    });
  });
  return mentions;
}

/** Whether the kit has a file or folder at `at`. */
function holds(kit: Kit, at: string): boolean {
  return kit.files.has(at) || kit.folders.has(`${at}/`);
}

/** Everything `map` names, in the order it names it, read as repository paths. */
export function namesIn(map: MapDocument, kit: Kit): {paths: NamedPath[]; code: NamedCode[]; tests: NamedTest[]} {
  const page = readPage(path.join(ROOT, map.file));
  const own = posix.dirname(map.file) === '.' ? '' : posix.dirname(map.file);
  const mentions = [
    ...paragraphs(page.prose).flatMap((paragraph) => proseMentions(paragraph, own)),
    ...page.blocks
      .filter((block) => block.lang === '')
      .flatMap((block) => treeMentions(block.line + 1, block.code, own)),
  ].sort((a, b) => a.line - b.line || a.column - b.column);

  // Bare file names the map has spelled out in full, to the path it spelled.
  const spelled = new Map<string, string>();
  const paths: NamedPath[] = [];
  const code: NamedCode[] = [];
  const tests: NamedTest[] = [];
  for (const mention of mentions) {
    const name = mention.written.replace(/^\.\//, '');
    const bare = !name.replace(/\/$/, '').includes('/');
    let resolved: string;
    if (mention.scope !== undefined || name.startsWith('../')) {
      resolved = posix.join(mention.scope ?? own, name);
    } else if (bare && spelled.has(name)) {
      resolved = spelled.get(name)!;
    } else {
      const first = name.split('/')[0];
      const base = map.bases.find((folder) => holds(kit, posix.join(folder, first))) ?? map.bases[0];
      resolved = posix.join(base, name);
    }
    if (!bare && !name.endsWith('/') && !/[*…]/.test(name)) spelled.set(posix.basename(name), resolved);
    paths.push({map: map.file, line: mention.line, written: mention.written, path: resolved, expect: expectOf(name)});
    for (const levels of mention.titles ?? []) tests.push({map: map.file, line: mention.line, file: resolved, levels});
    for (const name of mention.identifiers ?? []) code.push({map: map.file, line: mention.line, file: resolved, name});
  }
  return {paths, code, tests};
}
