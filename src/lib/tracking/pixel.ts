import {loadScript} from './loadScript';
import {THIRD_PARTY_SCRIPTS} from './thirdParty';

/** The Meta pixel's command queue, as its official snippet defines it. */
type Fbq = ((...args: unknown[]) => void) & {
  callMethod?: (...args: unknown[]) => void;
  queue: unknown[][];
  push: Fbq;
  loaded: boolean;
  version: string;
};

declare global {
  interface Window {
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

export const PIXEL_SCRIPT = THIRD_PARTY_SCRIPTS.metaPixel.src;

/** Starts the pixel; with no id it does nothing and nothing is fetched. */
export function initPixel(pixelId: string): void {
  if (!pixelId || window.fbq) return;
  const fbq = function (...args: unknown[]) {
    if (fbq.callMethod) fbq.callMethod(...args);
    else fbq.queue.push(args);
  } as Fbq;
  fbq.queue = [];
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = '2.0';
  window.fbq = fbq;
  window._fbq = fbq;
  loadScript(PIXEL_SCRIPT);
  fbq('init', pixelId);
}

export function trackPageView(url: string): void {
  window.fbq?.('track', 'PageView', {url});
}

export function trackCheckoutClicked(): void {
  window.fbq?.('trackCustom', 'CheckoutButtonClicked');
}
