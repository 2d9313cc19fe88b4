import http from 'node:http';
import handler from 'serve-handler';
import {listen, type RunningServer} from './listen';

/** Serves a built site the way `docusaurus serve` does: clean URLs, no trailing slash. */
export function serveStatic(dir: string, port = 0): Promise<RunningServer> {
  const server = http.createServer((request, response) => {
    void handler(request, response, {public: dir, cleanUrls: true, trailingSlash: false});
  });
  return listen(server, port);
}
