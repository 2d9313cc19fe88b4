/**
 * A worker for a component's jsdom test: answers each `METHOD /path` with the JSON the test sets
 * (404 for any other), and records the calls with their bodies. Real HTTP, so the site's own API
 * client (fetch, headers, error shapes) runs as it does against the worker.
 */
import http from 'node:http';
import {listen} from '../../scripts/support/listen';

export interface JsonWorker {
  url: string;
  /** Each call's route and body, and its query's parameters when it had any (`GET /upgrades?code=…`). */
  calls: {route: string; body: unknown; query?: Record<string, string>}[];
  /** How `route` (`GET /releases`) answers from now on. */
  answer(route: string, status: number, body: unknown): void;
  close(): Promise<void>;
}

export async function startJsonWorker(): Promise<JsonWorker> {
  const answers = new Map<string, {status: number; body: unknown}>();
  const calls: JsonWorker['calls'] = [];
  const server = await listen(
    http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const asked = new URL(request.url ?? '/', 'http://worker');
        const route = `${request.method} ${asked.pathname}`;
        const text = Buffer.concat(chunks).toString('utf8');
        // A route answers whatever its query; the query is kept for the test to read what was asked.
        calls.push({
          route,
          body: text ? JSON.parse(text) : null,
          ...(asked.search && {query: Object.fromEntries(asked.searchParams)}),
        });
        const {status, body} = answers.get(route) ?? {status: 404, body: {error: `No route for ${route}`}};
        response.writeHead(status, {'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*'});
        response.end(JSON.stringify(body));
      });
    }),
  );
  return {
    url: server.url,
    calls,
    answer: (route, status, body) => answers.set(route, {status, body}),
    close: server.close,
  };
}

/** A JsonWorker for the test file: started before its tests, its calls cleared before each, closed after. */
export function useJsonWorker(): () => JsonWorker {
  let worker: JsonWorker | undefined;
  beforeAll(async () => {
    worker = await startJsonWorker();
  });
  afterAll(() => worker?.close());
  beforeEach(() => {
    if (worker) worker.calls.length = 0;
  });
  return () => worker!;
}
