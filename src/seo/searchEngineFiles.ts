/**
 * Contents of the files search engines and browsers read: robots.txt,
 * the sitemap's priorities and the web app manifest. Pure functions of the
 * config, so tests read exactly what the build writes.
 */
import {appConfig, ROUTES} from '../config';
import {siteUrl} from './siteUrl';

/** Paths crawlers are asked to stay out of. */
export const DISALLOWED_PATHS = ['/dashboard/', '/admin/'] as const;

export function robotsTxt(origin: string = siteUrl): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    'Crawl-delay: 1',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

/** §9: home 1.0, dashboard 0.8, success 0.5, legal 0.3; docs pages 0.6. */
const PRIORITIES: Record<string, number> = {
  [ROUTES.home]: 1.0,
  [ROUTES.dashboard]: 0.8,
  [ROUTES.success]: 0.5,
  [ROUTES.terms]: 0.3,
  [ROUTES.privacy]: 0.3,
};

export const DOCS_PRIORITY = 0.6;

/** Routes that exist but have no place in a search index. */
export const SITEMAP_IGNORED = [
  ROUTES.error,
  ROUTES.signIn,
  ROUTES.finishSignIn,
  ROUTES.newPassword,
  ROUTES.admin,
  '/search',
  `${ROUTES.docs}/tags/**`,
];

export function sitemapPriority(url: string): number | null {
  const {pathname} = new URL(url, siteUrl);
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path in PRIORITIES) return PRIORITIES[path];
  if (path === ROUTES.docs || path.startsWith(`${ROUTES.docs}/`)) return DOCS_PRIORITY;
  return null;
}

export function webManifest() {
  return {
    name: appConfig.appName,
    short_name: appConfig.appName,
    description: appConfig.appDescription,
    start_url: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: appConfig.themeColor,
    icons: [
      {src: '/img/icon.png', sizes: '512x512', type: 'image/png', purpose: 'any'},
      {src: '/img/apple-icon.png', sizes: '180x180', type: 'image/png'},
    ],
  };
}
