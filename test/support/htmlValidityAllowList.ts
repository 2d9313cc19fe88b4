/**
 * The only Nu Html Checker errors the built site may have: markup Docusaurus generates that we can
 * change only by ejecting (copying and owning) one of its theme components. Each entry is matched
 * narrowly, on vnu's exact message and the markup it points at, and the HTML validity test fails
 * when an entry matches nothing any more, so a fixed one has to leave this list.
 */
import type {NuMessage} from './nuHtmlChecker';

export interface AllowedHtmlError {
  /** vnu's message, exactly. */
  message: string;
  /** What vnu's extract (the minified markup around the error) must contain. */
  extract: RegExp;
  /** Why we cannot fix it at the source. */
  reason: string;
}

export const HTML_VALIDITY_ALLOW_LIST: AllowedHtmlError[] = [
  {
    message:
      'Element “div” not allowed as child of element “code” in this context. (Suppressing further errors from this subtree.)',
    extract: /<div class=token-line[ >]/,
    reason:
      'Docusaurus’s CodeBlock renders each line of a code block as <div class="token-line"> inside <code> ' +
      '(@docusaurus/theme-classic CodeBlock/Line). Browsers render it as intended; changing the element means ejecting CodeBlock/Line.',
  },
];

/** The allow-list entry that explains this error, if one does. */
export function allowedBy(error: NuMessage): AllowedHtmlError | undefined {
  return HTML_VALIDITY_ALLOW_LIST.find(
    (entry) => entry.message === error.message && entry.extract.test(error.extract ?? ''),
  );
}
