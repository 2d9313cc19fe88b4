/**
 * The buyer's journey end to end, in Chromium, against `npm start -- --local`: the real site
 * (Docusaurus dev server), the real worker (wrangler dev, local D1), the real Firebase Auth
 * emulator, and the local checkout page, GitHub and Mailgun stand-ins that local mode runs.
 */
import fs from 'node:fs';
import type {Locator} from 'playwright-core';
import {API_PATHS, appConfig} from '../../src/config';
import {FIXTURE_REPO} from '../../scripts/local/githubApi';
import {runCron} from '../../scripts/local/cron';
import {publishLocalRelease} from '../../scripts/local/release';
import {kitArchive} from '../../scripts/local/kitArchive';
import {kitFiles} from '../../scripts/support/kitFiles';
import {ROOT} from '../../scripts/support/site';
import {startLocalStack, type LocalStack} from '../../scripts/support/localStack';
import {eventually} from './helpers';
import {headerStates, recordHeaderStates} from './headerStates';
import {escapeRegExp, plan, uniqueEmail, useLocalSession, type LocalTab as Tab} from './localSession';
import {axeViolations} from './axe';
import {type DownloadedKit, expectedKit, removeKit, runUnitTestsIn, unpackKit} from '../support/downloadedKit';

jest.setTimeout(300_000);

// Its own stack: it floods the checkout's rate limit, then stops the stack with Ctrl-C.
const session = useLocalSession({own: true});

/**
 * The parts of the Request Access form (its label, field, button and answer) that something else
 * is drawn over, the form scrolled to the bottom of the window and to its top in turn: a message
 * fixed over the page (a snack bar) covers what lies under it there.
 */
function coveredPartsOf(form: Locator): Promise<string[]> {
  return form.evaluate((element) => {
    const parts = [...element.querySelectorAll('label, input, button, [role="status"]')].filter(
      (part) => part.textContent !== '' || part.tagName === 'INPUT',
    );
    const covered = new Set<string>();
    for (const block of ['end', 'start'] as const) {
      element.scrollIntoView({block});
      for (const part of parts) {
        const box = part.getBoundingClientRect();
        const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        if (!top || !part.contains(top))
          covered.add(`${part.tagName.toLowerCase()} "${part.textContent?.trim() ?? ''}" (scrolled to the ${block})`);
      }
    }
    return [...covered];
  });
}
const {open, goto, signInByMagicLink} = session;
let stack: LocalStack;
beforeAll(() => {
  stack = session.stack();
});
/** The kit as the dashboard's download gave it, unpacked. */
let kit: DownloadedKit;
afterAll(() => kit && removeKit(kit));

describe("the buyer's journey on the local stack", () => {
  const paid = {email: uniqueEmail('guest'), username: `buyer-${Date.now().toString(36)}`};
  let paidTab: Tab;

  it('says plainly that it runs in local mode, in the terminal and on the site', async () => {
    expect(stack.output()).toMatch(/Local mode, for the services without keys/);
    expect(stack.output()).toMatch(/a local checkout page stands in for Stripe/);
    const {page, errors} = await open('/');
    await expect(page.getByRole('complementary', {name: 'Local mode'}).textContent()).resolves.toMatch(
      /payments go to a local checkout page/,
    );
    expect(errors).toEqual([]);
  });

  it('takes a guest from the pricing to an invitation: checkout, pay, success, dashboard, Request Access', async () => {
    paidTab = await open('/', {keep: true});
    const {page, errors, workerCalls} = paidTab;
    await session.checkoutAsGuest(paidTab, paid.email);
    // Signed in by the session exchange.
    expect(new URL(page.url()).search).toBe('');
    expect(workerCalls).toContain('GET /retrieveUserFromCheckoutSession');
    // The signed-in dashboard needs the local stack: axe reads it here, before and after the request.
    expect(await axeViolations(page)).toEqual([]);

    await session.requestAccess(paidTab, paid.username);
    await expect(page.getByRole('region', {name: 'Repository access'}).textContent()).resolves.toContain(
      `@${paid.username}`,
    );
    // The answer is in the form it answers, and nothing covers the form, on a desktop and on a phone.
    const form = page.getByRole('form', {name: 'Request access to the repository'});
    await form.getByRole('status').filter({hasText: 'Check your email!'}).waitFor();
    for (const size of [
      {width: 1280, height: 900},
      {width: 390, height: 844},
    ]) {
      await page.setViewportSize(size);
      expect(await coveredPartsOf(form)).toEqual([]);
    }
    await page.setViewportSize({width: 1280, height: 900});
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows a buyer one account button on the dashboard, and the dashboard in the header instead of the buy button', async () => {
    const {page, errors} = paidTab;
    const name = paid.email.split('@')[0]!;
    const header = page.getByRole('banner');
    await header.getByRole('link', {name: 'Dashboard'}).waitFor();
    expect(await header.getByRole('link', {name: 'Dashboard'}).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('button', {name: `Get ${appConfig.appName}`, exact: true}).count()).toBe(0);
    // Once: the header's account menu, with Logout; no second button in the page, no link to itself.
    expect(await page.getByRole('button', {name}).count()).toBe(1);
    expect(await page.getByRole('main').getByRole('button', {name}).count()).toBe(0);
    expect(await header.getByRole('link', {name}).count()).toBe(0);
    await header.getByRole('button', {name}).click();
    await header.getByRole('button', {name: 'Logout'}).waitFor();
    await header.getByRole('button', {name}).click();
    expect(errors).toEqual([]);
  });

  it("shows the worker's refusal of a username on the field, read out with it, until the username changes", async () => {
    const {page, errors} = paidTab;
    const field = page.getByLabel('GitHub username');
    await field.fill('not a username');
    await page.getByRole('button', {name: 'Request Access'}).click();
    const alert = page.getByRole('alert').filter({hasText: /GitHub username/});
    await alert.waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(await alert.textContent());
    // On the field only: the snack bar stays empty.
    expect(
      await page
        .getByRole('status')
        .filter({hasText: /GitHub username/})
        .count(),
    ).toBe(0);
    await field.fill(paid.username);
    expect(await field.getAttribute('aria-invalid')).toBe('false');
    await alert.waitFor({state: 'detached'});
    // The worker refused it (400), which the browser logs; nothing else went wrong.
    expect(
      errors.filter((error) => !error.startsWith('Requesting access failed:') && !error.includes('status of 400')),
    ).toEqual([]);
    // This tab goes on to the next tests, which expect no errors of their own.
    errors.length = 0;
  });

  it('shows Fill out username for 3 s on an empty username, and sends no access request', async () => {
    const {page, errors, workerCalls} = paidTab;
    await page.getByLabel('GitHub username').fill('');
    workerCalls.length = 0;
    await page.getByRole('button', {name: 'Request Access'}).click();
    const message = page.getByText('Fill out username');
    await message.waitFor();
    expect(workerCalls).not.toContain('POST /addUserToRepo');
    const shownAt = Date.now();
    await message.waitFor({state: 'detached', timeout: 6000});
    expect(Date.now() - shownAt).toBeGreaterThan(2000);
    expect(workerCalls).not.toContain('POST /addUserToRepo');
    expect(errors).toEqual([]);
  });

  it('keeps the signed-in buyer after a reload, with the same pending invitation', async () => {
    const {page, errors} = paidTab;
    await page.reload();
    await page.getByRole('heading', {name: 'Invitation pending'}).waitFor();
    await expect(page.getByLabel('GitHub username').inputValue()).resolves.toBe(paid.username);
    expect(errors).toEqual([]);
  });

  it('downloads the code at once from the dashboard: this very kit, as GitHub archives it, while the invitation is pending', async () => {
    const {page, errors, workerCalls} = paidTab;
    workerCalls.length = 0;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', {name: 'Download the code (.zip)'}).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    // Local mode hands out the kit itself (its files at HEAD), in one folder named as GitHub names it.
    kit = unpackKit(new Uint8Array(fs.readFileSync((await download.path())!)));
    const expected = expectedKit(FIXTURE_REPO);
    expect(kit.folder).toMatch(expected.folder);
    expect(kit.files).toEqual(expected.files);
    await page
      .getByRole('status')
      .filter({hasText: /Your download of .+ has started\./})
      .waitFor();
    expect(workerCalls).toContain('POST /downloadLink');
    // Still on the dashboard, with the invitation still pending: a download is not a navigation.
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByRole('heading', {name: 'Invitation pending'}).waitFor();
    expect(errors).toEqual([]);
  });

  it('links the repository to a local page saying what it stands for, never to a github.com repository', async () => {
    const {page, errors} = paidTab;
    const link = page.getByRole('link', {name: 'Repository', exact: true});
    expect(new URL((await link.getAttribute('href'))!).origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    try {
      await opened.getByRole('heading', {name: FIXTURE_REPO}).waitFor();
      await opened.getByText('Local mode: this page stands in for a private repository on GitHub.').waitFor();
      await opened.getByText(`a download from the dashboard holds ${kitArchive(ROOT).holds}`, {exact: false}).waitFor();
    } finally {
      await opened.close();
    }
    expect(errors).toEqual([]);
  });

  it("passes, downloaded, what reads the kit's files: no .git, the README's commands there, and every file found without git", async () => {
    expect(kit.files).not.toContain('.git');
    // Found without git (a .gitignore walk) as git lists them: the checks over every file see them all.
    expect(kitFiles(kit.dir)).toEqual(kit.files);
    const {code, output} = await runUnitTestsIn(kit, [
      'test/unit/conflictMarkers.test.ts',
      'test/unit/kitCommands.test.ts',
    ]);
    expect([code, output]).toEqual([0, expect.stringMatching(/Tests: +\d+ passed, \d+ total/)]);
  });

  it("shows a release on the dashboard's What's new once GitHub publishes it, its notes' markup as text, and e-mails it", async () => {
    const {page, errors} = paidTab;
    const tag = `v9.${Date.now().toString(36)}`;
    const from = stack.output().length;
    const published = await publishLocalRelease(stack.workerUrl, {
      tag,
      name: 'Tabs everywhere',
      notes: 'Adds **tabs**. <script>window.__released = 1</script>',
    });
    expect(published.status).toBe(200);
    await page.reload();
    const release = page.getByRole('article', {name: new RegExp(`Tabs everywhere ${escapeRegExp(tag)}`)});
    await release.waitFor();
    await expect(release.locator('strong').textContent()).resolves.toBe('tabs');
    await expect(release.innerText()).resolves.toContain('<script>window.__released = 1</script>');
    expect(await page.evaluate(() => (window as unknown as {__released?: number}).__released)).toBeUndefined();
    expect(await page.getByText('Release e-mails: on').count()).toBe(1);
    // The download is marked with the release it now serves.
    await page.getByText(`The .zip holds the latest release, ${tag}.`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // The cron's next run sends it (npm start runs it each minute; devServer.test.ts checks that),
    // printed as the other e-mails are: as the buyer gets it, Mailgun's recipient variables filled in
    // (their own unsubscribe link, not a placeholder). Run now rather than wait up to a minute.
    await runCron(stack.workerUrl);
    await stack.waitForLine(/\[e-mail\] +to \S+@\S+: ".*Tabs everywhere/, 30_000, from);
    await stack.waitForLine(new RegExp(`: http\\S*${API_PATHS.releaseUnsubscribe}/\\S+$`), 30_000, from);
    expect(stack.output().slice(from)).not.toMatch(/%recipient|%unsubscribe_url%/);
    expect(errors).toEqual([]);
  });

  it('opens the billing portal for the buyer and comes back to the dashboard', async () => {
    const {page, errors} = paidTab;
    await page.getByRole('button', {name: 'Billing portal'}).click();
    await page.getByRole('heading', {name: 'Billing portal'}).waitFor();
    // It says what it stands in for: the portal, not the checkout.
    await page.getByText('Local mode: this page stands in for the Stripe billing portal.').waitFor();
    await stack.waitForLine(/\[stripe\] +billing portal opened for cus_/);
    await page.getByRole('link', {name: 'Return'}).click();
    await page.waitForURL(`${stack.siteUrl}/dashboard`);
    await page.getByRole('heading', {name: 'Invitation pending'}).waitFor();
    expect(errors).toEqual([]);
  });

  it("lists the purchase under Receipts, with the link to Stripe's invoice (or receipt) for it", async () => {
    const {page, errors} = paidTab;
    const kind = appConfig.checkout.invoiceEveryPurchase ? 'Invoice' : 'Receipt';
    const receipts = page.getByRole('region', {name: 'Receipts'});
    const link = receipts.getByRole('link', {name: kind});
    await link.waitFor();
    expect(await receipts.getByRole('listitem').count()).toBe(1);
    await expect(receipts.getByRole('listitem').textContent()).resolves.toContain(`${plan.name}, `);
    const stripePage = await page.context().newPage();
    try {
      await stripePage.goto((await link.getAttribute('href'))!);
      await stripePage.getByRole('heading', {name: new RegExp(`^${kind}`)}).waitFor();
      await stripePage
        .getByText(/Local mode: this page stands in for Stripe's hosted invoice page|a Stripe payment's receipt/)
        .waitFor();
    } finally {
      await stripePage.close();
    }
    expect(errors).toEqual([]);
  });

  it('never shows the signed-out header while the signed-in dashboard reloads', async () => {
    const {page, errors} = paidTab;
    const name = paid.email.split('@')[0]!;
    await page.addInitScript(recordHeaderStates, name);
    await page.reload();
    await page.getByRole('heading', {name: 'Invitation pending'}).waitFor();
    await eventually(
      () => headerStates(page),
      (states) => expect(states.at(-1)).toBe('account'),
    );
    // From the first painted frame on: nothing, then the account; never "Login".
    expect(await headerStates(page)).not.toContain('login');
    expect(errors).toEqual([]);
  });

  it('follows the guest purchase back to / and shows the account in the header, not Login', async () => {
    const {page, errors} = paidTab;
    const name = paid.email.split('@')[0]!;
    const header = page.getByRole('banner');
    await header.getByRole('link', {name: `${appConfig.appName} home`}).click();
    await page.waitForURL(`${stack.siteUrl}/`);
    const account = header.getByRole('navigation', {name: 'Main'}).getByRole('link', {name});
    await account.waitFor();
    expect(await account.getAttribute('href')).toBe('/dashboard');
    expect(await header.getByRole('link', {name: 'Login'}).count()).toBe(0);
    // A buyer is offered the dashboard, not the purchase made already.
    const dashboard = header.getByRole('navigation', {name: 'Main'}).getByRole('link', {name: 'Dashboard'});
    await dashboard.waitFor();
    expect(await dashboard.getAttribute('aria-current')).toBeNull();
    expect(await header.getByRole('button', {name: `Get ${appConfig.appName}`, exact: true}).count()).toBe(0);

    // A fresh load of / (the static page, then the bundle): the account, and never "Login".
    await goto(page, '/');
    await account.waitFor();
    await eventually(
      () => headerStates(page),
      (states) => expect(states.at(-1)).toBe('account'),
    );
    expect(await headerStates(page)).not.toContain('login');

    // On a phone, the menu shows the account too.
    await page.setViewportSize({width: 390, height: 844});
    await page.getByRole('button', {name: 'Open main menu'}).click();
    const menu = page.locator('#mobile-menu');
    await menu.getByRole('link', {name}).waitFor();
    expect(await menu.getByRole('link', {name: 'Login'}).count()).toBe(0);
    await page.getByRole('button', {name: 'Close menu'}).click();
    await page.setViewportSize({width: 1280, height: 900});
    expect(errors).toEqual([]);
  });

  it("signs in with a magic link from the emulator's out-of-band codes and lands on the dashboard", async () => {
    const tab = await open('/');
    await signInByMagicLink(tab, uniqueEmail('reader'));
    // The account button names the user by the e-mail's local part when there is no display name.
    const account = tab.page.getByRole('button', {name: /^reader\./});
    await account.waitFor();
    // No photo: the initial stands in for the avatar.
    expect(await account.textContent()).toMatch(/^Rreader\./);
    expect(tab.errors).toEqual([]);
  });

  it('names the account by its display name, with its photo, when the account has them', async () => {
    const email = uniqueEmail('named');
    // An account made beforehand with a name and a photo, as Google sign-in would make it.
    const created = await fetch(
      `http://${stack.emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=local`,
      {
        method: 'POST',
        headers: {'content-type': 'application/json', authorization: 'Bearer owner'},
        body: JSON.stringify({
          email,
          displayName: 'Ada Lovelace',
          photoUrl: `${stack.siteUrl}/img/icon.png`,
          emailVerified: true,
        }),
      },
    );
    expect(created.status).toBe(200);
    const tab = await open('/');
    await signInByMagicLink(tab, email, {name: 'Ada Lovelace'});
    const account = tab.page.getByRole('button', {name: 'Ada Lovelace'});
    await expect(account.locator('img').getAttribute('src')).resolves.toBe(`${stack.siteUrl}/img/icon.png`);
    await account.click();
    await tab.page.getByRole('button', {name: 'Logout'}).waitFor();
    expect(tab.errors).toEqual([]);
  });

  it('tells a signed-in user who has not paid so, shows the plans, and checks out the one chosen', async () => {
    const tab = await open('/');
    const email = uniqueEmail('unpaid');
    await signInByMagicLink(tab, email);
    const {page, errors} = tab;
    await page.getByRole('heading', {level: 1, name: `You have not bought ${appConfig.appName} yet`}).waitFor();
    // No welcome as a buyer, no repository, no username form: the plans.
    expect(await page.getByText(`Thank you for choosing ${appConfig.appName}`).count()).toBe(0);
    expect(await page.getByRole('link', {name: 'Repository'}).count()).toBe(0);
    expect(await page.getByLabel('GitHub username').count()).toBe(0);
    for (const each of appConfig.plans) await page.getByRole('article', {name: each.name}).waitFor();
    // The header still sells: this account has bought nothing.
    await page
      .getByRole('banner')
      .getByRole('button', {name: `Get ${appConfig.appName}`, exact: true})
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page
      .getByRole('article', {name: plan.name})
      .getByRole('button', {name: `Get ${appConfig.appName} ${plan.name}`})
      .click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await page.getByRole('heading', {name: plan.name}).waitFor();
    // The signed-in e-mail is prefilled on the checkout page.
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(email);
    expect(tab.workerCalls).not.toContain('POST /addUserToRepo');
    expect(errors).toEqual([]);
  });

  it('asks for the e-mail (the required error) and for a valid one before sending any link', async () => {
    const {page, errors} = await open('/signin');
    const send = page.getByRole('button', {name: 'Send magic link'});
    await send.click();
    await page.getByRole('alert').filter({hasText: 'Enter your e-mail address.'}).waitFor();
    await page.getByLabel('Email').fill('not-an-address');
    await send.click();
    await page.getByRole('alert').filter({hasText: 'Enter a valid e-mail address'}).waitFor();
    expect(await page.getByRole('heading', {name: 'Check your inbox'}).count()).toBe(0);
    expect(stack.output()).not.toMatch(/link for not-an-address/);
    expect(errors).toEqual([]);
  });

  it('sends a signed-out visitor from /dashboard to sign in, says why, and brings them back once signed in', async () => {
    // A buyer opening the welcome e-mail's link on another device.
    const tab = await open('/');
    const email = uniqueEmail('elsewhere');
    await signInByMagicLink(tab, email, {from: '/dashboard', why: 'Sign in with the e-mail you paid with'});
    await tab.page.getByRole('heading', {name: `You have not bought ${appConfig.appName} yet`}).waitFor();
    expect(tab.errors).toEqual([]);
  });

  it('logs out from the account popover, ending signed out on /', async () => {
    const tab = await open('/');
    const email = uniqueEmail('leaving');
    await signInByMagicLink(tab, email);
    const {page, errors} = tab;
    await page.getByRole('button', {name: new RegExp(escapeRegExp(email.split('@')[0]!))}).click();
    await page.getByRole('button', {name: 'Logout'}).click();
    await page.waitForURL(`${stack.siteUrl}/`);
    // Signed out for good: the dashboard sends the visitor to sign in again.
    await goto(page, '/dashboard');
    await page.waitForURL(`${stack.siteUrl}/signin?next=${encodeURIComponent('/dashboard')}`);
    expect(errors).toEqual([]);
  });

  it("shows the worker's refusal in the snack bar and returns the checkout button to idle", async () => {
    const {page, errors} = await open('/');
    // The worker allows 10 checkouts a minute from one address, counted in fixed one-minute
    // windows: begin with time left in one (the calls and the click take a few seconds), so the
    // click below falls in the same window as the calls.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 200));
    // Use them up, as a script would.
    for (let i = 0; i < 12; i += 1) {
      await fetch(`${stack.workerUrl}/createCheckoutSession`, {
        method: 'POST',
        headers: {'content-type': 'application/json', origin: stack.siteUrl},
        body: JSON.stringify({
          priceId: plan.priceId.test,
          successUrl: `${stack.siteUrl}/success`,
          cancelUrl: `${stack.siteUrl}/`,
        }),
      });
    }
    const button = page.getByRole('article', {name: plan.name}).getByRole('button');
    await button.click();
    await page.getByText(/^Error: Too many/).waitFor();
    await page.getByRole('button', {name: 'Close'}).waitFor();
    expect(await button.isEnabled()).toBe(true);
    expect(await button.getAttribute('aria-busy')).toBe('false');
    expect(page.url()).toBe(`${stack.siteUrl}/`);
    // The failure is logged (§8) and nothing else went wrong.
    expect(errors.filter((error) => !/Checkout failed|429/.test(error))).toEqual([]);
  });

  it('stops every process it started on Ctrl-C', async () => {
    const code = await stack.interrupt();
    expect(code).toBe(0);
    for (const url of [stack.siteUrl, stack.workerUrl, `http://${stack.emulatorHost}`]) {
      await expect(fetch(url)).rejects.toThrow();
    }
  });
});

describe('npm start with a port already in use', () => {
  it('names the port and stops at once instead of hanging', async () => {
    const {createServer} = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as {port: number}).port;
    try {
      const started = Date.now();
      const blocked = await startLocalStack({ports: {worker: port}, readyTimeoutMs: 0});
      const code = await blocked.exited;
      expect(code).toBe(1);
      expect(blocked.output()).toContain(`port ${port} (the worker) is already in use`);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      holder.close();
    }
  });
});
