import {Hono} from 'hono';
import {API_PATHS, type IsAdminResponse} from '../../../src/config/api';
import type {AppEnv} from '../app';
import {currentUser, requireUser} from '../auth/middleware';
import {isAdmin} from './auth';

/**
 * GET /isAdmin: whether the caller's own account may open the console, so that the account menu
 * links to it for the seller only. The ADMIN_EMAILS list never leaves the worker, and a buyer is
 * told `false`, not refused: the menu asks whenever it opens. Display only; the console's routes
 * check again (requireAdmin).
 */
export const isAdminRoutes = new Hono<AppEnv>().get(API_PATHS.isAdmin, requireUser, (c) =>
  c.json({admin: isAdmin(currentUser(c), c.env)} satisfies IsAdminResponse),
);
