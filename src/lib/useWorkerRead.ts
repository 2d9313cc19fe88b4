import {useEffect, useState} from 'react';
import {type ApiClient} from './api';
import {useApiClient} from './useApiClient';

/**
 * One read of the worker when a component mounts: null while it runs, then what it answered, or
 * 'failed' (logged as `what`). An answer that comes after the component left is dropped.
 */
export function useWorkerRead<T>(read: (api: ApiClient) => Promise<T>, what: string): T | 'failed' | null {
  const api = useApiClient();
  const [loaded, setLoaded] = useState<T | 'failed' | null>(null);
  useEffect(() => {
    let current = true;
    read(api).then(
      (answer) => current && setLoaded(answer),
      (error: unknown) => {
        console.error(`Reading ${what} failed:`, error);
        if (current) setLoaded('failed');
      },
    );
    return () => {
      current = false;
    };
    // `read` is a module-level function at each call site: only a new client reads again.
  }, [api]);
  return loaded;
}
