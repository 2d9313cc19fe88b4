import {createContext, useContext} from 'react';

/** The ids that pair each tab of a group with its panel (`aria-controls`, `aria-labelledby`). */
export interface TabIds {
  tab(value: string): string;
  panel(value: string): string;
}

/** Ids from a group's base (React's `useId`, the same on the server and in the browser). */
export function tabIdsFrom(base: string): TabIds {
  // A value may hold characters an id should not (spaces): keep letters, digits, - and _.
  const safe = (value: string) =>
    value.replace(/[^A-Za-z0-9_-]/g, (character) => `_${character.charCodeAt(0).toString(16)}`);
  return {tab: (value) => `${base}-tab-${safe(value)}`, panel: (value) => `${base}-panel-${safe(value)}`};
}

export const TabIdsContext = createContext<TabIds>(tabIdsFrom('tabs'));

export const useTabIds = (): TabIds => useContext(TabIdsContext);
