import {useMemo} from 'react';
import {createApiClient, type ApiClient, type ApiClientOptions} from './api';
import {useAuthClient} from './auth/AuthContext';
import {useSiteSettings} from './SiteSettingsContext';

/** How this page reaches the worker: its URL, and the signed-in user's token when there is one. */
export function useApiOptions(): ApiClientOptions {
  const {workerUrl} = useSiteSettings();
  const {client, userIfSignedIn} = useAuthClient();
  return useMemo(
    () => ({
      baseUrl: workerUrl,
      // A visitor's calls carry no token; sign-in that cannot start (logged by AuthProvider)
      // makes them a visitor's too.
      idToken: async (refresh: boolean) => {
        const user = await userIfSignedIn().catch(() => null);
        return user ? (await client()).idToken(refresh) : null;
      },
      // The worker will not take this session again: show the visitor signed out.
      onSessionEnded: () => {
        void client()
          .then((auth) => auth.signOut())
          .catch((error: unknown) => console.error('Signing out an ended session failed:', error));
      },
    }),
    [workerUrl, client, userIfSignedIn],
  );
}

/** The worker client, carrying the signed-in user's token when there is one. */
export function useApiClient(): ApiClient {
  const options = useApiOptions();
  return useMemo(() => createApiClient(options), [options]);
}
