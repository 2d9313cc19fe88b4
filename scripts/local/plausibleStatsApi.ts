import http from 'node:http';
import {listen} from '../support/listen';

/**
 * A stand-in for Plausible's Stats API v2 (`POST /api/v2/query`), for the console's funnel: there
 * is no offline Plausible to ask. As Plausible documents it: a Bearer key, a JSON body with
 * `site_id`, `metrics` and `date_range` (a shortcut such as "all", or its first and last days or
 * moments, ISO 8601 with an offset), and an
 * answer `{results: [{metrics, dimensions}], meta, query}` with the metrics in the order asked. A
 * wrong key or site is 401, a malformed query 400, each with Plausible's `{error}`.
 * Visitors are made up by day (`visitorsOn`); a range's are the sum of its days.
 */
export interface PlausibleStandIn {
  url: string;
  /** The queries received, as their bodies. */
  queries: {site_id: string; metrics: string[]; date_range: string | [string, string]}[];
  /** Unique visitors by UTC day (`YYYY-MM-DD`); a day not set had none. */
  visitorsOn: Map<string, number>;
  /** The next query answers this status and error instead. */
  failNext(status: number, error: string): void;
  close(): Promise<void>;
}

export const PLAUSIBLE_KEY_REFUSED =
  "Invalid API key or site ID. Please make sure you're using a valid API key with access to the site you've requested.";

export async function startPlausibleStandIn({key, siteId}: {key: string; siteId: string}): Promise<PlausibleStandIn> {
  const queries: PlausibleStandIn['queries'] = [];
  const visitorsOn = new Map<string, number>();
  let failure: {status: number; error: string} | null = null;

  /** The days a range covers: its days, or the days of its moments (UTC here, as the site's zone). */
  function visitors(range: string | [string, string]): number {
    const days = [...visitorsOn.entries()];
    if (range === 'all') return days.reduce((sum, [, count]) => sum + count, 0);
    const [first, last] = (range as [string, string]).map((end) => end.slice(0, 10));
    return days.filter(([day]) => day >= first! && day <= last!).reduce((sum, [, count]) => sum + count, 0);
  }

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, {'content-type': 'application/json'});
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'POST' || request.url !== '/api/v2/query') return send(404, {error: 'Not found'});
      if (failure) {
        const {status, error} = failure;
        failure = null;
        return send(status, {error});
      }
      let body: PlausibleStandIn['queries'][number];
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        return send(400, {error: 'Invalid JSON'});
      }
      if (request.headers.authorization !== `Bearer ${key}` || body.site_id !== siteId)
        return send(401, {error: PLAUSIBLE_KEY_REFUSED});
      const range = body.date_range;
      const validRange =
        range === 'all' ||
        (Array.isArray(range) &&
          range.length === 2 &&
          range.every((end) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2}))?$/.test(end)));
      if (!Array.isArray(body.metrics) || body.metrics.length === 0 || !validRange)
        return send(400, {error: '#/date_range: Invalid date range'});
      queries.push(body);
      const metrics = body.metrics.map((metric) => (metric === 'visitors' ? visitors(range) : 0));
      send(200, {results: [{metrics, dimensions: []}], meta: {}, query: body});
    });
  });
  const running = await listen(server, 0);
  return {
    url: running.url,
    queries,
    visitorsOn,
    failNext(status, error) {
      failure = {status, error};
    },
    close: running.close,
  };
}
