import type {Plugin} from '@docusaurus/types';

/**
 * One plugin whose postBuild runs the given plugins' postBuild one after the other. Docusaurus runs
 * every plugin's postBuild at the same time; a plugin that reads the built pages as another leaves
 * them needs this. It takes plugins that have nothing but a postBuild.
 */
export default function inOrder(name: string, ...plugins: Array<() => Plugin>): () => Plugin {
  return () => {
    const loaded = plugins.map((plugin) => plugin());
    for (const plugin of loaded) {
      const others = Object.keys(plugin).filter((key) => key !== 'name' && key !== 'postBuild');
      if (others.length > 0)
        throw new Error(`src/plugins/inOrder.ts runs postBuild only; ${plugin.name} also has ${others.join(', ')}.`);
    }
    return {
      name,
      async postBuild(props) {
        for (const plugin of loaded) await plugin.postBuild?.(props);
      },
    };
  };
}
