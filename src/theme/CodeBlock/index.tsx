import React, {Children, isValidElement, type ReactNode} from 'react';
import type {Props} from '@theme/CodeBlock';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';

/** The children as one string when they are only strings, so the copy button can copy them. */
function maybeStringifyChildren(children: ReactNode): ReactNode {
  if (Children.toArray(children).some((child) => isValidElement(child))) return children;
  return Array.isArray(children) ? children.join('') : children;
}

/**
 * The classic theme's CodeBlock without its remount after hydration. The
 * remount is there to repaint code the server drew in the light theme for a
 * reader in dark mode; the docs have one code theme (`prism` in
 * docusaurus.config.ts), so it only redrew every code block, with Prism,
 * while the page was starting, and threw away the server's highlighted HTML
 * that ./Content keeps.
 */
export default function CodeBlock({children: rawChildren, ...props}: Props) {
  const children = maybeStringifyChildren(rawChildren);
  return typeof children === 'string' ? (
    <StringContent {...props}>{children}</StringContent>
  ) : (
    <ElementContent {...props}>{children}</ElementContent>
  );
}
