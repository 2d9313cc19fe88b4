import {Octokit} from '@octokit/rest';
import {RequestError} from '@octokit/request-error';
import {HttpError} from '../errors';
import type {Settings} from '../settings';

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
  ) {
    super(message);
  }
}

export interface GitHubUser {
  id: number;
  login: string;
}

export type InviteResult = {state: 'invited'; invitationId: number} | {state: 'active'};

export interface Repository {
  lookupUser(username: string): Promise<GitHubUser | null>;
  invite(username: string): Promise<InviteResult>;
  /** Withdraws the invitation and removes the collaborator; either may already be gone. */
  remove(access: {username: string; invitationId: number | null}): Promise<void>;
  isCollaborator(username: string): Promise<boolean>;
  /** The open invitation with this id, or null when it was accepted, declined or deleted. */
  findInvitation(invitationId: number): Promise<{expired: boolean} | null>;
}

export function repositoryFor(settings: Settings): Repository {
  const {GITHUB_TOKEN: token, GITHUB_REPO: fullName} = settings;
  if (!token || !fullName) {
    throw new HttpError(503, 'Repository access is not configured yet. Please contact support.', 'NOT_CONFIGURED');
  }
  const [owner, repo] = fullName.split('/') as [string, string];
  const octokit = new Octokit({
    auth: token,
    userAgent: 'slipway-worker',
    ...(settings.GITHUB_API_URL && {baseUrl: settings.GITHUB_API_URL.replace(/\/$/, '')}),
    request: {fetch: (input: RequestInfo, init?: RequestInit) => fetch(input, init)},
    log: {debug: () => {}, info: () => {}, warn: () => {}, error: () => {}},
  });

  return {
    lookupUser: (username) =>
      call(async () => {
        try {
          const {data} = await octokit.rest.users.getByUsername({username});
          return {id: data.id, login: data.login};
        } catch (err) {
          if (err instanceof RequestError && err.status === 404) return null;
          throw err;
        }
      }),
    invite: (username) =>
      call(async () => {
        const response = await octokit.rest.repos.addCollaborator({
          owner,
          repo,
          username,
          permission: settings.GITHUB_PERMISSION,
        });
        // 201 created an invitation; 204 means the user already has access.
        if (response.status === 201 && response.data) return {state: 'invited', invitationId: response.data.id};
        return {state: 'active'};
      }),
    remove: ({username, invitationId}) =>
      call(async () => {
        if (invitationId !== null) {
          await ignoreNotFound(octokit.rest.repos.deleteInvitation({owner, repo, invitation_id: invitationId}));
        }
        await ignoreNotFound(octokit.rest.repos.removeCollaborator({owner, repo, username}));
      }),
    isCollaborator: (username) =>
      call(async () => {
        try {
          await octokit.rest.repos.checkCollaborator({owner, repo, username});
          return true;
        } catch (err) {
          if (err instanceof RequestError && err.status === 404) return false;
          throw err;
        }
      }),
    findInvitation: (invitationId) =>
      call(async () => {
        const invitations = await octokit.paginate(octokit.rest.repos.listInvitations, {owner, repo, per_page: 100});
        const found = invitations.find((invitation) => invitation.id === invitationId);
        return found ? {expired: found.expired === true} : null;
      }),
  };
}

async function ignoreNotFound(request: Promise<unknown>) {
  try {
    await request;
  } catch (err) {
    if (!(err instanceof RequestError && err.status === 404)) throw err;
  }
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw classify(err);
  }
}

function classify(err: unknown): GitHubFailure {
  if (!(err instanceof RequestError)) {
    return new GitHubFailure(`GitHub could not be reached: ${String(err)}`, 0, true);
  }
  const headers = err.response?.headers ?? {};
  const retryAfter = Number(headers['retry-after']);
  const resetAt = Number(headers['x-ratelimit-reset']);
  const quotaSpent = headers['x-ratelimit-remaining'] === '0';
  const rateLimited = err.status === 429 || (err.status === 403 && (Number.isFinite(retryAfter) && retryAfter > 0 || quotaSpent));
  const retryAfterMs =
    Number.isFinite(retryAfter) && retryAfter > 0
      ? retryAfter * 1000
      : quotaSpent && Number.isFinite(resetAt)
        ? Math.max(0, resetAt * 1000 - Date.now())
        : undefined;
  const data = err.response?.data as {message?: string} | undefined;
  const message = `GitHub answered ${err.status}: ${data?.message ?? err.message}`;
  return new GitHubFailure(message, err.status, rateLimited || err.status >= 500, retryAfterMs);
}
