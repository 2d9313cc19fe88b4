// @docusaurus/theme-common's lib/utils/reactUtils.js (MIT, Docusaurus 3.10.2), with one change in
// useShallowMemoObject: keys sorted by code unit, not localeCompare. See ./index.ts.
import React, {useCallback, useMemo, useRef} from 'react';
import useIsomorphicLayoutEffect from '@docusaurus/useIsomorphicLayoutEffect';

export function useEvent(callback) {
  const ref = useRef(callback);
  useIsomorphicLayoutEffect(() => {
    ref.current = callback;
  }, [callback]);
  return useCallback((...args) => ref.current(...args), []);
}

export function usePrevious(value) {
  const ref = useRef(undefined);
  useIsomorphicLayoutEffect(() => {
    ref.current = value;
  });
  return ref.current;
}

export class ReactContextError extends Error {
  constructor(providerName, additionalInfo) {
    super();
    this.name = 'ReactContextError';
    this.message = `Hook ${
      this.stack?.split('\n')[1]?.match(/at (?:\w+\.)?(?<name>\w+)/)?.groups.name ?? ''
    } is called outside the <${providerName}>. ${additionalInfo ?? ''}`;
  }
}

export function useShallowMemoObject(obj) {
  const deps = Object.entries(obj);
  // Sorted so that the keys' order does not matter; any fixed order does.
  deps.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => obj, deps.flat());
}

export function composeProviders(providers) {
  return ({children}) =>
    React.createElement(
      React.Fragment,
      null,
      providers.reduceRight((element, CurrentProvider) => React.createElement(CurrentProvider, null, element), children),
    );
}
