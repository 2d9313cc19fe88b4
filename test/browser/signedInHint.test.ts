/**
 * The header's "Login" on the built site, frame by frame from the static HTML on: a visitor sees
 * it at once and loads no auth SDK; a browser with the signed-in hint never paints it until the
 * provider has answered. (The signed-in account itself is followed on the local stack, in
 * journey.test.ts.)
 */
import type {BrowserContext} from 'playwright-core';
import {SIGNED_IN_HINT} from '../../src/lib/auth/signedInHint';
import {eventually, recordPopupScript, useBrowser} from './helpers';
import {headerStates, recordHeaderStates} from './headerStates';

const browser = useBrowser();

/** Strings only the Firebase Auth SDK carries (as `npm run bench` looks for them). */
const FIREBASE_MARKERS = ['identitytoolkit.googleapis.com', 'securetoken.googleapis.com'];

/** Every script body the context receives, to look for the SDK in. */
function collectScripts(context: BrowserContext): string[] {
  const bodies: string[] = [];
  context.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      response.text().then(
        (text) => bodies.push(text),
        () => undefined,
      );
  });
  return bodies;
}

describe('the header on the built site', () => {
  it('shows a visitor Login from the first painted frame, and loads no auth SDK', async () => {
    let scripts: string[] = [];
    const {page, errors} = await browser().open('/', {
      prepare: async (context) => {
        scripts = collectScripts(context);
        await context.addInitScript(recordHeaderStates, '');
      },
    });
    await page.getByRole('navigation', {name: 'Main'}).getByRole('link', {name: 'Login'}).waitFor();
    expect(await headerStates(page)).toEqual(['login']);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((text) => FIREBASE_MARKERS.some((marker) => text.includes(marker)))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps Login out of sight in a browser with the hint until the provider answers, then shows it when nobody is signed in', async () => {
    let scripts: string[] = [];
    const {page, errors} = await browser().open('/', {
      prepare: async (context) => {
        scripts = collectScripts(context);
        // A browser where someone signed in once, whose session has since gone.
        await context.addInitScript((key) => window.localStorage.setItem(key, '1'), SIGNED_IN_HINT);
        await context.addInitScript(recordHeaderStates, '');
      },
    });
    await eventually(
      () => headerStates(page),
      (states) => expect(states.at(-1)).toBe('login'),
    );
    // Hidden on the first painted frame (the static HTML has it), shown once the provider said nobody.
    expect(await headerStates(page)).toEqual(['neither', 'login']);
    expect(await page.evaluate((key) => window.localStorage.getItem(key), SIGNED_IN_HINT)).toBeNull();
    // Here, and only here, the SDK was loaded to ask.
    await eventually(
      () => scripts.some((text) => FIREBASE_MARKERS.some((marker) => text.includes(marker))),
      (loaded) => expect(loaded).toBe(true),
    );
    expect(errors).toEqual([]);
  });

  it("on a phone, a page that only shows the user loads nothing of Google's popup", async () => {
    let popupScript: string[] = [];
    let scripts: string[] = [];
    const {page, errors} = await browser().open('/', {
      phone: true,
      prepare: async (context) => {
        popupScript = await recordPopupScript(context);
        scripts = collectScripts(context);
        await context.addInitScript((key) => window.localStorage.setItem(key, '1'), SIGNED_IN_HINT);
      },
    });
    // The hint made the page load the SDK and ask; it answered nobody.
    await eventually(
      () => scripts.some((text) => FIREBASE_MARKERS.some((marker) => text.includes(marker))),
      (loaded) => expect(loaded).toBe(true),
    );
    await eventually(
      () => page.evaluate((key) => window.localStorage.getItem(key), SIGNED_IN_HINT),
      (hint) => expect(hint).toBeNull(),
    );
    expect(popupScript).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("on a phone, the sign-in page readies Google's popup before the tap", async () => {
    let popupScript: string[] = [];
    const {page} = await browser().open('/signin', {
      phone: true,
      prepare: async (context) => {
        popupScript = await recordPopupScript(context);
      },
    });
    await page.getByRole('button', {name: /Google/}).waitFor();
    await eventually(
      () => popupScript,
      (seen) => expect(seen).toEqual([expect.stringMatching(/^https:\/\/apis\.google\.com\/js\/api\.js/)]),
      15_000,
    );
  });
});
