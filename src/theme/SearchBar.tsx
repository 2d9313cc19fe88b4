import React, {lazy, Suspense, useEffect, useState} from 'react';
import Link from '@docusaurus/Link';
import styles from './SearchBar.module.css';

// The search bar (autocomplete, the index worker, highlighting) is ~20 KB of script that only the
// docs' navbar shows; loaded lazily, it stays out of the bundle every marketing page downloads.
const SearchBar = lazy(() => import('@theme-original/SearchBar'));

/** Until the real search bar has loaded (and without JavaScript), a link to the search page. */
function SearchLink() {
  return (
    <Link to="/search" className={styles.placeholder}>
      Search
    </Link>
  );
}

export default function LazySearchBar() {
  // The first client render matches the server's (the link), then the search bar takes its place.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!mounted) return <SearchLink />;
  return (
    <Suspense fallback={<SearchLink />}>
      <SearchBar />
    </Suspense>
  );
}
