/**
 * GitHub's REST API for one repository's collaborators, answered with the bodies and headers
 * GitHub really sent in @octokit/fixtures' recorded `add-and-remove-repository-collaborator`
 * scenario (and its `errors` scenario for a 422). The recording is one fixed conversation, so the
 * stand-in keeps the state between its answers (who is invited, who accepted) and can be told
 * to fail the next calls the way GitHub does under rate limits and outages.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type {components} from '@octokit/openapi-types';
import {ROOT} from '../support/site';
import {listen} from '../support/listen';
import {type ArchiveSource, type ArchiveState, archiveHandler, FIXTURE_ARCHIVE_HOLDS} from './githubArchive';
import {escapeHtml, standInPage} from './standInPage';

interface Recorded {
  method: string;
  path: string;
  status: number;
  response: unknown;
  headers: Record<string, string | number>;
}

function scenario(name: string): Recorded[] {
  const file = path.join(
    ROOT,
    'node_modules/@octokit/fixtures/scenarios/api.github.com',
    name,
    'normalized-fixture.json',
  );
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Recorded[];
}

const collaboratorScenario = scenario('add-and-remove-repository-collaborator');
const errorsScenario = scenario('errors');

/** The last recorded answer to `method` on a path ending in `suffix` with `status`. */
function recorded(list: Recorded[], method: string, suffix: string, status: number): Recorded {
  const found = list
    .filter((entry) => entry.method === method && entry.status === status && entry.path.endsWith(suffix))
    .pop();
  if (!found) throw new Error(`The fixture has no ${method} ${suffix} answering ${status}`);
  return found;
}

const invitationAnswer = recorded(collaboratorScenario, 'put', '/collaborators/octokit-fixture-user-b', 201);
// The first list is taken after user b accepted, the last after user b was removed again.
const collaboratorsWithInvitee = collaboratorScenario.find(
  (entry) => entry.method === 'get' && entry.path.endsWith('/collaborators'),
)!;
const collaboratorsAnswer = recorded(collaboratorScenario, 'get', '/collaborators', 200);
const removalAnswer = recorded(collaboratorScenario, 'delete', '/collaborators/octokit-fixture-user-b', 204);
const validationFailed = recorded(errorsScenario, 'post', '/labels', 422);
const repositoryAnswer = recorded(scenario('get-repository'), 'get', '/repos/octokit-fixture-org/hello-world', 200);

/** A repository as `GET /repos/{owner}/{repo}` answers it. */
export type Repository = components['schemas']['full-repository'];
/** A repository's webhook, as `GET /repos/{owner}/{repo}/hooks` lists it. */
export type RepositoryHook = components['schemas']['hook'];

let nextHookId = 12_345_678;
/**
 * A webhook as GitHub lists it (the shape and values of its docs' example answer): active, JSON,
 * sending `events` to `url`. GitHub shows the secret only as asterisks, and only when one is set.
 */
export function newRepositoryHook({
  url,
  events = ['release'],
  active = true,
  contentType = 'json',
}: {
  url: string;
  events?: string[];
  active?: boolean;
  contentType?: string;
}): RepositoryHook {
  const id = nextHookId++;
  const self = `https://api.github.com/repos/${FIXTURE_REPO}/hooks/${id}`;
  const at = new Date().toISOString();
  return {
    type: 'Repository',
    id,
    name: 'web',
    active,
    events,
    config: {content_type: contentType, insecure_ssl: '0', url, secret: '********'},
    updated_at: at,
    created_at: at,
    url: self,
    test_url: `${self}/test`,
    ping_url: `${self}/pings`,
    deliveries_url: `${self}/deliveries`,
    last_response: {code: null, status: 'unused', message: null},
  };
}

type GitHubUser = {login: string; id: number; [key: string]: unknown};
type Invitation = {id: number; invitee: GitHubUser; expired?: boolean; [key: string]: unknown};

/** The repository of the recording: GITHUB_REPO for the tests. */
export const FIXTURE_REPO = 'octokit-fixture-org/add-and-remove-repository-collaborator';
/** The recording's invitee, and its owner (already a collaborator). */
export const INVITEE = 'octokit-fixture-user-b';
export const OWNER = 'octokit-fixture-user-a';
/** Local mode only: the worker's GITHUB_WEBHOOK_SECRET when `npm start` stands in for GitHub (see ./release.ts). */
export const LOCAL_GITHUB_WEBHOOK_SECRET = 'local-mode-github-webhook-secret';

/** Accounts already on the repository, and already invited, with their GitHub ids. */
export interface RepositoryState {
  users: {login: string; id: number}[];
  /** Logins of collaborators (each among `users`). */
  collaborators: string[];
  invitations: {id: number; login: string}[];
  /** The same for extra repositories of the stand-in (`extraRepositories`), by `owner/name`. */
  extra?: {repository: string; collaborators: string[]; invitations: {id: number; login: string}[]}[];
}

export interface Failure {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * GitHub does what was asked (creates the invitation, say) and only then is its answer lost: the
   * caller gets this failure (a 502 from a proxy, a 504 past a timeout) instead of GitHub's answer.
   * Without it the call fails before GitHub acts.
   */
  afterActing?: boolean;
}

export interface GitHubStandIn {
  url: string;
  /** Every request, as `METHOD /path`. */
  requests: string[];
  invitations: Map<number, Invitation>;
  collaborators: Set<string>;
  /**
   * `GET /repos/{owner}/{repo}`: GitHub's recorded answer, made the private repository of the
   * collaborator recording. Its `permissions` are the token's; change fields to misconfigure it.
   */
  repository: Repository;
  /** `GET /repos/{owner}/{repo}/hooks`: the repository's webhooks (none until a test adds one). */
  hooks: RepositoryHook[];
  /** Its releases and default branch, what the worker's downloads fetch; and the archives served. */
  archives: ArchiveState;
  /** Another account shaped like the recorded invitee. */
  addUser(login: string): GitHubUser;
  /** Puts these accounts, collaborators and invitations on the repositories (local mode: what the local D1 says GitHub was told). */
  restore(state: RepositoryState): void;
  /** The account changes its login (its numeric id stays), as GitHub allows. */
  rename(login: string, newLogin: string): void;
  /** The account is deleted: its id answers 404, its login is free, its access and invitations go. */
  deleteAccount(login: string): void;
  /**
   * The invitee accepts, as the recorded PATCH /user/repository_invitations/:id did. An expired
   * invitation cannot be accepted (GitHub: "Invitations will expire after 7 days"): it throws.
   */
  accept(invitationId: number): void;
  /**
   * The invitee declines (GitHub's DELETE /user/repository_invitations/:id): the invitation is gone
   * from the repository's list, and nobody was added.
   */
  decline(invitationId: number): void;
  /** The invitation expires now, whatever its age. */
  expire(invitationId: number): void;
  /** Whether GitHub lists the invitation as expired: seven days old, or expired by hand. */
  isExpired(invitation: Invitation): boolean;
  /**
   * The invitation was sent `ageMs` ago (on the stand-in's clock): its `created_at` moves back, and
   * past 7 days GitHub lists it as expired, as it does.
   */
  ageInvitation(invitationId: number, ageMs: number): void;
  /**
   * Another private repository of the same owner (one of the options' `extraRepositories`): its
   * own collaborators (the owner at first), invitations and cap, answered like the recording's.
   */
  extra(fullName: string): RepositoryRecord;
  /** The next calls matching `METHOD /path-prefix` fail like this, `times` times (after acting, with `failure.afterActing`). */
  failNext(match: string, failure: Failure, times?: number): void;
  /**
   * The next call matching `METHOD /path-prefix` is answered only once `action` is done: a test
   * changes D1 while the worker waits on GitHub, as another request running alongside would.
   */
  beforeNext(match: string, action: () => Promise<unknown>): void;
  /** GitHub answers again: the failures still due are dropped. */
  clearFailures(): void;
  /**
   * When each invitation of the last 24 hours was created (ms since the epoch), oldest first:
   * past INVITATIONS_PER_DAY of them, GitHub refuses the next. Move entries back to let time pass.
   */
  invitationTimes: number[];
  /**
   * When each content-creating request (POST, PATCH, PUT, DELETE) GitHub took in the last hour was
   * made, oldest first: past SECONDARY_LIMITS of them a minute or an hour, GitHub refuses the next.
   */
  contentRequestTimes: number[];
  /** Refusals for the secondary limits, and for the invitations' cap, as `METHOD /path`. */
  refused: {secondaryLimit: string[]; invitationCap: string[]};
  /** The stand-in's clock (ms since the epoch): `now` of the options. */
  now(): number;
  close: () => Promise<void>;
}

/** One repository's collaborators (lower-case logins), invitations, and its cap's last 24 hours. */
export interface RepositoryRecord {
  invitations: Map<number, Invitation>;
  collaborators: Set<string>;
  invitationTimes: number[];
  /** Its releases and default branch, and the archives served (the kit's are the stand-in's `archives`). */
  archives: ArchiveState;
}

/** An extra repository for tests and local mode: the prompts a plan may grant (GITHUB_EXTRA_REPOS). */
export const EXTRA_FIXTURE_REPO = 'octokit-fixture-org/slipway-prompts';

/** Local mode's GITHUB_EXTRA_REPOS: each key of the plans' `extraRepositories` the stand-in has a repository for. */
export const LOCAL_EXTRA_REPOS: Readonly<Record<string, string>> = {prompts: EXTRA_FIXTURE_REPO};

/** The same, as the worker's GITHUB_EXTRA_REPOS variable reads it (`key=owner/name,…`). */
export const LOCAL_GITHUB_EXTRA_REPOS = Object.entries(LOCAL_EXTRA_REPOS)
  .map(([key, repository]) => `${key}=${repository}`)
  .join(',');

export interface GitHubStandInOptions {
  port?: number;
  /**
   * More repositories (`owner/name`) the token administers, besides the recording's: each has its
   * own collaborators, invitations and cap of invitations, as on GitHub. Invitation ids are unique
   * across them, as GitHub's are.
   */
  extraRepositories?: string[];
  /** Local mode: every well-formed username is an account, so a buyer can type their own. */
  anyUser?: boolean;
  /**
   * Local mode: every ref has an archive. A release `npm run release:local` publishes reaches the
   * worker only (as GitHub's webhook would), and the download then serves its tag.
   */
  anyRef?: boolean;
  /**
   * What the kit repository's archives hold (`archives.source`): local mode's is the kit itself
   * (./kitArchive.ts); without it, a README naming the ref.
   */
  kitArchive?: ArchiveSource;
  /** Told of each invitation and removal, for the terminal. */
  onEvent?: (line: string) => void;
  /**
   * The clock the limits and the invitations' expiry read (ms since the epoch), Date.now unless
   * given: a benchmark moves it on to simulate the days after a launch.
   */
  now?: () => number;
}

export async function startGitHubStandIn({
  port = 0,
  anyUser = false,
  anyRef = false,
  kitArchive,
  onEvent,
  now = Date.now,
  extraRepositories = [],
}: GitHubStandInOptions = {}): Promise<GitHubStandIn> {
  const invitee = (invitationAnswer.response as Invitation).invitee;
  const users = new Map<string, GitHubUser>();
  for (const user of collaboratorsWithInvitee.response as GitHubUser[]) users.set(user.login.toLowerCase(), user);
  const collaborators = new Set((collaboratorsAnswer.response as GitHubUser[]).map((user) => user.login.toLowerCase()));
  const invitations = new Map<number, Invitation>();
  const failures: {match: string; failure: Failure; times: number}[] = [];
  const pauses: {match: string; action: () => Promise<unknown>}[] = [];
  const invitationTimes: number[] = [];
  const records = new Map<string, RepositoryRecord & {path: string}>();
  const newArchives = (): ArchiveState => ({
    releases: [],
    defaultBranch: (repositoryAnswer.response as Repository).default_branch,
    served: [],
    codeloadWithAuthorization: 0,
  });
  const archives: ArchiveState = {...newArchives(), ...(kitArchive && {source: kitArchive})};
  records.set(FIXTURE_REPO.toLowerCase(), {
    invitations,
    collaborators,
    invitationTimes,
    archives,
    path: `/repos/${FIXTURE_REPO}`,
  });
  for (const fullName of extraRepositories) {
    records.set(fullName.toLowerCase(), {
      invitations: new Map(),
      collaborators: new Set([OWNER.toLowerCase()]),
      invitationTimes: [],
      archives: newArchives(),
      path: `/repos/${fullName}`,
    });
  }
  /** The repository a path is about (`/repos/{owner}/{name}/...`), when the stand-in has it. */
  const recordOf = (pathname: string) => {
    const found = /^\/repos\/([^/]+\/[^/]+)(\/|$)/.exec(pathname);
    return found ? records.get(decodeURIComponent(found[1]!).toLowerCase()) : undefined;
  };
  const findInvitation = (invitationId: number) => {
    for (const record of records.values()) {
      const invitation = record.invitations.get(invitationId);
      if (invitation) return {invitation, record};
    }
    return undefined;
  };
  const contentRequestTimes: number[] = [];
  const refused = {secondaryLimit: [] as string[], invitationCap: [] as string[]};
  const requests: string[] = [];
  // GitHub lists an invitation past its 7 days as expired until it is withdrawn.
  const isExpired = (invitation: Invitation) =>
    invitation.expired === true ||
    (typeof invitation.created_at === 'string' && now() - Date.parse(invitation.created_at) >= INVITATION_LIFETIME_MS);
  /** An invitation as GitHub lists it: `expired` says whether it can still be accepted. */
  const listed = (invitation: Invitation): Invitation => ({...invitation, expired: isExpired(invitation)});
  let nextInvitationId = (invitationAnswer.response as Invitation).id;
  let nextUserId = 9_000_000;
  const repoPath = `/repos/${FIXTURE_REPO}`;
  const [ownerLogin, repoName] = FIXTURE_REPO.split('/') as [string, string];
  const recordedRepository = structuredClone(repositoryAnswer.response) as Repository;
  const repository: Repository = {
    ...recordedRepository,
    name: repoName,
    full_name: FIXTURE_REPO,
    private: true,
    visibility: 'private',
    owner: {...recordedRepository.owner, login: ownerLogin},
    permissions: {admin: true, maintain: true, push: true, triage: true, pull: true},
  };

  /** Calls GitHub acted on whose answer is lost: this failure goes out instead (Failure.afterActing). */
  const lostAnswers = new WeakMap<http.ServerResponse, Failure>();

  function send(
    response: http.ServerResponse,
    status: number,
    body?: unknown,
    headers: Record<string, string | number> = {},
  ) {
    const lost = lostAnswers.get(response);
    if (lost) {
      lostAnswers.delete(response);
      return send(response, lost.status, lost.body ?? {message: 'Failure'}, lost.headers);
    }
    const base = {...invitationAnswer.headers, ...headers} as Record<string, string | number>;
    delete base['content-length'];
    delete base['connection'];
    if (body === undefined || status === 204) {
      response.writeHead(status, base);
      return response.end();
    }
    response.writeHead(status, {...base, 'content-type': 'application/json; charset=utf-8'});
    response.end(JSON.stringify(body));
  }
  const notFound = (response: http.ServerResponse) =>
    send(response, 404, {message: 'Not Found', documentation_url: 'https://docs.github.com/rest'});

  const hooks: RepositoryHook[] = [];
  // Each repository's releases and archives, answered at its own path (the kit's and every extra one).
  const archiveAnswers = [...records.values()].map((record) =>
    archiveHandler(record.path, record.archives, send, () => running.url, anyRef),
  );

  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const call = `${request.method} ${new URL(request.url ?? '/', 'http://github.local').pathname}`;
      const pause = pauses.findIndex((entry) => call.startsWith(entry.match));
      if (pause < 0) return answer(request, response);
      void pauses
        .splice(pause, 1)[0]!
        .action()
        .finally(() => answer(request, response));
    });
  });

  function answer(request: http.IncomingMessage, response: http.ServerResponse) {
    const {pathname, searchParams} = new URL(request.url ?? '/', 'http://github.local');
    const call = `${request.method} ${pathname}`;
    requests.push(call);
    const failure = failures.find((entry) => call.startsWith(entry.match) && entry.times > 0);
    if (failure) {
      failure.times -= 1;
      if (!failure.failure.afterActing)
        return send(
          response,
          failure.failure.status,
          failure.failure.body ?? {message: 'Failure'},
          failure.failure.headers,
        );
      lostAnswers.set(response, failure.failure);
    }
    if (CONTENT_CREATING.has(request.method ?? '')) {
      const waitSeconds = secondaryLimitWait(contentRequestTimes, now());
      if (waitSeconds > 0) {
        refused.secondaryLimit.push(call);
        return send(response, 403, SECONDARY_LIMIT_REFUSAL, {'retry-after': waitSeconds});
      }
      // Counted when GitHub takes it; a refusal above is not counted again.
      contentRequestTimes.push(now());
    }
    let match: RegExpExecArray | null;
    if (request.method === 'GET' && (match = /^\/user\/(\d+)$/.exec(pathname))) {
      const user = [...users.values()].find((candidate) => candidate.id === Number(match![1]));
      return user ? send(response, 200, user) : notFound(response);
    }
    if (request.method === 'GET' && (match = /^\/users\/([^/]+)$/.exec(pathname))) {
      const login = decodeURIComponent(match[1]!);
      if (anyUser && !users.has(login.toLowerCase())) standIn.addUser(login);
      const user = users.get(login.toLowerCase());
      return user ? send(response, 200, user) : notFound(response);
    }
    const target = recordOf(pathname);
    if (target && (match = /^\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)$/.exec(pathname))) {
      const {collaborators, invitations, invitationTimes} = target;
      const fullName = target.path.slice('/repos/'.length);
      const login = match[1]!.toLowerCase();
      const user = users.get(login);
      if (!user) return notFound(response);
      if (request.method === 'GET') return collaborators.has(login) ? send(response, 204) : notFound(response);
      if (request.method === 'DELETE') {
        collaborators.delete(login);
        onEvent?.(`removed @${user.login} from ${fullName}`);
        return send(response, removalAnswer.status, undefined, removalAnswer.headers);
      }
      if (request.method === 'PUT') {
        if (collaborators.has(login)) return send(response, 204);
        const open = [...invitations.values()].find(
          (invitation) => invitation.invitee.login.toLowerCase() === login && !isExpired(invitation),
        );
        if (open) return send(response, 201, listed(open));
        const at = now();
        while (invitationTimes.length > 0 && invitationTimes[0]! <= at - DAY_MS) invitationTimes.shift();
        if (invitationTimes.length >= INVITATIONS_PER_DAY) {
          refused.invitationCap.push(call);
          return send(response, 422, INVITATION_CAP_REFUSAL);
        }
        invitationTimes.push(at);
        const invitation: Invitation = {
          ...(invitationAnswer.response as Invitation),
          id: nextInvitationId++,
          invitee: user,
          created_at: new Date(at).toISOString(),
          expired: false,
        };
        invitations.set(invitation.id, invitation);
        onEvent?.(`invited @${user.login} to ${fullName} (invitation ${invitation.id})`);
        return send(response, 201, invitation, invitationAnswer.headers);
      }
    }
    if (request.method === 'GET' && pathname === repoPath) return send(response, 200, repository);
    if (target && request.method === 'GET' && pathname === target.path) {
      // Another repository of the same owner, as private and administered as the recording's.
      const fullName = target.path.slice('/repos/'.length);
      return send(response, 200, {...repository, name: fullName.split('/')[1], full_name: fullName});
    }
    if (archiveAnswers.some((answerArchive) => answerArchive(request, pathname, searchParams, response))) return;
    if (request.method === 'GET' && pathname === `${repoPath}/hooks`) return send(response, 200, hooks);
    if (target && request.method === 'GET' && pathname === `${target.path}/collaborators`) {
      // As GitHub lists them: the recorded user bodies of everyone with access.
      return send(
        response,
        200,
        [...target.collaborators].map((login) => users.get(login)).filter((user) => user !== undefined),
      );
    }
    if (target && request.method === 'GET' && pathname === `${target.path}/invitations`) {
      return send(response, 200, [...target.invitations.values()].map(listed));
    }
    if (
      target &&
      request.method === 'DELETE' &&
      (match = /^\/repos\/[^/]+\/[^/]+\/invitations\/(\d+)$/.exec(pathname))
    ) {
      const withdrawn = target.invitations.get(Number(match[1]));
      if (!withdrawn) return notFound(response);
      target.invitations.delete(withdrawn.id);
      onEvent?.(`withdrew the invitation of @${withdrawn.invitee.login} (invitation ${withdrawn.id})`);
      return send(response, 204);
    }
    const page = /^\/([^/]+\/[^/]+)(\/.*)?$/.exec(pathname);
    const pageOf = page && records.get(decodeURIComponent(page[1]!).toLowerCase());
    if (request.method === 'GET' && pageOf) return repositoryPage(response, pageOf, pathname);
    notFound(response);
  }

  /**
   * A repository's page (github.com/{owner}/{repo}, and what is below it: its invitations, a
   * release), as the worker links a buyer to it on the stand-in (its `repositoryPage`): what the
   * repository would be on GitHub, and what local mode does in its place.
   */
  function repositoryPage(response: http.ServerResponse, record: RepositoryRecord & {path: string}, pathname: string) {
    const fullName = record.path.slice('/repos/'.length);
    const below =
      pathname.length > fullName.length + 1
        ? `<p>You asked for <code>${escapeHtml(pathname)}</code>: on GitHub, a page of this repository.</p>`
        : '';
    const body = `<p class="local"><strong>Local mode:</strong> this page stands in for a private repository on GitHub.</p>
<h1>${escapeHtml(fullName)}</h1>
<p>On GitHub, this is a private repository buyers are invited to: once they accept the invitation, they read and clone the code here.</p>
${below}<p>In local mode nothing is on GitHub. Invitations are recorded and printed in the terminal that runs <code>npm start</code>, and a download from the dashboard holds ${escapeHtml(record.archives.source?.holds ?? FIXTURE_ARCHIVE_HOLDS)}.</p>
<p>With <code>GITHUB_TOKEN</code> and <code>GITHUB_REPO</code> set in <code>worker/.dev.vars</code>, <code>npm start</code> (without <code>--local</code>) uses GitHub itself, and the dashboard links to your repository on github.com.</p>`;
    response.writeHead(200, {'content-type': 'text/html; charset=utf-8'});
    response.end(standInPage(fullName, body));
  }
  const running = await listen(server, port);

  const standIn: GitHubStandIn = {
    url: running.url,
    requests,
    invitations,
    collaborators,
    repository,
    hooks,
    archives,
    addUser(login) {
      const user = {...invitee, login, id: nextUserId++};
      users.set(login.toLowerCase(), user);
      return user;
    },
    restore(state) {
      for (const {login, id} of state.users) {
        users.set(login.toLowerCase(), {...invitee, login, id});
        // New accounts and invitations get ids past the restored ones, as GitHub's never repeat.
        nextUserId = Math.max(nextUserId, id + 1);
      }
      const fill = (record: RepositoryRecord, on: Pick<RepositoryState, 'collaborators' | 'invitations'>) => {
        for (const login of on.collaborators) record.collaborators.add(login.toLowerCase());
        for (const {id, login} of on.invitations) {
          const user = users.get(login.toLowerCase());
          if (!user) throw new Error(`No user ${login} for invitation ${id}`);
          // Restored as sent now: the local D1 does not say when (the recording's date is years old).
          record.invitations.set(id, {
            ...(invitationAnswer.response as Invitation),
            id,
            invitee: user,
            created_at: new Date(now()).toISOString(),
          });
          nextInvitationId = Math.max(nextInvitationId, id + 1);
        }
      };
      fill(records.get(FIXTURE_REPO.toLowerCase())!, state);
      for (const extra of state.extra ?? []) {
        const record = records.get(extra.repository.toLowerCase());
        if (!record) throw new Error(`The stand-in has no repository ${extra.repository} to restore`);
        fill(record, extra);
      }
    },
    deleteAccount(login) {
      const user = users.get(login.toLowerCase());
      if (!user) throw new Error(`No user ${login}`);
      users.delete(login.toLowerCase());
      for (const record of records.values()) {
        record.collaborators.delete(login.toLowerCase());
        for (const [id, invitation] of record.invitations)
          if (invitation.invitee.id === user.id) record.invitations.delete(id);
      }
    },
    rename(login, newLogin) {
      const user = users.get(login.toLowerCase());
      if (!user) throw new Error(`No user ${login}`);
      users.delete(login.toLowerCase());
      users.set(newLogin.toLowerCase(), Object.assign(user, {login: newLogin}));
      for (const record of records.values())
        if (record.collaborators.delete(login.toLowerCase())) record.collaborators.add(newLogin.toLowerCase());
    },
    accept(invitationId) {
      const found = findInvitation(invitationId);
      if (!found) throw new Error(`No invitation ${invitationId}`);
      const {invitation, record} = found;
      if (isExpired(invitation)) throw new Error(`Invitation ${invitationId} has expired and cannot be accepted`);
      record.invitations.delete(invitationId);
      record.collaborators.add(invitation.invitee.login.toLowerCase());
    },
    decline(invitationId) {
      const found = findInvitation(invitationId);
      if (!found) throw new Error(`No invitation ${invitationId}`);
      found.record.invitations.delete(invitationId);
    },
    expire(invitationId) {
      const invitation = findInvitation(invitationId)?.invitation;
      if (!invitation) throw new Error(`No invitation ${invitationId}`);
      invitation.expired = true;
    },
    isExpired,
    ageInvitation(invitationId, ageMs) {
      const invitation = findInvitation(invitationId)?.invitation;
      if (!invitation) throw new Error(`No invitation ${invitationId}`);
      invitation.created_at = new Date(now() - ageMs).toISOString();
    },
    invitationTimes,
    extra(fullName) {
      const record = records.get(fullName.toLowerCase());
      if (!record || fullName.toLowerCase() === FIXTURE_REPO.toLowerCase())
        throw new Error(`The stand-in has no extra repository ${fullName}`);
      return record;
    },
    contentRequestTimes,
    refused,
    now,
    failNext(match, failure, times = 1) {
      failures.push({match, failure, times});
    },
    beforeNext(match, action) {
      pauses.push({match, action});
    },
    clearFailures() {
      failures.length = 0;
      pauses.length = 0;
    },
    close: running.close,
  };
  return standIn;
}

const DAY_MS = 24 * 3600_000;
/** GitHub: "Invitations will expire after 7 days" (REST docs, "Add a repository collaborator"). */
export const INVITATION_LIFETIME_MS = 7 * DAY_MS;

/**
 * GitHub's secondary limits on content-creating requests ("Rate limits for the REST API", about
 * secondary rate limits): "no more than 80 content-generating requests per minute and no more
 * than 500 content-generating requests per hour". Its points table counts POST, PATCH, PUT and
 * DELETE as the requests that change something; reads are not limited here.
 */
export const SECONDARY_LIMITS = [
  {max: 80, windowMs: 60_000},
  {max: 500, windowMs: 3600_000},
] as const;
const CONTENT_CREATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Seconds until a content-creating request is allowed again (0: now), dropping the times older
 * than the longest window: the oldest request of a full window has to leave it first.
 */
function secondaryLimitWait(times: number[], at: number): number {
  const longest = Math.max(...SECONDARY_LIMITS.map((limit) => limit.windowMs));
  while (times.length > 0 && times[0]! <= at - longest) times.shift();
  let waitMs = 0;
  for (const {max, windowMs} of SECONDARY_LIMITS) {
    const inWindow = times.filter((time) => time > at - windowMs);
    if (inWindow.length >= max) waitMs = Math.max(waitMs, inWindow[inWindow.length - max]! + windowMs - at);
  }
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

/**
 * GitHub's answer past a secondary limit, as its docs describe it: "a 403 or 429 response and an
 * error message that indicates that you exceeded a secondary rate limit", with a `retry-after`
 * header giving the seconds to wait (set by the stand-in; the primary x-ratelimit-* headers of
 * the recording stay, with quota left, as GitHub's do when only a secondary limit is hit). The
 * message is the one GitHub sends.
 */
export const SECONDARY_LIMIT_REFUSAL = {
  message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
  documentation_url:
    'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits',
};
/** GitHub's cap: "You are limited to sending 50 invitations to a repository per 24 hour period". */
export const INVITATIONS_PER_DAY = 50;
/**
 * GitHub's answer to the invitation past its cap. GitHub documents the cap (REST docs, "Add a
 * repository collaborator") but not this answer, and no recording has it. This is the shape GitHub
 * gives the endpoint's other refusals (422 "Validation Failed" with a reason in `errors`), the
 * reason in the docs' own words, which is how the developers who met the cap quote it
 * (octokit/octokit.net#1686). The worker relies only on the words naming the invitations' limit.
 */
export const INVITATION_CAP_REFUSAL = {
  message: 'Validation Failed',
  errors: [
    {
      resource: 'Repository',
      code: 'custom',
      message: `You are limited to sending ${INVITATIONS_PER_DAY} invitations to a repository per 24 hour period.`,
    },
  ],
  documentation_url: 'https://docs.github.com/rest/collaborators/collaborators#add-a-repository-collaborator',
};

/** GitHub's recorded 422 body. */
export const VALIDATION_FAILED = validationFailed.response;
