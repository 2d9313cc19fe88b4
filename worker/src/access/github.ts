import {Octokit} from '@octokit/rest';
import {RequestError} from '@octokit/request-error';
import {HttpError} from '../errors';
import type {Context} from '../context';
import {OutOfSubrequests} from '../subrequests';
import {serviceName} from '../../../src/config/serviceName';

/**
 * The private repository's collaborators, through @octokit/rest. Every failure becomes a
 * GitHubFailure that says whether retrying can help: rate limits (403 or 429 with retry-after
 * or an exhausted quota), 5xx and the network are transient; other 4xx are not.
 */
export class GitHubFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly transient: boolean,
    readonly retryAfterMs?: number,
    /** GitHub refused an invitation because the repository's invitations of the last 24 hours are used up. */
    readonly capReached = false,
  ) {
    super(message);
  }
}

/** GitHub expires a repository invitation 7 days after it was sent. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface GitHubUser {
  id: number;
  login: string;
}

export type InviteResult = {state: 'invited'; invitationId: number} | {state: 'active'};

export interface Invitation {
  id: number;
  inviteeId: number | null;
  inviteeLogin: string | null;
  expired: boolean;
  /** When GitHub created it (ms since the epoch, GitHub's `created_at`). */
  createdAt: number;
}

export interface Repository {
  /** owner/name: the repository every call below goes to. */
  fullName: string;
  lookupUser(username: string): Promise<GitHubUser | null>;
  /** The account's login today (logins can change; the numeric id cannot), or null if it is gone. */
  loginOf(githubUserId: number): Promise<string | null>;
  /** Sends an invitation. Only ever called for an account that is not a collaborator yet. */
  invite(username: string): Promise<InviteResult>;
  /** Withdraws one invitation: true if it was still open, false if it was accepted or gone. */
  withdrawInvitation(invitationId: number): Promise<boolean>;
  /** Removes a collaborator; one who is not there already is fine. */
  removeCollaborator(login: string): Promise<void>;
  isCollaborator(username: string): Promise<boolean>;
  /** The repository's open and expired invitations. */
  invitations(): Promise<Invitation[]>;
  /** The repository's direct collaborators: the accounts added to it, by hand or by invitation. */
  collaborators(): Promise<GitHubUser[]>;
  /** What a download holds: the latest release's tag, or else the default branch. */
  downloadRef(): Promise<{ref: string; release: boolean}>;
  /** The repository at `ref` as a .zip: GitHub's archive, as a stream, never held in memory. */
  zipball(ref: string): Promise<Response>;
}

/**
 * The repository, through the invocation's context: every call to GitHub spends one of its
 * subrequests. The kit's (`GITHUB_REPO`) unless `fullName` names another the seller set (an extra
 * repository of GITHUB_EXTRA_REPOS, access/grants/reconcile.ts).
 */
export function repositoryFor(
  {settings, subrequests}: Pick<Context, 'settings' | 'subrequests'>,
  fullName = settings.GITHUB_REPO,
): Repository {
  const {GITHUB_TOKEN: token} = settings;
  const spent = (input: RequestInfo | URL, init?: RequestInit) => {
    subrequests.spend();
    return fetch(input, init);
  };
  if (!token || !fullName) {
    throw new HttpError(503, 'Repository access is not configured yet. Please contact support.', 'NOT_CONFIGURED');
  }
  const [owner, repo] = fullName.split('/') as [string, string];
  const octokit = new Octokit({
    auth: token,
    userAgent: `${serviceName}-worker`,
    ...(settings.GITHUB_API_URL && {baseUrl: settings.GITHUB_API_URL.replace(/\/$/, '')}),
    request: {fetch: spent},
    log: {debug: () => {}, info: () => {}, warn: () => {}, error: () => {}},
  });

  return {
    fullName,
    lookupUser: (username) =>
      call(async () => {
        const found = await orNull(octokit.rest.users.getByUsername({username}));
        return found && {id: found.data.id, login: found.data.login};
      }),
    loginOf: (githubUserId) =>
      call(async () => (await orNull(octokit.rest.users.getById({account_id: githubUserId})))?.data.login ?? null),
    invite: (username) =>
      call(async () => {
        const response = await octokit.rest.repos.addCollaborator({
          owner,
          repo,
          username,
          permission: settings.GITHUB_PERMISSION,
        });
        // 201 created an invitation; 204 means the user already had access (and GitHub just set
        // their permission): callers check first so that this does not happen.
        if (response.status === 201 && response.data) return {state: 'invited', invitationId: response.data.id};
        return {state: 'active'};
      }),
    withdrawInvitation: (invitationId) =>
      call(
        async () =>
          (await orNull(octokit.rest.repos.deleteInvitation({owner, repo, invitation_id: invitationId}))) !== null,
      ),
    removeCollaborator: (login) =>
      call(async () => {
        await orNull(octokit.rest.repos.removeCollaborator({owner, repo, username: login}));
      }),
    isCollaborator: (username) =>
      call(async () => (await orNull(octokit.rest.repos.checkCollaborator({owner, repo, username}))) !== null),
    collaborators: () =>
      call(async () => {
        const all = await octokit.paginate(octokit.rest.repos.listCollaborators, {
          owner,
          repo,
          affiliation: 'direct',
          per_page: 100,
        });
        return all.map((user) => ({id: user.id, login: user.login}));
      }),
    invitations: () =>
      call(async () => {
        const all = await octokit.paginate(octokit.rest.repos.listInvitations, {owner, repo, per_page: 100});
        return all.map((invitation) => ({
          id: invitation.id,
          inviteeId: invitation.invitee?.id ?? null,
          inviteeLogin: invitation.invitee?.login ?? null,
          expired: invitation.expired === true,
          createdAt: Date.parse(invitation.created_at),
        }));
      }),
    downloadRef: () =>
      call(async () => {
        // 404 when the repository has no published release (drafts and pre-releases do not count).
        const latest = await orNull(octokit.rest.repos.getLatestRelease({owner, repo}));
        if (latest) return {ref: latest.data.tag_name, release: true};
        return {ref: (await octokit.rest.repos.get({owner, repo})).data.default_branch, release: false};
      }),
    zipball: (ref) =>
      call(async () => {
        // GitHub answers 302 to a short-lived codeload URL that carries its own token. Following it
        // by hand streams the archive through, and the seller's token is never sent to codeload.
        const redirect = await octokit.rest.repos.downloadZipballArchive({
          owner,
          repo,
          ref,
          request: {redirect: 'manual'},
        });
        const location = redirect.headers.location;
        if (!location)
          throw new GitHubFailure(`GitHub answered ${redirect.status} without an archive location`, 502, true);
        const archive = await spent(location);
        if (!archive.ok || !archive.body)
          throw new GitHubFailure(`GitHub's archive answered ${archive.status}`, archive.status, archive.status >= 500);
        return archive;
      }),
  };
}

/** GitHub's 404 as null: "not found" is an answer here, not a failure. */
async function orNull<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (err) {
    if (err instanceof RequestError && err.status === 404) return null;
    throw err;
  }
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    // Octokit wraps what its fetch throws; a spent budget is no answer of GitHub's.
    const cause = err instanceof RequestError ? err.cause : err;
    if (cause instanceof OutOfSubrequests) throw cause;
    throw classify(err);
  }
}

/**
 * GitHub's refusal of an invitation past its cap. GitHub documents the cap ("You are limited to
 * sending 50 invitations to a repository per 24 hour period") but not its answer; those who met it
 * quote that sentence back (octokit/octokit.net#1686). So any refusal whose words speak of the
 * invitations' limit counts, whatever its status.
 */
const INVITATION_CAP =
  /invitations?\b.*\b(24 hours?|limit|exceeded|maximum)|(limit|exceeded|maximum)\b.*\binvitations?/i;

function classify(err: unknown): GitHubFailure {
  if (!(err instanceof RequestError)) {
    return new GitHubFailure(`GitHub could not be reached: ${String(err)}`, 0, true);
  }
  const headers = err.response?.headers ?? {};
  const retryAfter = Number(headers['retry-after']);
  const resetAt = Number(headers['x-ratelimit-reset']);
  const quotaSpent = headers['x-ratelimit-remaining'] === '0';
  const rateLimited =
    err.status === 429 || (err.status === 403 && ((Number.isFinite(retryAfter) && retryAfter > 0) || quotaSpent));
  const retryAfterMs =
    Number.isFinite(retryAfter) && retryAfter > 0
      ? retryAfter * 1000
      : quotaSpent && Number.isFinite(resetAt)
        ? Math.max(0, resetAt * 1000 - Date.now())
        : undefined;
  const data = err.response?.data as {message?: string; errors?: {message?: string}[]} | undefined;
  // A 422's reason is in `errors[].message`; `message` alone says only "Validation Failed".
  const reasons = (data?.errors ?? []).map((entry) => entry.message).filter(Boolean);
  const message = `GitHub answered ${err.status}: ${[data?.message ?? err.message, ...reasons].join(': ')}`;
  const capReached = !rateLimited && [403, 422, 429].includes(err.status) && INVITATION_CAP.test(message);
  return new GitHubFailure(message, err.status, rateLimited || err.status >= 500, retryAfterMs, capReached);
}
