/**
 * The GitHub stand-in's releases and archives, for the worker's downloads: `GET .../releases/latest`
 * (GitHub's recorded release body from @octokit/fixtures' `release-assets`, or 404 when there is no
 * published release), `GET .../zipball/{ref}` (the recorded `get-archive` answer: a 302 to a codeload
 * URL with a short-lived token of its own) and that codeload URL: a real .zip of one folder named as
 * GitHub names it, `{owner}-{repo}-{first 7 characters of the commit}/`. What it holds is the
 * repository's `source`: local mode's is the kit itself (./kitArchive.ts); without one, a README
 * naming the ref, so a test can tell which ref it got.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import {randomBytes} from 'node:crypto';
import {strToU8, zipSync} from 'fflate';
import type {components} from '@octokit/openapi-types';
import {ROOT} from '../support/site';

type Release = components['schemas']['release'];
type Recorded = {
  method: string;
  path: string;
  status: number;
  response: unknown;
  headers: Record<string, string | number>;
};

function recorded(name: string, method: string, status: number): Recorded {
  const file = path.join(
    ROOT,
    'node_modules/@octokit/fixtures/scenarios/api.github.com',
    name,
    'normalized-fixture.json',
  );
  const found = (JSON.parse(fs.readFileSync(file, 'utf8')) as Recorded[]).find(
    (entry) => entry.method === method && entry.status === status,
  );
  if (!found) throw new Error(`The ${name} fixture has no ${method} answering ${status}`);
  return found;
}
const releaseAnswer = recorded('release-assets', 'get', 200);
const archiveRedirect = recorded('get-archive', 'get', 302);

/** How long GitHub's codeload links work: "expire after five minutes" (REST docs, "Download a repository archive (zip)"). */
export const CODELOAD_TTL_MS = 5 * 60_000;

export interface ArchiveState {
  /** Published releases, oldest first; `latest` is the newest that is neither a draft nor a pre-release. */
  releases: {tag: string; draft?: boolean; prerelease?: boolean}[];
  /** The default branch, what a download holds when there is no release. */
  defaultBranch: string;
  /** Every archive served: the ref, and whether the codeload request carried an Authorization header. */
  served: string[];
  codeloadWithAuthorization: number;
  /** What the archives hold; without it, `archiveFiles`. */
  source?: ArchiveSource;
}

/** A repository's code as its archives hold it. */
export interface ArchiveSource {
  /** What it is, for the terminal: "this kit's files tracked at HEAD…". */
  holds: string;
  /** The .zip of the code, its files in one folder named `folderFor(commit)`. */
  zip(folderFor: (commit: string) => string): Promise<Uint8Array>;
}

/** The files of the archive at `ref` without a `source`: a README naming it, so a test can tell which ref it got. */
export function archiveFiles(repository: string, ref: string): Record<string, string> {
  return {'README.md': `# ${repository}\n\nThe code at ${ref}.\n`};
}

/** What an archive without a `source` holds. */
export const FIXTURE_ARCHIVE_HOLDS = 'a README naming the release or branch it is of';

/** The archive of `ref` without a `source`: `archiveFiles`, its folder named after the ref (there is no commit). */
function readmeSource(repository: string, ref: string): ArchiveSource {
  return {
    holds: FIXTURE_ARCHIVE_HOLDS,
    async zip(folderFor) {
      const folder = folderFor(Buffer.from(ref).toString('hex'));
      return zipSync(
        Object.fromEntries(
          Object.entries(archiveFiles(repository, ref)).map(([name, text]) => [`${folder}/${name}`, strToU8(text)]),
        ),
      );
    },
  };
}

type Send = (
  response: http.ServerResponse,
  status: number,
  body?: unknown,
  headers?: Record<string, string | number>,
) => void;

/**
 * Answers the release and archive calls for `repoPath` (`/repos/{owner}/{repo}`); false for any
 * other call. `baseUrl` is the stand-in's own address, where its codeload path is; `anyRef`: every
 * ref has an archive (local mode).
 */
export function archiveHandler(
  repoPath: string,
  state: ArchiveState,
  send: Send,
  baseUrl: () => string,
  anyRef = false,
) {
  const tokens = new Map<string, {ref: string; expiresAt: number}>();
  const [owner, repo] = repoPath.replace('/repos/', '').split('/') as [string, string];
  const codeloadPath = `/codeload/${owner}/${repo}/legacy.zip/`;
  return (
    request: http.IncomingMessage,
    pathname: string,
    query: URLSearchParams,
    response: http.ServerResponse,
  ): boolean => {
    const {method} = request;
    if (method === 'GET' && pathname === `${repoPath}/releases/latest`) {
      const latest = state.releases.filter((release) => !release.draft && !release.prerelease).at(-1);
      if (!latest) {
        send(response, 404, {
          message: 'Not Found',
          documentation_url: 'https://docs.github.com/rest/releases/releases#get-the-latest-release',
        });
        return true;
      }
      const body = {
        ...(releaseAnswer.response as Release),
        tag_name: latest.tag,
        name: latest.tag,
        draft: false,
        prerelease: false,
      };
      send(response, 200, body);
      return true;
    }
    const zipball = new RegExp(`^${repoPath}/zipball/(.+)$`).exec(pathname);
    if (method === 'GET' && zipball) {
      const ref = decodeURIComponent(zipball[1]!);
      const known = anyRef || ref === state.defaultBranch || state.releases.some((release) => release.tag === ref);
      if (!known) {
        send(response, 404, {
          message: 'Not Found',
          documentation_url: 'https://docs.github.com/rest/repos/contents#download-a-repository-archive-zip',
        });
        return true;
      }
      const token = randomBytes(16).toString('hex');
      tokens.set(token, {ref, expiresAt: Date.now() + CODELOAD_TTL_MS});
      const {headers} = archiveRedirect;
      send(response, 302, undefined, {
        ...headers,
        location: `${baseUrl()}${codeloadPath}${encodeURIComponent(ref)}?token=${token}`,
      });
      return true;
    }
    if (method === 'GET' && pathname.startsWith(codeloadPath)) {
      const issued = tokens.get(query.get('token') ?? '');
      const ref = decodeURIComponent(pathname.slice(codeloadPath.length));
      if (!issued || issued.ref !== ref || issued.expiresAt < Date.now()) {
        response.writeHead(404, {'content-type': 'text/plain; charset=utf-8'});
        response.end('404: Not Found');
        return true;
      }
      // codeload's URL carries its own token: a client that also sends the API token leaks it.
      if (request.headers.authorization) state.codeloadWithAuthorization += 1;
      const source = state.source ?? readmeSource(`${owner}/${repo}`, ref);
      source
        .zip((commit) => `${owner}-${repo}-${commit.slice(0, 7)}`)
        .then((zip) => {
          state.served.push(ref);
          response.writeHead(200, {
            'content-type': 'application/zip',
            'content-disposition': `attachment; filename=${owner}-${repo}-${ref}.zip`,
            'content-length': zip.byteLength,
          });
          response.end(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
        })
        .catch((error: unknown) => {
          // The stand-in could not make the archive (git failed): GitHub's own failure, a 5xx.
          console.error(`The GitHub stand-in could not make the archive of ${ref}:`, error);
          response.writeHead(500, {'content-type': 'text/plain; charset=utf-8'});
          response.end('500: Internal Server Error');
        });
      return true;
    }
    return false;
  };
}
