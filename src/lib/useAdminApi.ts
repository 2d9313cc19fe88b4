import {useMemo} from 'react';
import {createAdminApi, type AdminApi} from './adminApi';
import {useApiOptions} from './useApiClient';

/** The console's client, carrying the signed-in admin's token. */
export function useAdminApi(): AdminApi {
  const options = useApiOptions();
  return useMemo(() => createAdminApi(options), [options]);
}
