/**
 * The extra repositories the plans grant (src/config: a plan's `extraRepositories`): each key a
 * plan names has a repository in GITHUB_EXTRA_REPOS, and the token may invite and remove
 * collaborators there, on a private repository. A key without one grants buyers nothing (the
 * worker never guesses a repository), so a plan would promise what is not delivered: a failure.
 * So is a GITHUB_EXTRA_REPOS the worker would refuse to start with (worker/src/extraRepos.ts): a
 * repository granted twice, or as the kit's own, or the key kit.
 */
import {RequestError} from '@octokit/request-error';
import {appConfig, extraRepositoryKeys} from '../../src/config';
import {EXTRA_REPO_PAIR, extraReposConflict, extraRepoPairs} from '../../worker/src/extraRepos';
import {githubClient} from './github';
import {type CheckLine, fail, messageOf, ok, secretPut} from './lines';

export interface ExtraRepositoriesCheckInput {
  token: string | undefined;
  /** GITHUB_EXTRA_REPOS: `key=owner/name`, comma-separated. */
  extraRepos: string | undefined;
  /** GITHUB_REPO, the kit's own repository. */
  kitRepo: string | undefined;
  apiUrl?: string;
  env: string;
}

export async function checkExtraRepositories(input: ExtraRepositoriesCheckInput): Promise<CheckLine[]> {
  const wanted = new Map<string, string[]>();
  for (const plan of appConfig.plans) {
    for (const key of extraRepositoryKeys(plan)) wanted.set(key, [...(wanted.get(key) ?? []), plan.name]);
  }
  // Read as the worker reads it (worker/src/extraRepos.ts): a value it would refuse, or a key it
  // would map to another repository, would be checked here as something else.
  const bad = input.extraRepos ? input.extraRepos.split(',').filter((pair) => !EXTRA_REPO_PAIR.test(pair)) : [];
  if (bad.length > 0) {
    return [
      fail(
        `GitHub: GITHUB_EXTRA_REPOS has "${bad[0]!.trim()}", not key=owner/name`,
        `${secretPut('GITHUB_EXTRA_REPOS', input.env)} (such as prompts=your-name/your-prompts)`,
      ),
    ];
  }
  const named = extraRepoPairs(input.extraRepos);
  const conflict = extraReposConflict(input.kitRepo, named);
  if (conflict) {
    return [
      fail(
        `GitHub: ${conflict} The worker would refuse every request`,
        `${secretPut('GITHUB_EXTRA_REPOS', input.env)} with one repository a key, none of them GITHUB_REPO and no key named kit`,
      ),
    ];
  }
  const lines: CheckLine[] = [];
  for (const [key, plans] of wanted) {
    const repository = named[key];
    if (!repository) {
      lines.push(
        fail(
          `GitHub: ${plans.join(', ')} grants "${key}" (${described(key)}), but GITHUB_EXTRA_REPOS names no repository for it: buyers would get nothing for it`,
          `${secretPut('GITHUB_EXTRA_REPOS', input.env)} (${key}=owner/name, a private repository the token administers), or take "${key}" out of the plan's extraRepositories in src/config/app.ts`,
        ),
      );
      continue;
    }
    if (input.token) lines.push(await repositoryLine(input.token, input.apiUrl, key, repository));
  }
  return lines;
}

function described(key: string): string {
  return (
    (appConfig.extraRepositories as Record<string, {name: string}>)[key]?.name ??
    'not described in appConfig.extraRepositories'
  );
}

/** The same questions as for GITHUB_REPO: found with the token, private, and the token may invite. */
async function repositoryLine(
  token: string,
  apiUrl: string | undefined,
  key: string,
  fullName: string,
): Promise<CheckLine> {
  const [owner, repo] = fullName.split('/') as [string, string];
  try {
    const {data} = await githubClient(token, apiUrl).rest.repos.get({owner, repo});
    if (!data.private)
      return fail(
        `GitHub: ${fullName} ("${key}") is public: anyone can read what buyers pay for`,
        `https://github.com/${fullName}/settings, Danger Zone, Change visibility: Private`,
      );
    if (data.permissions?.admin !== true) {
      return fail(
        `GitHub: the token cannot invite or remove collaborators on ${fullName} ("${key}"; needs admin)`,
        `Give the token Administration: read and write on ${fullName}`,
      );
    }
    return ok(`GitHub: the token may invite and remove collaborators on ${fullName} ("${key}")`);
  } catch (error) {
    const status = error instanceof RequestError ? error.status : 0;
    return fail(
      `GitHub: ${fullName} ("${key}") could not be read with this token (${status || messageOf(error)})`,
      `Check GITHUB_EXTRA_REPOS, and give the token access to ${fullName}`,
    );
  }
}
