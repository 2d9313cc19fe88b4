import {z} from 'zod';
import {appConfig, FUNNEL_WORDS} from '../../../src/config';
import type {AdminFunnel, SalesPeriod} from '../../../src/config/api';
import {log} from '../log';
import type {Settings} from '../settings';
import type {Span} from './sales';

/**
 * The funnel's first figure: the site's unique visitors, from Plausible's Stats API (v2, `POST
 * /api/v2/query`), for the site the script counts (`data-domain`, the config's domain). Only with
 * PLAUSIBLE_API_KEY: without it, or when Plausible does not answer, the funnel starts at checkout
 * and says why. The key stays on the worker; the console reads the figure.
 */

/** Plausible's answer, as far as the worker reads it: one row, its first metric the visitors. */
const answer = z.object({results: z.array(z.object({metrics: z.array(z.number())}).loose())}).loose();

/** A moment as Plausible's `date_range` takes it, with its offset: `2026-12-01T00:00:00Z`. */
const moment = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The span as Plausible's `date_range` takes it: its first and last moments, or all time. Moments,
 * not days: Plausible reads bare days in the site's own time zone, and the other figures are UTC.
 */
function dateRange(span: Span, period: SalesPeriod): string | [string, string] {
  return period === 'all' ? 'all' : [moment(span.from), moment(span.to - 1)];
}

/** Plausible's visitors for a span, or why there is no figure. */
async function visitorsIn(settings: Settings, key: string, range: string | [string, string]): Promise<number> {
  const url = `${settings.PLAUSIBLE_HOST.replace(/\/$/, '')}/api/v2/query`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json'},
      body: JSON.stringify({site_id: appConfig.domainName, metrics: ['visitors'], date_range: range}),
      signal: AbortSignal.timeout(5000),
    });
  } catch (err) {
    throw new Error(FUNNEL_WORDS.unreachable(err instanceof Error ? err.name : 'error'), {cause: err});
  }
  if (!response.ok) {
    log.warn('funnel.plausible_refused', {status: response.status, body: (await response.text()).slice(0, 200)});
    throw new Error(
      response.status === 401 || response.status === 403
        ? FUNNEL_WORDS.keyRefused(response.status)
        : response.status === 429
          ? FUNNEL_WORDS.hourlyLimit
          : response.status === 402
            ? FUNNEL_WORDS.noStatsApi
            : FUNNEL_WORDS.answered(response.status),
    );
  }
  const parsed = answer.safeParse(await response.json().catch(() => null));
  const visitors = parsed.success ? parsed.data.results[0]?.metrics[0] : undefined;
  if (visitors === undefined) throw new Error(FUNNEL_WORDS.noCount);
  return visitors;
}

export async function plausibleVisitors(
  settings: Settings,
  period: SalesPeriod,
  spans: {now: Span; before: Span | null},
): Promise<AdminFunnel['visitors']> {
  const key = settings.PLAUSIBLE_API_KEY;
  if (!key) return {source: 'none', why: FUNNEL_WORDS.noKey};
  try {
    const [now, before] = await Promise.all([
      visitorsIn(settings, key, dateRange(spans.now, period)),
      spans.before ? visitorsIn(settings, key, dateRange(spans.before, period)) : null,
    ]);
    return {source: 'plausible', now, before};
  } catch (err) {
    return {source: 'none', why: (err as Error).message};
  }
}
