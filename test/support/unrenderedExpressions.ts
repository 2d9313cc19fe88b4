/**
 * Text an MDX page shows as written where it meant a value: `https://api.{appConfig.domainName}/…`
 * where the reader should see the domain. MDX renders `{…}` in prose, but inside inline code
 * (backticks), a URL that Markdown autolinks or a link's address the braces are plain text, and
 * the page ships them. Pure, so a unit test can plant one; the links gate (test/browser/links.test.ts)
 * feeds it the text and the links of every built page.
 *
 * Braces are legitimate in code, so what counts is what an unrendered expression looks like and
 * code does not:
 * - `{` then a JavaScript name, property accesses (`.x`, `?.x`, `[…]`) or a call, then `}`;
 * - not the `${…}` of a template literal, which is code (in inline code; outside it, a string
 *   typed with the wrong quotes, `'Get ${appName}'`, is unrendered too);
 * - with a property access or a call (`{appConfig.domainName}`: a placeholder in prose or an API
 *   path is a bare word, `{owner}`, `{CHECKOUT_SESSION_ID}`), or a bare name an MDX page brings
 *   into scope by importing or exporting it (`{FREE_PLAN_RELEASE_BATCH}`).
 * Code blocks (`<pre>`) are code; the caller does not read them.
 */

/** One stretch of a page's text, and whether it sits in inline code (`<code>` outside `<pre>`). */
export interface TextPiece {
  text: string;
  code: boolean;
}

/** What one built page shows: its title, description, text outside code blocks, and each href. */
export interface PageText {
  url: string;
  pieces: TextPiece[];
  hrefs: string[];
}

export interface Unrendered {
  page: string;
  where: 'text' | 'inline code' | 'href';
  expression: string;
}

const NAME = String.raw`[A-Za-z_$][\w$]*`;
const ACCESS = String.raw`(?:\??\.${NAME}|\[[^\]{}]*\]|\([^(){}]*\))`;
const EXPRESSION = new RegExp(String.raw`(\$?)\{\s*(${NAME})(${ACCESS}*)\s*\}`, 'g');

/** The names MDX sources import or export: what an expression on those pages can use. */
export function mdxScopeNames(sources: string[]): Set<string> {
  const names = new Set<string>();
  for (const written of sources) {
    // A code block's `import` lines are the sample's, not the page's.
    const source = written.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
    for (const [, clause] of source.matchAll(/^import\s+(?!type\s)([^'"]+?)\s+from\s+['"]/gm)) {
      for (const part of clause!.replace(/[{}]/g, ',').split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop()!
          .replace(/^\*\s*/, '');
        if (/^[A-Za-z_$][\w$]*$/.test(name) && !part.trim().startsWith('type ')) names.add(name);
      }
    }
    for (const [, name] of source.matchAll(/^export\s+(?:const|let|function|class)\s+([A-Za-z_$][\w$]*)/gm))
      names.add(name!);
  }
  return names;
}

/** The unrendered expressions in `text`, as written. `code`: the text is inline code. */
export function unrenderedIn(text: string, scope: Set<string>, code: boolean): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(EXPRESSION)) {
    const [written, dollar, name, accesses] = match;
    if (dollar && code) continue;
    if (dollar || accesses || scope.has(name!)) found.push(written);
  }
  return found;
}

/** Every unrendered expression the pages show, in their text or in a link's address. */
export function unrenderedExpressions(pages: PageText[], scope: Set<string>): Unrendered[] {
  const found: Unrendered[] = [];
  for (const page of pages) {
    for (const {text, code} of page.pieces) {
      for (const expression of unrenderedIn(text, scope, code))
        found.push({page: page.url, where: code ? 'inline code' : 'text', expression});
    }
    for (const href of new Set(page.hrefs)) {
      for (const expression of unrenderedIn(decoded(href), scope, false))
        found.push({page: page.url, where: 'href', expression});
    }
  }
  return found;
}

/** An address as its braces read: `%7BappConfig.domainName%7D` is `{appConfig.domainName}`. */
function decoded(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}
