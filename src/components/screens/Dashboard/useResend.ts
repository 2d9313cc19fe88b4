import {useState} from 'react';
import {useApiClient} from '../../../lib/useApiClient';
import {useSnackbar} from '../../shared/Snackbar';

/**
 * A new invitation to one repository of the purchase, once its last one expired: the kit's, or an
 * extra repository's by its key (`name` says which to the buyer). The worker asks GitHub first, so
 * an invitation accepted meanwhile needs no new one; the buyer hears which, then the status is read
 * again.
 */
export function useResend(onChanged: () => void) {
  const api = useApiClient();
  const snackbar = useSnackbar();
  const [resending, setResending] = useState<string | null>(null);

  async function resend(key: string, name: string | null) {
    const to = name === null ? '' : ` to ${name}`;
    setResending(key);
    try {
      const {status} = await api.resendInvitation(key);
      snackbar.show(
        status === 'active'
          ? `You had accepted the invitation${to} already: you have access, and nothing new was sent.`
          : status === 'queued'
            ? `A new invitation${to} is queued: this page says when it goes out.`
            : `A new invitation${to} is on its way.`,
      );
    } catch (error) {
      snackbar.show(error instanceof Error ? `Error: ${error.message}` : `Error resending the invitation${to}.`);
    } finally {
      setResending(null);
      onChanged();
    }
  }

  return {resending, resend};
}

/** The button's label: the kit's plainly, an extra repository's by its name. */
export const resendLabel = (name: string | null) =>
  name === null ? 'Resend invitation' : `Resend the invitation to ${name}`;
