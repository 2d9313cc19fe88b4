// Stands in for @easyops-cn/docusaurus-search-local's SearchPage/SearchPage.jsx (src/plugins/docsSearch
// swaps it in). The same page, with three changes: its content sits in a <main> landmark, a query that
// matches nothing says so and offers the most visited pages as links (as the search bar does), and the
// robots tag uses `name`, which crawlers read, not `property`. Plain JavaScript, like the file it replaces.
import React, {useCallback, useEffect, useMemo, useState} from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Layout from '@theme/Layout';
import Head from '@docusaurus/Head';
import Link from '@docusaurus/Link';
import {translate} from '@docusaurus/Translate';
import {usePluralForm} from '@docusaurus/theme-common';
import clsx from 'clsx';
import useSearchQuery from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/hooks/useSearchQuery';
import {
  fetchIndexesByWorker,
  searchByWorker,
} from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/searchByWorker';
import {SearchDocumentType} from '@easyops-cn/docusaurus-search-local/dist/client/shared/interfaces';
import {highlight} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/highlight';
import {highlightStemmed} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/highlightStemmed';
import {getStemmedPositions} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/getStemmedPositions';
import LoadingRing from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/LoadingRing/LoadingRing';
import {concatDocumentPath} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/concatDocumentPath';
import {
  Mark,
  searchContextByPaths,
  useAllContextsWithNoSearchContext,
} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGenerated';
import {normalizeContextByPath} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/normalizeContextByPath';
import styles from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchPage/SearchPage.module.css';
import {docsRootOf, MOST_VISITED, NO_INDEX} from './noResults';

export default function SearchPage() {
  return (
    <Layout>
      <main>
        <SearchPageContent />
      </main>
    </Layout>
  );
}

function NoResults({query, versionUrl}) {
  const root = docsRootOf(versionUrl.replace(/\/$/, ''));
  return (
    <div role="status">
      <p>No results for “{query.trim()}”.</p>
      <p>The most visited pages:</p>
      <ul>
        {MOST_VISITED.map(({path, label}) => (
          <li key={path}>
            <Link to={`${root}${path}`}>{label}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SearchPageContent() {
  const {
    siteConfig: {baseUrl},
    i18n: {currentLocale},
  } = useDocusaurusContext();
  const {selectMessage} = usePluralForm();
  const {searchValue, searchContext, searchVersion, updateSearchPath, updateSearchContext} = useSearchQuery();
  const [searchQuery, setSearchQuery] = useState(searchValue);
  const [searchResults, setSearchResults] = useState();
  const versionUrl = `${baseUrl}${searchVersion}`;
  const pageTitle = useMemo(
    () =>
      searchQuery
        ? translate(
            {id: 'theme.SearchPage.existingResultsTitle', message: 'Search results for "{query}"'},
            {query: searchQuery},
          )
        : translate({id: 'theme.SearchPage.emptyResultsTitle', message: 'Search the documentation'}),
    [searchQuery],
  );
  useEffect(() => {
    updateSearchPath(searchQuery);
    if (searchQuery) {
      (async () => {
        setSearchResults(await searchByWorker(versionUrl, searchContext, searchQuery, 100));
      })();
    } else {
      setSearchResults(undefined);
    }
    // `updateSearchPath` stays out of the dependencies: it changes on every render.
  }, [searchQuery, versionUrl, searchContext]);
  const handleSearchInputChange = useCallback((event) => setSearchQuery(event.target.value), []);
  useEffect(() => {
    if (searchValue && searchValue !== searchQuery) setSearchQuery(searchValue);
  }, [searchValue]);
  const [searchWorkerReady, setSearchWorkerReady] = useState(false);
  useEffect(() => {
    (async () => {
      if (!Array.isArray(searchContextByPaths) || searchContext || useAllContextsWithNoSearchContext) {
        await fetchIndexesByWorker(versionUrl, searchContext);
      }
      setSearchWorkerReady(true);
    })();
  }, [searchContext, versionUrl]);

  return (
    <>
      <Head>
        {/* Search pages stay out of search engines: https://github.com/facebook/docusaurus/pull/3233 */}
        <meta name="robots" content="noindex, follow" />
        <meta name="description" content="Search every page of the documentation, in the version you are reading." />
        <title>{pageTitle}</title>
      </Head>

      <div className="container margin-vert--lg">
        <h1>{pageTitle}</h1>

        <div className="row">
          <div
            className={clsx('col', {
              [styles.searchQueryColumn]: Array.isArray(searchContextByPaths),
              'col--9': Array.isArray(searchContextByPaths),
              'col--12': !Array.isArray(searchContextByPaths),
            })}>
            <input
              type="search"
              name="q"
              className={styles.searchQueryInput}
              aria-label="Search"
              onChange={handleSearchInputChange}
              value={searchQuery}
              autoComplete="off"
              autoFocus
            />
          </div>
          {Array.isArray(searchContextByPaths) ? (
            <div className={clsx('col', 'col--3', 'padding-left--none', styles.searchContextColumn)}>
              <select
                name="search-context"
                aria-label="Where to search"
                className={styles.searchContextInput}
                id="context-selector"
                value={searchContext}
                onChange={(event) => updateSearchContext(event.target.value)}>
                {useAllContextsWithNoSearchContext && (
                  <option value="">
                    {translate({id: 'theme.SearchPage.searchContext.everywhere', message: 'Everywhere'})}
                  </option>
                )}
                {searchContextByPaths.map((context) => {
                  const {label, path} = normalizeContextByPath(context, currentLocale);
                  return (
                    <option key={path} value={path}>
                      {label}
                    </option>
                  );
                })}
              </select>
            </div>
          ) : null}
        </div>

        {!searchWorkerReady && searchQuery && (
          <div>
            <LoadingRing />
          </div>
        )}

        {searchResults &&
          (searchResults.length > 0 ? (
            <p>
              {selectMessage(
                searchResults.length,
                translate(
                  {id: 'theme.SearchPage.documentsFound.plurals', message: '1 document found|{count} documents found'},
                  {count: searchResults.length},
                ),
              )}
            </p>
          ) : process.env.NODE_ENV === 'production' ? (
            <NoResults query={searchQuery} versionUrl={versionUrl} />
          ) : (
            <p role="status">
              {NO_INDEX.text} Run <code>{NO_INDEX.command}</code> to search.
            </p>
          ))}

        <section>
          {searchResults && searchResults.map((item) => <SearchResultItem key={item.document.i} searchResult={item} />)}
        </section>
      </div>
    </>
  );
}

function SearchResultItem({searchResult: {document, type, page, tokens, metadata}}) {
  const isTitle = type === SearchDocumentType.Title;
  const isKeywords = type === SearchDocumentType.Keywords;
  const isDescription = type === SearchDocumentType.Description;
  const isDescriptionOrKeywords = isDescription || isKeywords;
  const isTitleRelated = isTitle || isDescriptionOrKeywords;
  const isContent = type === SearchDocumentType.Content;
  const pathItems = (isTitle ? document.b : page.b).slice();
  const articleTitle = isContent || isDescriptionOrKeywords ? document.s : document.t;
  if (!isTitleRelated) pathItems.push(page.t);
  let search = '';
  if (Mark && tokens.length > 0) {
    const params = new URLSearchParams();
    for (const token of tokens) params.append('_highlight', token);
    search = `?${params.toString()}`;
  }
  return (
    <article className={styles.searchResultItem}>
      <h2>
        <Link
          to={document.u + search + (document.h || '')}
          dangerouslySetInnerHTML={{
            __html:
              isContent || isDescriptionOrKeywords
                ? highlight(articleTitle, tokens)
                : highlightStemmed(articleTitle, getStemmedPositions(metadata, 't'), tokens, 100),
          }}
        />
      </h2>
      {pathItems.length > 0 && <p className={styles.searchResultItemPath}>{concatDocumentPath(pathItems)}</p>}
      {(isContent || isDescription) && (
        <p
          className={styles.searchResultItemSummary}
          dangerouslySetInnerHTML={{
            __html: highlightStemmed(document.t, getStemmedPositions(metadata, 't'), tokens, 100),
          }}
        />
      )}
    </article>
  );
}
