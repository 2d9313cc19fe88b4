import {
  siAnthropic,
  siCloudflare,
  siFirebase,
  siMailgun,
  siPlausibleanalytics,
  siStripe,
  siTailwindcss,
  type SimpleIcon,
} from 'simple-icons';
import type {Integration} from '../../../config';

/** Named imports only, so the bundle carries these seven paths and not the whole icon set. */
export const integrationIcons: Record<Integration['icon'], SimpleIcon> = {
  anthropic: siAnthropic,
  tailwindcss: siTailwindcss,
  stripe: siStripe,
  cloudflare: siCloudflare,
  firebase: siFirebase,
  plausibleanalytics: siPlausibleanalytics,
  mailgun: siMailgun,
};
