/**
 * How a release is named to a buyer, on the dashboard's What's new and in the release e-mail, and
 * what What's new says of the releases a plan without updates does not include.
 */
import {appConfig} from './app';
import type {BuyerReleases} from './api';
import {formatDay} from './dates';
import type {Plan} from './types';

interface Named {
  name: string;
  tag: string;
}

/**
 * The tag to show beside a release's name, or null when the name says it already: GitHub names a
 * release without a title by its tag, and "v1.2.0 v1.2.0" says nothing twice ("Release v1.2.0"
 * neither needs it again).
 */
export function tagBesideName(release: Named): string | null {
  const tag = release.tag.trim().toLowerCase();
  const words = release.name
    .trim()
    .toLowerCase()
    .split(/[^\w.+-]+/);
  return words.includes(tag) ? null : release.tag;
}

/** A release as one phrase: "Tabs everywhere (v1.2.0)", or "v1.2.0" alone. */
export function releaseLabel(release: Named): string {
  const tag = tagBesideName(release);
  return tag ? `${release.name} (${tag})` : release.name;
}

/** The names of the plans that include updates, as a sentence reads them: "Advanced", "Pro or Team". */
function plansWithUpdates(plans: readonly Plan[]): string {
  return plans
    .filter((plan) => plan.includesUpdates)
    .map((plan) => plan.name)
    .join(' or ');
}

export const whatsNewWords = {
  /** No release at all. */
  none: `No releases yet. When ${appConfig.appName} ships one, it shows here.`,
  /** A plan without updates, with no release published up to its purchase (later ones are told apart). */
  noneUpToPurchase: 'No release was published up to your purchase.',
  /** What a plan without updates includes; the link to Your plan follows, with `upgradeLink` as its words. */
  withoutUpdates(plans: readonly Plan[] = appConfig.plans): string {
    const names = plansWithUpdates(plans);
    return `Your plan includes the releases published up to your purchase. Later ones are not promised with it${names ? `: they come with ${names}, which includes lifetime updates` : ''}.`;
  },
  upgradeLink: 'Upgrade for the difference',
  /** A team member's plan without updates: the team's, whose owner alone may move it up. */
  teamWithoutUpdates: (owner: string) =>
    `Your team's plan includes the releases published up to its purchase. Later ones are not promised with it: ${owner || 'the team’s owner'} can move the team to a plan with lifetime updates.`,
  /** Where a member's release e-mails go: to the team's owner, whose purchase it is. */
  teamEmails: (owner: string) => `Release e-mails go to ${owner || 'the team’s owner'}, who owns your team's purchase.`,
  /** The releases published since the purchase of a plan without updates: how many, and the newest. */
  later({count, latest}: NonNullable<BuyerReleases['later']>): string {
    const published = count === 1 ? 'One release was' : `${count} releases were`;
    return `${published} published after your purchase, the latest ${releaseLabel(latest)} on ${formatDay(latest.publishedAt)}.`;
  },
} as const;
