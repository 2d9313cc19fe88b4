/**
/**
 * The seller's console end to end, in Chromium, against `npm start -- --local` over the demo data
 * of `npm run seed:local`: a buyer pays and asks for access, then the admin npm start names signs
 * in through the emulator, finds the purchase, revokes it and grants it again, reads the admin log,
 * and fixes the repository differences the seed made on purpose. Accessible (axe) and usable on a
 * phone, in a frame of its own (no storefront header or footer), reached from the admin's account
 * menu; a signed-in buyer sees that they are not an admin, and no link to the console.
 */
import type {Page} from 'playwright-core';
import {runCron} from '../../scripts/local/cron';
import {FIXTURE_REPO} from '../../scripts/local/githubApi';
import {LOCAL_MAILGUN_SIGNING_KEY, signedEvent} from '../../scripts/local/mailgunEvents';
import {LOCAL_ADMIN_EMAIL} from '../../scripts/local/plan';
import {publishLocalRelease} from '../../scripts/local/release';
import {SEED_HAND_INVITED} from '../../scripts/local/seedData';
import {
  AFFILIATE_WORDS,
  API_PATHS,
  appConfig,
  extraRepositoryKeys,
  FUNNEL_WORDS,
  LAUNCH_CODE_ENDING,
  LAUNCH_CODE_STATES,
  type LaunchCodeState,
  PLAN_CURRENCY,
  planAmount,
} from '../../src/config';
import {ADMIN_PATHS, type AdminAffiliate, type AdminAffiliates, type AdminFunnel} from '../../src/config/api';
import {formatMoney} from '../../src/config/money';
import {eventually} from './helpers';
import {escapeRegExp, plan, uniqueEmail, useLocalSession, type LocalTab} from './localSession';
import {axeViolations} from './axe';

jest.setTimeout(300_000);

/** Demo purchases, as seed:local makes them: with a few repository differences of each kind. */
const session = useLocalSession({seed: 300});
const PHONE = {width: 390, height: 844};
const WIDE = {width: 1440, height: 900};
/** The console's views, in the order its navigation lists them. */
const VIEWS = [
  'Sales',
  'Purchases',
  'Failures',
  'Releases',
  'Repository',
  'Buyer refunds',
  'Codes',
  'Affiliates',
  'Leads',
  'Admin log',
];
/** The storefront header's buy button, which the console must not show. */
const BUY_BUTTON = `Get ${appConfig.appName}`;

/** A code's State cell: its badge ("Active") and the rest of the state's sentence after the colon. */
const stateCell = (state: LaunchCodeState) => LAUNCH_CODE_STATES[state].replace(': ', ' ');

/** Whether the page is wider than the window: something pushes it sideways. */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

const printed = (pattern: RegExp) =>
  session
    .stack()
    .output()
    .split('\n')
    .filter((line) => pattern.test(line)).length;

describe('the seller’s console on the local stack', () => {
  /** From anywhere in the console to the buyer's purchase, as a seller finds it: Purchases, then a search. */
  async function openPurchase(page: Page): Promise<void> {
    await page.getByRole('navigation', {name: 'Console'}).getByRole('link', {name: 'Purchases'}).click();
    await page.getByLabel('E-mail, GitHub username or session id').fill(buyer.email);
    await page.getByRole('button', {name: 'Search'}).click();
    await page.getByRole('link', {name: buyer.email}).click();
    await page.getByRole('heading', {name: 'Purchase'}).waitFor();
  }

  const buyer = {email: uniqueEmail('buyer'), username: `seat-${Date.now().toString(36)}`};
  let admin: LocalTab;
  /** The buyer's own tab, signed in on their dashboard. */
  let paid: LocalTab;

  it('names the admin in the terminal, and lets them in with a magic link', async () => {
    expect(session.stack().output()).toMatch(new RegExp(`/admin: sign in as ${escapeRegExp(LOCAL_ADMIN_EMAIL)}`));

    // A purchase to look after: a guest pays and asks for access.
    paid = await session.open('/', {keep: true});
    await session.checkoutAsGuest(paid, buyer.email);
    await session.requestAccess(paid, buyer.username);

    admin = await session.open('/', {keep: true});
    // The console sends the admin to sign in, and the link brings them back to it.
    await session.signInByMagicLink(admin, LOCAL_ADMIN_EMAIL, {from: '/admin'});
    await admin.page.getByRole('heading', {level: 1, name: 'Console'}).waitFor();
    await admin.page.getByRole('img', {name: /Revenue by day and plan/}).waitFor();
    expect(await admin.page.getByText('Buyers').locator('..').textContent()).toMatch(/Buyers, last 30 days[1-9]/);
    expect(await axeViolations(admin.page)).toEqual([]);
    expect(admin.errors).toEqual([]);
  });

  it('finds the purchase, revokes it and grants it again, each confirmed, and the admin log grows', async () => {
    const {page, errors, workerCalls} = admin;
    await openPurchase(page);
    await page.getByText('Invitation pending').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Revoke: asked first, sent only on Confirm.
    const revokes = () => workerCalls.filter((call) => call.endsWith('/revoke')).length;
    await page.getByRole('button', {name: 'Revoke access'}).click();
    const question = page.getByRole('group', {name: 'Revoke access'});
    await question.getByText('Are you sure?').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(revokes()).toBe(0);
    await question.getByRole('button', {name: 'Confirm'}).click();
    await page.getByText(`Access revoked for @${buyer.username}.`).waitFor();
    await session.stack().waitForLine(new RegExp(`\\[github\\] +withdrew the invitation of @${buyer.username} `));
    await page.getByText('Revoked', {exact: true}).first().waitFor();
    expect(revokes()).toBe(1);

    // The buyer's dashboard says the seller took it away, and offers no way back but writing to them.
    await session.goto(paid.page, '/dashboard');
    const access = paid.page.getByRole('region', {name: 'Repository access'});
    await access.getByRole('heading', {name: 'Access revoked'}).waitFor();
    await access
      .getByText(
        `The seller revoked this purchase's access to the code. Write to ${appConfig.support.email} if you think this is a mistake.`,
      )
      .waitFor();
    expect(await paid.page.getByRole('button', {name: 'Request Access'}).count()).toBe(0);
    expect(await paid.page.getByRole('button', {name: /^Download the code/}).count()).toBe(0);
    expect(await axeViolations(paid.page)).toEqual([]);
    expect(paid.errors).toEqual([]);

    // Grant it again, to the same account.
    // The kit's invitations only: the plan's extra repositories (the prompts) print their own.
    const invited = new RegExp(`\\[github\\] +invited @${buyer.username} to ${escapeRegExp(FIXTURE_REPO)} `);
    expect(printed(invited)).toBe(1);
    await page.getByLabel('GitHub username').fill(buyer.username);
    await page.getByRole('button', {name: 'Grant access'}).click();
    await page.getByRole('group', {name: 'Grant access'}).getByRole('button', {name: 'Confirm'}).click();
    await page.getByText(`Access granted to @${buyer.username}.`).waitFor();
    await eventually(
      () => printed(invited),
      (count) => expect(count).toBe(2),
      30_000,
    );
    await page.getByText('Invitation pending').first().waitFor();
    // The buyer is invited again, and may download again.
    await session.goto(paid.page, '/dashboard');
    await paid.page
      .getByRole('region', {name: 'Repository access'})
      .getByRole('heading', {name: 'Invitation pending'})
      .waitFor();
    await paid.page.getByRole('button', {name: /^Download the code/}).waitFor();
    // The history names both actions.
    const history = page.getByRole('list', {name: 'History, newest first'});
    await history.getByText(/^revoke by /).waitFor();
    await history.getByText(/^grant by /).waitFor();

    await page.getByRole('navigation', {name: 'Console'}).getByRole('link', {name: 'Admin log'}).click();
    const log = page.getByRole('table', {name: 'What the admins did, newest first'});
    await log.waitFor();
    const rows = await log
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 3).map((td) => td.textContent)));
    expect(rows.slice(0, 2)).toEqual([
      [LOCAL_ADMIN_EMAIL, 'Granted access'],
      [LOCAL_ADMIN_EMAIL, 'Revoked access'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('refunds part of the purchase, then the rest, through Stripe; the page shows each, and what the webhook that follows ends, without a reload; the log says so', async () => {
    const {page, errors} = admin;
    const refunded = (cents: number) => new RegExp(`\\[stripe\\] +refunded ${cents} of pi_\\w+; webhook delivered`);
    // The purchase is the dashboard plan's, at its list price: the figures follow a re-price.
    const paid = planAmount(plan);
    const part = 1000;
    const partly = formatMoney(part, PLAN_CURRENCY);
    const rest = formatMoney(paid - part, PLAN_CURRENCY);
    await openPurchase(page);
    await page.getByRole('link', {name: 'Open in Stripe'}).waitFor();
    expect(await page.getByRole('link', {name: /Open in Stripe/}).getAttribute('href')).toMatch(
      /^https:\/\/dashboard\.stripe\.com\/test\/payments\/pi_\w+$/,
    );
    // The plan's extra repositories, as the purchase's facts list them: invited with the seat.
    const extras = extraRepositoryKeys(plan).map((key) =>
      page
        .getByText(`${(appConfig.extraRepositories as Record<string, {name: string}>)[key]!.name} (extra repository)`, {
          exact: true,
        })
        .locator('xpath=following-sibling::dd[1]'),
    );
    for (const extra of extras) expect(await extra.textContent()).toMatch(/^(queued|pending|active)/);
    // The same account granted again (nothing changes): the console's sentence says so, until the next action.
    const granted = `Access granted to @${buyer.username}.`;
    await page.getByLabel('GitHub username').fill(buyer.username);
    await page.getByRole('button', {name: 'Grant access'}).click();
    await page.getByRole('group', {name: 'Grant access'}).getByRole('button', {name: 'Confirm'}).click();
    await page.getByText(granted).waitFor();

    await page.getByLabel(`Amount (${PLAN_CURRENCY.toUpperCase()})`).fill(String(part / 100));
    await page.getByLabel('Reason').selectOption({label: 'A duplicate payment'});
    await page.getByRole('button', {name: 'Refund', exact: true}).click();
    const question = page.getByRole('group', {name: 'Refund'});
    await question.getByText(`${partly} goes back to the buyer through Stripe; they keep their access.`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await question.getByRole('button', {name: 'Confirm'}).click();
    await page.getByText(new RegExp(`^Refunded ${escapeRegExp(partly)}\\.`)).waitFor();
    expect(await page.getByText(granted).count()).toBe(0);
    await session.stack().waitForLine(refunded(part));
    // No reload: the page reads what Stripe refunded, and offers what is left.
    await page
      .getByText(new RegExp(`${escapeRegExp(partly)} refunded so far; ${escapeRegExp(rest)} can still be refunded`))
      .waitFor();
    await page.getByText('Invitation pending').first().waitFor();

    await page.getByRole('button', {name: 'Refund', exact: true}).click();
    await question.getByRole('button', {name: 'Confirm'}).click();
    await page.getByText(new RegExp(`^Refunded ${escapeRegExp(rest)} in full\\.`)).waitFor();
    await session.stack().waitForLine(refunded(paid));
    // Still no reload: the page follows Stripe's confirmation until access, the extra repositories included, has ended.
    await page
      .getByText(`Refunded ${rest} in full. Stripe confirmed it: the buyer's access has ended.`)
      .waitFor({timeout: 60_000});
    await page.getByText('Refunded in full.').waitFor();
    await page.getByText('Revoked', {exact: true}).first().waitFor();
    for (const extra of extras) expect(await extra.textContent()).toMatch(/^revoked/);
    expect(await page.getByText(/^Waiting for Stripe/).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('navigation', {name: 'Console'}).getByRole('link', {name: 'Admin log'}).click();
    const log = page.getByRole('table', {name: 'What the admins did, newest first'});
    await log.waitFor();
    const rows = await log
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 3).map((td) => td.textContent)));
    expect(rows.slice(0, 3)).toEqual([
      [LOCAL_ADMIN_EMAIL, 'Refunded'],
      [LOCAL_ADMIN_EMAIL, 'Refunded'],
      [LOCAL_ADMIN_EMAIL, 'Granted access'],
    ]);
    expect(errors).toEqual([]);
  });

  it('tells the refunded buyer on their dashboard that the purchase was refunded, when, and what it means for access; the receipt stays', async () => {
    const {page, errors} = paid;
    await session.goto(page, '/dashboard');
    await page.getByRole('heading', {level: 1, name: `Your ${appConfig.appName} purchase was refunded`}).waitFor();
    const told = page.getByRole('region', {name: 'What this means for you'});
    const amount = escapeRegExp(formatMoney(planAmount(plan), PLAN_CURRENCY));
    await told
      .getByText(
        new RegExp(
          `purchase of \\d{1,2} \\w+ \\d{4} was refunded in full on \\d{1,2} \\w+ \\d{4}: ${amount} went back`,
        ),
      )
      .waitFor();
    await told
      .getByText(
        new RegExp(`^With the refund, its access to the code ended: @${escapeRegExp(buyer.username)}'s invitation`),
      )
      .waitFor();
    const receipts = page.getByRole('region', {name: 'Receipts'});
    await receipts.getByText(new RegExp(`${amount} refunded`)).waitFor();
    expect(await page.getByText(/You have not bought|has no purchase/).count()).toBe(0);
    expect(await page.getByRole('button', {name: 'Request Access'}).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a period picker drives the figures and the chart; purchases filter by state', async () => {
    const {page, errors} = admin;
    await session.goto(page, '/admin');
    await page.getByText('Revenue, last 30 days').waitFor();
    await page.getByRole('list', {name: 'Period'}).getByRole('link', {name: 'Last 12 months'}).click();
    await page.getByText('Revenue, last 12 months').waitFor();
    await page.getByRole('img', {name: /Revenue by month and plan, last 12 months/}).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('navigation', {name: 'Console'}).getByRole('link', {name: 'Purchases'}).click();
    await page.getByLabel('State').selectOption({label: 'Refunded'});
    await page
      .getByRole('table', {name: 'Purchases that match the filters, newest first'})
      .getByRole('link', {name: buyer.email})
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it.each([
    ['1440', WIDE],
    ['390', PHONE],
  ])(
    'at %s px, the first screen shows the funnel: each figure beside the period before, why it starts at checkout, and what needs a look',
    async (_, size) => {
      const {page, errors} = admin;
      await page.setViewportSize(size);
      // What the worker answers for the first screen's period, read as the page asks for it.
      const answered = page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname.endsWith(ADMIN_PATHS.funnel) && response.request().method() === 'GET',
      );
      await session.goto(page, '/admin');
      const funnel = (await (await answered).json()) as AdminFunnel;
      const region = page.getByRole('region', {name: 'Funnel, last 30 days'});
      const steps = region.locator('dl > div');
      await steps.first().waitFor();

      // The local stack has no Plausible key: no visitors, and the funnel says why.
      const why = FUNNEL_WORDS.noKey;
      expect(funnel.visitors).toEqual({source: 'none', why});
      await region.getByText(why, {exact: true}).waitFor();

      // Each figure as the worker counts it, its lines as shown: the figure, its share, the period before.
      const shown = Object.fromEntries(
        await steps.evaluateAll((divs) =>
          divs.map((div) => [div.querySelector('dt')!.textContent, div.querySelector('dd')!.innerText] as const),
        ),
      );
      const percent = '[\\d,]+(\\.\\d)?%';
      const share = (words: string) => `${percent} of ${escapeRegExp(words)}\\n`;
      const delta = `\\(([+−]${percent}|no change|none before)\\)`;
      /** The figure, what it is a share of, then the same stretch of the 30 days before and the change. */
      const step = ({now, before}: {now: number; before: number | null}, of = '') =>
        new RegExp(`^${now}\\n${of}the 30 days before: ${before} ${delta}$`);
      const wait = '(under a minute|\\d+ (min|h|days?)( \\d+ (min|h))?)';
      const {checkoutsStarted, checkoutsPaid, refunds, payments, invitationsAccepted, downloads} = funnel;
      expect(shown).toEqual({
        'Checkouts started': expect.stringMatching(step(checkoutsStarted)),
        'Checkouts paid': expect.stringMatching(step(checkoutsPaid, share('those started'))),
        'Purchases refunded in full': expect.stringMatching(
          step(refunds, share(`${payments.now} ${payments.now === 1 ? 'payment' : 'payments'}`)),
        ),
        'Invitations accepted': expect.stringMatching(step(invitationsAccepted)),
        Downloads: expect.stringMatching(step(downloads)),
        // A wait in words ("none yet" when no code reached a buyer yet), beside the period before's.
        'Payment to access, median': expect.stringMatching(
          new RegExp(`^(none yet|${wait})\\nthe 30 days before: (no code reached a buyer|${wait}( ${delta})?)$`),
        ),
      });
      // What the seed and this file's buyers make so: in the last 30 days checkouts were started and
      // paid, invitations accepted, and this file's buyer (at least) refunded in full; each period
      // before was recorded (the seed's checkouts go back 90 days).
      expect(checkoutsPaid.now).toBeGreaterThanOrEqual(1);
      expect(checkoutsStarted.now).toBeGreaterThan(checkoutsPaid.now);
      expect(invitationsAccepted.now).toBeGreaterThanOrEqual(1);
      expect(refunds.now).toBeGreaterThanOrEqual(1);
      expect(payments.now).toBeGreaterThanOrEqual(checkoutsPaid.now);
      expect([checkoutsStarted, checkoutsPaid, refunds, invitationsAccepted].map(({before}) => before)).toEqual(
        Array(4).fill(expect.any(Number)),
      );

      // Needs a look: the seed's grants that failed for good are listed, and nothing says all is well.
      const look = page.getByRole('region', {name: 'Needs a look, now'});
      const {failedGrants, unaccepted, queued, cardCountryFlags} = funnel.needsLook;
      expect(failedGrants).toBeGreaterThan(0);
      const items = await look.getByRole('listitem').allTextContents();
      expect(items).toContain(
        `${failedGrants} ${failedGrants === 1 ? 'grant' : 'grants'} failed for good (an invitation or a removal)`,
      );
      expect(items).toHaveLength([unaccepted, failedGrants, queued, cardCountryFlags].filter((n) => n > 0).length);
      expect(await look.getByText('Nothing needs a look.').count()).toBe(0);

      expect(await overflows(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it('the repository audit sums up first, shows five rows a kind until Show all, and removes all the hand-invited accounts once confirmed', async () => {
    const {page, errors, workerCalls} = admin;
    await page.setViewportSize(WIDE);
    await session.goto(page, '/admin?view=repository');
    // The summary first: what was compared, and what needs action, by kind.
    await page.getByText('Paid buyers with access').waitFor();
    await page.getByText(/^\d+ differences need your action:$/).waitFor();
    expect(await page.getByText('All in order').count()).toBe(0);
    const heading = (name: RegExp) => page.getByRole('heading', {level: 3, name});
    const group = (name: RegExp) => page.getByRole('region', {name});
    const countOf = async (name: RegExp) => Number(/\((\d+)\)$/.exec((await heading(name).textContent())!)![1]);
    expect(await axeViolations(page)).toEqual([]);

    // The seeded invitations that failed: more than a screen's worth shows five until Show all.
    const missing = group(/^Paid, but not on the repository/);
    const total = await countOf(/^Paid, but not on the repository/);
    expect(total).toBeGreaterThan(5);
    const rows = missing.getByRole('table').locator('tbody tr');
    expect(await rows.count()).toBe(5);
    await missing.getByRole('button', {name: `Show all ${total}`}).click();
    expect(await rows.count()).toBe(total);
    await missing.getByRole('button', {name: 'Show the first 5'}).click();
    expect(await rows.count()).toBe(5);

    // The accounts the seller invited by hand: all removed in one action, asked first.
    const handInvited = /^On the repository without a paid purchase/;
    const strangers = await countOf(handInvited);
    const fixAlls = () => workerCalls.filter((call) => call.endsWith('/admin/repository-audit/fix-all')).length;
    await group(handInvited)
      .getByRole('button', {name: `Remove all ${strangers}`})
      .click();
    const question = page.getByRole('group', {name: `Remove all ${strangers}`});
    await question.getByText(`All ${strangers} accounts listed here lose`, {exact: false}).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(fixAlls()).toBe(0);
    await question.getByRole('button', {name: 'Confirm'}).click();
    await page.getByText(`Removed ${strangers} accounts from the repository.`).waitFor();
    expect(strangers).toBe(SEED_HAND_INVITED.length);
    for (const {login} of SEED_HAND_INVITED)
      await session.stack().waitForLine(new RegExp(`\\[github\\] +removed @${login} from `));
    await heading(handInvited).waitFor({state: 'detached'});
    expect(fixAlls()).toBe(1);
    expect(await countOf(/^Paid, but not on the repository/)).toBe(total);

    // One row in the admin log for each account.
    await page.getByRole('navigation', {name: 'Console'}).getByRole('link', {name: 'Admin log'}).click();
    const log = page.getByRole('table', {name: 'What the admins did, newest first'});
    await log.waitFor();
    const actions = await log
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[2]?.textContent));
    expect(actions.slice(0, strangers + 1)).toEqual([
      ...Array(strangers).fill('Fixed a repository difference'),
      'Refunded',
    ]);
    expect(errors).toEqual([]);
  });

  it.each(['failures', 'repository', 'codes', 'affiliates', 'leads'])(
    'shows the %s panel with nothing for axe to find',
    async (view) => {
      const {page, errors} = admin;
      await session.goto(page, `/admin?view=${view}`);
      await page.getByRole('main').getByRole('heading', {level: 2}).waitFor();
      await eventually(
        () => page.getByRole('progressbar').count(),
        (spinners) => expect(spinners).toBe(0),
        30_000,
      );
      // Nothing failed to load; Failures warns of the removals the seed made fail, and of nothing else.
      const alerts = await page.getByRole('alert').allTextContents();
      expect(alerts).toEqual(
        view === 'failures'
          ? [
              expect.stringMatching(
                /^\d+ removals failed for good: a refunded or disputed buyer may still be on GitHub\./,
              ),
            ]
          : [],
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it('lists a release with its e-mails, and sends it again, once confirmed, to the buyer whose e-mail bounced', async () => {
    const {page, errors, workerCalls} = admin;
    const stack = session.stack();
    await page.setViewportSize(WIDE);
    // A buyer, and a release GitHub publishes, which the cron's next run e-mails (run now, not in up to a minute).
    const bouncing = uniqueEmail('bounce');
    await session.checkoutAsGuest(await session.open('/'), bouncing);
    const name = `Release ${Date.now().toString(36)}`;
    const from = stack.output().length;
    const published = await publishLocalRelease(stack.workerUrl, {
      tag: `v7.${Date.now().toString(36)}`,
      name,
      notes: 'Faster.',
    });
    expect(published.status).toBe(200);
    const mailed = new RegExp(`\\[e-mail\\] +to [^\\n]*${escapeRegExp(bouncing)}[^\\n]*"[^"]*${escapeRegExp(name)}`);
    await runCron(stack.workerUrl);
    await stack.waitForLine(mailed, 60_000, from);
    // Mailgun's event: the buyer's mailbox refused it for good.
    const bounce = signedEvent(LOCAL_MAILGUN_SIGNING_KEY, 'failed', bouncing, {
      message: '550 5.1.1 The email account that you tried to reach does not exist',
      variables: {'release-id': String(published.id), 'release-audience': plan.includesUpdates ? 'updates' : 'upgrade'},
    });
    const posted = await fetch(`${stack.workerUrl}${API_PATHS.mailgunEvents}`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify(bounce),
    });
    expect(await posted.json()).toEqual({received: true, recorded: true});

    await page.getByRole('navigation', {name: 'Console'}).getByRole('link', {name: 'Releases'}).click();
    const row = page.getByRole('row').filter({hasText: name});
    await row.waitFor();
    // The failed count folds the address and Mailgun's words.
    await row.locator('summary').click();
    await row.getByText(/5\.1\.1 The email account that you tried to reach does not exist/).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Sent again only once confirmed, and only to the buyer who failed.
    const resends = () => workerCalls.filter((call) => call.endsWith('/resend')).length;
    await row.getByRole('button', {name: 'Send again to the 1 that failed'}).click();
    const question = page.getByRole('group', {name: 'Send again to the 1 that failed'});
    await question.getByText('Are you sure?').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(resends()).toBe(0);
    const before = stack.output().length;
    await question.getByRole('button', {name: 'Confirm'}).click();
    await page.getByText(`${name} is being sent again to 1 address.`).waitFor();
    await stack.waitForLine(
      new RegExp(`\\[e-mail\\] +to ${escapeRegExp(bouncing)}: "[^"]*${escapeRegExp(name)}`),
      30_000,
      before,
    );
    await row.getByRole('button', {name: /Send again/}).waitFor({state: 'detached'});

    await page.setViewportSize(PHONE);
    expect(await overflows(page)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(WIDE);
    expect(errors).toEqual([]);
  });

  it('makes a launch code at Stripe, lists it active with its terms, ends it once confirmed; the admin log says both', async () => {
    const {page, errors, workerCalls} = admin;
    await page.setViewportSize(WIDE);
    const name = `LAUNCH-${Date.now().toString(36).toUpperCase()}`;
    const nav = page.getByRole('navigation', {name: 'Console'});
    await nav.getByRole('link', {name: 'Codes'}).click();
    const form = page.getByRole('form', {name: 'Make a code'});
    await form.getByLabel('Code', {exact: true}).fill(name);
    await form.getByLabel('Percent off (%)').fill('20');
    await form.getByLabel('Max uses (optional)').fill('5');
    await form.getByRole('button', {name: 'Make code'}).click();
    await page.getByText(`Code ${name} made: 20% off, at most 5 uses.`).waitFor();

    // Listed once the worker has it from Stripe: active, nothing sold with it yet.
    const row = page.getByRole('table', {name: 'Launch codes'}).getByRole('row').filter({hasText: name});
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      name,
      '20% off, at most 5 uses',
      stateCell('active'),
      '0 / 5',
      formatMoney(0, PLAN_CURRENCY),
      'End',
    ]);
    expect(await axeViolations(page)).toEqual([]);

    // Ended only once confirmed.
    const ends = () => workerCalls.filter((call) => call.endsWith('/end')).length;
    await row.getByRole('button', {name: 'End'}).click();
    const question = row.getByRole('group', {name: 'End'});
    await question.getByText('Are you sure?').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(ends()).toBe(0);
    await question.getByRole('button', {name: 'Confirm'}).click();
    await page.getByText(LAUNCH_CODE_ENDING.done({code: name, forUpgrades: false})).waitFor();
    await row.getByText('Ended', {exact: true}).waitFor();
    expect(ends()).toBe(1);
    expect(await row.getByRole('button', {name: 'End'}).count()).toBe(0);

    await nav.getByRole('link', {name: 'Admin log'}).click();
    const log = page.getByRole('table', {name: 'What the admins did, newest first'});
    await log.waitFor();
    const rows = await log
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 3).map((td) => td.textContent)));
    expect(rows.slice(0, 2)).toEqual([
      [LOCAL_ADMIN_EMAIL, 'Ended a launch code'],
      [LOCAL_ADMIN_EMAIL, 'Made a launch code'],
    ]);
    expect(errors).toEqual([]);
  });

  it.each([
    ['1440', WIDE],
    ['390', PHONE],
  ])(
    'at %s px, the Codes view makes a code and lists it with its terms and state; on a phone each row is a card',
    async (px, size) => {
      const {page, errors} = admin;
      await page.setViewportSize(size);
      await session.goto(page, '/admin?view=codes');
      const name = `W${px}-${Date.now().toString(36).toUpperCase()}`;
      const form = page.getByRole('form', {name: 'Make a code'});
      await form.getByLabel('Code', {exact: true}).fill(name);
      await form.getByLabel('Percent off (%)').fill('15');
      await form.getByRole('button', {name: 'Make code'}).click();
      await page.getByText(`Code ${name} made: 15% off.`).waitFor();
      // The form is emptied for the next code.
      expect(await form.getByLabel('Code', {exact: true}).inputValue()).toBe('');

      const row = page.getByRole('table', {name: 'Launch codes'}).getByRole('row').filter({hasText: name});
      await row.waitFor();
      const cells = row.getByRole('cell');
      expect(await cells.allTextContents()).toEqual([
        name,
        '15% off',
        stateCell('active'),
        '0',
        formatMoney(0, PLAN_CURRENCY),
        'End',
      ]);
      const layout = await cells.evaluateAll((tds) =>
        tds.map((td) => {
          const box = td.getBoundingClientRect();
          return {
            display: getComputedStyle(td).display,
            label: getComputedStyle(td, '::before').content,
            top: box.top,
            bottom: box.bottom,
          };
        }),
      );
      const columns = ['Code', 'Terms', 'State', 'Uses', 'Revenue', 'Action'];
      if (size === PHONE) {
        // A card: each cell on a line of its own, named by its column.
        expect(layout.map(({display}) => display)).toEqual(columns.map(() => 'grid'));
        expect(layout.map(({label}) => label)).toEqual(columns.map((column) => `"${column}"`));
        for (let i = 1; i < layout.length; i++)
          expect(layout[i]!.top).toBeGreaterThanOrEqual(layout[i - 1]!.bottom - 1);
      } else {
        // A table's row: the cells side by side, the column named by its header.
        expect(layout.map(({display}) => display)).toEqual(columns.map(() => 'table-cell'));
        expect(new Set(layout.map(({top}) => Math.round(top))).size).toBe(1);
      }
      expect(await overflows(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it.each([
    ['1440', WIDE],
    ['390', PHONE],
  ])(
    'at %s px, the Affiliates view shows the totals and the affiliates, and downloads the commissions as CSV',
    async (_, size) => {
      const {page, errors} = admin;
      await page.setViewportSize(size);
      await session.goto(page, '/admin?view=affiliates');
      await page.getByRole('main').getByRole('heading', {level: 2, name: AFFILIATE_WORDS.heading}).waitFor();
      await page.getByText(AFFILIATE_WORDS.totalPayable).waitFor();
      // The seed makes no affiliate: the list says so, or lists those an earlier run made.
      await page
        .getByText(AFFILIATE_WORDS.noAffiliates)
        .or(page.getByRole('table', {name: AFFILIATE_WORDS.consoleCaption}))
        .waitFor();
      const download = page.waitForEvent('download');
      await page.getByRole('button', {name: 'Download CSV'}).click();
      expect((await download).suggestedFilename()).toMatch(/^commissions-\d{4}-\d{2}-\d{2}\.csv$/);
      await page.getByText(AFFILIATE_WORDS.csvDone).waitFor();
      expect(await overflows(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it.each([
    ['1440', WIDE],
    ['390', PHONE],
  ])(
    'at %s px, paying through Stripe: the Stripe column, what is owed back and Pay through Stripe fit, its question included, with nothing for axe',
    async (_, size) => {
      const {page, errors} = admin;
      await page.setViewportSize(size);
      // The kit pays by the seller's own means as committed, and the seed makes no affiliate: the
      // worker's own answer, with the programme paying through Stripe and one affiliate ready with
      // something payable and something owed back, as such a programme would answer.
      const ready: AdminAffiliate = {
        id: 'aff_browser0001',
        code: 'ready-affiliate',
        email: 'ready@example.com',
        joinedAt: Date.now() - 40 * 24 * 3600_000,
        clicks: 12,
        sales: 3,
        totals: {currency: PLAN_CURRENCY, pending: 900, payable: 1800, paid: 900, owedBack: 300},
        lastPayout: {amount: 900, reference: '', at: Date.now() - 3600_000, method: 'stripe', state: 'sending'},
        stripe: 'ready',
      };
      await page.route(`${session.stack().apiBase}${ADMIN_PATHS.affiliates}`, async (route) => {
        const response = await route.fetch();
        const answer = (await response.json()) as AdminAffiliates;
        await route.fulfill({response, json: {...answer, stripeConnect: true, items: [ready, ...answer.items]}});
      });
      await session.goto(page, '/admin?view=affiliates');
      const table = page.getByRole('table', {name: AFFILIATE_WORDS.consoleCaption});
      await table.waitFor();
      const row = table.getByRole('row').filter({hasText: ready.code});
      await row.getByText(AFFILIATE_WORDS.consoleStripeStates.ready).waitFor();
      await row.getByText(/owed back/).waitFor();
      await row.getByText(/sending through Stripe/).waitFor();
      await row.getByRole('button', {name: AFFILIATE_WORDS.payThroughStripe}).click();
      await page
        .getByText(AFFILIATE_WORDS.payThroughStripeQuestion(ready.totals.payable, PLAN_CURRENCY, ready.code))
        .waitFor();
      expect(await overflows(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      // Cancelled: nothing is sent to the worker for an affiliate it does not know.
      await page.getByRole('button', {name: 'Cancel'}).click();
      await page.unroute(`${session.stack().apiBase}${ADMIN_PATHS.affiliates}`);
      expect(errors).toEqual([]);
    },
  );

  it('fits a 390 px phone: the tables become cards, nothing scrolls sideways', async () => {
    const {page, errors} = admin;
    await page.setViewportSize(PHONE);
    for (const path of [
      '/admin',
      '/admin?period=12m',
      '/admin?view=purchases',
      `/admin?view=purchases&q=${encodeURIComponent(buyer.email)}&state=refunded`,
      '/admin?view=repository',
      '/admin?view=releases',
      '/admin?view=codes',
      '/admin?view=affiliates',
      '/admin?view=log',
    ]) {
      await session.goto(page, path);
      await page.getByRole('main').getByRole('heading', {level: 2}).waitFor();
      await eventually(
        () => page.getByRole('progressbar').count(),
        (spinners) => expect(spinners).toBe(0),
        30_000,
      );
      expect({path, overflows: await overflows(page)}).toEqual({path, overflows: false});
      expect(await axeViolations(page)).toEqual([]);
    }
    // A row is a card: its cells stack, each named by its column.
    const cell = page.getByRole('table').first().locator('tbody td').first();
    expect(await cell.evaluate((td) => getComputedStyle(td).display)).toBe('grid');
    expect(errors).toEqual([]);
  });

  it.each([
    ['1440', WIDE],
    ['390', PHONE],
  ])(
    'at %s px, the console is an app of its own: its views, the seller, a way back; no buy button, no storefront footer',
    async (_, size) => {
      const {page, errors} = admin;
      await page.setViewportSize(size);
      await session.goto(page, '/admin?view=leads');
      const nav = page.getByRole('navigation', {name: 'Console'});
      await nav.getByRole('link', {name: 'Leads'}).waitFor();
      expect(await nav.getByRole('link').allTextContents()).toEqual(VIEWS);
      expect(await nav.getByRole('link', {name: 'Leads'}).getAttribute('aria-current')).toBe('page');
      // Who is signed in, with their account menu, and the way back to the site.
      await page.getByRole('banner').getByText(LOCAL_ADMIN_EMAIL, {exact: true}).waitFor();
      await page.getByRole('button', {name: LOCAL_ADMIN_EMAIL.split('@')[0]}).waitFor();
      expect(await page.getByRole('link', {name: `Back to ${appConfig.appName}`}).getAttribute('href')).toBe('/');
      // None of the storefront's frame.
      expect(await page.getByRole('button', {name: BUY_BUTTON}).count()).toBe(0);
      expect(await page.getByRole('link', {name: BUY_BUTTON}).count()).toBe(0);
      expect(await page.getByRole('contentinfo').count()).toBe(0);
      expect(await page.getByRole('navigation', {name: 'Main'}).count()).toBe(0);

      const [navBox, mainBox] = await Promise.all([nav.boundingBox(), page.getByRole('main').boundingBox()]);
      if (size === WIDE) {
        // A sidebar: the views beside the panel, not over it.
        expect(navBox!.x + navBox!.width).toBeLessThanOrEqual(mainBox!.x);
      } else {
        // A bar over the panel, its views wrapped onto rows: each one whole in sight, none to scroll to.
        expect(navBox!.y + navBox!.height).toBeLessThanOrEqual(mainBox!.y);
        const boxes = await nav.getByRole('link').evaluateAll((links) =>
          links.map((link) => {
            const box = link.getBoundingClientRect();
            return {view: link.textContent, left: box.left, right: box.right};
          }),
        );
        expect(boxes.filter((box) => box.left < 0 || box.right > size.width)).toEqual([]);
        expect(await nav.locator('ul').evaluate((list) => list.scrollWidth <= list.clientWidth)).toBe(true);
        await nav.getByRole('link', {name: 'Admin log'}).click();
        await page.getByRole('table', {name: 'What the admins did, newest first'}).waitFor();
        expect(await nav.getByRole('link', {name: 'Admin log'}).getAttribute('aria-current')).toBe('page');
      }
      expect(await overflows(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it('links the admin’s account menu (on the dashboard) to the console', async () => {
    const {page, errors} = admin;
    await page.setViewportSize(WIDE);
    await session.goto(page, '/dashboard');
    await page
      .getByRole('banner')
      .getByRole('button', {name: LOCAL_ADMIN_EMAIL.split('@')[0]})
      .click();
    await page.getByRole('link', {name: 'Seller console'}).click();
    await page.waitForURL(`${session.stack().siteUrl}/admin`);
    await page.getByRole('navigation', {name: 'Console'}).getByRole('link', {name: 'Sales'}).waitFor();
    expect(errors).toEqual([]);
  });

  it('tells a signed-in buyer that the account is not an admin, and shows no data', async () => {
    const tab = await session.open('/');
    const other = buyer.email.replace('buyer.', 'other.');
    await session.signInByMagicLink(tab, other);
    // Their account menu (signing in lands on the dashboard) has no way to the console: the worker said no.
    const answered = tab.page.waitForResponse((response) =>
      new URL(response.url()).pathname.endsWith(API_PATHS.isAdmin),
    );
    await tab.page
      .getByRole('banner')
      .getByRole('button', {name: other.split('@')[0]})
      .click();
    await tab.page.getByRole('button', {name: 'Logout'}).waitFor();
    expect(await (await answered).json()).toEqual({admin: false});
    expect(await tab.page.getByRole('link', {name: 'Seller console'}).count()).toBe(0);
    expect(tab.errors).toEqual([]);

    await session.goto(tab.page, '/admin');
    await tab.page.getByRole('heading', {level: 1, name: 'This account is not an admin'}).waitFor();
    expect(await tab.page.getByRole('navigation', {name: 'Console'}).count()).toBe(0);
    expect(await tab.page.getByRole('table').count()).toBe(0);
    expect(await axeViolations(tab.page)).toEqual([]);
    // The browser logs the worker's 403 itself; nothing else went wrong.
    expect(tab.errors.filter((error) => !/403/.test(error))).toEqual([]);
  });

  it('sends a signed-out visitor to the sign-in page', async () => {
    const {page, errors} = await session.open('/admin');
    await page.waitForURL(`${session.stack().siteUrl}/signin?next=%2Fadmin`);
    expect(errors).toEqual([]);
  });
});
