/**
 * What the buyer reads of the money-back guarantee (`guarantee` in app.ts): on the dashboard while
 * they may refund the purchase themselves, in the two steps of that refund, and where they may not.
 * No DOM or Node: the worker may import it.
 */
import {appConfig} from './app';
import {formatDay} from './dates';

export const guaranteeWords = {
  heading: 'Money-back guarantee',
  /** While the window runs (`until`, Unix ms): what a refund does, and until when. */
  offer: (until: number) =>
    `Not what you needed? Refund your purchase yourself until ${formatDay(until)}: all you paid goes back to the card you paid with, and your access to the code ends at once.`,
  button: 'Refund my purchase',
  /** The second step: the optional reason, and what confirming does. */
  reasonLabel: 'What made you change your mind? (optional)',
  confirmText: `This refunds your purchase of ${appConfig.appName} in full and ends your access to the code now. It cannot be undone.`,
  confirm: 'Confirm the refund',
  keep: 'Keep my purchase',
  sending: 'Refunding your purchase',
  /** A paid buyer who may not refund it here (the window ended, a dispute, a refund had already). */
  bySupport: (email: string) => `Need a refund? Write to ${email}.`,
};
