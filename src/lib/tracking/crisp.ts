import {loadScript} from './loadScript';
import {THIRD_PARTY_SCRIPTS} from './thirdParty';

declare global {
  interface Window {
    $crisp?: unknown[][];
    CRISP_WEBSITE_ID?: string;
  }
}

export const CRISP_SCRIPT = THIRD_PARTY_SCRIPTS.crisp.src;

function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** Whether the chat bubble belongs on this path. */
export function isChatPath(pathname: string, allowed: readonly string[]): boolean {
  const path = normalise(pathname);
  return allowed.some((route) => normalise(route) === path);
}

let allowedRoutes: readonly string[] = [];

function currentPathAllowed(): boolean {
  return isChatPath(window.location.pathname, allowedRoutes);
}

/** Starts the Crisp chat widget; with no id it does nothing and nothing is fetched. */
export function initCrisp(websiteId: string, onlyShowOnRoutes: readonly string[]): void {
  if (!websiteId || window.$crisp) return;
  allowedRoutes = onlyShowOnRoutes;
  window.$crisp = [];
  window.CRISP_WEBSITE_ID = websiteId;
  // A visitor who opened the chat where it does not belong (from the error
  // screen's Support button, say) gets the bubble hidden again on close.
  window.$crisp.push([
    'on',
    'chat:closed',
    () => {
      if (!currentPathAllowed()) window.$crisp?.push(['do', 'chat:hide']);
    },
  ]);
  loadScript(CRISP_SCRIPT);
}

/** Shows or hides the bubble for the page just navigated to. */
export function updateChatVisibility(pathname: string): void {
  if (!window.$crisp) return;
  window.$crisp.push(['do', isChatPath(pathname, allowedRoutes) ? 'chat:show' : 'chat:hide']);
}

/** Opens the chat, on any page. */
export function openChat(): void {
  window.$crisp?.push(['do', 'chat:show']);
  window.$crisp?.push(['do', 'chat:open']);
}
