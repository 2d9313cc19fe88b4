import {appConfig, askAboutEndedSeat, type SeatEndReason, seatEndedBecause, TEAM_LINK_DAYS} from '../../../src/config';
import type {MailMessage} from '../mail';

/**
 * What a team's members are e-mailed: their link to a seat, and, once removed, that their access
 * ended and why. A member named by GitHub username gets GitHub's own invitation instead.
 */

/** The link to a seat, for the address the owner invited: it works once, for that address. */
export function teamInvitationMail(invite: {to: string; owner: string; plan: string; link: string}): MailMessage {
  const {appName, mail} = appConfig;
  return {
    from: mail.fromNoReply,
    to: invite.to,
    replyTo: appConfig.support.email,
    subject: `${invite.owner} gave you a seat of ${appName}`,
    text: [
      `${invite.owner} bought ${appName} ${invite.plan} for their team and gave you a seat: your own access to the`,
      'code, in its private GitHub repository.',
      '',
      `Take your seat (the link works once, for ${TEAM_LINK_DAYS} days):`,
      invite.link,
      '',
      `Sign in with this e-mail address (${invite.to}), then name your GitHub account on the dashboard: GitHub e-mails`,
      'it an invitation to the private repository. You can download the code meanwhile.',
      '',
      'Not expecting this? Ignore it: nothing happens unless the link is used.',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}

/** A member's access ended: the owner removed them, refunded seats and theirs was one, or the seller took it back. */
export function memberRemovedMail(removed: {to: string; owner: string; reason: SeatEndReason}): MailMessage {
  const {appName, mail} = appConfig;
  return {
    from: mail.fromNoReply,
    to: removed.to,
    replyTo: appConfig.support.email,
    subject: `Your seat of ${appName} has ended`,
    text: [
      // The seller's act names the owner already; the owner's own acts say who they are.
      `${seatEndedBecause(removed.owner, removed.reason)}${removed.reason === 'seller' ? '' : ` (they own your team's ${appName} purchase)`}.`,
      'Your access to the private repository has been taken back, and your download links no longer work.',
      '',
      askAboutEndedSeat(removed.owner, removed.reason),
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}

/** A member's seat went to their GitHub account: GitHub e-mailed it the invitation. */
export function memberSeatMail(seat: {to: string; login: string; repository: string}): MailMessage {
  const {appName, mail} = appConfig;
  return {
    from: mail.fromNoReply,
    to: seat.to,
    replyTo: appConfig.support.email,
    subject: `Your ${appName} seat is with @${seat.login}`,
    text: [
      `Your seat of your team's ${appName} purchase now belongs to the GitHub account @${seat.login}:`,
      `GitHub has e-mailed it an invitation to ${seat.repository}. Accept it there to get the code.`,
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}

/** The owner is told the seller took back one member's seat (or withdrew their invitation): the seat is free again. */
export function memberTakenBackMail(taken: {to: string; member: string; invited: boolean}): MailMessage {
  const {appName, mail} = appConfig;
  return {
    from: mail.fromNoReply,
    to: taken.to,
    replyTo: appConfig.support.email,
    subject: `A seat of your ${appName} team was taken back`,
    text: [
      taken.invited
        ? `We withdrew the invitation to a seat of your ${appName} team that you sent ${taken.member}: its link no longer works.`
        : `We took back the seat of your ${appName} team that ${taken.member} held: their access to the private repository has been taken back, and their download links no longer work.`,
      'The seat is free again: you can give it to a developer from your dashboard.',
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}
