/**
 * GitHub: the token works, the repository exists and is private, the token may invite and remove
 * collaborators and (when buyers may download) read the code, and who owns it (50 invitations a
 * day per repository to outside collaborators, whoever owns it).
 * Asks with @octokit/rest, as the worker does, at GITHUB_API_URL when one is set.
 */
import {Octokit} from '@octokit/rest';
import {RequestError} from '@octokit/request-error';
import {type CheckLine, fail, messageOf, ok, secretPut, warn} from './lines';
import {appConfig} from '../../src/config';
import {serviceName} from '../../src/config/serviceName';

export interface GitHubCheckInput {
  token: string | undefined;
  /** GITHUB_REPO, `owner/name`. */
  repo: string | undefined;
  /** GITHUB_PERMISSION: what invitations grant (default pull). */
  permission: string | undefined;
  apiUrl?: string;
  env: string;
}

export const TOKENS = 'https://github.com/settings/personal-access-tokens/new';

/** GitHub's REST API as the worker asks it, at GITHUB_API_URL when one is set. */
export function githubClient(token: string, apiUrl?: string): Octokit {
  return new Octokit({
    auth: token,
    userAgent: `${serviceName}-preflight`,
    ...(apiUrl && {baseUrl: apiUrl.replace(/\/$/, '')}),
    log: {debug: () => {}, info: () => {}, warn: () => {}, error: () => {}},
  });
}
/** GitHub's limit for repositories a personal account owns (Docs: inviting collaborators). */
export const USER_INVITATIONS_PER_DAY = 50;

export async function checkGitHub(input: GitHubCheckInput): Promise<CheckLine[]> {
  const {token, repo, env} = input;
  const lines: CheckLine[] = [];
  if (!token)
    lines.push(
      fail(
        'GitHub: GITHUB_TOKEN is not set',
        `Make a token at ${TOKENS} (repository access: the private repository; Administration: read and write; Contents: read-only), then ${secretPut('GITHUB_TOKEN', env)}`,
      ),
    );
  if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo)) {
    lines.push(
      fail(
        `GitHub: GITHUB_REPO is ${repo ? `"${repo}", not owner/name` : 'not set'}`,
        `${secretPut('GITHUB_REPO', env)} (the private repository buyers are invited to, as owner/name)`,
      ),
    );
  }
  if (!token || lines.length > 0) return lines;
  const [owner, name] = repo!.split('/') as [string, string];
  const octokit = githubClient(token, input.apiUrl);
  let repository: Awaited<ReturnType<typeof octokit.rest.repos.get>>['data'];
  try {
    repository = (await octokit.rest.repos.get({owner, repo: name})).data;
  } catch (error) {
    const status = error instanceof RequestError ? error.status : 0;
    if (status === 401)
      return [
        fail(
          `GitHub: the token is refused (${messageOf(error)})`,
          `Make a new token at ${TOKENS}, then ${secretPut('GITHUB_TOKEN', env)}`,
        ),
      ];
    if (status === 404 || status === 403) {
      return [
        fail(
          `GitHub: ${repo} is not found with this token (${status})`,
          `Check GITHUB_REPO, and give the token access to ${repo} at https://github.com/settings/tokens`,
        ),
      ];
    }
    return [
      fail(
        `GitHub: could not read ${repo}: ${messageOf(error)}`,
        'Try again; https://www.githubstatus.com says whether GitHub is down',
      ),
    ];
  }
  lines.push(ok(`GitHub: the token works and reads ${repository.full_name}`));
  if (!repository.private) {
    lines.push(
      fail(
        `GitHub: ${repository.full_name} is public: anyone can read what buyers pay for`,
        `https://github.com/${repository.full_name}/settings, Danger Zone, Change visibility: Private`,
      ),
    );
  }
  if (repository.permissions?.admin !== true) {
    lines.push(
      fail(
        `GitHub: the token cannot invite or remove collaborators on ${repository.full_name} (needs admin)`,
        `Give the token Administration: read and write on ${repository.full_name} (${TOKENS}), or use an account that is an admin of it; then ${secretPut('GITHUB_TOKEN', env)}`,
      ),
    );
  } else {
    lines.push(ok(`GitHub: the token may invite and remove collaborators on ${repository.full_name}`));
  }
  if (appConfig.repository.downloads) lines.push(await downloadLine(octokit, repository, env));
  lines.push(ownerLine(repository.owner));
  const permission = input.permission ?? 'pull';
  if (permission !== 'pull')
    lines.push(
      warn(
        `GitHub: invitations grant ${permission}, more than reading the code (GITHUB_PERMISSION)`,
        'Set GITHUB_PERMISSION to pull in worker/wrangler.jsonc unless buyers should push',
      ),
    );
  return lines;
}

/**
 * Buyers' downloads (`repository.downloads` in src/config) fetch the archive with this token: the
 * same call the worker makes, up to GitHub's redirect, which is not followed.
 */
async function downloadLine(
  octokit: Octokit,
  repository: {full_name: string; default_branch: string; owner: {login: string}; name: string},
  env: string,
): Promise<CheckLine> {
  try {
    const answer = await octokit.rest.repos.downloadZipballArchive({
      owner: repository.owner.login,
      repo: repository.name,
      ref: repository.default_branch,
      request: {redirect: 'manual'},
    });
    if (answer.status === 302 && answer.headers.location)
      return ok(`GitHub: the token can read the code of ${repository.full_name}, for buyers' downloads`);
    return fail(
      `GitHub: ${repository.full_name}'s archive answered ${answer.status}, not a download`,
      'Try again; https://www.githubstatus.com says whether GitHub is down',
    );
  } catch (error) {
    return fail(
      `GitHub: the token cannot read the code of ${repository.full_name} (${messageOf(error)}), so buyers' downloads fail`,
      `Give the token Contents: Read-only on ${repository.full_name} (${TOKENS}), then ${secretPut('GITHUB_TOKEN', env)}; or set repository.downloads to false in src/config/app.ts`,
    );
  }
}

function ownerLine(owner: {login: string; type: string}): CheckLine {
  if (owner.type === 'Organization') {
    // The cap spares only the organization's own members, and buyers are outside collaborators.
    return ok(
      `GitHub: owned by the organization ${owner.login}: outside collaborators are capped at ${USER_INVITATIONS_PER_DAY} invitations per repository per 24 hours here too; check that its member privileges let repository admins invite them`,
    );
  }
  return warn(
    `GitHub: owned by the personal account ${owner.login}: GitHub takes at most ${USER_INVITATIONS_PER_DAY} invitations per repository per 24 hours; the worker queues the rest and retries`,
  );
}
