-- A release's notes, rendered once from their Markdown (worker/src/releases/notes.ts) when the
-- release is stored, not again at every dashboard read. `notes_renderer` is the version of the
-- renderer that made `notes_html` (NOTES_RENDERER): a release stored before this migration (NULL),
-- or by an older renderer (one a safety fix has since changed), is rendered again when it is read,
-- and stored, so stored HTML never outlives the rules that made it safe.
ALTER TABLE releases ADD COLUMN notes_html TEXT;
ALTER TABLE releases ADD COLUMN notes_renderer INTEGER;
