/**
 * What happens after paying, told once: the success page, the welcome e-mail and the dashboard
 * all say it in these words. The e-mail holds a link to the dashboard, never to the repository:
 * GitHub sends the repository's invitation itself, once the buyer names an account.
 */
import {appConfig} from './app';
import type {Plan} from './types';

const plans: readonly Plan[] = appConfig.plans;

/**
 * What the buyer's plan gets of the code, as the dashboard's Get the code says it: the same
 * repository and download for every plan; updates only with a plan that includes them (the pricing
 * card's "Lifetime updates", the Terms of Service's promise). A plan without them is promised the
 * kit as it was on the day of the purchase, and told which plans include them.
 */
export function codeIncludes(plan: Plan, list: readonly Plan[] = plans): string {
  const {downloads} = appConfig.repository;
  const where = downloads ? 'the private repository on GitHub and the download here' : 'the private repository on GitHub';
  if (plan.includesUpdates) {
    return `Your ${plan.name} plan includes lifetime updates: each release is listed under What's new and e-mailed to you, and ${where} hold${downloads ? '' : 's'} the latest.`;
  }
  const withUpdates = list.filter((other) => other.includesUpdates).map((other) => other.name).join(' or ');
  return `Your ${plan.name} plan includes the kit as it is on the day of your purchase, through ${where}. It does not promise later updates${withUpdates ? `: ${withUpdates} includes them, and Your plan below upgrades for the difference` : ''}.`;
}

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
