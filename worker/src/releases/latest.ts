/**
 * The tag of the newest release the worker stored (announced by GitHub's `release` webhook) and
 * the seller has not withdrawn since, or null before the first. A download serves it, and the dashboard marks it next to the download:
 * both read it here, so the tag shown is the tag served.
 */
export async function latestStoredTag(db: D1Database): Promise<string | null> {
  const row = await db
    .prepare('SELECT tag FROM releases WHERE withdrawn_at IS NULL ORDER BY published_at DESC, id DESC LIMIT 1')
    .first<{tag: string}>();
  return row?.tag ?? null;
}
