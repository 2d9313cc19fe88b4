/**
 * E-mail and password on /signin, in Chromium, against `npm start -- --local` and its real
 * Firebase Auth emulator: register (a link proves the e-mail, then the password is chosen), sign
 * in, the errors a person can fix (wrong password, weak password), "Forgot password?" through the
 * reset link the emulator "e-mails" (printed in the terminal, as a person running npm start reads
 * it), and a password someone else set before the owner's first sign-in, which does not survive it.
 */
import type {Page} from 'playwright-core';
import {NEW_PASSWORD_PLACEHOLDER} from '../../scripts/local/authEmulator';
import {appConfig, passwordReset} from '../../src/config';
import {PASSWORD_ERRORS} from '../../src/lib/auth/passwordErrors';
import {axeViolations} from './axe';
import {followMagicLink, printedSignInLine} from '../../scripts/support/localStack';
import {uniqueEmail, useLocalSession, type LocalTab} from './localSession';

jest.setTimeout(300_000);

const session = useLocalSession();

/** The browser's own log line for the provider's 400 answer: expected where a step is refused. */
const refusedByProvider = (error: string) => /status of 400/.test(error) || /step failed|password failed/.test(error);

async function fillAndPress(page: Page, email: string, password: string, button: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', {exact: true}).fill(password);
  await page.getByRole('button', {name: button, exact: true}).click();
}

/** Create an account: the e-mail first, then its link, printed in the terminal, leads to the password. */
async function register(tab: LocalTab, email: string) {
  const {page} = tab;
  await session.goto(page, '/signin');
  await page.getByRole('button', {name: 'Create an account'}).click();
  await page.getByRole('heading', {name: `Create your ${appConfig.appName} account`}).waitFor();
  expect(await page.getByLabel('Password', {exact: true}).count()).toBe(0);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', {name: 'Create account', exact: true}).click();
  await page.getByRole('heading', {name: 'Check your inbox'}).waitFor();
  expect(await page.getByRole('status').filter({hasText: email}).textContent()).toContain(
    'confirm your e-mail, then choose your password',
  );
  const line = await session.stack().waitForLine(printedSignInLine('link', email));
  await page.goto(line.slice(line.indexOf('http')));
  await page.getByRole('heading', {name: 'Choose your password'}).waitFor();
}

async function choosePassword(page: Page, password: string) {
  await page.getByLabel('New password').fill(password);
  await page.getByRole('button', {name: 'Save password'}).click();
}

const localPart = (email: string) => email.split('@')[0]!;

describe('e-mail and password sign-in on the local stack', () => {
  const account = {email: uniqueEmail('pw'), password: 'correct horse battery'};

  let registered: LocalTab;

  it('registers: a link proves the e-mail, then the password is chosen, and the dashboard follows', async () => {
    registered = await session.open('/', {keep: true});
    await register(registered, account.email);
    await choosePassword(registered.page, account.password);
    await registered.page.waitForURL(`${session.stack().siteUrl}/dashboard`);
    await registered.page
      .getByRole('banner')
      .getByRole('button', {name: localPart(account.email)})
      .waitFor();
    expect(registered.errors).toEqual([]);
  });

  it('sends a signed-in user who opens /signin on to the dashboard, never showing the form', async () => {
    const {page, errors} = registered;
    // On every frame, just before it is painted: is the sign-in form's heading visible?
    await page.addInitScript((title) => {
      const seen: boolean[] = [];
      (window as unknown as {formSeen: boolean[]}).formSeen = seen;
      const sample = () => {
        const heading = [...document.querySelectorAll('h1')].find((h1) => h1.textContent === title);
        seen.push(
          heading !== undefined &&
            heading.getClientRects().length > 0 &&
            getComputedStyle(heading).visibility !== 'hidden',
        );
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    }, `Sign in to ${appConfig.appName}`);
    await session.goto(page, '/signin');
    await page.waitForURL(`${session.stack().siteUrl}/dashboard`);
    await page
      .getByRole('banner')
      .getByRole('button', {name: localPart(account.email)})
      .waitFor();
    const frames = await page.evaluate(() => (window as unknown as {formSeen: boolean[]}).formSeen);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames).not.toContain(true);
    expect(errors).toEqual([]);
  });

  it('signs in with the password from a fresh browser', async () => {
    const {page, errors} = await session.open('/signin');
    await fillAndPress(page, account.email, account.password, 'Sign in');
    await page.waitForURL(`${session.stack().siteUrl}/dashboard`);
    await page
      .getByRole('banner')
      .getByRole('button', {name: localPart(account.email)})
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('says plainly when the password is wrong, and stays signed out', async () => {
    const {page, errors} = await session.open('/signin');
    await fillAndPress(page, account.email, 'not the password', 'Sign in');
    await page.getByRole('alert').filter({hasText: PASSWORD_ERRORS.wrongPassword}).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    // Ready to try again.
    expect(await page.getByRole('button', {name: 'Sign in', exact: true}).isEnabled()).toBe(true);
    expect(errors.filter((error) => !refusedByProvider(error))).toEqual([]);
  });

  it('says plainly when the chosen password is too weak, and keeps none', async () => {
    const tab = await session.open('/signin');
    const email = uniqueEmail('weak');
    await register(tab, email);
    await choosePassword(tab.page, '123');
    await tab.page.getByRole('alert').filter({hasText: PASSWORD_ERRORS.weakPassword}).waitFor();
    expect(await axeViolations(tab.page)).toEqual([]);
    await choosePassword(tab.page, 'a much better password');
    await tab.page.waitForURL(`${session.stack().siteUrl}/dashboard`);
    expect(tab.errors.filter((error) => !refusedByProvider(error))).toEqual([]);
  });

  it('asks for the password before calling the provider', async () => {
    const {page, errors} = await session.open('/signin');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', {name: 'Sign in', exact: true}).click();
    await page.getByRole('alert').filter({hasText: 'Enter your password, or use Send magic link.'}).waitFor();
    expect(errors).toEqual([]);
  });

  it('resets a forgotten password by e-mail and comes back to the page that asked for sign-in', async () => {
    const tab = await session.open('/admin');
    const {page, errors} = tab;
    const stack = session.stack();
    await page.waitForURL(`${stack.siteUrl}/signin?next=%2Fadmin`);
    await page.getByRole('button', {name: 'Forgot password?'}).click();
    await page.getByRole('heading', {name: 'Reset your password'}).waitFor();
    expect(await page.getByLabel('Password', {exact: true}).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', {name: 'Send reset link'}).click();
    await page.getByRole('heading', {name: 'Check your inbox'}).waitFor();
    expect(await page.getByRole('status').filter({hasText: account.email}).textContent()).toContain(
      'a link to choose a new password',
    );

    // The e-mail's link, as npm start prints it: the new password goes in place of the placeholder.
    const line = await stack.waitForLine(printedSignInLine('password reset', account.email));
    const link = line.slice(line.indexOf('http'));
    expect(link).toContain(NEW_PASSWORD_PLACEHOLDER);
    const newPassword = 'a brand new passphrase';
    await page.goto(link.replace(NEW_PASSWORD_PLACEHOLDER, encodeURIComponent(newPassword)));
    // The reset page continues to sign-in, which says the password changed, still on the way to /admin.
    await page.waitForURL(`${stack.siteUrl}${passwordReset.signInPage}&next=%2Fadmin`);
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    await page.getByRole('status').filter({hasText: passwordReset.changed}).waitFor();

    await fillAndPress(page, account.email, account.password, 'Sign in');
    await page.getByRole('alert').filter({hasText: PASSWORD_ERRORS.wrongPassword}).waitFor();
    await fillAndPress(page, account.email, newPassword, 'Sign in');
    await page.waitForURL(`${stack.siteUrl}/admin`);
    // Once failed on CI's machine only (a stop's run); if it fails again, the error says what was there.
    await session.waitToSee(tab, page.getByRole('heading', {level: 1, name: 'This account is not an admin'}));
    // The browser logs the old password's 400 and the console's 403 itself; nothing else went wrong.
    expect(errors.filter((error) => !refusedByProvider(error) && !/403/.test(error))).toEqual([]);
  });

  it("removes a password someone set before the owner's first sign-in, and says so; the owner signs in again", async () => {
    const stack = session.stack();
    const email = uniqueEmail('squatted');
    // Anyone may register an address with Firebase's public API before its owner ever signs in.
    const squatted = await fetch(
      `http://${stack.emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`,
      {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({email, password: 'the squatter knows this', returnSecureToken: true}),
      },
    );
    expect(squatted.status).toBe(200);

    const tab = await session.open('/signin');
    await followMagicLink(tab.page, stack, email);
    await session.waitToSee(tab, tab.page.getByRole('heading', {name: 'Sign-in did not finish'}));
    expect(await tab.page.getByRole('alert').textContent()).toContain('the password of this account was removed');

    const thief = await session.open('/signin');
    await fillAndPress(thief.page, email, 'the squatter knows this', 'Sign in');
    await thief.page.getByRole('alert').filter({hasText: PASSWORD_ERRORS.wrongPassword}).waitFor();

    await session.goto(tab.page, '/signin');
    await followMagicLink(tab.page, stack, email);
    await session.waitToSee(tab, tab.page.getByRole('banner').getByRole('button', {name: email.split('@')[0]}));
    // The worker refused the ended session once (401), and the provider the old password (400).
    expect(tab.errors.filter((error) => !/401/.test(error))).toEqual([]);
    expect(thief.errors.filter((error) => !refusedByProvider(error))).toEqual([]);
  });

  it('answers a reset for an e-mail without an account exactly as for one with it', async () => {
    const {page, errors} = await session.open('/signin');
    const stranger = uniqueEmail('nobody');
    await page.getByRole('button', {name: 'Forgot password?'}).click();
    await page.getByLabel('Email').fill(stranger);
    await page.getByRole('button', {name: 'Send reset link'}).click();
    await page.getByRole('heading', {name: 'Check your inbox'}).waitFor();
    expect(await page.getByRole('status').filter({hasText: stranger}).textContent()).toContain(
      'a link to choose a new password',
    );
    // The emulator refused (no such account); the page said nothing about it.
    expect(errors.filter((error) => !refusedByProvider(error))).toEqual([]);
  });
});
