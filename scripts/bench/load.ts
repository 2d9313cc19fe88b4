/** Loads one target of a worker benchmark with autocannon, a fresh request each time. */
import autocannon from 'autocannon';
import type {BenchRequest} from './workerRequests';

export type LoadResult = autocannon.Result;

/** A connection's own scratch space: its requests go one at a time, so an answer finds its request here. */
export type ConnectionContext = Record<string, unknown>;

export interface Target {
  name: string;
  baseUrl: string;
  expectStatus: number;
  expectBody?: string;
  /** Called for every request. */
  next(): BenchRequest;
}

export interface Loaded {
  baseUrl: string;
  next(context: ConnectionContext): BenchRequest;
  onResponse?(status: number, body: string, context: ConnectionContext): void;
}

export function load(
  target: Loaded,
  {seconds, connections, overallRate}: {seconds: number; connections: number; overallRate?: number},
): Promise<LoadResult> {
  return autocannon({
    url: target.baseUrl,
    connections,
    duration: seconds,
    ...(overallRate !== undefined && {overallRate}),
    requests: [
      {
        setupRequest: (request, context) => ({...request, ...target.next(context as ConnectionContext)}),
        ...(target.onResponse && {
          onResponse: (status: number, body: string, context: object) =>
            target.onResponse!(status, body, context as ConnectionContext),
        }),
      },
    ],
  });
}
