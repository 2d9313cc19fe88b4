import {createReadStream, readFileSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import {Readable} from 'node:stream';
import {gzip} from 'node:zlib';
import handler from 'serve-handler';
import {headersForPath, parseHeadersFile, type HeaderRule} from '../../src/buildTime/headersFile';
import {listen, type RunningServer} from './listen';

export interface StaticOptions {
  /**
   * Gzip text files for browsers that accept it, as every static host does (Cloudflare Pages,
   * Netlify, GitHub Pages), so Lighthouse counts the bytes a visitor really transfers.
   */
  compress?: boolean;
  /**
   * Send the headers of the build's `_headers` file (its Content-Security-Policy), as Cloudflare
   * and Netlify do, and never the file itself.
   */
  headersFile?: boolean;
}

/** What static hosts compress: text. Images, fonts and video are compressed already. */
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.xml',
  '.map',
  '.webmanifest',
  '.ico',
]);

/** Serves a built site the way `docusaurus serve` does: clean URLs, no trailing slash. */
export function serveStatic(
  dir: string,
  port = 0,
  {compress = false, headersFile = false}: StaticOptions = {},
): Promise<RunningServer> {
  const rules: HeaderRule[] = headersFile ? parseHeadersFile(readFileSync(path.join(dir, '_headers'), 'utf8')) : [];
  // A build does not change while it is served: each file is gzipped once.
  const gzipped = new Map<string, Promise<Buffer>>();
  const gzipOnce = (file: string) => {
    if (!gzipped.has(file)) {
      gzipped.set(
        file,
        readFile(file).then(
          (body) =>
            new Promise<Buffer>((resolve, reject) =>
              gzip(body, (error, out) => (error ? reject(error) : resolve(out))),
            ),
        ),
      );
    }
    return gzipped.get(file)!;
  };

  const server = http.createServer((request, response) => {
    const config = {public: dir, cleanUrls: true, trailingSlash: false};
    if (headersFile) {
      const {pathname} = new URL(request.url ?? '/', 'http://localhost');
      if (pathname === '/_headers') {
        response.writeHead(404).end();
        return;
      }
      for (const [name, value] of Object.entries(headersForPath(rules, pathname))) response.setHeader(name, value);
    }
    const accepts = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (!compress || !accepts || request.headers.range) {
      void handler(request, response, config);
      return;
    }
    // serve-handler opens the file, then writes the head with the file's length: open it gzipped
    // instead, and put the encoding in place of that length.
    let encoded = false;
    const writeHead = response.writeHead.bind(response) as (
      status: number,
      headers?: http.OutgoingHttpHeaders,
    ) => http.ServerResponse;
    response.writeHead = ((status: number, headers: http.OutgoingHttpHeaders = {}) => {
      const out: http.OutgoingHttpHeaders = {...headers, Vary: 'Accept-Encoding'};
      if (encoded) {
        delete out['Content-Length'];
        delete out['Accept-Ranges'];
        out['Content-Encoding'] = 'gzip';
      }
      return writeHead(status, out);
    }) as typeof response.writeHead;
    const open = async (file: string, options?: {start?: number; end?: number}) => {
      if (!COMPRESSIBLE.has(path.extname(file).toLowerCase())) return createReadStream(file, options);
      const body = await gzipOnce(file);
      encoded = true;
      return Readable.from([body]);
    };
    // serve-handler awaits this method and only pipes what it returns; its types ask for fs's own.
    void handler(request, response, config, {createReadStream: open as unknown as typeof createReadStream});
  });
  return listen(server, port);
}
