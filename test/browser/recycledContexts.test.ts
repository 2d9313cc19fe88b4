/**
 * The browser tests' recycled contexts (recycledContexts.ts): a test gets the context an earlier
 * test used, and finds nothing that test left behind, as a first visit would; a context that a
 * test changed for good is never lent again.
 */
import type {BrowserContext, Page} from 'playwright-core';
import {useBrowser} from './helpers';

const browser = useBrowser();

/** What a page of the site can read of everything a visitor's browser keeps for it. */
function kept(page: Page) {
  return page.evaluate(async () => {
    const databases = (await indexedDB.databases()).map((database) => database.name);
    return {
      local: localStorage.getItem('left-behind'),
      session: sessionStorage.getItem('left-behind'),
      cookie: document.cookie.includes('left-behind'),
      database: databases.includes('left-behind'),
    };
  });
}

let first: BrowserContext | undefined;
let scripted: BrowserContext | undefined;

describe('recycled browser contexts', () => {
  it('hold what a test writes for as long as the test runs', async () => {
    const {page} = await browser().open('/');
    first = page.context();
    await page.evaluate(async () => {
      localStorage.setItem('left-behind', 'local');
      sessionStorage.setItem('left-behind', 'session');
      document.cookie = 'left-behind=cookie; path=/';
      await new Promise((resolve, reject) => {
        const request = indexedDB.open('left-behind');
        request.onsuccess = () => {
          request.result.close();
          resolve(undefined);
        };
        request.onerror = () => reject(new Error(String(request.error)));
      });
    });
    await expect(kept(page)).resolves.toEqual({
      local: 'local',
      session: 'session',
      cookie: true,
      database: true,
    });
  });

  it('are lent to the next test emptied: no storage, cookie or database of the test before', async () => {
    const {page, errors} = await browser().open('/');
    expect(page.context()).toBe(first);
    await expect(kept(page)).resolves.toEqual({local: null, session: null, cookie: false, database: false});
    expect(errors).toEqual([]);
  });

  it('are not lent again once a test changed them for good (an init script here)', async () => {
    const {page} = await browser().open('/', {
      prepare: async (context) => {
        await context.addInitScript(() => localStorage.setItem('left-behind', 'script'));
      },
    });
    scripted = page.context();
    await expect(kept(page)).resolves.toMatchObject({local: 'script'});
  });

  it('start the next test in another context, without the script', async () => {
    const {page} = await browser().open('/');
    expect(page.context()).not.toBe(scripted);
    await expect(kept(page)).resolves.toMatchObject({local: null});
  });
});
