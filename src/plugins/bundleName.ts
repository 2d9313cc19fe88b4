import type {Plugin} from '@docusaurus/types';
import {serviceName} from '../config';

/**
 * Names the bundles' global (`self.webpackChunk…`) and their chunk-loading prefix after the
 * product (serviceName). The bundler takes them from package.json's `name` otherwise, which a
 * rename in src/config does not change, so every built script would keep the kit's name.
 */
export default function bundleName(): Plugin {
  return {
    name: 'bundle-name',
    configureWebpack: () => ({output: {uniqueName: serviceName}}),
  };
}
