/**
 * A form post read on its raw bytes, before any parser: how many fields it has, and the few a
 * webhook checks first (a signature), without decoding the rest. The platform's form parser costs
 * per field: 5 MB of empty fields took over 20 times as long as 5 MB in one, so a webhook counts
 * first, checks who sent it, and parses only a signed post of a sane size.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export type FormKind = 'multipart' | 'urlencoded';

export interface FormShape {
  kind: FormKind;
  /** Where each field's bytes start and end (its headers included, for multipart). */
  fields: {start: number; end: number}[];
}

/** The form's kind and boundary from its Content-Type; null for anything that is not a form. */
function kindOf(contentType: string): {kind: 'urlencoded'} | {kind: 'multipart'; boundary: string} | null {
  if (/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) return {kind: 'urlencoded'};
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^";\s]{1,70}))/i.exec(contentType);
  return boundary ? {kind: 'multipart', boundary: (boundary[1] ?? boundary[2])!} : null;
}

/** Every place `needle` starts in `haystack`, from `from`, stopping once there are more than `most`. */
function occurrences(haystack: Uint8Array, needle: Uint8Array, from: number, most: number): number[] {
  const found: number[] = [];
  for (
    let at = haystack.indexOf(needle[0]!, from);
    at !== -1 && found.length <= most;
    at = haystack.indexOf(needle[0]!, at + 1)
  ) {
    let i = 1;
    while (i < needle.length && haystack[at + i] === needle[i]) i++;
    if (i === needle.length) found.push(at);
  }
  return found;
}

/**
 * Where each field of the form lies, counted on the bytes: `&` separators, or multipart
 * delimiters. `tooMany` when it has more than `maxFields`; null when the body is not a form.
 */
export function formShape(body: Uint8Array, contentType: string, maxFields: number): FormShape | 'tooMany' | null {
  const kind = kindOf(contentType);
  if (!kind) return null;
  if (kind.kind === 'urlencoded') {
    const separators = occurrences(body, encoder.encode('&'), 0, maxFields);
    if (separators.length >= maxFields) return 'tooMany';
    const edges = [-1, ...separators, body.length];
    return {kind: 'urlencoded', fields: edges.slice(1).map((end, index) => ({start: edges[index]! + 1, end}))};
  }
  // A part starts after a delimiter line (`--boundary`, at the start or after CRLF) and ends at
  // the CRLF before the next one; the last delimiter is the closing one.
  const delimiter = encoder.encode(`\r\n--${kind.boundary}`);
  const opening = encoder.encode(`--${kind.boundary}`);
  const startsAtTop = opening.every((byte, index) => body[index] === byte);
  const first = startsAtTop ? 0 : occurrences(body, delimiter, 0, 0)[0];
  if (first === undefined) return {kind: 'multipart', fields: []};
  const afterFirst = startsAtTop ? opening.length : first + delimiter.length;
  const rest = occurrences(body, delimiter, afterFirst, maxFields);
  if (rest.length > maxFields) return 'tooMany';
  const fields: {start: number; end: number}[] = [];
  let start = afterFirst;
  for (const end of rest) {
    fields.push({start, end});
    start = end + delimiter.length;
  }
  return {kind: 'multipart', fields};
}

function decodeUrlComponent(bytes: Uint8Array): string {
  const text = decoder.decode(bytes).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // as URLSearchParams would keep a malformed escape
  }
}

/**
 * The values of `names` (the first of each), read from their own fields only: nothing else of the
 * form is decoded. A name the form lacks, or gives as a file, is missing from the answer.
 */
export function readFields(body: Uint8Array, shape: FormShape, names: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const {start, end} of shape.fields) {
    if (values.size === names.length) break;
    if (shape.kind === 'urlencoded') {
      const equals = body.subarray(start, end).indexOf(0x3d); // '='
      const name = decodeUrlComponent(body.subarray(start, equals === -1 ? end : start + equals));
      if (names.includes(name) && !values.has(name))
        values.set(name, equals === -1 ? '' : decodeUrlComponent(body.subarray(start + equals + 1, end)));
      continue;
    }
    // A part: CRLF (after the delimiter line's own padding), headers, a blank line, the value.
    const part = body.subarray(start, end);
    const headersEnd = occurrences(part, encoder.encode('\r\n\r\n'), 0, 0)[0];
    if (headersEnd === undefined) continue;
    const headers = decoder.decode(part.subarray(0, Math.min(headersEnd, 2048)));
    const disposition = /^content-disposition:([^\r\n]*)$/im.exec(headers)?.[1] ?? '';
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined || !names.includes(name) || values.has(name) || /;\s*filename\*?=/i.test(disposition))
      continue;
    values.set(name, decoder.decode(part.subarray(headersEnd + 4)));
  }
  return values;
}
