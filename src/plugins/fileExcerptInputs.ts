import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import remarkFileExcerpt from '../buildTime/remarkFileExcerpt';

/** The folders the docs plugin compiles: the current docs and every frozen version. */
const CONTENT_DIRS = ['docs', 'versioned_docs'];

/**
 * Every file a docs page quotes with `<FileExcerpt file="…">`, as absolute paths. Read from the
 * pages' text: the tag ends at `/>`, and its `file` attribute is a plain string (the remark
 * plugin refuses anything else).
 */
export function quotedFiles(siteDir: string, contentDirs: readonly string[] = CONTENT_DIRS): string[] {
  const files = new Set<string>();
  for (const dir of contentDirs) {
    let entries: string[];
    try {
      entries = readdirSync(path.join(siteDir, dir), {recursive: true, encoding: 'utf8'});
    } catch {
      continue; // No frozen version yet: nothing to read there.
    }
    for (const entry of entries.filter((name) => /\.mdx?$/i.test(name))) {
      const text = readFileSync(path.join(siteDir, dir, entry), 'utf8');
      for (const [tag] of text.matchAll(/<FileExcerpt\b[\s\S]*?\/>/g)) {
        const file = /\bfile=(["'])(.+?)\1/.exec(tag)?.[2];
        if (file) files.add(path.resolve(siteDir, file));
      }
    }
  }
  return [...files].sort();
}

interface LoaderItem {
  options?: {remarkPlugins?: unknown[]; dependencies?: string[]};
}
interface Rule {
  use?: unknown;
}

/**
 * The quoted files become inputs of every docs page, so that a page compiled again (under
 * `npm start`, or from the bundler's persistent cache in a second build) never keeps an old quote
 * after `src/config/app.ts` changes. The remark plugin reads them where the bundler cannot see;
 * the docs plugin's MDX loader takes `dependencies` for this, and this plugin adds to that list.
 * A file first quoted while `npm start` runs is tracked from the next start.
 */
export default function fileExcerptInputs(context: {siteDir: string}): Plugin {
  return {
    name: 'file-excerpt-inputs',
    configureWebpack(config) {
      const dependencies = quotedFiles(context.siteDir);
      const loaders = (config.module?.rules ?? [])
        .flatMap((rule) =>
          rule && typeof rule === 'object' && Array.isArray((rule as Rule).use)
            ? ((rule as Rule).use as unknown[])
            : [],
        )
        .filter((item): item is LoaderItem => !!item && typeof item === 'object')
        .filter((item) =>
          item.options?.remarkPlugins?.some(
            (plugin) => (Array.isArray(plugin) ? plugin[0] : plugin) === remarkFileExcerpt,
          ),
        );
      // Fail closed: without the rule, quotes could go stale silently.
      if (loaders.length === 0)
        throw new Error(
          "file-excerpt-inputs: no MDX loader runs remarkFileExcerpt, so the files docs pages quote cannot be made their inputs. Keep it in the docs preset's remarkPlugins.",
        );
      for (const item of loaders) {
        item.options!.dependencies = [...new Set([...(item.options!.dependencies ?? []), ...dependencies])];
      }
      return {};
    },
  };
}
