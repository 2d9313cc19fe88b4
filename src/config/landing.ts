import {appConfig} from './app';
import {ROUTES} from './links';
import {teamFaq} from './teams';
import type {
  AccordionFeature,
  ComparisonColumn,
  FaqItem,
  FeatureTab,
  GridFeature,
  Integration,
  LeadCopy,
  ProblemStep,
} from './types';

const {appName} = appConfig;

/** Everything the landing page says, in the order of its sections. */
export const landing = {
  hero: {
    headline: 'Ship your SaaS in days, not weeks',
    subheadline: `${appName} gives you the sign-in, payments, e-mails, SEO and docs every web app needs, so you spend your time on the part only you can build.`,
    primaryCta: `Get ${appName} Free`,
    /**
     * What the free button opens: the docs, which are free to read. The plans are what costs
     * money, and the pricing is one scroll down; the note says which is which.
     */
    primaryCtaTo: ROUTES.docs,
    primaryCtaNote: 'The docs are free: read every page, no account needed. The code comes with a plan.',
    demoVideo: {
      src: '/video/demo.webm',
      type: 'video/webm',
      // static/img/demo-poster-<width>.webp for each width, drawn by `npm run brand-images`.
      poster: {path: '/img/demo-poster', widths: [480, 720, 1280]},
      captions: '/video/demo.en.vtt',
      title: `${appName} in two minutes: from clone to a paid checkout`,
    },
  },
  testimonials: {
    avatars: [
      {name: 'Amara O.', src: '/img/avatars/amara.svg'},
      {name: 'Lukas B.', src: '/img/avatars/lukas.svg'},
      {name: 'Mei T.', src: '/img/avatars/mei.svg'},
      {name: 'Diego R.', src: '/img/avatars/diego.svg'},
      {name: 'Priya S.', src: '/img/avatars/priya.svg'},
    ],
    /** How many makers the claim speaks for: the number in bold before it. */
    count: 12,
    claim: 'makers ship faster with it',
  },
  // Only what the kit's code works with: its sign-in is Firebase's or Supabase's, its data is in
  // Cloudflare D1, and its pages are styled with CSS modules (no CSS framework to name).
  integrations: [
    {name: 'Stripe', role: 'Payments', icon: 'stripe'},
    {name: 'Cloudflare', role: 'Backend and database', icon: 'cloudflare'},
    {name: 'Firebase', role: 'Sign-in', icon: 'firebase'},
    {name: 'Supabase', role: 'Sign-in, the other backend', icon: 'supabase'},
    {name: 'GitHub', role: 'Access to the code you sell', icon: 'github'},
    {name: 'Plausible', role: 'Analytics', icon: 'plausibleanalytics'},
    {name: 'Mailgun', role: 'E-mails', icon: 'mailgun'},
  ] satisfies Integration[],
  problem: {
    title: '80% of side projects never launch',
    subtitle: 'Sign-in, payments and e-mails eat the evenings you meant for your product.',
    steps: [
      {emoji: '🧑‍💻', text: '8 hrs to add payments'},
      {emoji: '😮‍💨', text: 'Struggle to find time'},
      {emoji: '😔', text: 'Quit project'},
    ] satisfies ProblemStep[],
    warning: 'Plumbing is the reason good ideas die. It does not have to be.',
  },
  features: {
    title: 'Ship the product, not the plumbing',
    subtitle: `The parts every app needs come wired and documented, so a weekend is enough.`,
    tabs: [
      {
        name: 'Emails',
        icon: 'email',
        items: [
          'Send transactional e-mails',
          'DNS setup to avoid spam folder (DKIM, DMARC, SPF in subdomain)',
          'Webhook to receive and forward e-mails',
        ],
        hoursSaved: 2,
      },
      {
        name: 'Payments',
        icon: 'payment',
        items: [
          'Create checkout sessions',
          "Handle webhooks to update user's account",
          'Tips to set up your account and reduce chargebacks',
        ],
        hoursSaved: 2,
      },
    ] satisfies FeatureTab[],
  },
  pricing: {
    title: 'Save hours of repetitive code, ship fast, get profitable',
    subtitle: 'Pay once. Use it for every project you start.',
  },
  faq: {
    title: 'Frequently asked questions',
    items: [
      {
        question: 'What do I get exactly?',
        answer: `Full access to the ${appName} boilerplate for both Firebase and Supabase: the landing page, sign-in, Stripe checkout, the Cloudflare Worker, e-mails, SEO and the documentation, in one private GitHub repository you are invited to after payment.`,
      },
      {
        question: 'Can I get a refund?',
        answer: `Yes. You can have a full refund within ${appConfig.guarantee.days} days of your purchase, no questions asked: ${appConfig.guarantee.selfService ? 'refund it yourself from your dashboard, or ' : ''}send an e-mail to ${appConfig.support.email}.`,
      },
      ...[teamFaq(appConfig.plans)].filter((item) => item !== null),
      {
        question: 'I have another question',
        answer: `Write to ${appConfig.support.email}: a real person answers, ${appConfig.support.replyTime}.`,
      },
    ] satisfies FaqItem[],
  },
  cta: {
    title: 'Ready to ship?',
    subtitle: 'Stop rebuilding sign-in and payments. Start the part that makes your app yours.',
    button: `Get ${appName} Now`,
  },
} as const;

/**
 * Copy of the sections and forms the landing page does not show yet (with/without, features
 * accordion, features grid, waitlist form). Each component reads its part by default; add the
 * component to src/pages/index.tsx to show it.
 */
export const landingExtras = {
  withWithout: {
    title: 'Stop rebuilding the same plumbing',
    without: {
      title: `Without ${appName}`,
      items: [
        '8 hrs to add payments, then webhooks to debug',
        'Sign-in flows to build and secure by hand',
        'DNS records to get right before a single e-mail lands',
        'Sitemap, meta tags and structured data left for later',
        'Evenings gone before the first visitor signs up',
      ],
    } satisfies ComparisonColumn,
    with: {
      title: `With ${appName}`,
      items: [
        'Stripe Checkout and its signed webhook, already wired',
        'Google sign-in and magic links, on Firebase or Supabase',
        'E-mails through Mailgun, replies forwarded to you',
        'Sitemap, robots.txt and structured data from the config',
        'A landing page, pricing and FAQ ready to edit',
      ],
    } satisfies ComparisonColumn,
  },
  featuresAccordion: {
    title: 'Everything a paid app needs',
    features: [
      {
        title: 'One-time payments',
        description:
          'Stripe Checkout sessions for each plan, a signed webhook that records the purchase in Cloudflare D1, and the billing portal for your buyers.',
        icon: 'payments',
      },
      {
        title: 'Sign-in, two backends',
        description:
          'Google sign-in and magic links with Firebase Auth by default, or Supabase when you set AUTH_PROVIDER=supabase.',
        icon: 'sign-in',
      },
      {
        title: 'Transactional e-mails',
        description:
          'Mailgun sends the welcome e-mail after a purchase, and an inbound webhook forwards the replies to your own address.',
        icon: 'emails',
      },
      {
        title: 'Rate limits',
        description:
          'The worker counts requests per caller in D1 and answers 429 with a Retry-After header once a caller goes over.',
        icon: 'rate-limit',
      },
    ] satisfies AccordionFeature[],
  },
  featuresGrid: {
    title: 'Built in, documented, yours',
    features: [
      {
        title: 'SEO from the config',
        description: 'A sitemap, robots.txt, social cards and structured data, written at build time from the config.',
        icon: 'seo',
        span: 2,
      },
      {
        title: 'Analytics',
        description:
          'Google Analytics and the Meta pixel, each on once its id is in .env, and a Plausible proxy in the worker.',
        icon: 'analytics',
      },
      {
        title: 'Cloudflare Worker',
        description: 'One Hono app for checkout, webhooks, repository access and leads.',
        icon: 'worker',
      },
      {
        title: 'D1 database',
        description: 'Purchases, access and leads in SQL migrations you can read.',
        icon: 'database',
      },
      {
        title: 'Customer support',
        description: 'A Crisp chat bubble on the pages you choose, and a support address in the footer.',
        icon: 'support',
      },
      {
        title: 'Docs for every part',
        description:
          'Tutorials, features and components, with a Firebase and Supabase switch on every page where the two differ.',
        icon: 'docs',
        span: 3,
      },
    ] satisfies GridFeature[],
  },
  lead: {
    label: 'Your e-mail',
    placeholder: 'you@example.com',
    button: 'Join the waitlist',
    stored: "You're on the list. Thanks for joining!",
    known: "You're already on the list. Thanks!",
  } satisfies LeadCopy,
} as const;
