/**
 * A stretch of a file: from the first line (after the previous stretch) that contains `from`,
 * through the first line from there that contains `to`. Without `to`, the one line.
 */
export type ExcerptPart = readonly [from: string, to?: string];

/**
 * The stretches of `source`, with a `// ...` line where the file goes on between them or after
 * the last (indented as the code beside it), the way the docs leave code out. Throws when a
 * stretch is not in the file, naming it and the file.
 */
export function excerpt(source: string, parts: readonly ExcerptPart[], file: string): string {
  const lines = source.split('\n');
  const shown: string[] = [];
  let next = 0;
  for (const [from, to] of parts) {
    const first = lines.findIndex((line, index) => index >= next && line.includes(from));
    if (first < 0)
      throw new Error(
        `${file} holds no line with "${from}" here: the docs quote it, so change the quote with the file.`,
      );
    const last = to === undefined ? first : lines.findIndex((line, index) => index >= first && line.includes(to));
    if (last < 0)
      throw new Error(
        `${file} holds no line with "${to}" after "${from}": the docs quote it, so change the quote with the file.`,
      );
    if (shown.length > 0 && first > next) shown.push(`${/^\s*/.exec(lines[first])![0]}// ...`);
    shown.push(...lines.slice(first, last + 1));
    next = last + 1;
  }
  if (lines.slice(next).some((line) => line.trim() !== ''))
    shown.push(`${/^\s*/.exec(shown[shown.length - 1] ?? '')![0]}// ...`);
  return shown.join('\n');
}
