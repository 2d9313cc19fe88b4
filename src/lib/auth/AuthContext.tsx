import React, {createContext, useContext, useEffect, useMemo, useState, type ReactNode} from 'react';
import type {AuthSettings} from '../siteSettings';
import type {AuthClient, AuthUser} from './types';

export interface AuthState {
  /** False until the provider has said who is signed in: render nothing that depends on it. */
  ready: boolean;
  user: AuthUser | null;
  /** The provider's client, loaded on first use. */
  client: () => Promise<AuthClient>;
}

const notInBrowser = () => Promise.reject(new Error('Sign-in runs in the browser only'));
const AuthContext = createContext<AuthState>({ready: false, user: null, client: notInBrowser});

/** Loads only the chosen provider's SDK, in its own chunk, so pages never wait for it to paint. */
async function loadClient(settings: AuthSettings): Promise<AuthClient> {
  if (settings.provider === 'supabase') {
    const {createSupabaseAuth} = await import('./supabase');
    return createSupabaseAuth(settings.supabase);
  }
  const {createFirebaseAuth} = await import('./firebase');
  return createFirebaseAuth({config: settings.firebase, emulatorHost: settings.firebaseEmulatorHost});
}

export function AuthProvider({settings, children}: {settings: AuthSettings; children: ReactNode}) {
  const [client] = useState(() => {
    let loading: Promise<AuthClient> | undefined;
    return () => (loading ??= loadClient(settings));
  });
  const [state, setState] = useState<{ready: boolean; user: AuthUser | null}>({ready: false, user: null});

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    client()
      .then((auth) => {
        if (cancelled) return;
        unsubscribe = auth.onUserChanged((user) => setState({ready: true, user}));
      })
      .catch((error: unknown) => {
        // §8: a start-up failure is logged; the site goes on as signed out.
        console.error('Sign-in could not start:', error);
        if (!cancelled) setState({ready: true, user: null});
      });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [client]);

  const value = useMemo(() => ({...state, client}), [state, client]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}
