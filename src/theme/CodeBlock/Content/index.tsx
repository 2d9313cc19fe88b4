import React, {lazy, Suspense, useLayoutEffect, useState, type RefObject} from 'react';
import clsx from 'clsx';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import type {Props} from '@theme/CodeBlock/Content';
// The classic theme's own classes for the <pre> and <code>, so both look as its highlighted ones.
import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css';
import {useCodeTheme} from '../codeTheme';
import {wrapCode} from '../lazyWordWrap';
import {isFirstHydration} from '../../../lib/firstHydration';

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

/**
 * Whether this block was first drawn by hydrating the server's HTML, which is then in the <pre>
 * to keep: rendered during the page's first hydration (src/lib/firstHydration), kept from that
 * first render. Not a useSyncExternalStore with a server snapshot of its own: React renders such
 * a hook again, synchronously, right after hydrating it (the client snapshot differs), and that
 * synchronous render takes every update the page's start has queued with it (the colour mode,
 * the window size, the sidebar the small screen drops) into one long task.
 * When React gave the hydration up and drew the block afresh, its <pre> is empty: highlighted then.
 */
function useHydratedFromServer(pre: RefObject<HTMLPreElement | null>): boolean {
  const [fromServer, setFromServer] = useState(isFirstHydration);
  useLayoutEffect(() => {
    if (fromServer && pre.current && !pre.current.hasChildNodes()) setFromServer(false);
  }, [fromServer, pre]);
  return fromServer;
}

/**
 * A code block's content. Highlighted on the server; in the browser, kept as
 * the server drew it when the page is hydrated from the server's HTML, and
 * highlighted by Prism, loaded then, when the browser draws it itself (a
 * client-side navigation, the dev server).
 */
export default function Content(props: Props) {
  const hydrating = useHydratedFromServer(useCodeBlockContext().wordWrap.codeBlockRef);
  if (!ExecutionEnvironment.canUseDOM) return <Highlighted {...props} />;
  if (hydrating) return <ServerHighlighted {...props} />;
  return (
    <Suspense fallback={<Plain {...props} />}>
      <HighlightedKeepingWordWrap {...props} />
    </Suspense>
  );
}
