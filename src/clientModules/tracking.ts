/**
 * Starts the pixel, analytics and chat once in the browser, and tells them
 * about every completed navigation. Each is off until its id is in `.env`.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import siteConfig from '@generated/docusaurus.config';
import type {Location} from 'history';
import {appConfig} from '../config';
import type {SiteSettings} from '../buildTime/siteSettings';
import {initAnalytics} from '../lib/tracking/analytics';
import {initCrisp, updateChatVisibility} from '../lib/tracking/crisp';
import {initPixel, trackPageView} from '../lib/tracking/pixel';

const settings = siteConfig.customFields!.siteSettings as SiteSettings;

if (ExecutionEnvironment.canUseDOM) {
  initPixel(settings.metaPixelId);
  initAnalytics(settings.gaMeasurementId);
  initCrisp(settings.crispWebsiteId, appConfig.crisp.onlyShowOnRoutes);
}

export function onRouteDidUpdate({location}: {location: Location}): void {
  trackPageView(window.location.href);
  updateChatVisibility(location.pathname);
}
