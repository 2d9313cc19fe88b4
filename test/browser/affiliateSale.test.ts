/**
 * The affiliate programme end to end, in Chromium against the local stack (the worker, its D1 and
 * the Stripe stand-in): an account joins at /affiliates with a code and reads its link; a visitor
 * follows the link on a phone and buys as a guest; the affiliate's page then counts the click and
 * the sale, and the commission the worker worked out from what Stripe says was paid, held as
 * pending until the refund and dispute period is over. Checked with axe at 1440 px and 390 px.
 */
import type {Page} from 'playwright-core';
import {
  AFFILIATE_WORDS,
  appConfig,
  COMMISSION_STATES,
  commissionPayableAt,
  formatDay,
  planAmount,
  PLAN_CURRENCY,
  ROUTES,
} from '../../src/config';
import {API_PATHS, type AffiliateAnswer} from '../../src/config/api';
import {formatMoney} from '../../src/config/money';
import {axeViolations} from './axe';
import {plan, uniqueEmail, useLocalSession} from './localSession';

jest.setTimeout(300_000);

const session = useLocalSession();
const PHONE = {width: 390, height: 844};
const WIDE = {width: 1440, height: 900};

/** Whether the page is wider than the window: something pushes it sideways. */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** The value shown beside a figure's label in the affiliate's figures. */
const figure = (page: Page, label: string) =>
  page
    .getByRole('region', {name: AFFILIATE_WORDS.figuresHeading})
    .locator('div', {has: page.getByText(label, {exact: true})})
    .locator('dd');

it('credits the affiliate whose link a guest followed before paying, held until the refund period is over', async () => {
  const programme = appConfig.affiliates!;
  const affiliate = await session.open('/', {viewport: WIDE, keep: true});
  await session.signInByMagicLink(affiliate, uniqueEmail('affiliate'));
  await session.goto(affiliate.page, ROUTES.affiliates);
  const {page} = affiliate;

  // Joining: the code the account names becomes its link on the site.
  const code = `friend-${Date.now().toString(36)}`;
  await session.waitToSee(affiliate, page.getByRole('form', {name: AFFILIATE_WORDS.joinHeading}));
  await page.getByRole('textbox', {name: AFFILIATE_WORDS.codeLabel, exact: true}).fill(code.toUpperCase());
  await page.getByRole('button', {name: AFFILIATE_WORDS.join}).click();
  const link = page.getByRole('textbox', {name: AFFILIATE_WORDS.linkLabel, exact: true});
  await session.waitToSee(affiliate, link);
  const shared = `${session.stack().siteUrl}/?via=${code}`;
  expect(await link.inputValue()).toBe(shared);
  expect(await page.getByText(AFFILIATE_WORDS.noCommissions).isVisible()).toBe(true);
  expect(await axeViolations(page)).toEqual([]);

  // A visitor follows the link on a phone: the code leaves the address bar, and the guest pays.
  const visitor = await session.open(shared, {viewport: PHONE});
  await visitor.page.waitForURL(`${session.stack().siteUrl}/`);
  await session.checkoutAsGuest(visitor, uniqueEmail('referred'));
  expect(visitor.errors).toEqual([]);

  // The affiliate's page counts the click and the sale, and the commission on what was paid.
  const paid = planAmount(plan);
  const commission = Math.round((paid * programme.commissionPercent) / 100);
  await page.reload();
  await session.waitToSee(affiliate, page.getByRole('table', {name: AFFILIATE_WORDS.commissionsCaption}));
  expect(await figure(page, AFFILIATE_WORDS.clicks).textContent()).toBe('1');
  expect(await figure(page, AFFILIATE_WORDS.sales).textContent()).toBe('1');
  expect(await figure(page, AFFILIATE_WORDS.pending).textContent()).toBe(formatMoney(commission, PLAN_CURRENCY));
  expect(await figure(page, AFFILIATE_WORDS.payable).textContent()).toBe(formatMoney(0, PLAN_CURRENCY));
  const row = page.getByRole('table', {name: AFFILIATE_WORDS.commissionsCaption}).getByRole('row').nth(1);
  expect(await row.getByRole('cell').allTextContents()).toEqual([
    formatDay(Date.now()),
    formatMoney(paid, PLAN_CURRENCY),
    formatMoney(commission, PLAN_CURRENCY),
    COMMISSION_STATES.pending,
    formatDay(commissionPayableAt(Date.now())),
  ]);
  expect(await axeViolations(page)).toEqual([]);

  // The same page on a phone: nothing pushed sideways, nothing for axe.
  await page.setViewportSize(PHONE);
  expect(await overflows(page)).toBe(false);
  expect(await axeViolations(page)).toEqual([]);

  // States the kit's own config does not reach here (payouts through Stripe are off as committed,
  // and nothing is owed back): the worker's own answer with a Stripe state and an amount owed back,
  // as a programme paying through Stripe would send them, laid out and checked the same way.
  await page.route(`${session.stack().apiBase}${API_PATHS.affiliate}`, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    const answer = (await response.json()) as AffiliateAnswer;
    answer.affiliate = {...answer.affiliate!, stripe: 'onboarding'};
    answer.affiliate.totals.owedBack = commission;
    await route.fulfill({response, json: answer});
  });
  await page.reload();
  const payouts = page.getByRole('region', {name: AFFILIATE_WORDS.payoutsHeading});
  await session.waitToSee(affiliate, payouts);
  expect(await payouts.getByText(AFFILIATE_WORDS.stripeStates.onboarding).isVisible()).toBe(true);
  expect(await payouts.getByRole('button', {name: AFFILIATE_WORDS.connectActions.onboarding}).isEnabled()).toBe(true);
  expect(await figure(page, AFFILIATE_WORDS.owedBack).textContent()).toBe(formatMoney(commission, PLAN_CURRENCY));
  expect(await overflows(page)).toBe(false);
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize(WIDE);
  expect(await axeViolations(page)).toEqual([]);
  expect(affiliate.errors).toEqual([]);
});
