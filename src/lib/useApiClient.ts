import {useMemo} from 'react';
import {createApiClient, type ApiClient} from './api';
import {useAuthClient} from './auth/AuthContext';
import {useSiteSettings} from './SiteSettingsContext';

/** The worker client, carrying the signed-in user's token when there is one. */
export function useApiClient(): ApiClient {
  const {workerUrl} = useSiteSettings();
  const {client, userIfSignedIn} = useAuthClient();
  return useMemo(
    () =>
      createApiClient({
        baseUrl: workerUrl,
        // A visitor's calls carry no token; sign-in that cannot start (logged by AuthProvider)
        // makes them a visitor's too.
        idToken: async (refresh) => {
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
