/**
 * The `_headers` file that Cloudflare (Workers static assets and Pages) and Netlify read from the
 * built site: a path pattern on its own line, then its headers indented, one `Name: value` a line.
 *
 * When several rules match a path, Cloudflare sends every value of a header, joined by commas;
 * Netlify sends the last rule's. The rules written here mean the same either way (see
 * src/buildTime/contentSecurityPolicy.ts), and headersForPath below does what Cloudflare does.
 */
export interface HeaderRule {
  /** A path, exact, or with `*` (any characters, `/` included) and `:name` (one segment). */
  path: string;
  headers: Record<string, string>;
}

/** Cloudflare's documented limits for `_headers`. */
export const HEADERS_FILE_LIMITS = {rules: 100, lineLength: 2000};

export function renderHeadersFile(rules: HeaderRule[], comment: string[] = []): string {
  if (rules.length > HEADERS_FILE_LIMITS.rules) {
    throw new Error(
      `_headers would hold ${rules.length} rules; Cloudflare reads at most ${HEADERS_FILE_LIMITS.rules}.`,
    );
  }
  const lines = [...comment.map((line) => `# ${line}`.trimEnd())];
  for (const rule of rules) {
    lines.push('', rule.path);
    for (const [name, value] of Object.entries(rule.headers)) lines.push(`  ${name}: ${value}`);
  }
  const long = lines.find((line) => line.length > HEADERS_FILE_LIMITS.lineLength);
  if (long)
    throw new Error(
      `_headers would have a line of ${long.length} characters; Cloudflare reads at most ${HEADERS_FILE_LIMITS.lineLength}: ${long.slice(0, 120)}…`,
    );
  return `${lines.join('\n').trimStart()}\n`;
}

export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({path: line.trim(), headers: {}});
      continue;
    }
    const header = /^\s+([^:\s]+):\s*(.*)$/.exec(line);
    const rule = rules.at(-1);
    if (!header || !rule)
      throw new Error(`_headers line ${index + 1} is neither a path nor a header under one: ${line}`);
    rule.headers[header[1]!] = header[2]!.trim();
  }
  return rules;
}

function pattern(path: string): RegExp {
  const source = path
    .split(/(\*|:[A-Za-z]\w*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The headers a request for `pathname` gets, as Cloudflare gives them: every matching rule's, a header's values joined by ", ". */
export function headersForPath(rules: HeaderRule[], pathname: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rule of rules) {
    if (!pattern(rule.path).test(pathname)) continue;
    for (const [name, value] of Object.entries(rule.headers)) {
      const key = Object.keys(out).find((existing) => existing.toLowerCase() === name.toLowerCase()) ?? name;
      out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
    }
  }
  return out;
}
