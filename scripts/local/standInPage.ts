/**
 * The frame of the pages local mode's stand-ins draw in place of a service's own (Stripe's
 * checkout and portal, a GitHub repository's page): plain HTML, no script, a note at the top
 * saying what the page stands in for.
 */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[char]!);

/** A whole page: `title`, then `body` (HTML) in the card; `style` adds the page's own rules. */
export function standInPage(title: string, body: string, style = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: #f6f9fc; color: #1a1f36; }
  main { max-width: 26rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 8px 24px rgb(0 0 0 / 8%); }
  .local { padding: .5rem .75rem; margin-bottom: 1.5rem; background: #fef3c7; color: #78350f; border-radius: 8px; font-size: .85rem; }
  a { color: #0b534d; }
${style}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}
