import React, {useRef, useState, type FormEvent} from 'react';
import {useHistory, useLocation} from '@docusaurus/router';
import {passwordReset} from '../../../config';
import {useAuth} from '../../../lib/auth/AuthContext';
import {accountName} from '../../shared/ButtonAccount';
import {returnPath} from '../../../lib/auth/returnTo';
import AuthCard from '../../layout/AuthCard';
import AuthField from '../../layout/AuthCard/AuthField';
import RequireAuth from '../../layout/RequireAuth';
import controls from '../../../css/controls.module.css';
import Spinner from '../../shared/Spinner';
import {useSnackbar} from '../../shared/Snackbar';
import {messageOf} from '../../../lib/errorMessage';

/**
 * A signed-in user chooses a password: a new account's, after its link proved the e-mail, or a new
 * one. Supabase's reset link ends here (signed in by the link on /finish-sign-in); Firebase's reset
 * link has its own page, but this one works for it too. Then on to the page in `?next=`, else the
 * callback URL.
 */
export default function NewPassword() {
  return (
    <RequireAuth>
      <NewPasswordForm />
    </RequireAuth>
  );
}

function NewPasswordForm() {
  const {user, client} = useAuth();
  const history = useHistory();
  const {search} = useLocation();
  const snackbar = useSnackbar();
  const input = useRef<HTMLInputElement>(null);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    const password = input.current!.value;
    if (password === '') {
      setProblem('Choose a password.');
      input.current!.focus();
      return;
    }
    setProblem(null);
    setSaving(true);
    try {
      await (await client()).updatePassword(password);
      snackbar.show(passwordReset.saved);
      history.replace(returnPath(search));
    } catch (error) {
      console.error('Saving the new password failed:', error);
      setProblem(messageOf(error));
      setSaving(false);
    }
  }

  return (
    <AuthCard title="Choose your password">
      <p>
        For <strong>{user ? (user.email ?? accountName(user)) : ''}</strong>. You can sign in with it from now on, as
        well as with a link or Google.
      </p>
      <form onSubmit={save} noValidate>
        <AuthField
          ref={input}
          id="new-password"
          label="New password"
          error={problem}
          name="password"
          type="password"
          autoComplete="new-password"
          onChange={() => setProblem(null)}
        />
        <button type="submit" className={controls.primary} disabled={saving} aria-busy={saving}>
          {saving && <Spinner label="Saving the password" />}
          Save password
        </button>
      </form>
    </AuthCard>
  );
}
