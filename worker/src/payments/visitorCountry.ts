import {isLoopbackHost} from '../address';
import {settingsOf} from '../settings';

/**
 * The visitor's country as Cloudflare saw the connection (`request.cf.country`, ISO 3166-1 alpha-2),
 * or null when it is not known (`XX`, Tor's `T1`, no `cf` at all). Never from anything the browser
 * sends: a body, a header or a cookie would let anyone name a cheaper country.
 *
 * On a developer's machine (`wrangler dev`) there is no real country: in emulator mode, which
 * answers only requests made on this machine (settings.ts), DEV_VISITOR_COUNTRY stands in for it.
 */
export function visitorCountry(env: Env, request: Request): string | null {
  const settings = settingsOf(env);
  if (
    settings.DEV_VISITOR_COUNTRY &&
    settings.FIREBASE_AUTH_EMULATOR_HOST &&
    isLoopbackHost(new URL(request.url).hostname)
  ) {
    return settings.DEV_VISITOR_COUNTRY.toUpperCase();
  }
  const country = (request as {cf?: {country?: unknown}}).cf?.country;
  return typeof country === 'string' && /^[A-Z]{2}$/.test(country) && country !== 'XX' ? country : null;
}
