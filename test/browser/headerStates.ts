/**
 * What the header's sign-in place shows on each painted frame, recorded from the page's first
 * script, once the whole header is there: a visible "Login", the account named `name` (a link to the
 * dashboard, or on the dashboard the account menu's button), or neither. A user sees only painted
 * frames, and requestAnimationFrame runs just before each paint (never while a stylesheet still
 * blocks rendering), so a state that never reaches a frame is never recorded.
 */
import type {Page} from 'playwright-core';

export type HeaderState = 'login' | 'account' | 'neither';

/** For `addInitScript`: notes each change of state, once, in `window.headerStates`. */
export function recordHeaderStates(name: string) {
  const states: string[] = [];
  (window as unknown as {headerStates: string[]}).headerStates = states;
  const shown = (link: HTMLElement) =>
    link.getClientRects().length > 0 && getComputedStyle(link).visibility !== 'hidden';
  // The parser has passed the header's end once any node follows it (outside it) in the document.
  // A frame painted mid-parse, the header begun and its links not yet read, says nothing of sign-in.
  const parsed = (header: Element) => {
    let node: Node | null = header;
    while (node && !node.nextSibling) node = node.parentNode;
    return node !== null || document.readyState !== 'loading';
  };
  const sample = () => {
    requestAnimationFrame(sample);
    // Nothing to say until the whole header is on the page.
    const header = document.querySelector('header');
    if (!header || !parsed(header)) return;
    const links = [...document.querySelectorAll<HTMLElement>('header a, header button')].filter(shown);
    const state = links.some((link) => link.textContent?.trim() === 'Login')
      ? 'login'
      : name && links.some((link) => link.textContent?.includes(name))
        ? 'account'
        : 'neither';
    if (states.at(-1) !== state) states.push(state);
  };
  requestAnimationFrame(sample);
}

export const headerStates = (page: Page) =>
  page.evaluate(() => (window as unknown as {headerStates: HeaderState[]}).headerStates);
