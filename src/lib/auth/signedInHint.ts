/**
 * A note in this browser that someone is signed in here: set when the provider reports a user,
 * cleared when it reports nobody. It only decides two things on public pages: whether to load the
 * auth SDK to ask who is there, and whether to hide the visitor's "Login" until the provider
 * answers. It never authorizes anything: the worker checks the provider's tokens.
 */
export const SIGNED_IN_HINT = 'auth:signedIn';

/** On <html> while the hint is set, from the page's first script on, so CSS can act before React. */
export const HINT_ATTRIBUTE = 'data-signed-in-hint';

/** Records who the provider reported, in storage and on the page. */
export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) window.localStorage.setItem(SIGNED_IN_HINT, '1');
    else window.localStorage.removeItem(SIGNED_IN_HINT);
  } catch {
    // Storage refused (a private window): every page then asks the provider.
  }
  document.documentElement.toggleAttribute(HINT_ATTRIBUTE, signedIn);
}

/** Whether someone may be signed in here; true when storage cannot tell, so the provider is asked. */
export function maybeSignedIn(): boolean {
  try {
    return window.localStorage.getItem(SIGNED_IN_HINT) !== null;
  } catch {
    return true;
  }
}

/**
 * The inline <head> script that copies the hint onto <html> while the page is parsed, before the
 * header is painted: a signed-in user's reload never shows "Login" for a moment.
 */
export function signedInHintScript(): string {
  const key = JSON.stringify(SIGNED_IN_HINT);
  const attribute = JSON.stringify(HINT_ATTRIBUTE);
  return `try{if(localStorage.getItem(${key})!==null)document.documentElement.setAttribute(${attribute},'')}catch(e){}`;
}
