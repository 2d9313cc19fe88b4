import React from 'react';
import {useThemeConfig} from '@docusaurus/theme-common';
import {CodeBlockContextProvider, createCodeBlockMetadata} from '@docusaurus/theme-common/internal';
import CodeBlockLayout from '@theme/CodeBlock/Layout';
import type {Props} from '@theme/CodeBlock/Content/String';
import {useLazyCodeWordWrap} from '../lazyWordWrap';

/** The classic theme's code block of a string, with word wrap measured only when needed (../lazyWordWrap). */
export default function CodeBlockString(props: Props) {
  const {prism} = useThemeConfig();
  const metadata = createCodeBlockMetadata({
    code: props.children,
    className: props.className,
    metastring: props.metastring,
    magicComments: prism.magicComments,
    defaultLanguage: prism.defaultLanguage,
    language: props.language,
    title: props.title,
    showLineNumbers: props.showLineNumbers,
  });
  return (
    <CodeBlockContextProvider metadata={metadata} wordWrap={useLazyCodeWordWrap()}>
      <CodeBlockLayout />
    </CodeBlockContextProvider>
  );
}
