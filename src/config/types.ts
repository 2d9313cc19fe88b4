/**
 * Shapes of the product's configuration. Plain types only: the worker imports
 * this folder too, so nothing here may pull in React, the DOM or Node.
 */

/** Stripe mode the price ids belong to. */
export type StripeMode = 'test' | 'production';

export interface PlanFeature {
  name: string;
}

export interface Plan {
  /**
   * The plan's stable id: the worker records it with each purchase, and finds the plan by it.
   * Keep it once the plan has sold; rename the plan with `name`, which only people read.
   */
  id: string;
  /** Stripe price ids: test mode and live mode differ. */
  priceId: Record<StripeMode, string>;
  name: string;
  description?: string;
  /** Price in USD, whole dollars. */
  price: number;
  /** Crossed-out original price in USD. */
  priceAnchor?: number;
  isFeatured?: boolean;
  /** The plan the dashboard sells when it cannot tell whether the user has paid (see dashboardPlan); one plan at most. */
  soldOnDashboard?: boolean;
  /**
   * Whether buyers of this plan get the releases you publish later: each GitHub release is
   * e-mailed to them, and the pricing card promises it ("Lifetime updates", appended to
   * `features`). A buyer of a plan without updates gets what `releases.noticeWithoutUpdates` says.
   */
  includesUpdates: boolean;
  /**
   * Private repositories the plan grants besides the kit's (`GITHUB_REPO`): keys of
   * `AppConfig.extraRepositories`. The worker maps each key to a GitHub repository with its
   * `GITHUB_EXTRA_REPOS` variable, and invites the kit's GitHub account to it while the purchase's
   * plan (an upgrade's, once paid) lists the key. A key with no repository there grants nothing.
   */
  extraRepositories?: string[];
  /**
   * The id of a lower plan this one includes: its card opens with "Everything in <that plan>", and
   * `features` lists only what this plan adds to it. The dashboard's upgrade offer, the upgrade
   * e-mail and the card all read what a plan adds from here (`planAdds`).
   */
  includesPlan?: string;
  /** What the plan gives, one pricing-card line each (with `includesPlan`, what it adds to that plan). */
  features: PlanFeature[];
  /**
   * Sold for teams too: the buyer picks how many seats at checkout, each at the plan's price (or the
   * team's `seatPrice`), or one of its fixed `tiers`, and each seat holds every repository of the plan for one GitHub account.
   * The buyer holds the first seat. Left out, the plan sells one seat.
   */
  team?: TeamSeats;
}

/** How a plan is sold for teams (see Plan.team). */
export interface TeamSeats {
  /**
   * The most seats one checkout may buy (2 or more). Each seat is one more outside collaborator
   * on your repositories: on a paid GitHub organisation, one more paid seat of yours.
   */
  maxSeats: number;
  /**
   * A team's own price for each seat, when it is not the plan's: a checkout of 2 seats or more
   * charges it for every seat (the buyer's own included), and so do seats added later and a team's
   * move up to this plan. It is a price of its own in Stripe (one-time, this amount, in each mode);
   * one seat is the plan's `price`. Left out, each seat of a team costs the plan's price.
   */
  seatPrice?: TeamSeatPrice;
  /**
   * Fixed team tiers instead of a count of seats: a team of `seats` for one price each ("5
   * developers for $299"). The picker offers the buyer alone and these teams only, and a team grows
   * by moving to a larger tier for the difference. Each is a price of its own in Stripe. Sizes of 2
   * or more, smallest first, the largest `maxSeats`; not beside `seatPrice`.
   */
  tiers?: TeamTier[];
}

/** A team of a fixed size for one price (see TeamSeats.tiers). */
export interface TeamTier {
  /** The team's size: its seats, the buyer's own included. */
  seats: number;
  /** The whole team's price in USD, whole dollars. */
  price: number;
  /** Its Stripe price ids, as the plan's own: test mode and live mode differ. */
  priceId: Record<StripeMode, string>;
}

/** A team's price for each seat (see TeamSeats.seatPrice). */
export interface TeamSeatPrice {
  /** Each seat's price in USD, whole dollars. */
  price: number;
  /** Its Stripe price ids, as the plan's own: test mode and live mode differ. */
  priceId: Record<StripeMode, string>;
}

/** A private repository some plans grant besides the kit (see Plan.extraRepositories). */
export interface ExtraRepository {
  /** What buyers read for it on the dashboard and in the upgrade offer: "AI prompts". */
  name: string;
  /** What it holds, in a sentence. */
  holds: string;
}

/**
 * What a buyer whose plan does not include updates gets when a release is published: nothing, or
 * a short note that a new version exists and how to upgrade to a plan that includes it.
 */
export type ReleaseNotice = 'none' | 'upgrade-note';

/** Country discounts (see AppConfig.fairPrices). */
export interface FairPrices {
  /** False: every visitor pays the list price, and promotion codes work everywhere. */
  enabled: boolean;
  /** No tier may take more than this off, whatever it says: a typo must not give the product away. */
  capPercent: number;
  /** Each country in one tier at most; a country in none pays the list price. */
  tiers: FairPriceTier[];
}

export interface FairPriceTier {
  /** Whole percent off the list price, 1 to 99 (and no more than `capPercent`). */
  percentOff: number;
  /** ISO 3166-1 alpha-2 codes, upper case, as Cloudflare gives them (`request.cf.country`). */
  countries: string[];
}

export interface FaqItem {
  question: string;
  answer: string;
}

export interface FeatureTab {
  name: string;
  /** Key of an icon drawn by the features listicle. */
  icon: 'email' | 'payment';
  items: string[];
  /** Hours a buyer saves on this feature. */
  hoursSaved: number;
}

export interface ProblemStep {
  emoji: string;
  text: string;
}

/**
 * A third-party service shown in the hero's integrations row: one the kit's code works with
 * (test/unit/integrations.test.ts holds each to the package or the code that uses it).
 */
export interface Integration {
  name: string;
  /** What it does for the kit, shown as the icon's label. */
  role: string;
  /** simple-icons slug; the hero maps it to the icon's path. */
  icon: 'stripe' | 'cloudflare' | 'firebase' | 'supabase' | 'github' | 'mailgun' | 'plausibleanalytics';
}

export interface SisterApp {
  name: string;
  url: string;
}

export interface AppConfig {
  appName: string;
  appDescription: string;
  /** Bare domain, no scheme and no trailing slash. */
  domainName: string;
  /** Theme colour of the browser UI and the brand. */
  themeColor: string;
  auth: {
    loginUrl: string;
    callbackUrl: string;
  };
  /** The product's e-mail addresses, whichever service sends them (Mailgun today). */
  mail: {
    /** Subdomain that sends and receives mail, to keep the root domain's reputation apart. */
    subdomain: string;
    fromNoReply: string;
    fromAdmin: string;
    /** Where replies received by the mail webhook are forwarded. */
    forwardRepliesTo: string;
  };
  /** What the site sells, in the order the pricing section shows them. */
  plans: Plan[];
  /**
   * The private repositories plans may grant besides the kit, by key (`Plan.extraRepositories`).
   * Which GitHub repository a key is lives in the worker's `GITHUB_EXTRA_REPOS`
   * (`prompts=owner/name`), beside `GITHUB_REPO`: set where the repositories are, not in the code.
   */
  extraRepositories: Record<string, ExtraRepository>;
  /** What a GitHub release sends to the buyers (see the plans' `includesUpdates`). */
  releases: {
    /** Buyers of plans without updates: no e-mail, or a short note offering the upgrade. */
    noticeWithoutUpdates: ReleaseNotice;
    /**
     * How many batches of a release's e-mail (each up to 1,000 buyers, in one call to Mailgun) go
     * out in an hour: the batches are spaced evenly, never sent all at once, and each goes at the
     * first cron run (every 5 minutes) after its time. On Cloudflare's Free plan a run sends one
     * batch at most, so more than 12 an hour changes nothing there. A new sending domain builds
     * its reputation by a steady, gradual flow (docs: Sending limit in Mailgun).
     */
    batchesPerHour: number;
  };
  /** The money-back guarantee: the landing page's FAQ, the terms and the privacy policy read it from here. */
  guarantee: {
    /** How many days after a purchase its buyer may ask for a full refund, without giving a reason. */
    days: number;
    /**
     * A paid buyer refunds their own purchase within \`days\` (POST /refundPurchase), once per
     * buyer; false leaves refunds to the seller's console, asked for by e-mail.
     */
    selfService: boolean;
  };
  /**
   * The EU consumer's right of withdrawal (Directive 2011/83/EU, Art. 9 and 11a): while it lasts,
   * the dashboard offers "Withdraw from contract here", then "Confirm withdrawal", and the worker
   * refunds, takes back access and acknowledges by e-mail (POST /refundPurchase, `kind:
   * 'withdrawal'`). The right lasts to the end of the `days`th day after the day of the purchase
   * (`periodEnd`), and ends early only where the buyer asked for immediate delivery at checkout
   * (`checkout.requireTermsAcceptance`) and the code was delivered (a download, or an accepted
   * invitation). Off only for a seller who sells to no consumer in the EU:
   * docs/features/eu-withdrawal.mdx.
   */
  withdrawal: {
    enabled: boolean;
    days: number;
  };
  support: {
    /** Where buyers write for help; shown to them, and empty hides every support link. */
    email: string;
    /** How soon a person answers a support e-mail, as a phrase: "usually the same day". */
    replyTime: string;
  };
  crisp: {
    /** Paths where the chat bubble shows; the site id itself comes from the environment. */
    onlyShowOnRoutes: string[];
  };
  /** Other apps by the same maker, linked as 'Top Apps' in the footer. */
  sisterApps: SisterApp[];
  /**
   * Your buyers' own rating of this product: the average of the reviews you collected from them,
   * out of 5, and how many rated. The landing page's structured data gives it to search engines,
   * whose rules allow only real ratings by customers, never the seller's own or a made-up one.
   * Leave it out until you have such reviews: the structured data then claims no rating.
   */
  rating?: {
    value: number;
    count: number;
  };
  /**
   * What Stripe Checkout does besides taking the payment: tax, tax IDs, an invoice, the terms.
   * Each switch is sent by the worker with every Checkout Session it creates. What each needs in
   * Stripe's dashboard, and what it costs, is in docs/features/taxes-and-receipts.mdx.
   */
  checkout: {
    /**
     * Stripe Tax computes the sales tax or VAT for the buyer's address and adds it (Checkout's
     * `automatic_tax`). Stripe refuses every session with it until Stripe Tax is set up in the
     * dashboard (head office address, registrations): keep it false until then.
     */
    calculateTax: boolean;
    /** Checkout offers business buyers a field for their VAT or other tax ID, printed on the receipt and the invoice. */
    collectTaxIds: boolean;
    /**
     * Stripe makes a paid invoice after every purchase (`invoice_creation`): a numbered document
     * with the buyer's and the seller's details, which businesses need for their books. The
     * dashboard links it; without it, the dashboard links Stripe's payment receipt.
     */
    invoiceEveryPurchase: boolean;
    /**
     * The buyer ticks a box to accept the terms before paying (`consent_collection`), with the
     * wording of `src/config/checkoutTerms.ts`: the terms, and the request for immediate delivery
     * that EU consumers must make to lose their right of withdrawal. Stripe refuses every session
     * with it until the terms' URL is set in the dashboard (Settings, Public details): keep it
     * false until then.
     */
    requireTermsAcceptance: boolean;
    /**
     * Abandoned checkouts won back (docs/features/payments.mdx): Checkout shows its box "Keep me
     * updated with news and personalized offers" (`consent_collection.promotions: 'auto'`), and
     * Stripe keeps a recovery link for a session that expires unpaid (`after_expiration.recovery`).
     * A buyer who agreed there (the box left ticked or ticked) gets one reminder with that link, `reminderDelayHours` after
     * Stripe let the checkout expire. Stripe offers the box to accounts in the United States only,
     * and refuses the session elsewhere: keep it false unless the Stripe account is in the US.
     */
    recoverAbandoned: boolean;
    /** Hours from the checkout's expiry (24 hours after it opened) to the reminder. */
    reminderDelayHours: number;
    /**
     * Local currencies (docs/features/fair-prices.mdx): Stripe's Adaptive Pricing shows the buyer the
     * price in their own currency at Checkout and converts it, at a rate it guarantees for the
     * session (`adaptive_pricing`, on every purchase's and upgrade's session). Stripe still states the
     * session's amounts in the plans' currency, so fair prices, codes, upgrades and commissions are
     * priced and checked as before. Sent true or false either way: the config decides, not the
     * dashboard's setting, which Stripe turns on for new accounts.
     */
    adaptivePricing: boolean;
  };
  /**
   * Fair prices worldwide: a visitor from a country with lower purchasing power pays less. The
   * worker reads the country from Cloudflare, never from the browser, and charges through a Stripe
   * coupon; the pricing section shows the same amounts (`fairPrice` in src/config/fairPrices.ts).
   */
  fairPrices: FairPrices;
  /**
   * The private repository buyers are invited to is the worker's `GITHUB_REPO`: the worker invites
   * to it and tells the dashboard, so it is set in one place.
   */
  repository: {
    /**
     * How many times one purchase may move its seat to another GitHub account: enough to fix a
     * typo or move to a work account, too few to pass one seat around.
     */
    maxUsernameChanges: number;
    /**
     * Whether a paid buyer can also download the code as a .zip from the dashboard (the latest
     * release, else the default branch), fetched by the worker with the seller's token. It gives
     * the code at once, whatever GitHub's invitation cap allows today. False: GitHub only.
     */
    downloads: boolean;
    /**
     * How many invitations the worker sends to the repository in any 24 hours: GitHub's cap ("You
     * are limited to sending 50 invitations to a repository per 24 hour period", REST docs, "Add a
     * repository collaborator"). Requests past it wait in a first-in, first-out queue.
     */
    invitationsPerDay: number;
    /**
     * How many queued invitations one cron run sends at most. Each costs up to five GitHub calls
     * (look-ups, the invitation, the e-mail), and a cron run on Cloudflare's Free plan may make 50
     * subrequests; the next run carries on where this one stopped.
     */
    queueBatch: number;
    /**
     * How many times the worker sends a buyer's invitation again on its own when it is about to
     * expire (GitHub expires an invitation after 7 days) or has expired without being accepted.
     * Each goes within the cap above and e-mails the buyer. After the last, the invitation is left
     * to expire: the buyer can ask again from the dashboard, the seller resend from the console.
     */
    resendsAfterExpiry: number;
  };
  /**
   * The kit's own affiliate programme (src/config/affiliates.ts): users join at /affiliates and earn
   * a share of the sales their link brings. The docs sidebar links to it. Leave it out to run none:
   * no page, no link, and the worker records no referral.
   */
  affiliates?: {
    /** Share of what a referred buyer paid (after discounts, before tax) credited to the affiliate, in percent. */
    commissionPercent: number;
    /** Days a visit through an affiliate's link counts for a purchase; the last link followed wins. */
    referralDays: number;
    /**
     * Days a commission is held after the refund period (the guarantee's or the right of
     * withdrawal's, the longer) before it is payable: disputes come weeks after a payment.
     */
    disputeDays: number;
    /**
     * Pay affiliates through Stripe Connect (Express accounts): an affiliate sets up payouts with
     * Stripe from their page, and the console's **Pay through Stripe** sends what is payable as a
     * transfer from the seller's Stripe balance. Turn it on only once Connect is set up on the
     * seller's Stripe account. Left out or false: the seller pays by their own means and marks
     * each payout made.
     */
    stripeConnect?: boolean;
  };
  /** Products shipped with the kit, listed on /leaderboard. */
  leaderboard: LeaderboardEntry[];
}

export interface LeaderboardEntry {
  name: string;
  url: string;
  /** One line on what it does. */
  tagline: string;
  /** Days from clone to first sale, as the maker told us. */
  daysToFirstSale: number;
}

/**
 * Icons the feature sections draw, by name: the config stays free of React, and
 * each section maps the name to its Lucide icon.
 */
export type FeatureIcon =
  'payments' | 'sign-in' | 'emails' | 'seo' | 'database' | 'rate-limit' | 'analytics' | 'support' | 'docs' | 'worker';

/** One side of the with/without comparison: a title and its list. */
export interface ComparisonColumn {
  title: string;
  items: string[];
}

/** One item of the features accordion (2 to 5 of them; §5). */
export interface AccordionFeature {
  /** Under 5 words (§5). */
  title: string;
  description: string;
  icon: FeatureIcon;
}

/** One card of the features grid. */
export interface GridFeature {
  /** Under 5 words (§5). */
  title: string;
  description: string;
  icon: FeatureIcon;
  /** Columns the card spans on a wide screen, 1 to 3 (§9); 1 when absent. */
  span?: 1 | 2 | 3;
}

/** The words of the waitlist form (ButtonLead). */
export interface LeadCopy {
  /** The input's label, read by screen readers. */
  label: string;
  placeholder: string;
  /** The submit button; starts with a verb (§5). */
  button: string;
  /** Shown once a new address is stored (201). */
  stored: string;
  /** Shown when the address was already on the list (200). */
  known: string;
}
