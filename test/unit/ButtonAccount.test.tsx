import http from 'node:http';
import React from 'react';
import {act, screen, waitFor} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ButtonAccount from '../../src/components/shared/ButtonAccount';
import {API_PATHS, type ErrorBody, type IsAdminResponse} from '../../src/config/api';
import {AuthProvider} from '../../src/lib/auth/AuthContext';
import type {AuthClient, AuthUser} from '../../src/lib/auth/types';
import {parseSiteSettings} from '../../src/buildTime/siteSettings';
import {listen, type RunningServer} from '../../scripts/support/listen';
import {renderWithSite} from '../support/render';

// The Firebase SDK cannot sign anyone in offline: a stand-in that says who is signed in, with a token each.
let signedIn: AuthUser & {token: string};
jest.mock('../../src/lib/auth/firebase', () => ({
  createFirebaseAuth: (): Partial<AuthClient> => ({
    provider: 'firebase',
    onUserChanged(listener) {
      listener(signedIn);
      return () => undefined;
    },
    idToken: async () => signedIn.token,
  }),
}));

/** The worker's GET /isAdmin, by token, as the real one answers (test/worker/admin.test.ts); a broken one fails. */
const ADMIN_TOKEN = 'admin-token';
const BROKEN_TOKEN = 'broken-token';
const asked: string[] = [];
let worker: RunningServer;
beforeAll(async () => {
  worker = await listen(
    http.createServer((request, response) => {
      const token = request.headers.authorization?.replace('Bearer ', '') ?? '';
      asked.push(`${request.url} ${token}`);
      const [status, body]: [number, IsAdminResponse | ErrorBody] =
        request.url !== API_PATHS.isAdmin
          ? [404, {error: 'Not found'}]
          : token === BROKEN_TOKEN
            ? [503, {error: 'The worker is not answering.'}]
            : [200, {admin: token === ADMIN_TOKEN}];
      response.writeHead(status, {'Content-Type': 'application/json'}).end(JSON.stringify(body));
    }),
  );
});
afterAll(() => worker.close());

let accounts = 0;
/** A new account each test: the menu keeps each account's answer for the page's life. */
function signIn(token: string) {
  accounts += 1;
  signedIn = {uid: `uid-${accounts}`, email: `person${accounts}@example.com`, displayName: null, photoURL: null, token};
  asked.length = 0;
  return `person${accounts}`;
}

function renderAccount(props: {consoleLink?: boolean} = {}) {
  return renderWithSite(
    <AuthProvider settings={parseSiteSettings({}).auth}>
      <ButtonAccount {...props} />
    </AuthProvider>,
    {env: {WORKER_URL: worker.url}},
  );
}

async function openMenu(name: string) {
  await userEvent.click(await screen.findByRole('button', {name}));
  await screen.findByRole('button', {name: 'Logout'});
}

/** Lets the worker's answer (if any is coming) arrive and render. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 100)));

describe('the account menu’s link to the seller’s console', () => {
  it('shows the seller "Seller console", leading to the console, once the worker says yes to their own token', async () => {
    const name = signIn(ADMIN_TOKEN);
    renderAccount();
    await screen.findByRole('button', {name});
    // Nothing is asked until the menu opens.
    await settle();
    expect(asked).toEqual([]);
    await openMenu(name);
    expect(await screen.findByRole('link', {name: 'Seller console'})).toHaveAttribute('href', '/admin');
    expect(asked).toEqual([`${API_PATHS.isAdmin} ${ADMIN_TOKEN}`]);

    // Asked once: the menu opened again keeps the answer.
    await userEvent.click(screen.getByRole('button', {name}));
    await openMenu(name);
    expect(screen.getByRole('link', {name: 'Seller console'})).toBeInTheDocument();
    expect(asked).toHaveLength(1);
  });

  it('shows a buyer no link: the worker says no', async () => {
    const name = signIn('buyer-token');
    renderAccount();
    await openMenu(name);
    await waitFor(() => expect(asked).toEqual([`${API_PATHS.isAdmin} buyer-token`]));
    await settle();
    expect(screen.queryByRole('link', {name: 'Seller console'})).toBeNull();
  });

  it('shows no link when the worker fails (fail closed), and asks again at the next opening', async () => {
    const name = signIn(BROKEN_TOKEN);
    renderAccount();
    await openMenu(name);
    await waitFor(() => expect(asked).toHaveLength(1));
    await settle();
    expect(screen.queryByRole('link', {name: 'Seller console'})).toBeNull();
    await userEvent.click(screen.getByRole('button', {name}));
    await openMenu(name);
    await waitFor(() => expect(asked).toHaveLength(2));
  });

  it('asks nothing in the console itself, where the link would lead to the page the seller is on', async () => {
    const name = signIn(ADMIN_TOKEN);
    renderAccount({consoleLink: false});
    await openMenu(name);
    await settle();
    expect(asked).toEqual([]);
    expect(screen.queryByRole('link', {name: 'Seller console'})).toBeNull();
  });

  it('asks nothing for a preview user (the docs), who is nobody signed in', async () => {
    signIn(ADMIN_TOKEN);
    renderWithSite(
      <ButtonAccount user={{uid: 'preview', email: 'ada@example.com', displayName: 'Ada', photoURL: null}} />,
      {
        env: {WORKER_URL: worker.url},
      },
    );
    await openMenu('Ada');
    await settle();
    expect(asked).toEqual([]);
    expect(screen.queryByRole('link', {name: 'Seller console'})).toBeNull();
  });
});
