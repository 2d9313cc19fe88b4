import type {Plugin} from '@docusaurus/types';

/**
 * Paints docs pages dark before the first frame. Docusaurus's own colour-mode
 * script sets the configured light mode at the start of <body>; this one
 * runs right after it and overrides it under the docs' path, except on a page
 * of the site's own (its <html> has the `marketing` class): the 404 page the
 * host sends for a missing docs address stays light, as it is everywhere.
 */
export default function docsColorMode(docsPath: string): () => Plugin {
  const pattern = `^${docsPath.replace(/\//g, '\\/')}(\\/|$)`;
  return () => ({
    name: 'docs-color-mode',
    injectHtmlTags() {
      return {
        preBodyTags: [
          {
            tagName: 'script',
            innerHTML: `if (/${pattern}/.test(location.pathname) && !document.documentElement.classList.contains('marketing')) document.documentElement.setAttribute('data-theme', 'dark');`,
          },
        ],
      };
    },
  });
}
