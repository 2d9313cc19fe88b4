import {isLoopbackHost} from '../address';

/**
 * A repository's page, as a buyer opens it in a browser: on github.com; on the stand-in when the
 * worker talks to one (GITHUB_API_URL on this machine: local mode and tests). Local mode's
 * repositories are not the buyer's on github.com, so the stand-in draws each one's page, saying
 * what it stands for. A GITHUB_API_URL anywhere else (set in production against the docs, or
 * GitHub's own API named outright) is an API, not pages a buyer can open: the link stays on github.com.
 */
export function repositoryPage(settings: {GITHUB_API_URL?: string}, fullName: string): string {
  return `${standIn(settings.GITHUB_API_URL) ?? 'https://github.com'}/${fullName}`;
}

/** The GitHub stand-in's address, when the worker's API is one on this machine; else null. */
function standIn(apiUrl: string | undefined): string | null {
  if (!apiUrl || !URL.canParse(apiUrl)) return null;
  return isLoopbackHost(new URL(apiUrl).hostname) ? apiUrl.replace(/\/+$/, '') : null;
}
