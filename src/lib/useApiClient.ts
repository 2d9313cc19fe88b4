import {useMemo} from 'react';
import {createApiClient, type ApiClient} from './api';
import {useAuthClient} from './auth/AuthContext';
import {useSiteSettings} from './SiteSettingsContext';

/** The worker client, carrying the signed-in user's token when there is one. */
export function useApiClient(): ApiClient {
  const {workerUrl} = useSiteSettings();
  const {client} = useAuthClient();
  return useMemo(
    () =>
      createApiClient({
        baseUrl: workerUrl,
        // Sign-in that cannot start (logged by AuthProvider) means calls go out as a visitor's.
        idToken: (refresh) => client().then((auth) => auth.idToken(refresh), () => null),
      }),
    [workerUrl, client],
  );
}
