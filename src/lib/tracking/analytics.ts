import {loadScript} from './loadScript';
import {THIRD_PARTY_SCRIPTS} from './thirdParty';

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

export type VitalName = 'LCP' | 'CLS' | 'INP' | 'PageLoadTime';

export interface WebVitalEvent {
  event_category: 'Web Vitals';
  event_label: VitalName;
  value: number;
  non_interaction: true;
}

/**
 * The event Google Analytics receives. CLS is a unitless fraction, so it is
 * scaled by 1000 before rounding, as Google's web-vitals guide advises;
 * the others are milliseconds.
 */
export function webVitalEvent(name: VitalName, value: number): WebVitalEvent {
  return {
    event_category: 'Web Vitals',
    event_label: name,
    value: Math.round(name === 'CLS' ? value * 1000 : value),
    non_interaction: true,
  };
}

function sendVital(name: VitalName, value: number): void {
  window.gtag?.('event', 'web_vitals', webVitalEvent(name, value));
}

function reportPageLoadTime(): void {
  const [navigation] = (performance.getEntriesByType?.('navigation') ?? []) as PerformanceNavigationTiming[];
  if (navigation && navigation.loadEventEnd > 0) sendVital('PageLoadTime', navigation.loadEventEnd);
}

/** Starts Google Analytics and web-vitals reporting; with no id it does nothing and nothing is fetched. */
export function initAnalytics(measurementId: string): void {
  if (!measurementId || typeof window.gtag === 'function') return;
  window.dataLayer = window.dataLayer ?? [];
  // gtag.js reads Arguments objects from the data layer, not arrays.
  window.gtag = function gtag() {
    // eslint-disable-next-line prefer-rest-params
    window.dataLayer!.push(arguments);
  };
  window.gtag('js', new Date());
  window.gtag('config', measurementId);
  loadScript(`${THIRD_PARTY_SCRIPTS.googleAnalytics.src}?id=${encodeURIComponent(measurementId)}`);

  // web-vitals loads only here, so a site without analytics never downloads it.
  void import('web-vitals').then(({onCLS, onINP, onLCP}) => {
    onCLS((metric) => sendVital('CLS', metric.value));
    onINP((metric) => sendVital('INP', metric.value));
    onLCP((metric) => sendVital('LCP', metric.value));
  });
  if (document.readyState === 'complete') setTimeout(reportPageLoadTime, 0);
  else window.addEventListener('load', () => setTimeout(reportPageLoadTime, 0), {once: true});
}
