import {HttpError} from '../errors';
import {PermanentError} from '../jobs';
import {log} from '../log';
import type {Context} from '../context';
import {GitHubFailure, repositoryFor} from './github';

export const INVITATION_CAP_MESSAGE =
  "GitHub's daily limit of invitations to the repository is reached. Nothing was changed; try again tomorrow.";

/**
 * GitHub's refusals reach the buyer as our message with GitHub's status class; GitHub's own text
 * goes to the logs only. Our own answers pass through.
 */
export function reportGitHub(err: unknown): unknown {
  if (err instanceof PermanentError) return new HttpError(422, err.message, 'GITHUB_REFUSED');
  if (err instanceof GitHubFailure && err.capReached) {
    return new HttpError(429, INVITATION_CAP_MESSAGE, 'INVITATION_CAP');
  }
  if (err instanceof GitHubFailure) {
    log.warn('access.github_failed', {status: err.status, error: err.message});
    return err.transient
      ? new HttpError(
          503,
          'GitHub is not answering right now. Please try again in a few minutes.',
          'GITHUB_UNAVAILABLE',
        )
      : new HttpError(422, 'GitHub refused the request. Check the username or contact support.', 'GITHUB_REFUSED');
  }
  return err;
}

/**
 * The GitHub account a username names, with its numeric id, for a request that points a seat at it
 * (Request Access, a team's owner naming a member): 404 `GITHUB_USER_NOT_FOUND` for none. While
 * GitHub cannot be asked, the id is null and the queued job resolves it.
 */
export async function accountNamed(context: Context, username: string): Promise<{login: string; id: number | null}> {
  try {
    return await githubUserOrRefuse(context, username);
  } catch (err) {
    if (!(err instanceof GitHubFailure) || !err.transient) throw reportGitHub(err);
    return {login: username, id: null};
  }
}

/** The GitHub account a username names, asked of GitHub now: 404 `GITHUB_USER_NOT_FOUND` for none. */
export async function githubUserOrRefuse(context: Context, username: string): Promise<{login: string; id: number}> {
  const found = await repositoryFor(context).lookupUser(username);
  if (!found)
    throw new HttpError(404, `GitHub user "${username}" was not found. Check the spelling.`, 'GITHUB_USER_NOT_FOUND');
  return found;
}
