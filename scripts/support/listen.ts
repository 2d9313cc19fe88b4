/** An HTTP server on loopback, as the stand-ins, the test servers and the static server run. */
import type http from 'node:http';
import type {AddressInfo} from 'node:net';

export interface RunningServer {
  url: string;
  close: () => Promise<void>;
}

/** Listens on 127.0.0.1 (`port`, or a free one when 0); `close` also drops open connections. */
export async function listen(server: http.Server, port = 0): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const {port: bound} = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
