/**
 * Structured JSON logs (Workers Logs indexes the fields). Callers pass ids, never secrets or
 * whole tokens.
 */
type Fields = Record<string, string | number | boolean | null | undefined>;

/**
 * A Checkout Session id signs its buyer in once, so a whole one must not sit in logs that others
 * read. Masking the written line catches it wherever it appears, in an id field or inside a
 * provider's error text.
 */
const SESSION_ID = /\b(cs_(?:test|live)_)[A-Za-z0-9]+/g;

export function maskSessionIds(text: string): string {
  return text.replace(SESSION_ID, (id, prefix: string) => `${prefix}…${id.slice(-6)}`);
}

function write(level: 'info' | 'warn' | 'error', event: string, fields: Fields) {
  const line = maskSessionIds(JSON.stringify({level, event, ...fields}));
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

export const log = {
  info: (event: string, fields: Fields = {}) => write('info', event, fields),
  warn: (event: string, fields: Fields = {}) => write('warn', event, fields),
  error: (event: string, fields: Fields = {}) => write('error', event, fields),
};
