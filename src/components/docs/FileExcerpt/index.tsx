import React from 'react';
import CodeBlock from '@theme/CodeBlock';
import {excerpt, type ExcerptPart} from './excerpt';

interface Props {
  /** The file's text, imported with `!!raw-loader!`. */
  source: string;
  /** The file's path in the repository: the block's title. */
  title: string;
  /** The stretches of the file to show, in order (see `excerpt`). */
  parts: readonly ExcerptPart[];
  language?: string;
}

/**
 * A code block that quotes a repository file as it is at build time, such as the product's
 * facts in src/config/app.ts: a rename or a new price changes the docs with the file, where a
 * quote typed into the page would keep the old values. A part the file no longer holds fails
 * the build, as a broken link does.
 */
export default function FileExcerpt({source, title, parts, language = 'ts'}: Props) {
  return (
    <CodeBlock language={language} title={title}>
      {excerpt(source, parts, title)}
    </CodeBlock>
  );
}
