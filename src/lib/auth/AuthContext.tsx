import React, {createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode} from 'react';
import type {AuthSettings} from '../../buildTime/siteSettings';
import {maybeSignedIn, rememberSignedIn} from './signedInHint';
import type {AuthClient, AuthUser} from './types';

interface AuthContextValue {
  /** False until the provider has said who is signed in: render nothing that depends on it. */
  ready: boolean;
  user: AuthUser | null;
  /** The provider's client; the first call loads its SDK and starts listening. */
  client: () => Promise<AuthClient>;
  /** Who is signed in, once the provider knows (loads the SDK like `client`). */
  currentUser: () => Promise<AuthUser | null>;
  /**
   * Like `currentUser`, but answers null at once, loading nothing, when this browser has not been
   * signed in: a visitor's checkout click never waits for an auth SDK.
   */
  userIfSignedIn: () => Promise<AuthUser | null>;
}

const notInBrowser = () => Promise.reject(new Error('Sign-in runs in the browser only'));
const AuthContext = createContext<AuthContextValue>({
  ready: false,
  user: null,
  client: notInBrowser,
  currentUser: notInBrowser,
  userIfSignedIn: async () => null,
});

/** Loads only the chosen provider's SDK, in its own chunk. */
async function loadClient(settings: AuthSettings): Promise<AuthClient> {
  if (settings.provider === 'supabase') {
    const {createSupabaseAuth} = await import('./supabase');
    return createSupabaseAuth(settings.supabase);
  }
  const {createFirebaseAuth} = await import('./firebase');
  return createFirebaseAuth({config: settings.firebase, emulatorHost: settings.firebaseEmulatorHost});
}

/**
 * Sign-in for the whole site, loaded on demand: a page that shows who is signed in asks for it
 * (`useAuth`), and so does a click that needs a token. The landing page and the docs never load
 * an auth SDK before the visitor acts, which keeps them light (`npm run bench` checks it).
 */
export function AuthProvider({settings, children}: {settings: AuthSettings; children: ReactNode}) {
  const [state, setState] = useState<{ready: boolean; user: AuthUser | null}>({ready: false, user: null});
  const started = useRef<{client: Promise<AuthClient>; known: Promise<void>} | null>(null);
  const latest = useRef<AuthUser | null>(null);

  // Stable for the page's life, so effects that depend on them run once.
  const loaders = useMemo(() => {
    function start() {
      if (started.current) return started.current;
      let markKnown: () => void = () => undefined;
      // Resolves once the provider has said who is signed in; then `latest` follows every change.
      const known = new Promise<void>((resolve) => (markKnown = resolve));
      const client = loadClient(settings);
      client.then(
        (auth) =>
          auth.onUserChanged((user) => {
            latest.current = user;
            markKnown();
            rememberSignedIn(user !== null);
            setState({ready: true, user});
          }),
        (error: unknown) => {
          // §8: a start-up failure is logged; the site goes on as signed out.
          console.error('Sign-in could not start:', error);
          // Signed out for this page, so nothing a visitor needs stays hidden behind the hint.
          rememberSignedIn(false);
          markKnown();
          setState({ready: true, user: null});
        },
      );
      started.current = {client, known};
      return started.current;
    }
    return {
      client: () => start().client,
      currentUser: () => start().known.then(() => latest.current),
      userIfSignedIn: () =>
        started.current || maybeSignedIn() ? start().known.then(() => latest.current) : Promise.resolve(null),
    };
  }, [settings]);
  const value = useMemo<AuthContextValue>(() => ({...state, ...loaders}), [state, loaders]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** Who is signed in, for a component that shows it: starts sign-in when it mounts. */
export function useAuth(): AuthContextValue {
  const auth = useContext(AuthContext);
  const {currentUser} = auth;
  useEffect(() => {
    currentUser().catch(() => undefined);
  }, [currentUser]);
  return auth;
}

/**
 * The client without starting sign-in: for actions that need it only when they run, and for what
 * is known so far (`ready` stays false until something starts sign-in).
 */
export function useAuthClient(): AuthContextValue {
  return useContext(AuthContext);
}
