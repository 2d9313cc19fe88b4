/**
 * Names the maps give that are shaped like a path of the repository but are no file of the kit, each
 * with the reason. What `.gitignore` names (`.env`, `build/`) needs no entry: the kit leaves it out
 * on purpose. An entry no map gives any more fails the test, so the list only shrinks with the maps.
 */
export const NOT_KIT_FILES: Readonly<Record<string, string>> = {
  '.git': "git's own folder: a clone has one and a downloaded kit none; it is never a file of the kit",
  'render.yaml': "Render's blueprint, which a seller who deploys there writes; the kit ships none",
  'vercel.json': "Vercel's settings, which a seller who deploys there writes; the kit ships none",
  'sitemap.xml': 'a file the build writes (build/sitemap.xml)',
  'robots.txt': 'a file src/seo/ writes into the build',
  'llms.txt': 'a file src/plugins/llmsTxt.ts writes into the build',
};
