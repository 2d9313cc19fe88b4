/**
 * The titles a jest test file declares, and whether a title quoted in prose (`SECURITY.md`'s
 * `file › describe › test`) names one of them. A quote may shorten a title with `…`, give a value
 * the title takes when it runs (`${MAX}` of the config, `%s` of a table the file does not write
 * out), and end in a remark of its own in parentheses; what it does quote must be in one title.
 */
import ts from 'typescript';

/** Where a title takes a value only when the test runs: `${…}` of a template, `%s` of a table held elsewhere. */
const HOLE = '\u0000';

/** The callees whose first argument is a title: `describe`, `it`, `test`, and their `.each`, `.only`, `.skip`…. */
const TITLED = new Set(['describe', 'it', 'test']);

function calleeRoot(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return calleeRoot(expression.expression);
  // `test.each(table)('title', …)`: the callee is itself a call.
  if (ts.isCallExpression(expression)) return calleeRoot(expression.expression);
  return undefined;
}

function unwrapped(node: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)
    ? unwrapped(node.expression)
    : node;
}

/** Text written out in code, with HOLE where a value goes in, or undefined when none of it is. */
function writtenText(expression: ts.Expression): string | undefined {
  const node = unwrapped(expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isNumericLiteral(node))
    return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((span) => HOLE + span.literal.text).join('');
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = writtenText(node.left);
    const right = writtenText(node.right);
    return left !== undefined && right !== undefined ? left + right : undefined;
  }
  return undefined;
}

/**
 * The titles of a `.each`: one a row when the table is written out here (`%s`, `%j`… take the
 * row's values in turn, `%#` its index; `%o` is a HOLE), and one with a HOLE for each value, as a quote may give a
 * value of its own or `%s` itself. `$key` of object rows is a HOLE.
 */
function eachTitles(title: string, table: ts.Expression): string[] {
  const node = unwrapped(table);
  const generic = title.replace(/%[sdifjoOp#]|\$[\w.]+/g, HOLE).replace(/%%/g, '%');
  if (!ts.isArrayLiteralExpression(node)) return [generic];
  const rows = node.elements.map((element, index) => {
    const row = unwrapped(element);
    const values = ts.isArrayLiteralExpression(row) ? [...row.elements] : [row];
    let next = 0;
    return title
      .replace(/%[sdifjoOp#%]/g, (placeholder) => {
        if (placeholder === '%%') return '%';
        if (placeholder === '%#') return String(index);
        const value = values[next++];
        const text = value && writtenText(value as ts.Expression);
        if (text === undefined || text.includes(HOLE) || /%[oO]/.test(placeholder)) return HOLE;
        // %j and %p print a string as JSON does, in double quotes.
        return /%[jp]/.test(placeholder) && !ts.isNumericLiteral(unwrapped(value as ts.Expression))
          ? JSON.stringify(text)
          : text;
      })
      .replace(/\$[\w.]+/g, HOLE);
  });
  return [...rows, generic];
}

/** Typographic quotes, backticks and runs of spaces read alike in Markdown and in code. */
function normalise(text: string): string {
  return text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/`/g, '').replace(/\s+/g, ' ');
}

/**
 * Every title written out in a test file, `describe` and test alike, and each nested one as jest
 * names it in full (its `describe`s' titles first, joined by spaces), normalised. A title held in a
 * variable is not written out, so no quote can name it.
 */
export function testTitles(source: string, fileName = 'test.ts'): string[] {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    false,
    fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const titles: string[] = [];
  const visit = (node: ts.Node, outer: string[]) => {
    let inner = outer;
    if (ts.isCallExpression(node) && node.arguments.length > 0 && TITLED.has(calleeRoot(node.expression) ?? '')) {
      const title = writtenText(node.arguments[0]);
      if (title !== undefined) {
        const each = ts.isCallExpression(node.expression) ? node.expression.arguments[0] : undefined;
        const own = (each ? eachTitles(title, each) : [title]).map(normalise);
        titles.push(...own);
        if (outer.length > 0) titles.push(...own.map((name) => [...outer, name].join(' ')));
        // What a `describe` holds is named after it; one generic title stands for all its rows.
        inner = [...outer, own.at(-1)!];
      }
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(file, []);
  // Most quotes are a title as written: try those first, the ones with values last (it costs more).
  return titles.sort((a, b) => Number(a.includes(HOLE)) - Number(b.includes(HOLE)));
}

/**
 * How `fragment` can be read in `title`: as a stretch of it, where a HOLE stands for the value
 * the test runs with, and the fragment may begin or end inside one. The most characters of the
 * fragment it can match as written, or -1 when it cannot be read there.
 */
function readIn(title: string, fragment: string): number {
  if (!title.includes(HOLE)) return title.includes(fragment) ? fragment.length : -1;
  // For each place in the title the fragment can have reached, the most characters matched as
  // written (-1: not reached). It may start anywhere.
  let reached = new Int32Array(title.length + 1);
  const passHoles = (positions: Int32Array) => {
    for (let at = 0; at < title.length; at++)
      if (title[at] === HOLE && positions[at] > positions[at + 1]) positions[at + 1] = positions[at];
  };
  passHoles(reached);
  for (const char of fragment) {
    const next = new Int32Array(title.length + 1).fill(-1);
    let any = false;
    for (let at = 0; at < title.length; at++) {
      if (reached[at] < 0) continue;
      if (title[at] === HOLE) next[at] = Math.max(next[at], reached[at]);
      else if (title[at] === char) next[at + 1] = Math.max(next[at + 1], reached[at] + 1);
      else continue;
      any = true;
    }
    if (!any) return -1;
    passHoles(next);
    reached = next;
  }
  return Math.max(...reached);
}

/** The stretches a quote does say: the text between its `…`, trimmed of the punctuation around it. */
function stretches(quote: string): string[] {
  return quote
    .split('…')
    .map((part) => part.replace(/^[\s;,:.]+|[\s;,:]+$/g, ''))
    .filter((part) => part !== '');
}

/** The quote without a last remark in parentheses, or undefined when it does not end in one. */
function withoutRemark(quote: string): string | undefined {
  const trimmed = quote.trimEnd();
  if (!trimmed.endsWith(')')) return undefined;
  let depth = 0;
  for (let at = trimmed.length - 1; at >= 0; at--) {
    if (trimmed[at] === ')') depth++;
    else if (trimmed[at] === '(' && --depth === 0) return trimmed.slice(0, at).trimEnd();
  }
  return undefined;
}

/**
 * Whether a quoted title (one level of `describe › test`) names one of `titles`: every stretch it
 * quotes is in that one title, and at least a quarter of what it quotes, and some of each stretch,
 * is the title as written (the rest may be values the title takes when it runs: else `%s` would
 * read as any quote). A remark in parentheses at its end is tried with and without.
 */
export function namesTitle(titles: readonly string[], quote: string): boolean {
  for (
    let candidate: string | undefined = normalise(quote);
    candidate !== undefined;
    candidate = withoutRemark(candidate)
  ) {
    const parts = stretches(candidate);
    const length = parts.join('').length;
    if (length === 0) continue;
    const named = titles.some((title) => {
      let written = 0;
      for (const part of parts) {
        const count = readIn(title, part);
        // Each stretch quotes some of the title as written, not only a value it takes.
        if (count < Math.min(4, part.length)) return false;
        written += count;
      }
      return written * 4 >= length;
    });
    if (named) return true;
  }
  return false;
}
