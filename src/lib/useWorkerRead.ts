import {useEffect, useEffectEvent, useState} from 'react';
import {type ApiClient} from './api';
import {useApiClient} from './useApiClient';

/**
 * One read of the worker when a component mounts: null while it runs, then what it answered, or
 * 'failed' (logged as `what`). An answer that comes after the component left is dropped.
 */
export function useWorkerRead<T>(read: (api: ApiClient) => Promise<T>, what: string): T | 'failed' | null {
  const api = useApiClient();
  const [loaded, setLoaded] = useState<T | 'failed' | null>(null);
  // Call sites pass a new `read` each render; only a new client reads again, with the latest one.
  const readLatest = useEffectEvent((client: ApiClient) =>
    read(client).catch((error: unknown) => {
      console.error(`Reading ${what} failed:`, error);
      return 'failed' as const;
    }),
  );
  useEffect(() => {
    let current = true;
    // Never rejects: a failed read answers 'failed'.
    void readLatest(api).then((answer) => current && setLoaded(answer));
    return () => {
      current = false;
    };
  }, [api]);
  return loaded;
}
