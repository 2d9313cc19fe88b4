import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

/** The route props the docs plugin writes for each version (`.docusaurus/docusaurus-plugin-content-docs/<id>/p/*.json`). */
export const DOCS_ROUTE_PROPS = /docusaurus-plugin-content-docs[\\/][^\\/]+[\\/]p[\\/][^\\/]+\.json$/;

/**
 * Runs ./loader.js on the docs plugin's route props, in the server build as in the browser's so
 * the two render the same. test/unit/docsVersionSlim.test.ts holds that no page of the docs uses
 * a DocCard, which is what would need the descriptions back.
 */
export default function docsVersionSlim(): Plugin {
  return {
    name: 'docs-version-slim',
    configureWebpack() {
      return {module: {rules: [{test: DOCS_ROUTE_PROPS, use: [path.join(__dirname, 'loader.js')]}]}};
    },
  };
}
