import type {Plugin} from '@docusaurus/types';

/**
 * A plugin that swaps one module of a dependency for the site's own file in the browser build
 * only (the server build keeps the original, which costs a visitor nothing). `test` matches the
 * import as written or the path it resolves to, as NormalModuleReplacementPlugin does.
 */
export function swapInBrowserBuild(name: string, test: RegExp, replacement: string): Plugin {
  return {
    name,
    configureWebpack(_config, isServer, {currentBundler}) {
      if (isServer) return {};
      return {plugins: [new currentBundler.instance.NormalModuleReplacementPlugin(test, replacement)]};
    },
  };
}
