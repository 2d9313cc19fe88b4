import React, {lazy, Suspense, useLayoutEffect, useState, useSyncExternalStore} from 'react';
import clsx from 'clsx';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import type {Props} from '@theme/CodeBlock/Content';
// The classic theme's own classes for the <pre> and <code>, so both look as its highlighted ones.
import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css';
import {useCodeTheme} from '../codeTheme';
import {wrapCode} from '../lazyWordWrap';

// Prism (~45 KB gzipped with its languages) and the tokenizing: only the server and client-side
// navigations need them. The server renders without a Suspense boundary and waits for them.
const Highlighted = lazy(() => import('./Highlighted'));

/** The `<pre>` the highlighted code sits in, as the classic theme draws it. */
function usePreProps(className: string | undefined) {
  const {metadata, wordWrap} = useCodeBlockContext();
  return {
    ref: wordWrap.codeBlockRef,
    // The theme's own <pre>, which keyboard users can focus to scroll.
    tabIndex: 0,
    className: clsx(className, 'prism-code', `language-${metadata.language}`, styles.codeBlock, 'thin-scrollbar'),
    style: useCodeTheme().plain,
  };
}

/**
 * The server's highlighted code, kept as it is: React hydrates the <pre> but
 * not its children (`dangerouslySetInnerHTML`), and never rewrites them since
 * the HTML given never changes. So a page loaded from the server runs no
 * Prism at all.
 */
function ServerHighlighted({className}: Props) {
  return <pre {...usePreProps(className)} dangerouslySetInnerHTML={{__html: ''}} suppressHydrationWarning />;
}

/** The code in plain colours, for the moment Prism takes to load after a client-side navigation. */
function Plain({className}: Props) {
  const {metadata} = useCodeBlockContext();
  return (
    <pre {...usePreProps(className)}>
      <code className={styles.codeBlockLines}>{metadata.code}</code>
    </pre>
  );
}

/**
 * Prism's code, with the word wrap the reader may have turned on while the plain code showed. The
 * theme's toggle styles the <code> it finds; the highlighted block arrives with a <code> of its own.
 */
function HighlightedKeepingWordWrap(props: Props) {
  const {wordWrap} = useCodeBlockContext();
  const {codeBlockRef, isEnabled} = wordWrap;
  useLayoutEffect(() => {
    if (isEnabled) wrapCode(codeBlockRef.current?.querySelector('code'));
  }, [codeBlockRef, isEnabled]);
  return <Highlighted {...props} />;
}

const noSubscription = () => () => undefined;

/**
 * Whether this block was first drawn by hydrating the server's HTML, which is
 * then in the <pre> to keep. React reads a store's server snapshot only while
 * it hydrates, and the client snapshot in every other render: every render
 * under the dev server (it sends pages without their HTML: Docusaurus's client
 * entry calls createRoot there, hydrateRoot on a build), after a client-side
 * navigation, and when React gives up a hydration and draws the page afresh.
 * The first render is not enough to tell: it is also the dev server's, and
 * then there is no server HTML, and no <code> for the theme's word-wrap
 * button to find. Kept from that first render, since React renders again
 * with the client snapshot once hydrated, and the server's HTML must stay.
 */
function useHydratedFromServer(): boolean {
  const hydrating = useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
  const [fromServer] = useState(hydrating);
  return fromServer;
}

/**
 * A code block's content. Highlighted on the server; in the browser, kept as
 * the server drew it when the page is hydrated from the server's HTML, and
 * highlighted by Prism, loaded then, when the browser draws it itself (a
 * client-side navigation, the dev server).
 */
export default function Content(props: Props) {
  const hydrating = useHydratedFromServer();
  if (!ExecutionEnvironment.canUseDOM) return <Highlighted {...props} />;
  if (hydrating) return <ServerHighlighted {...props} />;
  return (
    <Suspense fallback={<Plain {...props} />}>
      <HighlightedKeepingWordWrap {...props} />
    </Suspense>
  );
}
