/**
 * The docs' Firebase/Supabase switch: one group, one default, one list of
 * values, shared by every page (the React Native website keeps its tab values
 * in one module the same way). The group id is also the query-string key, so
 * `?backend=supabase` opens any page on Supabase.
 */
export const BACKEND_GROUP = 'backend';

export const BACKENDS = [
  {value: 'firebase', label: 'Firebase'},
  {value: 'supabase', label: 'Supabase'},
] as const;

export type Backend = (typeof BACKENDS)[number]['value'];

/** The product's default backend (§1). */
export const DEFAULT_BACKEND: Backend = 'firebase';
