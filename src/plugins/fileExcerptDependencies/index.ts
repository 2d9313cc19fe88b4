import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

/** Makes the files `<FileExcerpt>` quotes dependencies of the docs pages that quote them (./loader.js). */
export default function fileExcerptDependencies(context: LoadContext): Plugin {
  return {
    name: 'file-excerpt-dependencies',
    configureWebpack() {
      return {
        module: {
          rules: [{test: /\.mdx?$/, enforce: 'pre' as const, use: [{loader: path.join(__dirname, 'loader.js'), options: {siteDir: context.siteDir}}]}],
        },
      };
    },
  };
}
