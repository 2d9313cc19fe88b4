/**
 * Sidebar icons travel as SVG data URIs in each item's customProps: the
 * sidebar wrapper paints them as a CSS mask, so the icon takes the link's
 * colour (active, hover) and no icon code ships to the browser. The SVGs are
 * lucide-static's strings: the same Lucide set the components draw with
 * lucide-react, without rendering React while Docusaurus loads sidebars.ts.
 */
export type SidebarItemProps = {icon: string};

export function sidebarIcon(svg: string): SidebarItemProps {
  const compact = svg
    .replace(/\s+/g, ' ')
    .replace(/ class="[^"]*"/, '')
    .replace(/> </g, '><')
    .trim();
  return {icon: `data:image/svg+xml,${encodeURIComponent(compact)}`};
}
