import React, {lazy, Suspense, useEffect, useRef, useState, type RefObject} from 'react';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import styles from './SearchBar.module.css';

// The search bar (autocomplete, the index worker, the highlighting of searched words: ~15 KB of
// script, and its start-up work) loads when the reader reaches for it, not with the page: it stays
// out of the bundle every page downloads, and out of a docs page's first seconds.
const SearchBar = lazy(() => import('@theme-original/SearchBar'));

/** `searchBarShortcutKeymap: 'mod+k'` in docusaurus.config.ts: Ctrl+K, or Cmd+K on a Mac. */
function isShortcut(event: KeyboardEvent): boolean {
  return event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/** Stands in for the search bar until it has loaded, and without JavaScript: a link to the search page. */
function SearchLink({onIntent}: {onIntent?: (focus: boolean) => void}) {
  return (
    <Link
      to="/search"
      className={styles.placeholder}
      onPointerEnter={() => onIntent?.(false)}
      onTouchStart={() => onIntent?.(false)}
      // A keyboard user who reaches the link gets the search box in its place, focused.
      onFocus={() => onIntent?.(true)}>
      Search
    </Link>
  );
}

/** Focuses the search box once it is there, as the shortcut would have done had it loaded. */
function FocusSearchBox({within}: {within: RefObject<HTMLSpanElement | null>}) {
  useEffect(() => within.current?.querySelector('input')?.focus(), [within]);
  return null;
}

type Want = 'nothing' | 'load' | 'focus';

/**
 * The navbar's search: a link to the search page until the reader points at
 * it, tabs to it or presses the shortcut; then the real search bar. A page
 * opened from a search result (`?_highlight=`) loads it at once, since the
 * search bar is what marks the searched words on the page.
 */
export default function LazySearchBar() {
  const [want, setWant] = useState<Want>('nothing');
  const box = useRef<HTMLSpanElement>(null);
  const highlight = useLocation().search.includes('_highlight=');

  useEffect(() => {
    if (highlight) setWant((current) => (current === 'nothing' ? 'load' : current));
  }, [highlight]);

  useEffect(() => {
    if (want !== 'nothing') return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isShortcut(event)) return;
      event.preventDefault();
      setWant('focus');
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [want]);

  if (want === 'nothing') return <SearchLink onIntent={(focus) => setWant(focus ? 'focus' : 'load')} />;
  return (
    <Suspense fallback={<SearchLink />}>
      <span ref={box} className={styles.box}>
        <SearchBar />
      </span>
      {want === 'focus' && <FocusSearchBox within={box} />}
    </Suspense>
  );
}
