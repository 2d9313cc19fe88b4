/**
 * The inline <head> script that marks <html> before the first paint, so CSS hides "Login" in a
 * browser where someone signed in; and the record the provider's answers keep.
 */
import {
  HINT_ATTRIBUTE,
  maybeSignedIn,
  rememberSignedIn,
  SIGNED_IN_HINT,
  signedInHintScript,
} from '../../src/lib/auth/signedInHint';

// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the head script, run as the page runs it
const runHeadScript = () => new Function(signedInHintScript())();

describe('the signed-in hint', () => {
  beforeEach(() => {
    window.localStorage.clear();
    document.documentElement.removeAttribute(HINT_ATTRIBUTE);
  });

  it('marks <html> when this browser has been signed in, and not for a visitor', () => {
    runHeadScript();
    expect(document.documentElement.hasAttribute(HINT_ATTRIBUTE)).toBe(false);
    window.localStorage.setItem(SIGNED_IN_HINT, '1');
    runHeadScript();
    expect(document.documentElement.hasAttribute(HINT_ATTRIBUTE)).toBe(true);
  });

  it('leaves the page as a visitor sees it when storage refuses, and never throws', () => {
    const getItem = jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    try {
      expect(runHeadScript).not.toThrow();
      expect(document.documentElement.hasAttribute(HINT_ATTRIBUTE)).toBe(false);
      // Client code cannot tell either, so it asks the provider.
      expect(maybeSignedIn()).toBe(true);
    } finally {
      getItem.mockRestore();
    }
  });

  it('follows the provider: set for a user, removed for nobody, in storage and on the page', () => {
    rememberSignedIn(true);
    expect(window.localStorage.getItem(SIGNED_IN_HINT)).toBe('1');
    expect(document.documentElement.hasAttribute(HINT_ATTRIBUTE)).toBe(true);
    rememberSignedIn(false);
    expect(window.localStorage.getItem(SIGNED_IN_HINT)).toBeNull();
    expect(document.documentElement.hasAttribute(HINT_ATTRIBUTE)).toBe(false);
    expect(maybeSignedIn()).toBe(false);
  });
});
