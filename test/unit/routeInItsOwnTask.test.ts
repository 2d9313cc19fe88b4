/**
 * The plugin that starts the app in a task of its own: its client entry takes the place of
 * Docusaurus's in the browser build only, and a site on the hash router (which its entry does not
 * bundle) is refused at once rather than shipped without a router.
 */
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import routeInItsOwnTask from '../../src/plugins/routeInItsOwnTask';

class NormalModuleReplacementPlugin {
  constructor(
    readonly test: RegExp,
    readonly replacement: string,
  ) {}
}
const bundler = {currentBundler: {instance: {NormalModuleReplacementPlugin}}} as never;
const contextWith = (router?: 'browser' | 'hash') =>
  ({siteConfig: {future: {experimental_router: router}}}) as unknown as LoadContext;
const configure = (plugin: Plugin, isServer: boolean) =>
  (plugin as Required<Pick<Plugin, 'configureWebpack'>>).configureWebpack(
    {} as never,
    isServer,
    bundler,
    undefined,
  ) as {plugins?: NormalModuleReplacementPlugin[]};

describe('routeInItsOwnTask', () => {
  it("swaps Docusaurus's client entry for its own in the browser build, as written and as resolved", () => {
    const [swap] = configure(routeInItsOwnTask(contextWith('browser')), false).plugins!;
    expect(swap!.replacement).toBe(path.resolve('src/plugins/routeInItsOwnTask/clientEntry.js'));
    expect(swap!.test.test('@docusaurus/core/lib/client/clientEntry')).toBe(true);
    expect(swap!.test.test(path.resolve('node_modules/@docusaurus/core/lib/client/clientEntry.js'))).toBe(true);
    expect(swap!.test.test('@docusaurus/core/lib/client/docusaurus')).toBe(false);
  });

  it('leaves the server build as it is', () => {
    expect(configure(routeInItsOwnTask(contextWith()), true)).toEqual({});
  });

  it('refuses a site on the hash router, which its entry does not bundle', () => {
    expect(() => routeInItsOwnTask(contextWith('hash'))).toThrow(/routes by path only/);
  });
});
