/**
 * The words of the console's funnel (worker/src/admin/funnel.ts, Admin/Funnel.tsx): why it has no
 * visitors and starts at checkout. The worker says which, from Plausible's answer.
 */

/** Why the funnel has no visitors' figure, each ending in what that means for the funnel. */
export const FUNNEL_WORDS = {
  noKey: 'No Plausible key is set (PLAUSIBLE_API_KEY), so the funnel starts at checkout.',
  unreachable: (error: string) => `Plausible could not be reached (${error}), so the funnel starts at checkout.`,
  keyRefused: (status: number) =>
    `Plausible refused the key (${status}): check PLAUSIBLE_API_KEY, so the funnel starts at checkout.`,
  hourlyLimit: "Plausible's hourly limit of requests for this key is reached, so the funnel starts at checkout.",
  noStatsApi: "Plausible's plan for this account has no Stats API, so the funnel starts at checkout.",
  answered: (status: number) => `Plausible answered ${status}, so the funnel starts at checkout.`,
  noCount: 'Plausible answered without a count of visitors, so the funnel starts at checkout.',
} as const;
