import React from 'react';
import {screen, waitFor} from '@testing-library/react';
import ButtonSignin from '../../src/components/shared/ButtonSignin';
import {AuthProvider} from '../../src/lib/auth/AuthContext';
import type {AuthClient, AuthUser} from '../../src/lib/auth/types';
import {parseSiteSettings} from '../../src/buildTime/siteSettings';
import {renderWithSite} from '../support/render';

// The Firebase client is the SDK a visitor must not load: a stand-in that says who is signed in.
let signedIn: AuthUser | null = null;
const createFirebaseAuth = jest.fn((): Partial<AuthClient> => ({
  provider: 'firebase',
  onUserChanged(listener) {
    listener(signedIn);
    return () => undefined;
  },
}));
jest.mock('../../src/lib/auth/firebase', () => ({createFirebaseAuth: () => createFirebaseAuth()}));

function renderButton() {
  return renderWithSite(
    <AuthProvider settings={parseSiteSettings({}).auth}>
      <ButtonSignin />
    </AuthProvider>,
  );
}

describe('ButtonSignin', () => {
  beforeEach(() => {
    window.localStorage.clear();
    document.documentElement.removeAttribute('data-signed-in-hint');
    createFirebaseAuth.mockClear();
    signedIn = null;
  });

  it('shows a visitor a Login link to the login page, loading no auth SDK', async () => {
    renderButton();
    expect(screen.getByRole('link', {name: 'Login'})).toHaveAttribute('href', '/signin');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(createFirebaseAuth).not.toHaveBeenCalled();
    expect(screen.getByRole('link', {name: 'Login'})).toBeInTheDocument();
  });

  it('shows a signed-in user a link to the dashboard with the initial and the account name', async () => {
    window.localStorage.setItem('auth:signedIn', '1');
    signedIn = {uid: 'u1', email: 'ada@example.com', displayName: null, photoURL: null};
    renderButton();
    const link = await screen.findByRole('link', {name: /ada/});
    expect(link).toHaveAttribute('href', '/dashboard');
    expect(link).toHaveTextContent('Aada');
    expect(screen.queryByRole('link', {name: 'Login'})).toBeNull();
    expect(createFirebaseAuth).toHaveBeenCalledTimes(1);
  });

  it('shows the avatar when the user has one', async () => {
    window.localStorage.setItem('auth:signedIn', '1');
    signedIn = {
      uid: 'u2',
      email: 'grace@example.com',
      displayName: 'Grace Hopper',
      photoURL: 'https://example.com/grace.png',
    };
    const {container} = renderButton();
    const link = await screen.findByRole('link', {name: 'Grace Hopper'});
    expect(link).toHaveAttribute('href', '/dashboard');
    await waitFor(() => expect(container.querySelector('img')).toHaveAttribute('src', 'https://example.com/grace.png'));
  });

  it('a stale hint: the provider is asked, says nobody, and the page forgets the hint', async () => {
    window.localStorage.setItem('auth:signedIn', '1');
    document.documentElement.setAttribute('data-signed-in-hint', '');
    renderButton();
    await waitFor(() => expect(createFirebaseAuth).toHaveBeenCalled());
    expect(screen.getByRole('link', {name: 'Login'})).toHaveAttribute('href', '/signin');
    expect(window.localStorage.getItem('auth:signedIn')).toBeNull();
    // "Login" was hidden while the provider was asked; now it shows.
    expect(document.documentElement.hasAttribute('data-signed-in-hint')).toBe(false);
  });

  it('marks the page signed in once the provider reports a user, so "Login" stays hidden', async () => {
    window.localStorage.setItem('auth:signedIn', '1');
    signedIn = {uid: 'u3', email: 'ada@example.com', displayName: null, photoURL: null};
    renderButton();
    await screen.findByRole('link', {name: /ada/});
    expect(document.documentElement.hasAttribute('data-signed-in-hint')).toBe(true);
  });
});
