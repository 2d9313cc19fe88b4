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
  const where = downloads
    ? 'the private repository on GitHub and the download here'
    : 'the private repository on GitHub';
  if (plan.includesUpdates) {
    return `Your ${plan.name} plan includes lifetime updates: each release is listed under What's new and e-mailed to you, and ${where} hold${downloads ? '' : 's'} the latest.`;
  }
  const withUpdates = list
    .filter((other) => other.includesUpdates)
    .map((other) => other.name)
    .join(' or ');
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
  /**
   * The success page, for each answer the worker gives about the checkout the browser came back
   * from (`CheckoutStatus`), or for none: it thanks a buyer only for a checkout Stripe says is paid.
   */
  successPage: {
    /** The page's title and description, the same for every visitor: they claim nothing. */
    meta: {
      title: 'Your purchase',
      description: `Where Stripe sends you back after paying for ${appConfig.appName}: the page checks the payment with Stripe, then leads to your dashboard.`,
    },
    checking: 'Checking your payment with Stripe…',
    paid: {title: 'Purchase Successful!', text: `Thank you for buying ${appConfig.appName}.`},
    note: 'E-mails can take a minute or two to arrive. Look in your spam folder too.',
    processing: {
      title: 'Payment not confirmed yet',
      text: 'Stripe has not confirmed your payment yet: some payment methods take a few days. Once it does, we e-mail you the link to your dashboard.',
    },
    unpaid: {
      title: 'No payment was made',
      text: 'This checkout was not paid, so nothing was charged and there is no purchase.',
    },
    failed: {
      title: 'The payment did not go through',
      text: 'Stripe could not take the payment for this checkout, so there is no purchase.',
    },
    revoked: {
      title: 'This purchase has ended',
      text: `It was paid, then refunded or disputed, so it no longer gives access to the ${appConfig.appName} code.`,
    },
    none: {
      title: 'No purchase to confirm here',
      text: 'This page confirms a payment when Stripe sends you back from one, and no paid checkout came back to it.',
    },
    /** Followed by what went wrong: the worker's own words, or that it could not be reached. */
    unchecked: {title: 'We could not check your payment'},
    /** Where the page cannot thank anyone: no checkout, one refused, unpaid or failed, or no answer. */
    signInHint: `If you bought ${appConfig.appName}, sign in to your dashboard with the e-mail you paid with.`,
    actions: {dashboard: 'Go to Dashboard', plans: 'See the plans', support: 'Write to support', retry: 'Try again'},
  },
} as const;
