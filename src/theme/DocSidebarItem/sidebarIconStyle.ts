import type {CSSProperties} from 'react';

/**
 * The item's icon (an SVG file's URL from sidebars.ts; a data URI in the
 * frozen 1.0 sidebar) as a CSS variable on the link; custom.css paints it as
 * a mask in the link's own colour. A variable rather than a child element:
 * the category's label also names its collapse button, so it has to stay
 * plain text.
 */
export function sidebarIconStyle(customProps: Record<string, unknown> | undefined): {style?: CSSProperties} {
  const icon = customProps?.icon;
  if (typeof icon !== 'string') return {};
  return {style: {'--sidebar-icon': `url("${icon}")`} as CSSProperties};
}
