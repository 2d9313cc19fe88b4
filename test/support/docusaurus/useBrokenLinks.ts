// The link checker only runs during a build; in jsdom there is nothing to collect.
export default function useBrokenLinks() {
  return {collectAnchor: () => {}, collectLink: () => {}};
}
