/**
 * A team in Chromium against the local stack (issue 41), as a team lead and a developer live it: the
 * lead buys the plan sold for teams for three developers on the pricing, gives a seat by e-mail,
 * the developer opens the e-mailed link on a phone, signs in with that address and gets access; the
 * lead removes them, and their dashboard says why; the lead adds a seat and names a developer's
 * GitHub account for another; the seller refunds one of the seats bought from the console, and takes
 * the named developer's seat back. Each page is checked with axe, at 1440 px and 390 px.
 */
import type {Page} from 'playwright-core';
import {LOCAL_ADMIN_EMAIL} from '../../scripts/local/plan';
import {followMagicLink} from '../../scripts/support/localStack';
import {
  addSeatsLabel,
  appConfig,
  endedMemberWords,
  memberOfTeam,
  planForSeats,
  seatEndedWords,
  TEAM_LINK_DAYS,
  TEAM_LINK_FRAGMENT,
  type Plan,
} from '../../src/config';
import {axeViolations} from './axe';
import {escapeRegExp, uniqueEmail, useLocalSession} from './localSession';

jest.setTimeout(300_000);

const session = useLocalSession();
const team = (appConfig.plans as readonly Plan[]).find((plan) => plan.team)!;
/** Each seat's price for a team: the team's own where the plan has one (the committed config's does). */
const seat = team.team!.seatPrice?.price ?? team.price;
const PHONE = {width: 390, height: 844};
const WIDE = {width: 1440, height: 900};

/** Whether the page is wider than the window: something pushes it sideways. */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

async function checked(page: Page) {
  expect(await overflows(page)).toBe(false);
  expect(await axeViolations(page)).toEqual([]);
}

test('a lead buys seats for a team and gives one by e-mail; the developer joins on a phone and gets access; the lead removes them and adds a seat; the seller refunds a seat and takes one back', async () => {
  const stack = session.stack();
  // The stack may be shared with other files: read only what it prints from here on.
  const from = stack.output().length;
  const leadEmail = uniqueEmail('lead');
  const lead = await session.open('/', {viewport: WIDE});
  const {page} = lead;

  // The pricing: the plan's card sells it for a team, and the price and button follow the seats.
  const card = page.getByRole('article', {name: team.name});
  if (team.team!.seatPrice) await card.getByText(`Teams of 2 or more: $${seat} a seat`, {exact: true}).waitFor();
  await card.getByLabel('Developers').selectOption({label: 'A team of 3'});
  await card.getByText(`Now $${seat * 3}`, {exact: true}).waitFor();
  await card.getByText(`Regular price $${team.priceAnchor! * 3}`, {exact: true}).waitFor();
  await card.getByText(`One-time payment for 3 seats, $${seat} each`).waitFor();
  await checked(page);
  await card.getByRole('button', {name: `Get ${appConfig.appName} ${planForSeats(team.name, 3)}`}).click();
  await page.waitForURL(/\/checkout\/cs_test_/);
  await page.getByLabel('Email').fill(leadEmail);
  await page.getByRole('button', {name: `Pay $${seat * 3}.00`}).click();
  await page.waitForURL(`${stack.siteUrl}/success`);
  await page.getByRole('link', {name: 'Go to Dashboard'}).click();

  // Your team: the lead holds the first seat and gives the next by e-mail.
  const yourTeam = page.getByRole('region', {name: 'Your team'});
  await session.waitToSee(lead, yourTeam.getByText('3 seats: yours, and 2 for your developers. 2 free.'));
  await checked(page);
  const devEmail = uniqueEmail('dev');
  await yourTeam.getByLabel("Developer's e-mail or GitHub username").fill(devEmail);
  await yourTeam.getByRole('button', {name: 'Give a seat'}).click();
  await yourTeam.getByText(`A link went to ${devEmail}: it works once, for ${TEAM_LINK_DAYS} days.`).waitFor();
  const mailed = await stack.waitForLine(new RegExp(`#${TEAM_LINK_FRAGMENT}=[A-Za-z0-9_-]+`), 30_000, from);
  const link = /https?:\/\/\S+/.exec(mailed)![0];

  // The developer, on a phone: the link asks them to sign in with that address, then takes the seat.
  const dev = await session.open('/', {viewport: PHONE});
  await dev.page.goto(link);
  await dev.page.waitForURL(/\/signin/);
  await followMagicLink(dev.page, stack, devEmail);
  await dev.page.waitForURL(`${stack.siteUrl}/dashboard`);
  await session.waitToSee(dev, dev.page.getByText(memberOfTeam(leadEmail, team.name)));
  // The developer names their GitHub account, and is invited to the repository through the queue.
  const username = `dev-${Date.now().toString(36)}`;
  await session.requestAccess(dev, username);
  await checked(dev.page);

  // The lead sees the developer's seat, and removes them: the developer's dashboard says why.
  await page.reload();
  const row = yourTeam
    .getByRole('list', {name: 'Members'})
    .getByRole('listitem')
    .filter({hasText: `@${username}`});
  await session.waitToSee(lead, row);
  await row.getByRole('button', {name: `Remove @${username}`}).click();
  await yourTeam.getByText(`@${username} was removed, and their access taken back.`).waitFor();
  await yourTeam.getByText('3 seats: yours, and 2 for your developers. 2 free.').waitFor();
  await dev.page.reload();
  await session.waitToSee(dev, dev.page.getByText(seatEndedWords(leadEmail, 'removed').text));
  await checked(dev.page);
  expect(dev.errors).toEqual([]);

  // The lead adds a seat for a team's price for one seat alone, on the local checkout page.
  const addSeats = page.getByRole('form', {name: 'Add seats'});
  await addSeats.getByRole('button', {name: addSeatsLabel(1, `$${seat}`)}).click();
  await page.waitForURL(/\/checkout\/cs_test_/);
  await page.getByRole('button', {name: `Pay $${seat}.00`}).click();
  await page.waitForURL(new RegExp(`${escapeRegExp(stack.siteUrl)}/dashboard`));
  await session.waitToSee(lead, yourTeam.getByText('4 seats: yours, and 3 for your developers. 3 free.'));
  await page.setViewportSize(PHONE);
  await checked(page);
  // The lead names a developer's GitHub account for a seat directly.
  const named = `dev-${Date.now().toString(36)}-named`;
  await yourTeam.getByLabel("Developer's e-mail or GitHub username").fill(named);
  await yourTeam.getByRole('button', {name: 'Give a seat'}).click();
  await session.waitToSee(
    lead,
    yourTeam
      .getByRole('list', {name: 'Members'})
      .getByRole('listitem')
      .filter({hasText: `@${named}`}),
  );
  expect(lead.errors).toEqual([]);

  // The seller refunds one of the seats bought, from the console: the team has 3 again.
  const seller = await session.open('/', {viewport: WIDE});
  await session.signInByMagicLink(seller, LOCAL_ADMIN_EMAIL, {from: '/admin'});
  const admin = seller.page;
  await admin.getByRole('navigation', {name: 'Console'}).getByRole('link', {name: 'Purchases'}).click();
  await admin.getByLabel('E-mail, GitHub username or session id').fill(leadEmail);
  await admin.getByRole('button', {name: 'Search'}).click();
  await admin.getByRole('link', {name: leadEmail}).click();
  const teamSection = admin.getByRole('region', {name: 'Team'});
  await session.waitToSee(seller, teamSection.getByText("4 seats: the buyer's own and 3 for members, 1 given."));
  await teamSection.getByLabel('Seats to refund').selectOption({label: `1 seat: $${seat}.00`});
  await teamSection.getByRole('button', {name: 'Refund seats'}).click();
  const question = teamSection.getByRole('group', {name: 'Refund seats'});
  await question
    .getByText(
      `$${seat}.00 goes back to the buyer through Stripe for 1 seat; the team keeps 3 seats, and no member loses a seat.`,
    )
    .waitFor();
  await checked(admin);
  await question.getByRole('button', {name: 'Confirm'}).click();
  await session.waitToSee(seller, teamSection.getByText(/^Refunded 1 seat\./));
  await teamSection.getByText("3 seats: the buyer's own and 2 for members, 1 given.").waitFor();
  // The seller takes back the named developer's seat from their row: it is the lead's to give again.
  const takeBack = `Take back @${named}'s seat`;
  await teamSection.getByRole('button', {name: takeBack}).click();
  await teamSection.getByRole('group', {name: takeBack}).getByRole('button', {name: 'Confirm'}).click();
  await session.waitToSee(seller, teamSection.getByText(`@${named}'s seat taken back.`, {exact: false}));
  await teamSection.getByText("3 seats: the buyer's own and 2 for members, 0 given.").waitFor();
  await teamSection.getByText(endedMemberWords('removed', 'seller')).waitFor();
  await admin.setViewportSize(PHONE);
  await checked(admin);
  expect(seller.errors).toEqual([]);

  // The lead's team reads 3 seats again.
  await page.reload();
  await session.waitToSee(lead, yourTeam.getByText('3 seats: yours, and 2 for your developers. 2 free.'));
  expect(lead.errors).toEqual([]);
});
