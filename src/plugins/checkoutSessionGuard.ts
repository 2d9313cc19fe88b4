import type {Plugin} from '@docusaurus/types';
import {checkoutSessionScript} from '../lib/checkoutSession';

/**
 * Takes Stripe's `?sessionId=` out of the address bar with an inline script at the top of <head>.
 * It runs while the page is parsed, before any other script (the site's bundle, which runs after
 * the first paint, the router, tracking, or a `scripts` entry such as Plausible's), so none of them
 * sees the id.
 */
export default function checkoutSessionGuard(): Plugin {
  return {
    name: 'checkout-session-guard',
    injectHtmlTags() {
      return {headTags: [{tagName: 'script', innerHTML: checkoutSessionScript()}]};
    },
  };
}
