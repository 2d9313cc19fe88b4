/**
 * Starts the pixel, analytics and chat the settings name, and tells them about each completed
 * navigation. src/clientModules/tracking.ts loads this only where one of them is configured, so a
 * site without them sends none of their code.
 */
import {appConfig} from '../../config';
import type {SiteSettings} from '../../buildTime/siteSettings';
import {initAnalytics} from './analytics';
import {initCrisp, updateChatVisibility} from './crisp';
import {initPixel, trackPageView} from './pixel';

export function startTracking(settings: SiteSettings): void {
  initPixel(settings.metaPixelId);
  initAnalytics(settings.gaMeasurementId);
  initCrisp(settings.crispWebsiteId, appConfig.crisp.onlyShowOnRoutes);
}

export function trackNavigation(url: string, pathname: string): void {
  trackPageView(url);
  updateChatVisibility(pathname);
}
