import {Hono} from 'hono';
import {API_PATHS, type SignedInResponse} from '../../../src/config/api';
import type {AppEnv} from '../app';
import {currentUser, requireUser} from './middleware';

/**
 * POST /signedIn: the site calls it as a sign-in finishes, so that an account's first verified
 * sign-in is handled before the person does anything else (before choosing a password on
 * /new-password, above all). The work is the authentication middleware's (firstVerifiedSignIn.ts).
 */
export const authRoutes = new Hono<AppEnv>().post(API_PATHS.signedIn, requireUser, (c) =>
  c.json({emailVerified: currentUser(c).emailVerified} satisfies SignedInResponse),
);
