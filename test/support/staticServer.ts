import http from 'node:http';
import type {AddressInfo} from 'node:net';
import handler from 'serve-handler';

export interface RunningServer {
  url: string;
  close: () => Promise<void>;
}

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

/** Serves a built site the way `docusaurus serve` does: clean URLs, no trailing slash. */
export function serveStatic(dir: string, port = 0): Promise<RunningServer> {
  const server = http.createServer((request, response) => {
    void handler(request, response, {public: dir, cleanUrls: true, trailingSlash: false});
  });
  return listen(server, port);
}
