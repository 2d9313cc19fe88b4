// The unit tests render in jsdom, after the page's scripts have run: the browser is there.
export default function useIsBrowser(): boolean {
  return true;
}
