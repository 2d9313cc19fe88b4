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
  /** The affiliate programme: its terms, joining, and an affiliate's link and figures (signed in). */
  affiliates: '/affiliates',
  /** The seller's console: admins only, kept out of search engines. */
  admin: '/admin',
  docs: '/docs',
  /** The docs' search page, which takes the query as `?q=`. */
  search: '/search',
} as const;

/**
 * The pages that hold a token or a secret in the browser: an ID token (sign-in, the dashboard, the
 * seller's console, a new password), or the checkout session id that `/success` keeps in
 * sessionStorage. No third-party script runs in a document that shows one of them: tracking never
 * starts there, a navigation between these and the other pages is a full page load while tracking
 * is on, and their Content-Security-Policy names no third-party host (SECURITY.md, "Pages that
 * hold a token").
 */
export const TOKEN_PAGES = [
  ROUTES.signIn,
  ROUTES.finishSignIn,
  ROUTES.newPassword,
  ROUTES.dashboard,
  ROUTES.success,
  ROUTES.admin,
  // Signed in, it reads the affiliate's own figures with their ID token.
  ROUTES.affiliates,
] as const;

/** Whether a path is one of TOKEN_PAGES, with or without a trailing slash. */
export function isTokenPage(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (TOKEN_PAGES as readonly string[]).includes(path);
}

/** Other apps by the same maker: the footer's "Top Apps" and the leaderboard. */
export const SISTER_APPS = {
  dockside: {name: 'Dockside', url: 'https://dockside.app'},
  keelhaul: {name: 'Keelhaul', url: 'https://keelhaul.io'},
  moorings: {name: 'Moorings', url: 'https://moorings.app'},
} as const;
