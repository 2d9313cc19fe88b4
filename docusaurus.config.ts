import path from 'node:path';
import {config as loadEnv} from 'dotenv';
import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import {appConfig, ROUTES} from './src/config';
import {GENERATED_STATIC_DIR} from './src/buildTime/generatedStatic';
import {parseSiteSettings} from './src/buildTime/siteSettings';
import {SITEMAP_IGNORED, sitemapPriority} from './src/seo/searchEngineFiles';
import {siteUrl} from './src/seo/siteUrl';
import {writeStaticFiles} from './src/seo/writeStaticFiles';
import bundleName from './src/plugins/bundleName';
import checkoutSessionGuard from './src/plugins/checkoutSessionGuard';
import contentSecurityPolicy from './src/plugins/contentSecurityPolicy';
import docsColorMode from './src/plugins/docsColorMode';
import inOrder from './src/plugins/inOrder';
import llmsTxt from './src/plugins/llmsTxt';
import paintFirst from './src/plugins/paintFirst';
import prismOnDemand from './src/plugins/prismOnDemand';
import signedInHint from './src/plugins/signedInHint';
import clientOnlyStyles from './src/plugins/clientOnlyStyles';
import workerProxy from './src/plugins/workerProxy';
import devServerCache from './src/plugins/devServerCache';
import docsSearch from './src/plugins/docsSearch';
import emulatorBuildNotice from './src/plugins/emulatorBuildNotice';
import utilsCommonWithoutTslib from './src/plugins/utilsCommonWithoutTslib';
import reactUtilsWithoutCollator from './src/plugins/reactUtilsWithoutCollator';
import prefetchWhenIdle from './src/plugins/prefetchWhenIdle';
import routeInItsOwnTask from './src/plugins/routeInItsOwnTask';
import browserSiteConfig from './src/plugins/browserSiteConfig';
import docsVersionSlim from './src/plugins/docsVersionSlim';
import lightProgressBar from './src/plugins/lightProgressBar';
import {docsCodeTheme} from './src/buildTime/codeTheme';
import remarkFileExcerpt from './src/buildTime/remarkFileExcerpt';
import fileExcerptInputs from './src/plugins/fileExcerptInputs';
import packageJson from './package.json';

// The root .env holds the site's public settings; the shell's own variables win.
loadEnv({path: path.join(__dirname, '.env'), quiet: true});
const siteSettings = parseSiteSettings(process.env);

const config = {
  title: appConfig.appName,
  tagline: appConfig.appDescription,
  favicon: 'favicon.ico',
  url: siteUrl,
  baseUrl: '/',
  trailingSlash: false,

  future: {
    // Docusaurus v4's defaults, but for CSS cascade layers: their build-time
    // polyfill raises Infima above the site's own CSS modules.
    v4: {
      removeLegacyPostBuildHeadAttribute: true,
      useCssCascadeLayers: false,
      siteStorageNamespacing: true,
      fasterByDefault: true,
      mdx1CompatDisabledByDefault: true,
    },
  },

  onBrokenLinks: 'throw',
  onBrokenAnchors: 'throw',
  onDuplicateRoutes: 'throw',
  markdown: {
    hooks: {onBrokenMarkdownLinks: 'throw'},
  },

  i18n: {
    defaultLocale: 'en',
    locales: ['en'],
  },

  customFields: {
    siteSettings,
  },

  // robots.txt and the manifest are written from the config, so the domain and name are typed once.
  staticDirectories: ['static', writeStaticFiles(GENERATED_STATIC_DIR)],

  // The referral first: it takes `via` out of the address before tracking reports the page.
  clientModules: [
    './src/clientModules/affiliateReferral.ts',
    './src/clientModules/tracking.ts',
    './src/clientModules/hashOnClientDraw.ts',
  ],

  plugins: [
    // First: its <head> script must run before any other script reads the address.
    checkoutSessionGuard,
    // Before the body is painted: a signed-in browser never shows the header's "Login" for a moment.
    signedInHint,
    docsColorMode(ROUTES.docs),
    llmsTxt,
    // The built pages paint before the bundles run; then their Content-Security-Policy is written
    // (build/_headers) with the hashes of the inline scripts as paintFirst leaves them.
    inOrder('built-pages', paintFirst, () => contentSecurityPolicy(siteSettings)),
    prismOnDemand,
    clientOnlyStyles,
    workerProxy,
    devServerCache,
    docsSearch,
    utilsCommonWithoutTslib,
    reactUtilsWithoutCollator,
    browserSiteConfig,
    docsVersionSlim,
    // The files docs pages quote (<FileExcerpt>) are inputs of those pages, so a quote never goes stale.
    fileExcerptInputs,
    lightProgressBar,
    prefetchWhenIdle,
    routeInItsOwnTask,
    bundleName,
    () => emulatorBuildNotice(siteSettings),
  ],

  themes: [
    [
      // Offline full-text search, indexed at build time; one index per docs version. Its ranking
      // and its no-result message are src/plugins/docsSearch's.
      '@easyops-cn/docusaurus-search-local',
      {
        hashed: true,
        indexDocs: true,
        indexPages: false,
        indexBlog: false,
        docsRouteBasePath: ROUTES.docs,
        highlightSearchTermsOnTargetPage: true,
        searchResultLimits: 8,
        // A component page's live preview is the landing page's copy, not the docs' words.
        ignoreCssSelectors: ['section[aria-label^="Live preview"]'],
        searchBarShortcutKeymap: 'mod+k',
      },
    ],
  ],

  headTags: [
    // The same credentials mode on both, or the browser fetches the manifest twice.
    {tagName: 'link', attributes: {rel: 'manifest', href: '/manifest.webmanifest', crossorigin: 'use-credentials'}},
    {
      tagName: 'link',
      attributes: {rel: 'preload', href: '/manifest.webmanifest', as: 'fetch', crossorigin: 'use-credentials'},
    },
    {tagName: 'link', attributes: {rel: 'preload', href: '/img/logo.png', as: 'image'}},
    {tagName: 'link', attributes: {rel: 'preload', href: '/img/opengraph-image.jpg', as: 'image'}},
    {tagName: 'link', attributes: {rel: 'icon', type: 'image/png', sizes: '512x512', href: '/img/icon.png'}},
    {tagName: 'link', attributes: {rel: 'apple-touch-icon', sizes: '180x180', href: '/img/apple-icon.png'}},
    {tagName: 'meta', attributes: {name: 'theme-color', content: appConfig.themeColor}},
  ],

  presets: [
    [
      'classic',
      {
        docs: {
          sidebarPath: './sidebars.ts',
          remarkPlugins: [[remarkFileExcerpt, {siteDir: __dirname}]],
          lastVersion: 'current',
          versions: {
            current: {label: `${packageJson.version.split('.').slice(0, 2).join('.')} (current)`},
          },
        },
        blog: false,
        theme: {
          customCss: './src/css/custom.css',
        },
        sitemap: {
          ignorePatterns: SITEMAP_IGNORED,
          createSitemapItems: async ({defaultCreateSitemapItems, ...params}) => {
            const items = await defaultCreateSitemapItems(params);
            return items.flatMap((item) => {
              const priority = sitemapPriority(item.url);
              return priority === null ? [] : [{...item, priority}];
            });
          },
        },
      } satisfies Preset.Options,
    ],
  ],

  themeConfig: {
    image: 'img/opengraph-image.jpg',
    metadata: [
      {
        name: 'keywords',
        content: 'SaaS boilerplate, starter kit, Docusaurus, Stripe, Firebase, Supabase, Cloudflare Workers',
      },
      {name: 'twitter:card', content: 'summary_large_image'},
      {property: 'og:type', content: 'website'},
      {property: 'og:site_name', content: appConfig.appName},
      {property: 'og:image:width', content: '1200'},
      {property: 'og:image:height', content: '660'},
      {property: 'og:image:alt', content: `${appConfig.appName}: ${appConfig.appDescription}`},
    ],
    colorMode: {
      defaultMode: 'light',
      disableSwitch: true,
      respectPrefersColorScheme: false,
    },
    navbar: {
      title: appConfig.appName,
      logo: {
        alt: `${appConfig.appName} logo`,
        src: 'img/logo.png',
        width: 32,
        height: 32,
      },
      items: [
        {type: 'docSidebar', sidebarId: 'docs', position: 'left', label: 'Docs'},
        {to: '/#pricing', label: 'Pricing', position: 'left'},
        {type: 'docsVersionDropdown', position: 'right'},
        {type: 'search', position: 'right'},
        {to: appConfig.auth.loginUrl, label: 'Login', position: 'right'},
      ],
    },
    footer: {
      style: 'light',
      links: [
        {
          title: appConfig.appName,
          items: [
            {label: 'Home', to: '/'},
            {label: 'Pricing', to: '/#pricing'},
          ],
        },
        {
          title: 'Legal',
          items: [
            {label: 'Terms of Service', to: ROUTES.terms},
            {label: 'Privacy Policy', to: ROUTES.privacy},
          ],
        },
      ],
      copyright: `Copyright © ${new Date().getFullYear()} ${appConfig.appName}.`,
    },
    prism: {
      // One theme: code only shows in the docs, which are always dark, and with one theme the
      // server's highlighted HTML is already right (src/theme/CodeBlock keeps it as it is).
      theme: docsCodeTheme,
      // The docs' shell and diff blocks. Never leave this empty: Docusaurus then
      // bundles Prism's whole language loader (~9 KB gzipped).
      additionalLanguages: ['bash', 'diff'],
    },
  } satisfies Preset.ThemeConfig,
} satisfies Config;

export default config;
