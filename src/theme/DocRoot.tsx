import React, {startTransition, useLayoutEffect} from 'react';
import DocRoot from '@theme-original/DocRoot';
import type DocRootType from '@theme/DocRoot';
import type {WrapperProps} from '@docusaurus/types';
import {useColorMode} from '@docusaurus/theme-common';
import {isFirstHydration} from '../lib/firstHydration';

type Props = WrapperProps<typeof DocRootType>;

/**
 * The docs are always dark and the marketing pages always light (§9). The
 * first paint of a docs page is dark thanks to the inline script of
 * src/plugins/docsColorMode; this keeps React's colour mode (code block
 * themes) in step on client navigation, without saving it as a choice.
 *
 * It renders nothing, beside the docs rather than around them: the colour
 * mode changes once after hydration, and a component that reads it
 * re-renders, so a wrapper reading it would draw the whole page again (every
 * code span of the page, while it starts).
 */
function KeepDocsDark() {
  // The runtime takes a second argument its published type leaves out (Docusaurus 3.10).
  const setColorMode = useColorMode().setColorMode as (mode: 'dark' | null, options: {persist: boolean}) => void;
  useLayoutEffect(() => {
    // While the page hydrates, a transition: an update set in a layout effect is otherwise
    // synchronous, and the hydration's commit would then run every passive effect and render the
    // page again before it yields (one long task). The page's colours are the server's already
    // (setColorMode sets data-theme at once); only React's copy waits. On a client navigation,
    // at once, so that the code blocks are never drawn in the light theme.
    const dark = () => setColorMode('dark', {persist: false});
    if (isFirstHydration()) startTransition(dark);
    else dark();
    return () => setColorMode(null, {persist: false});
  }, [setColorMode]);
  return null;
}

export default function DocRootWrapper(props: Props) {
  return (
    <>
      <KeepDocsDark />
      <DocRoot {...props} />
    </>
  );
}
