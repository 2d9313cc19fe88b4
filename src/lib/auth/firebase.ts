import {initializeApp, getApps, type FirebaseOptions} from 'firebase/app';
import {
  browserLocalPersistence,
  connectAuthEmulator,
  GoogleAuthProvider,
  indexedDBLocalPersistence,
  initializeAuth,
  isSignInWithEmailLink,
  browserPopupRedirectResolver,
  sendPasswordResetEmail,
  sendSignInLinkToEmail,
  signInWithEmailAndPassword,
  signInWithCustomToken,
  signInWithEmailLink,
  signInWithPopup,
  signOut,
  updatePassword,
  type Auth,
  type User,
} from 'firebase/auth';
import {ROUTES} from '../../config';
import {PASSWORD_ERRORS, plainError} from './passwordErrors';
import {SESSION_ENDED} from './sessionEnded';
import {type AuthClient, type AuthUser, SessionEndedError} from './types';

/** Firebase's error codes as a person can act on them; anything else keeps Firebase's message. */
const MESSAGES: Record<string, string> = {
  'auth/weak-password': PASSWORD_ERRORS.weakPassword,
  // With e-mail enumeration protection (new projects) a wrong password and an unknown e-mail are
  // both invalid-credential; the emulator and older projects still tell them apart.
  'auth/invalid-credential': PASSWORD_ERRORS.wrongPassword,
  'auth/invalid-login-credentials': PASSWORD_ERRORS.wrongPassword,
  'auth/wrong-password': PASSWORD_ERRORS.wrongPassword,
  'auth/user-not-found': PASSWORD_ERRORS.wrongPassword,
  'auth/missing-password': PASSWORD_ERRORS.missingPassword,
  'auth/requires-recent-login': PASSWORD_ERRORS.signInAgain,
  'auth/operation-not-allowed': PASSWORD_ERRORS.turnedOff,
  'auth/invalid-email': 'That e-mail address is not valid.',
  'auth/invalid-action-code': 'This sign-in link has expired or was already used. Ask for a new one.',
  'auth/expired-action-code': 'This sign-in link has expired. Ask for a new one.',
  'auth/invalid-custom-token': 'This purchase link has expired. Sign in with the e-mail you paid with.',
  'auth/popup-closed-by-user': 'The Google window was closed before sign-in finished.',
  'auth/popup-blocked': 'The browser blocked the Google window. Allow pop-ups for this site and try again.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection and try again.',
  'auth/too-many-requests': 'Too many attempts. Wait a few minutes and try again.',
  'auth/quota-exceeded': 'The daily limit of sign-in e-mails is reached. Try Google sign-in, or try again tomorrow.',
};

async function friendly<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const code = (error as {code?: unknown}).code;
    if (typeof code === 'string' && MESSAGES[code]) throw plainError(MESSAGES[code], code);
    if (code === 'auth/password-does-not-meet-requirements') {
      // A password policy set in the console: its message lists the rules in brackets.
      const rules = /\[(.*)\]/.exec((error as Error).message)?.[1];
      throw plainError(rules ? `This password is too weak. ${rules}.` : PASSWORD_ERRORS.weakPassword, code);
    }
    throw error;
  }
}

/**
 * Firebase's codes for a token refresh refused because the session is over, not because Firebase
 * was unreachable: the account was disabled; or its sign-in ended (tokens revoked, or the account
 * deleted: Firebase answers USER_NOT_FOUND, which the SDK reports as user-token-expired, and the
 * Auth emulator INVALID_REFRESH_TOKEN).
 */
const SESSION_ENDED_CODES: Record<string, string> = {
  'auth/user-disabled': SESSION_ENDED.disabled,
  'auth/user-token-expired': SESSION_ENDED.ended,
  'auth/user-not-found': SESSION_ENDED.ended,
  'auth/invalid-refresh-token': SESSION_ENDED.ended,
};

/** The SessionEndedError a failed token refresh means, in plain words; null for any other failure. */
export function sessionEndedBy(error: unknown): SessionEndedError | null {
  const code = (error as {code?: unknown} | null)?.code;
  return typeof code === 'string' && SESSION_ENDED_CODES[code]
    ? new SessionEndedError(SESSION_ENDED_CODES[code], code)
    : null;
}

export interface FirebaseAuthOptions {
  config: FirebaseOptions;
  /** host:port of the Firebase Auth emulator; empty for the real service. */
  emulatorHost: string;
}

function toAuthUser(user: User | null): AuthUser | null {
  if (!user) return null;
  return {uid: user.uid, email: user.email, displayName: user.displayName, photoURL: user.photoURL};
}

function connect({config, emulatorHost}: FirebaseAuthOptions): Auth {
  const app = getApps()[0] ?? initializeApp(config);
  // initializeAuth instead of getAuth: the popup resolver and persistence are named, so nothing
  // else of the SDK is pulled into the bundle.
  const auth = initializeAuth(app, {
    persistence: [indexedDBLocalPersistence, browserLocalPersistence],
    // Given here, the resolver loads Google's gapi script and an iframe at once on phones and in
    // Safari, so that the popup can open within the tap that asks for it. Only the sign-in page
    // has that button; every other page (the dashboard, the header) would load them for nothing.
    ...(window.location.pathname === ROUTES.signIn ? {popupRedirectResolver: browserPopupRedirectResolver} : {}),
  });
  if (emulatorHost) connectAuthEmulator(auth, `http://${emulatorHost}`, {disableWarnings: true});
  return auth;
}

/** The default provider: Firebase Authentication through the modular SDK. */
export function createFirebaseAuth(options: FirebaseAuthOptions): AuthClient {
  const auth = connect(options);
  return {
    provider: 'firebase',
    linkNeedsEmail: true,
    onUserChanged(listener) {
      return auth.onAuthStateChanged((user) => listener(toAuthUser(user)));
    },
    async signInWithGoogle() {
      await friendly(signInWithPopup(auth, new GoogleAuthProvider(), browserPopupRedirectResolver));
    },
    async sendSignInLink(email, continueUrl) {
      await friendly(sendSignInLinkToEmail(auth, email, {url: continueUrl, handleCodeInApp: true}));
    },
    isSignInLink(url) {
      return isSignInWithEmailLink(auth, url);
    },
    async completeSignInLink(url, email) {
      if (!email) throw new Error('The e-mail address the link was sent to is required');
      await friendly(signInWithEmailLink(auth, email, url));
    },
    async signInWithPassword(email, password) {
      await friendly(signInWithEmailAndPassword(auth, email, password));
    },
    async sendPasswordReset(email, {signIn}) {
      try {
        await friendly(sendPasswordResetEmail(auth, email, {url: signIn}));
      } catch (error) {
        // Projects without e-mail enumeration protection say so; the page must not tell anyone.
        if ((error as {code?: unknown}).code !== 'auth/user-not-found') throw error;
      }
    },
    async updatePassword(password) {
      await auth.authStateReady();
      if (!auth.currentUser) throw new Error('Sign in first.');
      await friendly(updatePassword(auth.currentUser, password));
    },
    async signInWithCheckoutToken(token) {
      await friendly(signInWithCustomToken(auth, token));
    },
    async idToken(refresh = false) {
      await auth.authStateReady();
      if (!auth.currentUser) return null;
      try {
        return await auth.currentUser.getIdToken(refresh);
      } catch (error) {
        // The SDK has signed out already for some of these; the site says why, in its own words.
        throw sessionEndedBy(error) ?? error;
      }
    },
    async signOut() {
      await signOut(auth);
    },
  };
}
