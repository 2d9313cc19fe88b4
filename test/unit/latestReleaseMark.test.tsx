import React, {useState} from 'react';
import {screen} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DownloadCode from '../../src/components/screens/Dashboard/DownloadCode';
import WhatsNew from '../../src/components/screens/Dashboard/WhatsNew';
import {API_PATHS, type BuyerReleases, type DownloadLink} from '../../src/config/api';
import {renderWithSite} from '../support/render';
import {type JsonWorker, startJsonWorker} from '../support/jsonWorker';

/**
 * The dashboard marks the latest release next to the download, from the worker's answer to
 * GET /releases (the tag its downloads serve). Wired as the dashboard wires them (Dashboard/index.tsx).
 */
let worker: JsonWorker;
beforeAll(async () => {
  worker = await startJsonWorker();
});
afterAll(() => worker.close());

function Dashboard() {
  const [latestTag, setLatestTag] = useState<string | null>(null);
  return (
    <>
      <DownloadCode latestTag={latestTag} follow={() => {}} />
      <WhatsNew onLatestTag={setLatestTag} />
    </>
  );
}

const answer = (latestTag: string | null): BuyerReleases => ({
  includesUpdates: true,
  subscribed: true,
  releases: [],
  latestTag,
});

test('names the release the download serves next to the button, and the download is of that release', async () => {
  worker.answer(`GET ${API_PATHS.releases}`, 200, answer('v1.4.0'));
  worker.answer(`POST ${API_PATHS.downloadLink}`, 200, {
    path: `${API_PATHS.download}/token`,
    ref: 'v1.4.0',
    release: true,
    expiresAt: Date.now() + 300_000,
  } satisfies DownloadLink);
  renderWithSite(<Dashboard />, {env: {WORKER_URL: worker.url}});
  expect(await screen.findByText(/The \.zip holds the latest release,/)).toHaveTextContent(
    'The .zip holds the latest release, v1.4.0.',
  );
  await userEvent.click(screen.getByRole('button', {name: 'Download the code (.zip)'}));
  expect(await screen.findByText('Your download of release v1.4.0 has started.')).toHaveAttribute('role', 'status');
});

test('before any release, no tag is claimed', async () => {
  worker.answer(`GET ${API_PATHS.releases}`, 200, answer(null));
  renderWithSite(<Dashboard />, {env: {WORKER_URL: worker.url}});
  await screen.findByText(/^No releases yet\./);
  expect(screen.queryByText(/latest release/)).toBeNull();
  expect(screen.getByRole('button', {name: 'Download the code (.zip)'})).toBeEnabled();
});
