import {appConfig} from './app';
import type {FaqItem, FeatureTab, Integration, ProblemStep} from './types';

const {appName, mailgun} = appConfig;

/** Everything the landing page says, in the order of its sections. */
export const landing = {
  hero: {
    headline: 'Ship your SaaS in days, not weeks',
    subheadline: `${appName} gives you the sign-in, payments, e-mails, SEO and docs every web app needs, so you spend your time on the part only you can build.`,
    primaryCta: `Get ${appName} Free`,
    demoVideo: {
      src: '/video/demo.webm',
      type: 'video/webm',
      poster: '/img/demo-poster.png',
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
    claim: 'makers ship faster with it',
  },
  integrations: [
    {name: 'Anthropic', role: 'AI provider', icon: 'anthropic'},
    {name: 'Tailwind CSS', role: 'CSS framework', icon: 'tailwindcss'},
    {name: 'Stripe', role: 'Payments', icon: 'stripe'},
    {name: 'Cloudflare', role: 'Backend', icon: 'cloudflare'},
    {name: 'Firebase', role: 'Auth and database', icon: 'firebase'},
    {name: 'Plausible', role: 'Analytics', icon: 'plausibleanalytics'},
    {name: 'Mailgun', role: 'E-mails', icon: 'mailgun'},
  ] satisfies Integration[],
  problem: {
    title: '80% of side projects never launch',
    subtitle:
      'Sign-in, payments and e-mails eat the evenings you meant for your product.',
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
        answer: `Yes. You can ask for a full refund within 7 days of your purchase: send an e-mail to ${mailgun.supportEmail} and we refund you, no questions asked.`,
      },
      {
        question: 'I have another question',
        answer: `Write to ${mailgun.supportEmail}: a real person answers, usually the same day.`,
      },
    ] satisfies FaqItem[],
  },
  cta: {
    title: 'Ready to ship?',
    subtitle: 'Stop rebuilding sign-in and payments. Start the part that makes your app yours.',
    button: `Get ${appName} Now`,
  },
} as const;
