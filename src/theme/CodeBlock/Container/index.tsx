import React, {type ComponentProps, type ElementType} from 'react';
import clsx from 'clsx';
import {ThemeClassNames} from '@docusaurus/theme-common';
import {getPrismCssVariables} from '@docusaurus/theme-common/internal';
import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Container/styles.module.css';
import {useCodeTheme} from '../codeTheme';

/** The classic theme's code block container, with the site's one code theme (../codeTheme). */
export default function CodeBlockContainer<T extends 'div' | 'pre'>({as, ...props}: {as: T} & ComponentProps<T>) {
  const As = as as ElementType;
  return (
    <As
      {...props}
      style={getPrismCssVariables(useCodeTheme())}
      className={clsx(props.className, styles.codeBlockContainer, ThemeClassNames.common.codeBlock)}
    />
  );
}
