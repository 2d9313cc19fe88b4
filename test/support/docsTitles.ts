/**
 * The title each page of the current docs shows (its front matter `title`), by docs URL: what the
 * search bar names a suggestion's page with.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {DOCS_DIR} from './docsFacts';
import {DOCS_URLS} from './docsStructure';

/** The Markdown file behind a docs URL: `/docs` is get-started, a section's URL its index. */
export function docFile(url: string): string {
  const rest = url.replace(/^\/docs\/?/, '');
  if (rest === '') return path.join(DOCS_DIR, 'get-started.mdx');
  const index = path.join(DOCS_DIR, rest, 'index.mdx');
  return existsSync(index) ? index : path.join(DOCS_DIR, `${rest}.mdx`);
}

/** The front matter's `title`, without quotes. */
export function docTitle(url: string): string {
  const source = readFileSync(docFile(url), 'utf8');
  const frontMatter = /^---\n([\s\S]*?)\n---/.exec(source)?.[1] ?? '';
  const title = /^title:\s*(.+)$/m.exec(frontMatter)?.[1].trim();
  if (!title) throw new Error(`${docFile(url)} has no title in its front matter.`);
  return title.replace(/^(["'])(.*)\1$/, '$2');
}

/** Every current docs URL with its title. */
export function docsTitles(): Map<string, string> {
  return new Map(DOCS_URLS.map((url) => [url, docTitle(url)]));
}
