/**
 * A pre-loader for the docs' MDX: each file a `<FileExcerpt file="…">` quotes becomes a dependency
 * of the page, so that a change to the file (a price in src/config/app.ts) compiles the page again,
 * under `npm start` and through the bundler's persistent cache, as a change to the page would. The
 * quote itself is made by src/buildTime/remarkFileExcerpt.ts, which the bundler cannot see read.
 */
const path = require('node:path');

const QUOTED_FILE = /<FileExcerpt\b[^>]*?\bfile="([^"]+)"/g;

module.exports = function fileExcerptDependencies(source) {
  const {siteDir} = this.getOptions();
  for (const match of source.matchAll(QUOTED_FILE)) this.addDependency(path.join(siteDir, match[1]));
  return source;
};
