import useBrokenLinks from '@docusaurus/useBrokenLinks';

/**
 * Registers a section's id with Docusaurus's link checker, so a link to
 * `/#pricing` is checked at build time like any other anchor.
 */
export function useSectionAnchor(id: string): string {
  useBrokenLinks().collectAnchor(id);
  return id;
}
