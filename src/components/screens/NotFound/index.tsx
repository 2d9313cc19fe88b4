import React, {useEffect, useState} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import {ROUTES} from '../../../config';
import controls from '../../../css/controls.module.css';
import styles from './styles.module.css';

/**
 * The site's page for an address that leads nowhere: which address, then the ways on a reader
 * looks for (search, the docs, the home page), in the site's own header and footer.
 */
export default function NotFound() {
  const {pathname} = useLocation();
  // 404.html is prerendered for no address in particular: name the one asked for once hydrated.
  const [path, setPath] = useState<string | null>(null);
  useEffect(() => setPath(pathname), [pathname]);
  return (
    <div className={styles.screen}>
      <p className={styles.code}>404</p>
      <h1 className={styles.title}>Page not found</h1>
      <p className={styles.text}>
        {path ? (
          <>
            There is no page at <code className={styles.path}>{path}</code>.
          </>
        ) : (
          'There is no page at this address.'
        )}{' '}
        It may have moved, or the link may have a typo. Search for it, or start again from the docs or the home page.
      </p>
      <form className={styles.search} action={ROUTES.search} method="get" role="search" aria-label="Search the docs">
        <label htmlFor="not-found-search" className="sr-only">
          Search the docs
        </label>
        <input
          id="not-found-search"
          className={clsx(controls.input, styles.input)}
          type="search"
          name="q"
          placeholder="Search the docs"
        />
        <button type="submit" className={styles.primary}>
          Search
        </button>
      </form>
      <div className={styles.actions}>
        <Link className={styles.secondary} to={ROUTES.docs}>
          Documentation
        </Link>
        <Link className={styles.secondary} to={ROUTES.home}>
          Home
        </Link>
      </div>
    </div>
  );
}
