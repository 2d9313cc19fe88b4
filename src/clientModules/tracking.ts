/**
 * Starts the pixel, analytics and chat once in the browser, and tells them
 * about every completed navigation. Each is off until its id is in `.env`;
 * their code (src/lib/tracking/start.ts) is fetched only when one is on, so
 * a site without them sends none of it. None starts in a document that
 * opened on a page that holds a token (TOKEN_PAGES): while tracking is on,
 * such a document never shows another page without a full load
 * (src/lib/tracking/tokenPageBoundary.ts).
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import siteConfig from '@generated/docusaurus.config';
import type {Location} from 'history';
import {isTokenPage} from '../config/links';
import type {SiteSettings} from '../buildTime/siteSettings';

const settings = siteConfig.customFields!.siteSettings as SiteSettings;
const configured = Boolean(settings.metaPixelId || settings.gaMeasurementId || settings.crispWebsiteId);

const tracking =
  ExecutionEnvironment.canUseDOM && configured && !isTokenPage(window.location.pathname)
    ? import('../lib/tracking/start')
        .then((start) => {
          start.startTracking(settings);
          return start;
        })
        // A chunk that cannot load (a tab left open across a deploy) leaves the page untracked, not erroring on every navigation.
        .catch(() => null)
    : null;

export function onRouteDidUpdate({location}: {location: Location}): void {
  const url = window.location.href;
  void tracking?.then((start) => start?.trackNavigation(url, location.pathname));
}
