/**
 * `npm run headers -- vercel` or `npm run headers -- render`: prints the headers of the last build
 * (`build/_headers`, or the folder given after the host) in the form that host takes: the `headers`
 * of vercel.json, or those of the static site in render.yaml. Cloudflare and Netlify read
 * `build/_headers` itself. Paste the output again whenever the build says the file is stale.
 */
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {parseHeadersFile} from '../src/buildTime/headersFile';
import {hostHeaders, HOSTS, type Host} from '../src/buildTime/hostHeaders';

const [host, dir = path.join(__dirname, '..', 'build')] = process.argv.slice(2);
if (!HOSTS.includes(host as Host)) {
  console.error(`Usage: npm run headers -- <${HOSTS.join('|')}> [build folder]`);
  process.exit(1);
}
const file = path.join(dir, '_headers');
if (!existsSync(file)) {
  console.error(`${file} does not exist: run npm run build first, with the host's settings (.env).`);
  process.exit(1);
}
process.stdout.write(hostHeaders(host as Host, parseHeadersFile(readFileSync(file, 'utf8'))));
