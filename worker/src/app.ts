import type {AuthUser} from './auth/user';

/** Hono's type parameters for this worker: its bindings and what middleware sets. */
export interface AppEnv {
  Bindings: Env;
  Variables: {user?: AuthUser};
}
