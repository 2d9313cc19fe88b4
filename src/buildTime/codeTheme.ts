import {themes, type PrismTheme} from 'prism-react-renderer';

/**
 * The docs' code theme: VS Code Dark+, with the three token colours that
 * fall under a 4.5:1 contrast on its background (axe's color-contrast rule)
 * raised to the colours VS Code itself uses for them.
 */
const RAISED: Record<string, string> = {
  constant: '#4FC1FF',
  prolog: '#6A9955',
  punctuation: '#A0A0A0',
};

export const docsCodeTheme: PrismTheme = {
  ...themes.vsDark,
  styles: themes.vsDark.styles.map((style) => {
    const raised = style.types.map((type) => RAISED[type]).find(Boolean);
    return raised ? {...style, style: {...style.style, color: raised}} : style;
  }),
};
