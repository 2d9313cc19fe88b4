import type {SiteSettings} from '../../buildTime/siteSettings';

/**
 * The third-party scripts the site can load, and the hosts each one loads its code from: the
 * browser code takes the script's address from here, and the build (src/plugins/contentSecurityPolicy.ts)
 * allows exactly these hosts in `script-src`. Plain data, no DOM: both read it.
 *
 * - The Meta pixel's fbevents.js loads its configuration from the same host.
 * - gtag.js: Google's Tag Platform CSP guide names `https://*.googletagmanager.com` for GA4.
 * - Crisp: l.js, then its client and settings scripts (Crisp's CSP guide).
 * - Google sign-in with Firebase: the popup resolver loads Google's gapi from apis.google.com
 *   (src/lib/auth/firebase.ts). It is the sign-in's, not tracking's.
 */
export const THIRD_PARTY_SCRIPTS = {
  metaPixel: {src: 'https://connect.facebook.net/en_US/fbevents.js', hosts: ['https://connect.facebook.net']},
  googleAnalytics: {src: 'https://www.googletagmanager.com/gtag/js', hosts: ['https://*.googletagmanager.com']},
  crisp: {src: 'https://client.crisp.chat/l.js', hosts: ['https://client.crisp.chat', 'https://settings.crisp.chat']},
  firebaseGoogleSignIn: {hosts: ['https://apis.google.com']},
} as const;

type TrackingIds = Pick<SiteSettings, 'metaPixelId' | 'gaMeasurementId' | 'crispWebsiteId'>;

/** The hosts of the tracking and chat services whose id is set. */
export function trackingScriptHosts(settings: TrackingIds): string[] {
  return [
    ...(settings.metaPixelId ? THIRD_PARTY_SCRIPTS.metaPixel.hosts : []),
    ...(settings.gaMeasurementId ? THIRD_PARTY_SCRIPTS.googleAnalytics.hosts : []),
    ...(settings.crispWebsiteId ? THIRD_PARTY_SCRIPTS.crisp.hosts : []),
  ];
}

/**
 * Whether the pages load another party's script: a tracking or chat service whose id is set, or a
 * `scripts` entry of docusaurus.config.ts (the docs' Plausible). Only then do the pages that hold
 * a token need documents of their own (tokenPageBoundary.ts).
 */
export function loadsThirdPartyScripts(settings: TrackingIds, configScripts: readonly unknown[] = []): boolean {
  return trackingScriptHosts(settings).length > 0 || configScripts.length > 0;
}
