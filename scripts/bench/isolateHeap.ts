/**
 * The V8 heap of the worker's isolate under `wrangler dev`, read through wrangler's inspector
 * (`Runtime.getHeapUsage`). The RSS of workerd also holds what workerd and wrangler's dev proxy keep
 * for themselves, and that grows under load even for an empty worker. The heap's low points, just
 * after a collection, are the worker's live data: they climb only when the worker keeps what it
 * should let go. workerd's inspector cannot be asked to collect, so callers sample often and take
 * the lowest figure of a window.
 *
 * Uses the global WebSocket, which Node 20 has behind --experimental-websocket (`npm run
 * bench:soak` passes it).
 */
export interface HeapProbe {
  /** Bytes of the isolate's heap in use now, garbage included. */
  used(): Promise<number>;
  close(): void;
}

export async function probeHeap(inspectorPort: number): Promise<HeapProbe> {
  if (typeof WebSocket === 'undefined') throw new Error('No WebSocket in this Node: run it with --experimental-websocket');
  // Wrangler's inspector proxy refuses a connection without an Origin header. Node's WebSocket
  // (undici's) takes headers in its second argument; the DOM typings in scope do not know that.
  const init = {headers: {origin: 'http://127.0.0.1'}};
  const socket = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`, init as unknown as string[]);
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`The inspector on port ${inspectorPort} refused the connection`));
  });
  const waiting = new Map<number, (usedSize: number) => void>();
  socket.onmessage = (message) => {
    const {id, result} = JSON.parse(String(message.data)) as {id?: number; result?: {usedSize?: number}};
    if (id !== undefined && result?.usedSize !== undefined) waiting.get(id)?.(result.usedSize);
    if (id !== undefined) waiting.delete(id);
  };
  let nextId = 0;
  return {
    used: () =>
      new Promise<number>((resolve, reject) => {
        const id = ++nextId;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error('The inspector did not answer Runtime.getHeapUsage within 5 s'));
        }, 5000);
        waiting.set(id, (usedSize) => {
          clearTimeout(timer);
          resolve(usedSize);
        });
        socket.send(JSON.stringify({id, method: 'Runtime.getHeapUsage'}));
      }),
    close: () => socket.close(),
  };
}
