import {readdirSync} from 'node:fs';
import path from 'node:path';

/** The URL each built HTML file serves: `docs/features.html` is /docs/features, `index.html` its folder. */
export function builtUrls(dir: string): Set<string> {
  const files = (readdirSync(dir, {recursive: true}) as string[]).filter((file) => file.endsWith('.html'));
  return new Set(
    files.map((file) => {
      const url = `/${file.split(path.sep).join('/')}`.replace(/(\/index)?\.html$/, '');
      return url === '' ? '/' : url;
    }),
  );
}
