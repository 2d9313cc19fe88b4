import {
  appConfig,
  findStoredPlan,
  planAdds,
  planForSeats,
  ROUTES,
  storedPlanName,
  UPGRADE_REFUSALS,
  upgradeLabel,
  type UpgradeRefusal,
  type UpgradeSeats,
} from '../../../src/config';
import {contextOf} from '../context';
import {formatAmount, mailOnce, type MailMessage} from '../mail';
import {settingsOf, type Settings} from '../settings';
import {upgradeRowLabel, type UpgradeRowLabel} from './rowLabel';

/**
 * The e-mails of an upgrade once it is applied, as a purchase has its own: the buyer's
 * confirmation (what the higher plan adds, and the dashboard), and the seller's news of the sale.
 * Keyed by the upgrade's session, so a redelivered event sends neither twice.
 */
export interface AppliedUpgrade {
  sessionId: string;
  purchaseSessionId: string;
  /** The address of the account that paid, else the purchase's. */
  email: string | null;
  fromPlan: string;
  toPlan: string;
  amount: number | null;
  currency: string;
  /** Seats added (0 for a move up), and the team's seats before it. */
  seats: UpgradeSeats;
}

/**
 * What the higher plan has that the lower one lacks (`planAdds`: the list the dashboard's offer
 * and the pricing card say too). A plan no longer in the config adds nothing anyone can name.
 */
export function addedFeatures(fromPlan: string, toPlan: string): string[] {
  const from = findStoredPlan(fromPlan);
  const to = findStoredPlan(toPlan);
  return from && to ? planAdds(from, to) : [];
}

export function upgradeConfirmation(settings: Settings, upgrade: AppliedUpgrade & {email: string}): MailMessage {
  if (upgrade.seats.added > 0) return seatsConfirmation(settings, upgrade);
  const {appName, mail} = appConfig;
  const toName = planForSeats(storedPlanName(upgrade.toPlan) ?? upgrade.toPlan, upgrade.seats.of);
  const added = addedFeatures(upgrade.fromPlan, upgrade.toPlan);
  return {
    from: mail.fromNoReply,
    to: upgrade.email,
    replyTo: appConfig.support.email,
    subject: `Your ${appName} purchase is now ${toName}`,
    text: [
      `Thank you: your ${appName} purchase is now ${toName} (${formatAmount(upgrade.amount, upgrade.currency)} paid for the upgrade).`,
      ...(added.length > 0 ? ['', 'What it adds:', ...added.map((feature) => `- ${feature}`)] : []),
      '',
      `Your dashboard: ${settings.siteOrigin}${appConfig.auth.callbackUrl}`,
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}

/** Seats added to a team: how many it has now, and where the owner gives them. */
function seatsConfirmation(settings: Settings, upgrade: AppliedUpgrade & {email: string}): MailMessage {
  const {appName, mail} = appConfig;
  const {added, of} = upgrade.seats;
  const plan = planForSeats(storedPlanName(upgrade.toPlan) ?? upgrade.toPlan, of + added);
  return {
    from: mail.fromNoReply,
    to: upgrade.email,
    replyTo: appConfig.support.email,
    subject: `Your ${appName} team now has ${of + added} seats`,
    text: [
      `Thank you: ${added} more ${added === 1 ? 'seat' : 'seats'} (${formatAmount(upgrade.amount, upgrade.currency)} paid). Your purchase is now ${plan}.`,
      '',
      `Give the new seats to your developers under "Your team" on your dashboard: ${settings.siteOrigin}${appConfig.auth.callbackUrl}`,
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}

export function upgradeSale(settings: Settings, upgrade: AppliedUpgrade): MailMessage {
  const {appName, mail} = appConfig;
  const label = upgradeLabel(
    storedPlanName(upgrade.fromPlan) ?? upgrade.fromPlan,
    storedPlanName(upgrade.toPlan) ?? upgrade.toPlan,
    upgrade.seats,
  );
  const amount = formatAmount(upgrade.amount, upgrade.currency);
  const find = `${settings.siteOrigin}${ROUTES.admin}?q=${encodeURIComponent(upgrade.purchaseSessionId)}`;
  return {
    from: mail.fromNoReply,
    to: mail.forwardRepliesTo,
    subject: `New sale: ${appName} ${label}, ${amount}`,
    text: [
      upgrade.seats.added > 0
        ? `${upgrade.email ?? 'A buyer'} added seats to their ${appName} team (${label}) for ${amount}.`
        : `${upgrade.email ?? 'A buyer'} upgraded their ${appName} purchase (${label}) for ${amount}.`,
      '',
      `The purchase in your console: ${find}`,
    ].join('\n'),
  };
}

/** A paid upgrade the worker refused and refunded, as its e-mail tells the payer. */
export interface RefusedUpgrade extends UpgradeRowLabel {
  email: string;
  amount: number | null;
  currency: string;
  reason: UpgradeRefusal;
}

/** To the payer of an upgrade the worker refunded instead of applying: what went back, and why. */
export function refusedUpgradeMail(settings: Settings, refused: RefusedUpgrade): MailMessage {
  const {appName, mail} = appConfig;
  return {
    from: mail.fromNoReply,
    to: refused.email,
    replyTo: appConfig.support.email,
    subject: `Your ${appName} upgrade was refunded`,
    text: [
      `We refunded the ${formatAmount(refused.amount, refused.currency)} you paid for ${upgradeRowLabel(refused)}, and did not apply it: ${UPGRADE_REFUSALS[refused.reason]}`,
      '',
      'Stripe returns it to the card or account you paid with; a bank takes 5 to 10 business days to show it.',
      '',
      `Your dashboard: ${settings.siteOrigin}${appConfig.auth.callbackUrl}`,
      '',
      `Questions? Reply to this e-mail or write to ${appConfig.support.email}.`,
    ].join('\n'),
  };
}

/**
 * Tells the payer why their upgrade went back, once per upgrade (the outbox's key): to the address
 * of the account that asked for it, else the purchase's.
 */
export async function sendRefusalMail(env: Env, sessionId: string, reason: UpgradeRefusal): Promise<void> {
  const row = await env.DB.prepare(
    `SELECT COALESCE(u.email, p.email) AS email, u.from_plan, u.to_plan, u.seats_added, u.from_seats,
       COALESCE(u.amount_paid, u.amount) AS amount, u.currency, u.purchase_session_id
     FROM upgrades u LEFT JOIN purchases p ON p.session_id = u.purchase_session_id WHERE u.session_id = ?1`,
  )
    .bind(sessionId)
    .first<Omit<RefusedUpgrade, 'reason' | 'email'> & {email: string | null; purchase_session_id: string}>();
  if (!row?.email) return;
  const message = refusedUpgradeMail(settingsOf(env), {...row, email: row.email, reason});
  await mailOnce(contextOf(env), `upgrade-refused:${sessionId}`, message, row.purchase_session_id);
}

/** Queues both e-mails and sends them now; the outbox retries what fails. */
export async function sendUpgradeMails(env: Env, upgrade: AppliedUpgrade): Promise<void> {
  const settings = settingsOf(env);
  const mails: {key: string; message: MailMessage}[] = [
    ...(upgrade.email
      ? [
          {
            key: `upgrade:${upgrade.sessionId}`,
            message: upgradeConfirmation(settings, {...upgrade, email: upgrade.email}),
          },
        ]
      : []),
    {key: `upgrade-sale:${upgrade.sessionId}`, message: upgradeSale(settings, upgrade)},
  ];
  const context = contextOf(env);
  for (const {key, message} of mails) await mailOnce(context, key, message, upgrade.purchaseSessionId);
}
