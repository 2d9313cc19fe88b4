import {useCallback, useRef, useState} from 'react';
import type {useCodeWordWrap} from '@docusaurus/theme-common/internal';

type WordWrap = ReturnType<typeof useCodeWordWrap>;

/** The theme's word-wrap state, and `measure`, which reads whether the code scrolls sideways now. */
export interface LazyWordWrap extends WordWrap {
  measure: () => void;
}

/** Wraps a block's code, as the theme's word-wrap button does. */
export function wrapCode(code: HTMLElement | null | undefined): void {
  if (!code) return;
  code.style.whiteSpace = 'pre-wrap';
  // Very long words and tokens wrap too, so that no scrollbar is left.
  code.style.overflowWrap = 'anywhere';
}

/**
 * The theme's useCodeWordWrap, less its work on mount. The theme measures every block as soon as it
 * mounts, watches hidden tab panels and listens to resizes: on a page with 40 blocks, 40 state
 * changes and a second render of each block while the page starts, for a button nobody has seen
 * yet (it shows on hover). Here a block is measured when its buttons wake (./Buttons), and again
 * each time the pointer or the focus comes back to it, or the window is resized while they show.
 */
export function useLazyCodeWordWrap(): LazyWordWrap {
  const [isEnabled, setIsEnabled] = useState(false);
  const [isCodeScrollable, setIsCodeScrollable] = useState(false);
  const codeBlockRef = useRef<HTMLPreElement>(null);
  const toggle = useCallback(() => {
    const code = codeBlockRef.current?.querySelector('code');
    if (!code) return;
    if (isEnabled) {
      code.removeAttribute('style');
    } else {
      wrapCode(code);
    }
    setIsEnabled((value) => !value);
  }, [isEnabled]);
  const measure = useCallback(() => {
    const pre = codeBlockRef.current;
    if (!pre) return;
    setIsCodeScrollable(pre.scrollWidth > pre.clientWidth || pre.querySelector('code')?.hasAttribute('style') === true);
  }, []);
  return {codeBlockRef, isEnabled, isCodeScrollable, toggle, measure};
}
