import {useMemo} from 'react';
import {createApiClient, type ApiClient} from './api';
import {useSiteSettings} from './SiteSettingsContext';

export function useApiClient(): ApiClient {
  const {workerUrl} = useSiteSettings();
  return useMemo(() => createApiClient({baseUrl: workerUrl}), [workerUrl]);
}
