import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

/**
 * Whether React is hydrating the server's HTML of the page the browser opened: true from the
 * bundle's start on a built page (its container holds the server's HTML; the dev server sends it
 * empty) until that hydration commits (src/theme/Root.tsx ends it in a layout effect, which runs
 * after every component of the hydration has rendered). A component mounted later is drawn by
 * the browser: a client-side navigation, or content loaded afterwards.
 */
let hydrating = ExecutionEnvironment.canUseDOM && document.getElementById('__docusaurus')?.hasChildNodes() === true;

export function isFirstHydration(): boolean {
  return hydrating;
}

export function endFirstHydration(): void {
  hydrating = false;
}
