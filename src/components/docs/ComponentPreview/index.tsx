import React, {type ReactNode} from 'react';
import CodeBlock from '@theme/CodeBlock';
import clsx from 'clsx';
import {InPreview} from '../../shared/InPreview';
import styles from './styles.module.css';

interface Props {
  /** The component's name, as the preview's accessible label says it. */
  name: string;
  /** The example's source, imported with raw-loader from the same file that renders the preview. */
  source: string;
  /** The example, rendered. */
  children: ReactNode;
}

/**
 * A component page's live preview: the real component, as the marketing
 * site shows it (light, whatever the docs' theme), above the code that
 * renders it. The code comes from the very file the preview runs, so the
 * two cannot drift.
 */
export default function ComponentPreview({name, source, children}: Props) {
  return (
    <div className={styles.preview}>
      <section className={clsx('light-surface', styles.stage)} aria-label={`Live preview: ${name}`}>
        <InPreview.Provider value>{children}</InPreview.Provider>
      </section>
      <CodeBlock language="tsx" title="Usage">
        {source.trim()}
      </CodeBlock>
    </div>
  );
}
