import React, {useEffect, useRef, useState} from 'react';
import clsx from 'clsx';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import CopyButton from '@theme/CodeBlock/Buttons/CopyButton';
import WordWrapButton from '@theme/CodeBlock/Buttons/WordWrapButton';
import type {Props} from '@theme/CodeBlock/Buttons';
import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Buttons/styles.module.css';
import type {LazyWordWrap} from '../lazyWordWrap';

/** What wakes a block's buttons: the pointer over it, the keyboard's focus in it, a touch. */
const WAKE = ['pointerenter', 'focusin', 'pointerdown'] as const;

/**
 * The copy and word-wrap buttons, drawn when the reader comes to the block. The classic theme draws
 * them in the browser only (BrowserOnly), right after the page hydrates: on a docs page with 40
 * blocks, about 200 components in one more commit while the page starts, for buttons that are
 * invisible until the block is hovered or focused. Here the server and the first render draw the
 * empty group (so hydration matches), and the buttons come on the first pointer, focus or touch.
 * The <pre> is focusable and comes first, so a keyboard user meets the buttons right after it.
 */
export default function CodeBlockButtons({className}: Props) {
  const wordWrap = useCodeBlockContext().wordWrap as LazyWordWrap;
  const {measure} = wordWrap;
  const group = useRef<HTMLDivElement>(null);
  const [awake, setAwake] = useState(false);

  useEffect(() => {
    // The block's content: its <pre> and this group.
    const block = group.current?.parentElement;
    if (!block) return undefined;
    const wake = () => {
      measure();
      setAwake(true);
    };
    for (const type of WAKE) block.addEventListener(type, wake, {passive: true});
    return () => {
      for (const type of WAKE) block.removeEventListener(type, wake);
    };
  }, [measure]);

  useEffect(() => {
    if (!awake) return undefined;
    window.addEventListener('resize', measure, {passive: true});
    return () => window.removeEventListener('resize', measure);
  }, [awake, measure]);

  return (
    <div ref={group} className={clsx(className, styles.buttonGroup)}>
      {awake && (
        <>
          <WordWrapButton />
          <CopyButton />
        </>
      )}
    </div>
  );
}
