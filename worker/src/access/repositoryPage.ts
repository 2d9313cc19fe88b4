/**
 * A repository's page, as a buyer opens it in a browser: on github.com; on the stand-in when the
 * worker talks to one (GITHUB_API_URL, development and tests only). Local mode's repositories are
 * not the buyer's on github.com, so the stand-in draws each one's page, saying what it stands for.
 */
export function repositoryPage(settings: {GITHUB_API_URL?: string}, fullName: string): string {
  return `${(settings.GITHUB_API_URL ?? 'https://github.com').replace(/\/+$/, '')}/${fullName}`;
}
