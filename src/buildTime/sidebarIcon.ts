/**
 * Sidebar icons are small SVG files that the sidebar wrapper paints as a CSS
 * mask, so the icon takes the link's colour (active, hover) and no icon code
 * ships to the browser. sidebars.ts gives lucide-static's strings: the same
 * Lucide set the components draw with lucide-react, without rendering React
 * while Docusaurus loads sidebars.ts. Each is written once to the generated
 * static folder, and the item carries its URL. Files rather than data URIs:
 * inline, the icons weighed 29 KB in the HTML of every docs page and again in
 * its script, and a phone, whose sidebar is hidden, never fetches a file.
 */
import {createHash} from 'node:crypto';
import path from 'node:path';
import {GENERATED_STATIC_DIR, writeIfChanged} from './generatedStatic';

export type SidebarItemProps = {icon: string};

export function sidebarIcon(svg: string): SidebarItemProps {
  // Lucide names its icons in a class (`lucide lucide-rocket`); any other SVG is named by its content.
  const name = /\blucide-([a-z0-9-]+)/.exec(svg)?.[1] ?? createHash('sha256').update(svg).digest('hex').slice(0, 12);
  const compact = svg
    .replace(/\s+/g, ' ')
    .replace(/ class="[^"]*"/, '')
    .replace(/> </g, '><')
    .trim();
  const file = `img/sidebar/${name}.svg`;
  writeIfChanged(path.join(GENERATED_STATIC_DIR, file), `${compact}\n`);
  return {icon: `/${file}`};
}
