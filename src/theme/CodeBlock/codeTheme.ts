import {useThemeConfig} from '@docusaurus/theme-common';
import type {PrismTheme} from 'prism-react-renderer';

/**
 * The one code theme of docusaurus.config.ts (`prism.theme`), read from the config. The theme's
 * usePrismTheme reads the colour mode as well, to pick `darkTheme` in dark mode; the site has no
 * `darkTheme`, and the colour mode turns from the config's default to the page's own right after
 * hydration, so every code block would draw itself again while the page starts, for nothing.
 */
export function useCodeTheme(): PrismTheme {
  return useThemeConfig().prism.theme as PrismTheme;
}
