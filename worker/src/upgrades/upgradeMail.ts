import {
  appConfig,
  findStoredPlan,
  planAdds,
  planForSeats,
  ROUTES,
  storedPlanName,
  upgradeLabel,
  type UpgradeSeats,
} from '../../../src/config';
import {contextOf} from '../context';
import {formatAmount, mailOnce, type MailMessage} from '../mail';
import {settingsOf, type Settings} from '../settings';

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
