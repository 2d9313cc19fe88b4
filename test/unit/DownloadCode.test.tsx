import http from 'node:http';
import React from 'react';
import {screen, waitFor} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DownloadCode from '../../src/components/screens/Dashboard/DownloadCode';
import {API_PATHS} from '../../src/config/api';
import {renderWithSite} from '../support/render';
import {listen, type RunningServer} from '../../scripts/support/listen';

/** The worker: POST /downloadLink answers as the test sets it. */
let answer: {status: number; body: unknown};
const calls: string[] = [];
let worker: RunningServer;

beforeAll(async () => {
  worker = await listen(
    http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        calls.push(`${request.method} ${request.url}`);
        response.writeHead(answer.status, {'Content-Type': 'application/json'});
        response.end(JSON.stringify(answer.body));
      });
    }),
  );
});
afterAll(() => worker.close());
beforeEach(() => {
  calls.length = 0;
});

function renderButton() {
  const followed: string[] = [];
  renderWithSite(<DownloadCode follow={(url) => followed.push(url)} />, {env: {WORKER_URL: worker.url}});
  return followed;
}
const click = () => userEvent.click(screen.getByRole('button', {name: 'Download the code (.zip)'}));

test('asks the worker for a fresh link on each click and follows it, saying what is downloading', async () => {
  const path = `${API_PATHS.download}/${'a'.repeat(43)}`;
  answer = {status: 200, body: {path, ref: 'v1.2.0', release: true, expiresAt: Date.now() + 300_000}};
  const followed = renderButton();
  await click();
  expect(await screen.findByText('Your download of release v1.2.0 has started.')).toHaveAttribute('role', 'status');
  expect(followed).toEqual([`${worker.url}${path}`]);
  await click();
  // The second link is asked for over HTTP like the first: wait for it (a loaded machine is slow).
  await waitFor(() => expect(followed).toHaveLength(2), {timeout: 10_000});
  expect(calls.filter((call) => call === `POST ${API_PATHS.downloadLink}`)).toHaveLength(2);
});

test('the default branch is named as a branch', async () => {
  answer = {
    status: 200,
    body: {path: `${API_PATHS.download}/x`, ref: 'main', release: false, expiresAt: Date.now() + 300_000},
  };
  renderButton();
  await click();
  expect(await screen.findByText('Your download of the main branch has started.')).toHaveAttribute('role', 'status');
});

test('a refusal shows the worker’s own words, and nothing is followed', async () => {
  const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  answer = {
    status: 503,
    body: {error: 'GitHub is not answering right now. Please try again in a few minutes.', code: 'GITHUB_UNAVAILABLE'},
  };
  const followed = renderButton();
  await click();
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'GitHub is not answering right now. Please try again in a few minutes.',
  );
  expect(followed).toEqual([]);
  expect(screen.getByRole('button', {name: 'Download the code (.zip)'})).toBeEnabled();
  consoleError.mockRestore();
});

test('an answer that is not a link of ours is refused, never followed', async () => {
  const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  answer = {status: 200, body: {path: 'https://elsewhere.example/steal', ref: 'main', release: false, expiresAt: 0}};
  const followed = renderButton();
  await click();
  expect(await screen.findByRole('alert')).toHaveTextContent('The server sent no download link');
  expect(followed).toEqual([]);
  consoleError.mockRestore();
});
