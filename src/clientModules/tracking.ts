/**
 * Starts the pixel, analytics and chat once in the browser, and tells them
 * about every completed navigation. Each is off until its id is in `.env`,
 * and none starts in a document that opened on a page that holds a token
 * (TOKEN_PAGES): while tracking is on, such a document never shows another
 * page without a full load (src/lib/tracking/tokenPageBoundary.ts).
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import siteConfig from '@generated/docusaurus.config';
import type {Location} from 'history';
import {appConfig, isTokenPage} from '../config';
import type {SiteSettings} from '../buildTime/siteSettings';
import {initAnalytics} from '../lib/tracking/analytics';
import {initCrisp, updateChatVisibility} from '../lib/tracking/crisp';
import {initPixel, trackPageView} from '../lib/tracking/pixel';

const settings = siteConfig.customFields!.siteSettings as SiteSettings;

if (ExecutionEnvironment.canUseDOM && !isTokenPage(window.location.pathname)) {
  initPixel(settings.metaPixelId);
  initAnalytics(settings.gaMeasurementId);
  initCrisp(settings.crispWebsiteId, appConfig.crisp.onlyShowOnRoutes);
}

export function onRouteDidUpdate({location}: {location: Location}): void {
  trackPageView(window.location.href);
  updateChatVisibility(location.pathname);
}
