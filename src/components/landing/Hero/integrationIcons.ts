import {
  siCloudflare,
  siFirebase,
  siGithub,
  siMailgun,
  siPlausibleanalytics,
  siStripe,
  siSupabase,
  type SimpleIcon,
} from 'simple-icons';
import type {Integration} from '../../../config';

/** Named imports only, so the bundle carries these seven paths and not the whole icon set. */
export const integrationIcons: Record<Integration['icon'], SimpleIcon> = {
  stripe: siStripe,
  cloudflare: siCloudflare,
  firebase: siFirebase,
  supabase: siSupabase,
  github: siGithub,
  plausibleanalytics: siPlausibleanalytics,
  mailgun: siMailgun,
};
