/**
 * Upgrading for the difference, in Chromium against the local stack: a buyer of the lower plan
 * sees the upgrade on the dashboard priced by the worker, pays it on the local checkout page (the
 * higher plan's price less the credit for the first purchase), and comes back to the higher plan.
 * The buyer's GitHub account, invited to the kit first, is then invited to the repository the
 * higher plan adds (the prompts: GITHUB_EXTRA_REPOS in local mode), and the dashboard shows it.
 */
import {appConfig, extraRepositoriesAdded, upgradeCreditName, upgradesFrom} from '../../src/config';
import {EXTRA_FIXTURE_REPO} from '../../scripts/local/githubApi';
import {axeViolations} from './axe';
import {escapeRegExp, uniqueEmail, useLocalSession} from './localSession';

jest.setTimeout(300_000);

const session = useLocalSession();
const lower = [...appConfig.plans].sort((a, b) => a.price - b.price)[0]!;
const higher = upgradesFrom(lower)[0]!;
const difference = higher.price - lower.price;

it('a buyer of the lower plan upgrades for the difference on the local checkout page, and the dashboard then shows the higher plan and the second repository invited', async () => {
  const email = uniqueEmail('upgrader');
  const tab = await session.open('/');
  const {page, errors} = tab;
  await session.checkoutAsGuest(tab, email, lower);

  const username = `upgrader-${Date.now().toString(36)}`;
  await session.requestAccess(tab, username);
  const added = extraRepositoriesAdded(lower, higher).map((key) => (appConfig.extraRepositories as Record<string, {name: string}>)[key]!.name);
  expect(added).toEqual([appConfig.extraRepositories.prompts.name]);

  const plan = page.getByRole('region', {name: 'Your plan'});
  await session.waitToSee(tab, plan.getByText(`Your plan: ${lower.name}`));
  // The offer names what the higher plan adds besides the kit.
  await session.waitToSee(tab, plan.getByText(new RegExp(`${higher.name} adds: ${escapeRegExp(added[0]!)}`)));
  const upgrade = plan.getByRole('button', {name: `Upgrade to ${higher.name} for $${difference}`});
  await upgrade.waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await upgrade.click();

  // The local checkout page: the higher plan's price, the credit for the first purchase, the difference to pay.
  await page.waitForURL(/\/checkout\/cs_test_/);
  await page.getByRole('heading', {name: higher.name}).waitFor();
  const body = await page.textContent('body');
  expect(body).toContain(`${higher.name}: $${higher.price}.00`);
  expect(body).toContain(`${upgradeCreditName(lower)}: −$${lower.price}.00`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', {name: `Pay $${difference}.00`}).click();

  // Back on the dashboard once Stripe's signed webhook is through: the higher plan, no more upgrade.
  await page.waitForURL(`${session.stack().siteUrl}/dashboard`);
  await session.stack().waitForLine(new RegExp(`paid .* as ${escapeRegExp(email)} .*webhook delivered`));
  await session.waitToSee(tab, plan.getByText(`Your plan: ${higher.name}`));
  expect(await plan.getByRole('button', {name: /^Upgrade to /}).count()).toBe(0);

  // The same GitHub account is invited to the repository the upgrade added; the dashboard lists it.
  await session.stack().waitForLine(new RegExp(`\\[github\\] +invited @${username} to ${escapeRegExp(EXTRA_FIXTURE_REPO)} `));
  await page.reload();
  const extras = page.getByRole('region', {name: 'More repositories in your plan'});
  await session.waitToSee(tab, extras.getByText(new RegExp(`${escapeRegExp(added[0]!)}.*Invited: accept the invitation for @${username} on GitHub`)));
  expect(errors).toEqual([]);
});
