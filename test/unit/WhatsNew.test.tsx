import React from 'react';
import {screen, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {YOUR_PLAN_ID} from '../../src/components/screens/Dashboard/YourPlan';
import WhatsNew from '../../src/components/screens/Dashboard/WhatsNew';
import {appConfig} from '../../src/config';
import {API_PATHS, type BuyerReleases, type ReleaseNote} from '../../src/config/api';
import {renderWithSite} from '../support/render';
import {type JsonWorker, startJsonWorker} from '../support/jsonWorker';

let worker: JsonWorker;
beforeAll(async () => {
  worker = await startJsonWorker();
});
afterAll(() => worker.close());
beforeEach(() => {
  worker.calls.length = 0;
});

const GET = `GET ${API_PATHS.releases}`;
const POST = `POST ${API_PATHS.releaseEmails}`;
const release = (tag: string, publishedAt: number, notesHtml: string): ReleaseNote => ({
  tag,
  name: `Release ${tag}`,
  notesHtml,
  url: `https://github.com/owner/kit/releases/tag/${tag}`,
  publishedAt,
});
function show(
  answer: Omit<BuyerReleases, 'latestTag'> & Partial<BuyerReleases>,
  status = 200,
  onLatestTag?: (tag: string | null) => void,
) {
  worker.answer(GET, status, {latestTag: null, ...answer});
  renderWithSite(<WhatsNew onLatestTag={onLatestTag} />, {env: {WORKER_URL: worker.url}});
}

test('lists the releases as the worker sends them, newest first, with their notes, and a script in the notes stays text', async () => {
  show({
    includesUpdates: true,
    subscribed: true,
    releases: [
      release('v1.2.0', Date.UTC(2026, 10, 20), '<p>Faster builds. &lt;script&gt;alert(1)&lt;/script&gt;</p>'),
      release('v1.1.0', Date.UTC(2026, 9, 2), '<ul><li>Supabase tabs</li></ul>'),
    ],
  });
  const items = await screen.findAllByRole('article');
  // A name that says its tag already is not followed by it again.
  expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
    'Release v1.2.0',
    'Release v1.1.0',
  ]);
  expect(items[0]).toHaveTextContent('20 November 2026');
  expect(items[0]).toHaveTextContent('Faster builds. <script>alert(1)</script>');
  expect(document.querySelector('script')).toBeNull();
  expect(within(items[1]!).getByText('Supabase tabs')).toBeInTheDocument();
  expect(within(items[0]!).getByRole('link', {name: 'On GitHub'})).toHaveAttribute(
    'href',
    'https://github.com/owner/kit/releases/tag/v1.2.0',
  );
  expect(screen.getByText('Release e-mails: on')).toBeInTheDocument();
  expect(screen.queryByText(/Your plan includes the releases/)).toBeNull();
});

test('a plan without updates says which releases it has, and points to the upgrade on the dashboard', async () => {
  show({includesUpdates: false, subscribed: true, releases: []});
  const withUpdates = appConfig.plans
    .filter((plan) => plan.includesUpdates)
    .map((plan) => plan.name)
    .join(' or ');
  expect(
    await screen.findByText(
      `Your plan includes the releases published up to your purchase. Later ones are not promised with it: they come with ${withUpdates}, which includes lifetime updates.`,
      {exact: false},
    ),
  ).toBeInTheDocument();
  // The Your plan card, which upgrades the purchase for the difference.
  expect(screen.getByRole('link', {name: 'Upgrade for the difference'})).toHaveAttribute('href', `#${YOUR_PLAN_ID}`);
  // None published at all: "No releases yet" is so.
  expect(screen.getByText(/^No releases yet\./)).toBeInTheDocument();
});

test('a plan without updates is told of the releases published since its purchase, the latest by name, never "No releases yet"', async () => {
  const later = {count: 2, latest: {tag: 'v1.3.0', name: 'Tabs everywhere', publishedAt: Date.UTC(2026, 10, 20, 9)}};
  show({includesUpdates: false, subscribed: true, releases: [], later});
  expect(
    await screen.findByText(
      '2 releases were published after your purchase, the latest Tabs everywhere (v1.3.0) on 20 November 2026.',
    ),
  ).toBeInTheDocument();
  expect(screen.getByText('No release was published up to your purchase.')).toBeInTheDocument();
  expect(screen.queryByText(/No releases yet/)).toBeNull();
  expect(screen.getByRole('link', {name: 'Upgrade for the difference'})).toHaveAttribute('href', `#${YOUR_PLAN_ID}`);
});

test('one release since the purchase, named by its tag, reads once; the releases up to the purchase are listed', async () => {
  const tag = 'v0.0.1796160942';
  show({
    includesUpdates: false,
    subscribed: true,
    releases: [release('v1.0.0', Date.UTC(2026, 0, 5), '<p>First.</p>')],
    later: {count: 1, latest: {tag, name: tag, publishedAt: Date.UTC(2026, 10, 20)}},
  });
  expect(
    await screen.findByText(`One release was published after your purchase, the latest ${tag} on 20 November 2026.`),
  ).toBeInTheDocument();
  expect(screen.getAllByRole('article')).toHaveLength(1);
  expect(screen.queryByText(/No release/)).toBeNull();
});

test('a release whose name is its tag shows it once; another name is followed by its tag', async () => {
  const tag = 'v0.0.1796160942';
  show({
    includesUpdates: true,
    subscribed: true,
    releases: [
      {...release(tag, Date.UTC(2026, 10, 21), '<p>Fixes.</p>'), name: tag},
      {...release('v1.3.0', Date.UTC(2026, 10, 20), '<p>Tabs.</p>'), name: 'Tabs everywhere'},
    ],
  });
  const items = await screen.findAllByRole('article');
  expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([tag, 'Tabs everywhere v1.3.0']);
  expect(items[0]).toHaveAccessibleName(tag);
});

test('stops release e-mails and turns them back on, saying each time what now happens', async () => {
  show({includesUpdates: true, subscribed: true, releases: []});
  worker.answer(POST, 200, {subscribed: false});
  await userEvent.click(await screen.findByRole('button', {name: 'Stop release e-mails'}));
  expect(await screen.findByText('Release e-mails are off. Receipts and access e-mails still come.')).toHaveAttribute(
    'role',
    'status',
  );
  expect(screen.getByText('Release e-mails: off')).toBeInTheDocument();

  worker.answer(POST, 200, {subscribed: true});
  await userEvent.click(screen.getByRole('button', {name: 'E-mail me new releases'}));
  expect(await screen.findByText('Release e-mails: on')).toBeInTheDocument();
  expect(worker.calls.filter((call) => call.route === POST).map((call) => call.body)).toEqual([
    {subscribed: false},
    {subscribed: true},
  ]);
});

test("says why e-mails stay off when the purchase e-mail's own link turned them off", async () => {
  show({includesUpdates: true, subscribed: false, releases: []});
  worker.answer(POST, 200, {subscribed: false});
  await userEvent.click(await screen.findByRole('button', {name: 'E-mail me new releases'}));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    "Release e-mails stay off: they were turned off from the purchase e-mail's own link.",
  );
  expect(screen.getByText('Release e-mails: off')).toBeInTheDocument();
});

test('says so when the releases cannot be read', async () => {
  const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  show({error: 'Something went wrong on our side. Please try again.'} as unknown as BuyerReleases, 500);
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'The releases could not be loaded. Please reload the page.',
  );
  consoleError.mockRestore();
});
