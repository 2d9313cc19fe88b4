/**
 * What the buyer reads of their own refunds: the money-back guarantee (`guarantee` in app.ts) and
 * the EU consumer's withdrawal from the contract (`withdrawal`), on the dashboard while they may
 * use them, in the two steps of each, and where they may not. No DOM or Node: the worker may
 * import it.
 */
import type {OwnRefundKind} from './apiSchemas';
import {appConfig} from './app';
import {formatDay} from './dates';

/** The words of one of the buyer's own refunds, from its offer to its second step. */
export interface OwnRefundWords {
  heading: string;
  /** While the window runs (`until`, Unix ms): what it does, and until when. */
  offer: (until: number, endsOnDelivery?: boolean) => string;
  button: string;
  /** The second step's optional reason, or null where none is asked. */
  reasonLabel: string | null;
  /** The second step: what confirming does. */
  confirmText: string;
  /** The second step: the purchase it acts on, and where its e-mail goes. */
  details: (purchase: {product: string; boughtAt: number; email: string | null}) => string;
  confirm: string;
  keep: string;
  sending: string;
}

export const guaranteeWords = {
  heading: 'Money-back guarantee',
  offer: (until: number) =>
    `Not what you needed? Refund your purchase yourself until ${formatDay(until)}: all you paid goes back to the card you paid with, and your access to the code ends at once.`,
  button: 'Refund my purchase',
  reasonLabel: 'What made you change your mind? (optional)',
  confirmText: `This refunds your purchase of ${appConfig.appName} in full and ends your access to the code now. It cannot be undone.`,
  details: ({product, boughtAt, email}) =>
    `Your purchase: ${product}, bought on ${formatDay(boughtAt)}.${email ? ` The receipt goes to ${email}.` : ''}`,
  confirm: 'Confirm the refund',
  keep: 'Keep my purchase',
  sending: 'Refunding your purchase',
  /** A paid buyer who may not refund it here (the window ended, a dispute, a refund had already). */
  bySupport: (email: string) => `Need a refund? Write to ${email}.`,
} satisfies OwnRefundWords & Record<string, unknown>;

/**
 * The withdrawal function the EU's law asks for (Directive 2011/83/EU, Art. 11a): labelled
 * "withdraw from contract here", with a second step, "confirm withdrawal". No reason is asked: the
 * right needs none.
 */
export const withdrawalWords: OwnRefundWords = {
  heading: 'Right of withdrawal',
  offer: (until: number, endsOnDelivery = false) =>
    `As a consumer in the EU, you may withdraw from this purchase without giving a reason until ${formatDay(until)}${
      endsOnDelivery
        ? ', or until the code is delivered to you (your first download, or the invitation accepted), as you asked at checkout'
        : ''
    }. All you paid goes back to the card you paid with, and your access to the code ends at once.`,
  button: 'Withdraw from contract here',
  reasonLabel: null,
  confirmText: `This withdraws you from your purchase of ${appConfig.appName}: we refund all you paid, your access to the code ends now, and we confirm your withdrawal by e-mail.`,
  details: ({product, boughtAt, email}) =>
    `You withdraw from: ${product}, bought on ${formatDay(boughtAt)}.${email ? ` We acknowledge it by e-mail to ${email}, with the date and time we received it.` : ''}`,
  confirm: 'Confirm withdrawal',
  keep: 'Keep my purchase',
  sending: 'Withdrawing from your purchase',
};

/** Each right's words, by the kind POST /refundPurchase takes. */
export const ownRefundWords: Record<OwnRefundKind, OwnRefundWords> = {
  guarantee: guaranteeWords,
  withdrawal: withdrawalWords,
};
