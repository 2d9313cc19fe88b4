import http from 'node:http';
import React from 'react';
import {screen, within} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import RequestAccess, {
  ACCESS_MESSAGES,
  USERNAME_MESSAGE_MS,
} from '../../src/components/screens/Dashboard/RequestAccess';
import {renderWithSite} from '../support/render';
import {appConfig} from '../../src/config';
import {listen, type RunningServer} from '../../scripts/support/listen';

/** The worker for a buyer who has paid: POST /addUserToRepo answers as the test sets it. */
let answer: {status: number; body: unknown};
const requested: unknown[] = [];
let worker: RunningServer;

beforeAll(async () => {
  worker = await listen(
    http.createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => (raw += chunk));
      request.on('end', () => {
        const paidCheck = request.method === 'GET' && request.url!.startsWith('/userHasPaid?');
        if (!paidCheck) requested.push(JSON.parse(raw || 'null'));
        const {status, body} = paidCheck ? {status: 200, body: {hasPaid: true}} : answer;
        response.writeHead(status, {'Content-Type': 'application/json'});
        response.end(JSON.stringify(body));
      });
    }),
  );
});
afterAll(() => worker.close());

let consoleError: jest.SpyInstance;
beforeEach(() => {
  requested.length = 0;
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  consoleError.mockRestore();
  jest.restoreAllMocks();
});

/** The Request Access form, which its answers are shown in. */
const form = () => screen.getByRole('form', {name: 'Request access to the repository'});

async function requestAccessFor(username: string) {
  renderWithSite(
    <RequestAccess
      user={{uid: 'buyer-1', email: 'ada@example.com', displayName: null, photoURL: null}}
      onRequested={() => {}}
    />,
    {env: {WORKER_URL: worker.url}},
  );
  await userEvent.type(screen.getByRole('textbox', {name: 'GitHub username'}), username);
  await userEvent.click(screen.getByRole('button', {name: 'Request Access'}));
}

describe('Request Access', () => {
  it.each([
    [400, 'INVALID_REQUEST', 'That is not a valid GitHub username.'],
    [404, 'NOT_FOUND', 'GitHub has no user called octocat-typo.'],
    [
      409,
      'GITHUB_ACCOUNT_TAKEN',
      '@octocat-typo already has access to the repository through another purchase. Use another GitHub account.',
    ],
  ])(
    'shows the worker’s own words for a %d %s on the field, until the username changes',
    async (status, code, error) => {
      answer = {status, body: {error, code}};
      await requestAccessFor('octocat-typo');
      const field = screen.getByRole('textbox', {name: 'GitHub username'});
      expect(within(await screen.findByRole('alert')).getByText(error)).toBeInTheDocument();
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(error);
      expect(screen.getAllByText(error)).toHaveLength(1);
      expect(requested).toEqual([{username: 'octocat-typo', userId: 'buyer-1'}]);

      await userEvent.type(field, 'x');
      expect(field).toHaveAttribute('aria-invalid', 'false');
      expect(screen.queryByText(error)).toBeNull();
    },
  );

  it.each([
    [
      429,
      'SWAP_LIMIT',
      `This purchase has changed its GitHub account 3 times, the most allowed. Write to ${appConfig.support.email} to change it again.`,
    ],
    [401, 'SESSION_ENDED', 'This sign-in from the checkout has ended. Sign in with the e-mail you paid with.'],
    [
      429,
      'INVITATION_CAP',
      "GitHub's daily limit of invitations to the repository is reached. @octocat keeps access. Try again in about 5 hours.",
    ],
  ])(
    'shows the worker’s own words for a %d %s, which the buyer can act on, under the form',
    async (status, code, error) => {
      answer = {status, body: {error, code}};
      await requestAccessFor('octocat-typo');
      expect(await within(form()).findByRole('alert')).toHaveTextContent(error);
      expect(screen.getByRole('textbox', {name: 'GitHub username'})).toHaveAttribute('aria-invalid', 'false');
      expect(requested).toEqual([{username: 'octocat-typo', userId: 'buyer-1'}]);
    },
  );

  it.each([
    [429, 'RATE_LIMITED', 'Too many requests. Please wait a moment and try again.'],
    [503, 'GITHUB_UNAVAILABLE', 'GitHub is not answering right now. Please try again in a few minutes.'],
    [500, 'INTERNAL', 'Something went wrong'],
  ])('keeps to the general message for a %d %s', async (status, code, error) => {
    answer = {status, body: {error, code}};
    await requestAccessFor('octocat');
    expect(await within(form()).findByRole('alert')).toHaveTextContent(ACCESS_MESSAGES.failed);
    expect(screen.queryByText(error)).toBeNull();
  });

  it('says the invitation went under the form, where the buyer is looking, and not in the snack bar', async () => {
    answer = {status: 200, body: {status: 'invited'}};
    await requestAccessFor('octocat');
    expect(await within(form()).findByText(ACCESS_MESSAGES.sent)).toHaveAttribute('role', 'status');
    // Once: the snack bar, fixed over the page, could cover the form it answers.
    expect(screen.getAllByText(ACCESS_MESSAGES.sent)).toHaveLength(1);
  });

  it("shows only the latest answer: after an empty username, the worker's refusal of the next one replaces Fill out username", async () => {
    // The message's own timer is held, so that the test does not depend on how fast it types.
    // A plain function, not a jest mock: Testing Library takes a mocked setTimeout for fake timers.
    const fades: number[] = [];
    const setTimer = global.setTimeout;
    global.setTimeout = ((callback: () => void, ms?: number, ...rest: unknown[]) => {
      if (ms !== USERNAME_MESSAGE_MS) return setTimer(callback, ms, ...rest);
      fades.push(ms);
      return setTimer(() => {}, 0);
    }) as typeof setTimeout;
    try {
      const refusal = 'A GitHub username has letters, digits and single hyphens between them';
      answer = {status: 400, body: {error: refusal, code: 'INVALID_REQUEST'}};
      renderWithSite(
        <RequestAccess
          user={{uid: 'buyer-1', email: 'ada@example.com', displayName: null, photoURL: null}}
          onRequested={() => {}}
        />,
        {env: {WORKER_URL: worker.url}},
      );
      const field = screen.getByRole('textbox', {name: 'GitHub username'});
      await userEvent.click(screen.getByRole('button', {name: 'Request Access'}));
      expect(await screen.findByText(ACCESS_MESSAGES.usernameRequired)).toBeInTheDocument();
      // The 3 s after which the message goes on its own never end here: it must give way to the answer.
      expect(fades).toEqual([USERNAME_MESSAGE_MS]);
      await userEvent.type(field, 'not_valid');
      await userEvent.click(screen.getByRole('button', {name: 'Request Access'}));
      expect(await within(form()).findByText(refusal)).toBeInTheDocument();
      expect(screen.queryByText(ACCESS_MESSAGES.usernameRequired)).toBeNull();
      expect(within(form()).getAllByRole('alert')).toHaveLength(1);
      expect(field).toHaveAccessibleDescription(refusal);
    } finally {
      global.setTimeout = setTimer;
    }
  });

  it('keeps Fill out username after a refusal it follows, and shows nothing of the refusal', async () => {
    answer = {status: 404, body: {error: 'GitHub has no user called octocat-typo.', code: 'NOT_FOUND'}};
    await requestAccessFor('octocat-typo');
    await within(form()).findByText('GitHub has no user called octocat-typo.');
    await userEvent.clear(screen.getByRole('textbox', {name: 'GitHub username'}));
    await userEvent.click(screen.getByRole('button', {name: 'Request Access'}));
    expect(await within(form()).findByRole('alert')).toHaveTextContent(ACCESS_MESSAGES.usernameRequired);
    expect(screen.queryByText('GitHub has no user called octocat-typo.')).toBeNull();
  });
});
