import {ROUTES, SISTER_APPS} from './links';
import type {AppConfig} from './types';

/**
 * How soon a person answers a support e-mail: the one promise the plans, the FAQ and the terms
 * repeat. Nobody answers around the clock, so nothing says "24/7".
 */
const supportReplyTime = 'usually the same day';

const appName = 'Slipway';
const domainName = 'slipway.dev';
const mailSubdomain = 'mail';

export const appConfig = {
  appName,
  appDescription:
    'The starter kit for SaaS and AI web apps: sign-in, payments, e-mails and docs, ready to ship in days, not weeks.',
  domainName,
  themeColor: '#0f766e',
  auth: {
    loginUrl: ROUTES.signIn,
    callbackUrl: ROUTES.dashboard,
  },
  mail: {
    subdomain: mailSubdomain,
    fromNoReply: `${appName} <noreply@${mailSubdomain}.${domainName}>`,
    fromAdmin: `${appName} team <team@${mailSubdomain}.${domainName}>`,
    forwardRepliesTo: `founders@${domainName}`,
  },
  plans: [
    {
      id: 'starter',
      priceId: {
        test: 'price_1QslipwayStarterTest',
        production: 'price_1QslipwayStarterLive',
      },
      name: 'Starter',
      description: 'Everything you need to launch',
      price: 69,
      priceAnchor: 169,
      includesUpdates: false,
      features: [
        {name: 'Landing page components'},
        {name: 'SEO and structured data'},
        {name: 'Firebase or Supabase auth'},
        {name: 'Google sign-in and magic links'},
        {name: 'Stripe one-time checkout'},
        {name: 'Mailgun transactional e-mails'},
        {name: 'Cloudflare Worker backend'},
      ],
    },
    {
      id: 'advanced',
      priceId: {
        test: 'price_1QslipwayAdvancedTest',
        production: 'price_1QslipwayAdvancedLive',
      },
      name: 'Advanced',
      description: 'Launch, then keep shipping',
      price: 99,
      priceAnchor: 199,
      isFeatured: true,
      soldOnDashboard: true,
      includesUpdates: true,
      extraRepositories: ['prompts'],
      // Sold for teams too: a seat picker on its card, each seat one GitHub account of the team.
      // A team of 2 or more pays its own price for every seat: a price of its own in Stripe.
      team: {
        maxSeats: 10,
        seatPrice: {
          price: 79,
          priceId: {
            test: 'price_1QslipwayAdvancedTeamTest',
            production: 'price_1QslipwayAdvancedTeamLive',
          },
        },
      },
      // The card opens with "Everything in Starter"; the features are what Advanced adds to it.
      includesPlan: 'starter',
      features: [
        {name: 'AI prompts for terms and privacy'},
        {name: `Help with your setup, answered ${supportReplyTime}`},
      ],
    },
  ],
  extraRepositories: {
    prompts: {name: 'AI prompts', holds: 'Prompts for the terms of service and privacy policy'},
  },
  releases: {
    noticeWithoutUpdates: 'upgrade-note',
    batchesPerHour: 60,
  },
  guarantee: {
    days: 7,
    selfService: true,
  },
  withdrawal: {
    enabled: true,
    days: 14,
  },
  support: {
    email: `support@${domainName}`,
    replyTime: supportReplyTime,
  },
  crisp: {
    onlyShowOnRoutes: ['/'],
  },
  sisterApps: [SISTER_APPS.dockside, SISTER_APPS.keelhaul, SISTER_APPS.moorings],
  checkout: {
    // Off until Stripe Tax is set up in the dashboard: Stripe refuses the checkout before that.
    calculateTax: false,
    collectTaxIds: true,
    // Works on any account, test mode included; each paid invoice costs a fee (docs: payments).
    invoiceEveryPurchase: true,
    // Off until the terms' URL is saved in the dashboard's Public details: Stripe refuses the checkout before that.
    requireTermsAcceptance: false,
    // Off until the Stripe account is in the US: Stripe collects consent to offers there only.
    recoverAbandoned: false,
    reminderDelayHours: 1,
    // Off: the buyer pays in the plans' currency. Stripe's conversion fee falls on the buyer when on.
    adaptivePricing: false,
  },
  // Tiers from the World Bank's "Price level ratio of PPP conversion factor (GDP) to market
  // exchange rate" (indicator PA.NUS.PPPC.RF, 2023 values): a country whose prices are about half
  // of the United States' gets about half off, rounded down to a tier of ten, at most 60% off.
  // Approximate by design; check https://data.worldbank.org/indicator/PA.NUS.PPPC.RF before a
  // change. Not listed: full price.
  fairPrices: {
    enabled: true,
    capPercent: 60,
    tiers: [
      {
        percentOff: 60,
        countries: [
          'AF',
          'BD',
          'BT',
          'EG',
          'ET',
          'GH',
          'IN',
          'KE',
          'KG',
          'KH',
          'LA',
          'LK',
          'MM',
          'NG',
          'NP',
          'PK',
          'TJ',
          'UA',
          'UZ',
        ],
      },
      {percentOff: 50, countries: ['AR', 'BO', 'CO', 'DZ', 'HN', 'ID', 'MA', 'NI', 'PH', 'PY', 'TN', 'TR', 'VN']},
      {percentOff: 40, countries: ['AM', 'BR', 'CN', 'DO', 'EC', 'GE', 'GT', 'KZ', 'MX', 'MY', 'PE', 'RS', 'TH', 'ZA']},
      {percentOff: 30, countries: ['AL', 'BA', 'BG', 'CL', 'CR', 'HU', 'JO', 'MK', 'MN', 'PL', 'RO']},
      {percentOff: 20, countries: ['CZ', 'EE', 'GR', 'HR', 'LT', 'LV', 'OM', 'PT', 'SA', 'SI', 'SK']},
    ],
  },
  repository: {
    maxUsernameChanges: 3,
    downloads: true,
    invitationsPerDay: 50,
    queueBatch: 8,
    resendsAfterExpiry: 3,
  },
  // The spec's "30% per sale": held for the refund period plus 60 days, when most disputes are filed.
  affiliates: {commissionPercent: 30, referralDays: 60, disputeDays: 60},
  leaderboard: [
    {...SISTER_APPS.dockside, tagline: 'Status pages for small teams', daysToFirstSale: 6},
    {...SISTER_APPS.keelhaul, tagline: 'Log search that fits in a Worker', daysToFirstSale: 9},
    {...SISTER_APPS.moorings, tagline: 'Booking pages for marinas', daysToFirstSale: 14},
  ],
} as const satisfies AppConfig;
