import React, {useLayoutEffect} from 'react';
import DocRoot from '@theme-original/DocRoot';
import type DocRootType from '@theme/DocRoot';
import type {WrapperProps} from '@docusaurus/types';
import {useColorMode} from '@docusaurus/theme-common';

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
    setColorMode('dark', {persist: false});
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
