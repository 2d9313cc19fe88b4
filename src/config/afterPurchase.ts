/**
 * What happens after paying, told once: the success page, the welcome e-mail and the dashboard
 * all say it in these words. The e-mail holds a link to the dashboard, never to the repository:
 * GitHub sends the repository's invitation itself, once the buyer names an account.
 */
import {appConfig} from './app';

export const afterPurchase = {
  /**
   * Access the seller revoked from the console: the dashboard says it, and the worker refuses a
   * request for access or a download with it (403 ACCESS_REVOKED).
   */
  revokedBySeller: `The seller revoked this purchase's access to the code. Write to ${appConfig.support.email} if you think this is a mistake.`,
  /** What the welcome e-mail brings, as the success page announces it. */
  email: 'We have e-mailed you the link to your dashboard.',
  steps: [
    'On your dashboard, enter your GitHub username and press Request Access.',
    'Accept the invitation to the private repository that GitHub e-mails you.',
    'Start with the documentation.',
  ],
} as const;
