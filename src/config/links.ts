/**
 * The site's own routes and the outside links that several places name: written here once, so a
 * page, the footer, the sitemap and the worker's e-mails never disagree.
 */
export const ROUTES = {
  home: '/',
  signIn: '/signin',
  finishSignIn: '/finish-sign-in',
  /** Where a signed-in user chooses a new password: the end of a Supabase reset link. */
  newPassword: '/new-password',
  dashboard: '/dashboard',
  success: '/success',
  terms: '/tos',
  privacy: '/privacy-policy',
  error: '/error',
  leaderboard: '/leaderboard',
  /** The seller's console: admins only, kept out of search engines. */
  admin: '/admin',
  docs: '/docs',
} as const;

/** Other apps by the same maker: the footer's "Top Apps" and the leaderboard. */
export const SISTER_APPS = {
  dockside: {name: 'Dockside', url: 'https://dockside.app'},
  keelhaul: {name: 'Keelhaul', url: 'https://keelhaul.io'},
  moorings: {name: 'Moorings', url: 'https://moorings.app'},
} as const;

/**
 * A repository's page on GitHub. Which repository buyers are invited to is the worker's setting
 * (`GITHUB_REPO`), and `/accessStatus` says it: the dashboard links to that one.
 */
export function githubRepositoryUrl(fullName: string): string {
  return `https://github.com/${fullName}`;
}
