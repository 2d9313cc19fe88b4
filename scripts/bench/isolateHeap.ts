/**
 * The V8 heap of the worker's isolate under `wrangler dev`, read through wrangler's inspector
 * (`Runtime.getHeapUsage`). The RSS of workerd also holds what workerd and wrangler's dev proxy keep
 * for themselves, and that grows under load even for an empty worker.
 *
 * A reading is judged only after a full collection (`HeapProfiler.collectGarbage`): what is left is
 * what the worker still holds. A reading without one counts whatever garbage V8 has not collected
 * yet, and under steady load V8 lets that grow for minutes between its full collections: the
 * lowest reading of a minute, which the soak used to judge, went 10.9, 17.1, 10.6, 10.9 and 16.8 MB
 * over five minutes, and one full collection at the end left 10.1 (scripts/bench/README.md).
 *
 * V8 does not collect when the command arrives: its inspector posts the collection as a task of
 * the isolate, which workerd runs when it next enters the isolate, for a request. Under load that
 * is within a second; an idle worker needs a request to wake it (`wake`).
 *
 * Uses the global WebSocket, which Node 20 has behind --experimental-websocket (`npm run
 * bench:soak` passes it).
 */
import fs from 'node:fs';

export interface HeapReading {
  /** Bytes of the isolate's heap in use just before the collection, garbage included. */
  before: number;
  /** Bytes in use after a full collection: the worker's live data. */
  after: number;
}

export interface HeapProbe {
  /** A full collection, and the heap in use before and after it. */
  collected(): Promise<HeapReading>;
  /** The isolate's id: a worker that restarts (workerd started again) has a new one. */
  isolateId(): Promise<string>;
  /** A heap snapshot written to `file` (V8 collects in full before it takes one). */
  snapshot(file: string): Promise<void>;
  close(): void;
}

interface Answer {
  id?: number;
  method?: string;
  result?: {usedSize?: number; id?: string};
  error?: {message: string};
  params?: {chunk?: string};
}

/** How long a command may wait for its answer; a collection waits for the worker's next request. */
const ANSWER_TIMEOUT_MS = 30_000;
const WAKE_EVERY_MS = 1000;

export async function probeHeap(inspectorPort: number, wake: () => Promise<unknown>): Promise<HeapProbe> {
  if (typeof WebSocket === 'undefined')
    throw new Error('No WebSocket in this Node: run it with --experimental-websocket');
  // Wrangler's inspector proxy refuses a connection without an Origin header. Node's WebSocket
  // (undici's) takes headers in its second argument; the DOM typings in scope do not know that.
  const init = {headers: {origin: 'http://127.0.0.1'}};
  const socket = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`, init as unknown as string[]);
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`The inspector on port ${inspectorPort} refused the connection`));
  });
  // Only this probe's commands: wrangler's proxy sends commands of its own with ids from 1e8 up.
  const waiting = new Map<number, (answer: Answer) => void>();
  let snapshotChunks: string[] | undefined;
  socket.onmessage = (message) => {
    const answer = JSON.parse(String(message.data)) as Answer;
    if (answer.method === 'HeapProfiler.addHeapSnapshotChunk') snapshotChunks?.push(answer.params!.chunk!);
    // workerd answers the commands it handles itself (takeHeapSnapshot) with the command echoed.
    if (
      answer.id !== undefined &&
      (answer.result !== undefined || answer.error !== undefined || answer.method !== undefined)
    ) {
      waiting.get(answer.id)?.(answer);
      waiting.delete(answer.id);
    }
  };
  let nextId = 0;
  const send = (method: string, params?: object) =>
    new Promise<Answer>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`The inspector did not answer ${method} within ${ANSWER_TIMEOUT_MS / 1000} s`));
      }, ANSWER_TIMEOUT_MS);
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        if (answer.error) reject(new Error(`${method}: ${answer.error.message}`));
        else resolve(answer);
      });
      socket.send(JSON.stringify({id, method, ...(params && {params})}));
    });
  const used = async () => {
    const size = (await send('Runtime.getHeapUsage')).result?.usedSize;
    if (size === undefined) throw new Error('Runtime.getHeapUsage answered no usedSize');
    return size;
  };
  return {
    collected: async () => {
      const before = await used();
      // The collection runs at the isolate's next request: under load, one of the load's. Requests
      // of the probe's own, one a second until it has run, make sure of one when the load is over.
      let collecting = true;
      const collection = send('HeapProfiler.collectGarbage').finally(() => (collecting = false));
      const woken = (async () => {
        while (collecting) {
          await Promise.all([wake(), new Promise((resolve) => setTimeout(resolve, WAKE_EVERY_MS))]);
        }
      })();
      await Promise.all([collection, woken]);
      return {before, after: await used()};
    },
    isolateId: async () => {
      const id = (await send('Runtime.getIsolateId')).result?.id;
      if (id === undefined) throw new Error('Runtime.getIsolateId answered no id');
      return id;
    },
    snapshot: async (file) => {
      snapshotChunks = [];
      try {
        await send('HeapProfiler.takeHeapSnapshot', {reportProgress: false});
        fs.writeFileSync(file, snapshotChunks.join(''));
      } finally {
        snapshotChunks = undefined;
      }
    },
    close: () => socket.close(),
  };
}
