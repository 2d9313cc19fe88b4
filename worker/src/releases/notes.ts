import {Marked, type Tokens} from 'marked';

/**
 * Release notes, from the Markdown a seller writes on GitHub to HTML for an e-mail or the
 * dashboard. marked (well kept, no dependencies) parses; this renderer makes it safe: raw HTML in
 * the notes is shown as text, never passed on, and a link or an image keeps its URL only when it
 * is absolute http(s) (no `javascript:`, `data:` or relative URL, which has no base in an e-mail).
 * Everything else marked renders escaped already.
 */
const WEB_URL = /^https?:\/\//i;

/** Text made safe anywhere in HTML, an attribute included. */
export const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text);
    },
    // Always escaped: after an inline <pre>, <code>, <kbd> or <script>, marked marks the text
    // that follows as raw ("escaped") and its own renderer passes it on as it is, so text such as
    // `<img src=x onerror=...` that is no well-formed tag would reach the page as markup.
    text(token: Tokens.Text | Tokens.Escape) {
      return 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : escapeHtml(token.text);
    },
    link(token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      return WEB_URL.test(token.href) ? `<a href="${escapeHtml(token.href)}">${text}</a>` : text;
    },
    // An image becomes a link to it: an e-mail that loads nothing on opening tells no one it was read.
    image(token: Tokens.Image) {
      const label = escapeHtml(token.text || token.href);
      return WEB_URL.test(token.href) ? `<a href="${escapeHtml(token.href)}">${label}</a>` : label;
    },
  },
});

/**
 * The version of this renderer, stored beside the HTML it made (releases.notes_renderer). Add one
 * whenever the rules above change: notes stored by an older renderer are rendered again on read.
 */
export const NOTES_RENDERER = 1;

/** The notes as safe HTML. */
export function renderNotes(notes: string): string {
  return markdown.parse(notes, {async: false});
}
