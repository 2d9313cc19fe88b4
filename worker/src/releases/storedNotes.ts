import {NOTES_RENDERER, renderNotes} from './notes';

/** A stored release's notes: the Markdown, and the HTML rendered from it when it was stored. */
export interface StoredNotes {
  id: number;
  body: string;
  notes_html: string | null;
  notes_renderer: number | null;
}

/**
 * The releases' notes as HTML, each rendered once: the stored HTML when today's renderer made it.
 * A release stored before the HTML was (NULL) or by an older renderer is rendered now and stored,
 * so the next read serves it as it is; a renderer fixed for safety reaches every stored release.
 */
export async function notesHtmlOf(db: D1Database, rows: StoredNotes[]): Promise<Map<number, string>> {
  const html = new Map<number, string>();
  const stale: D1PreparedStatement[] = [];
  for (const row of rows) {
    if (row.notes_html !== null && row.notes_renderer === NOTES_RENDERER) {
      html.set(row.id, row.notes_html);
      continue;
    }
    const rendered = renderNotes(row.body);
    html.set(row.id, rendered);
    stale.push(
      db
        .prepare('UPDATE releases SET notes_html = ?2, notes_renderer = ?3 WHERE id = ?1 AND notes_renderer IS NOT ?3')
        .bind(row.id, rendered, NOTES_RENDERER),
    );
  }
  if (stale.length > 0) await db.batch(stale);
  return html;
}
