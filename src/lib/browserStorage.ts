/**
 * The browser's local and session storage, which may refuse (a private window, blocked site data,
 * or no browser at all while prerendering): a refused read is null, a refused write does nothing,
 * and each caller says what it does without.
 */
export type StorageArea = 'localStorage' | 'sessionStorage';

export function readItem(area: StorageArea, key: string): string | null {
  try {
    return window[area].getItem(key);
  } catch {
    return null;
  }
}

export function writeItem(area: StorageArea, key: string, value: string): void {
  try {
    window[area].setItem(key, value);
  } catch {
    // Refused: the caller's fallback applies.
  }
}

export function removeItem(area: StorageArea, key: string): void {
  try {
    window[area].removeItem(key);
  } catch {
    // Nothing could have been kept.
  }
}
