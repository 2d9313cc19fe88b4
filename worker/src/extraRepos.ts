/**
 * GITHUB_EXTRA_REPOS, the extra private repositories the plans grant (src/config:
 * `Plan.extraRepositories`): `key=owner/name` pairs read into owner/name by key, and the rules that
 * make them usable beside GITHUB_REPO. The worker refuses to start on a breach (settings.ts), and
 * `npm run preflight` fails on one before a deploy (scripts/preflight/extraRepositories.ts).
 */

/** One `key=owner/name` pair, with the blanks allowed around its parts. */
const PAIR = String.raw`\s*[\w-]+\s*=\s*[\w.-]+\/[\w.-]+\s*`;
export const EXTRA_REPO_PAIR = new RegExp(`^${PAIR}$`);
/** The whole variable: such pairs, comma-separated. */
export const EXTRA_REPOS_FORMAT = new RegExp(`^${PAIR}(,${PAIR})*$`);

/**
 * The pairs by key, the first of a repeated key winning. With no prototype: a key a caller sends
 * (`__proto__`, `constructor`) finds nothing, not Object's own.
 */
export function extraRepoPairs(value: string | undefined): Record<string, string> {
  const found = Object.create(null) as Record<string, string>;
  for (const pair of (value ?? '').split(',')) {
    const [key, repository] = pair.split('=').map((part) => part.trim());
    if (key && repository && !(key in found)) found[key] = repository;
  }
  return found;
}

/**
 * Why these extra repositories cannot be granted beside the kit's (`kitRepo`, GITHUB_REPO), or
 * null. D1's grants table keys the kit's own repository 'kit' (migration 0028). And a repository
 * has one line for GitHub's daily cap (access/grants/invitationQueue.ts) and one record of who holds each
 * account on it: granted under two keys, or as the kit's and an extra one, the two grants would
 * wait for and take back each other's invitations.
 */
export function extraReposConflict(kitRepo: string | undefined, extraRepos: Record<string, string>): string | null {
  if ('kit' in extraRepos)
    return "GITHUB_EXTRA_REPOS may not use the key kit: it names the kit's own repository (GITHUB_REPO)";
  const granted = [kitRepo, ...Object.values(extraRepos)]
    .filter((name): name is string => Boolean(name))
    .map((name) => name.toLowerCase());
  const twice = granted.find((name, index) => granted.indexOf(name) !== index);
  return twice
    ? `GITHUB_EXTRA_REPOS names ${twice} twice, or as the kit's own repository (GITHUB_REPO): each repository may be granted once.`
    : null;
}
