import {readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {siteUrl as productionUrl} from '../../src/seo/siteUrl';
import versions from '../../versions.json';

/** Every file of a build, as the URL path that serves it as is: `/img/logo.png`, `/docs/features.html`. */
export function builtFiles(dir: string): string[] {
  return (readdirSync(dir, {recursive: true}) as string[])
    .filter((file) => statSync(path.join(dir, file)).isFile())
    .map((file) => `/${file.split(path.sep).join('/')}`);
}

/** The URL a built HTML file serves: `docs/features.html` is /docs/features, `index.html` its folder. */
function pageUrl(file: string): string {
  const url = file.replace(/(\/index)?\.html$/, '');
  return url === '' ? '/' : url;
}

/** Every built HTML page: its file (absolute) and the URL it serves. */
export function builtPages(dir: string): {file: string; url: string}[] {
  return builtFiles(dir)
    .filter((file) => file.endsWith('.html'))
    .map((file) => ({file: path.join(dir, file), url: pageUrl(file)}));
}

/** The URL each built HTML file serves. */
export function builtUrls(dir: string): Set<string> {
  return new Set(builtPages(dir).map((page) => page.url));
}

/** The paths the built sitemap.xml lists, in its order: what search engines are asked to read. */
export function sitemapPaths(dir: string): string[] {
  const xml = readFileSync(path.join(dir, 'sitemap.xml'), 'utf8');
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => {
    const url = new URL(match[1]);
    if (url.origin !== productionUrl) throw new Error(`sitemap.xml lists ${match[1]}, outside ${productionUrl}`);
    return url.pathname;
  });
}

/** The frozen docs version (versions.json) a page belongs to: `/docs/1.0` and all under it are 1.0's. */
export function frozenVersionOf(url: string): string | undefined {
  return versions.find((version) => url === `/docs/${version}` || url.startsWith(`/docs/${version}/`));
}
