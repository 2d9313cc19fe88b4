import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';
import {
  Archive,
  BadgeCheck,
  BookOpen,
  Bot,
  ChartLine,
  CircleAlert,
  CircleUser,
  Coins,
  CircleArrowUp,
  CreditCard,
  Database,
  FileText,
  Gauge,
  Globe,
  Grid3x3,
  HandCoins,
  Headset,
  HelpCircle,
  KeyRound,
  Image,
  LayoutDashboard,
  LayoutTemplate,
  ListChecks,
  LockKeyhole,
  LogIn,
  Mail,
  MailWarning,
  Megaphone,
  MousePointerClick,
  PanelBottom,
  Palette,
  PanelTop,
  Receipt,
  Rocket,
  Scale,
  Search,
  Send,
  ShieldCheck,
  ShoppingCart,
  Sparkles,
  Split,
  Star,
  Tag,
  Trophy,
  UserCheck,
  Users,
  Wand,
  Wrench,
  Zap,
} from 'lucide-static';
import {appConfig, ROUTES, type AppConfig} from './src/config';
import {sidebarIcon} from './src/buildTime/sidebarIcon';
import {affiliateLinks} from './src/buildTime/affiliateLinks';

/** A page of the docs, with its sidebar title and icon. */
function doc(id: string, label: string, icon: string) {
  return {type: 'doc' as const, id, label, customProps: sidebarIcon(icon)};
}

/** A section whose title opens its index page and whose items are its pages. */
function section(dir: string, label: string, icon: string, items: ReturnType<typeof doc>[]) {
  return {
    type: 'category' as const,
    label,
    link: {type: 'doc' as const, id: `${dir}/index`},
    customProps: sidebarIcon(icon),
    collapsed: false,
    items,
  };
}

const sidebars = {
  docs: [
    doc('get-started', 'Get started', Rocket),
    section('tutorials', 'Tutorials', BookOpen, [
      doc('tutorials/ship-in-5-minutes', 'Ship in 5 minutes', Zap),
      doc('tutorials/make-it-yours', 'Make it yours', Palette),
      doc('tutorials/static-page', 'Static page', FileText),
      doc('tutorials/user-authentication', 'User authentication', UserCheck),
      doc('tutorials/api-call', 'API call', Send),
      doc('tutorials/private-page', 'Private page', LockKeyhole),
      doc('tutorials/stripe-subscriptions', 'Stripe subscriptions', CreditCard),
      doc('tutorials/privacy-policy-with-gpt', 'Privacy policy with GPT', Scale),
    ]),
    section('features', 'Features', Sparkles, [
      doc('features/seo', 'SEO', Search),
      doc('features/database', 'Database', Database),
      doc('features/emails', 'Emails', Mail),
      doc('features/payments', 'Payments', Coins),
      doc('features/code-access', 'Access to the code', KeyRound),
      doc('features/upgrades', 'Upgrades', CircleArrowUp),
      doc('features/fair-prices', 'Fair prices', Globe),
      doc('features/taxes-and-receipts', 'Tax and receipts', Receipt),
      doc('features/eu-withdrawal', 'Refunds and EU withdrawal', Scale),
      doc('features/google-oauth', 'Google OAuth', LogIn),
      doc('features/magic-links', 'Magic links', Wand),
      doc('features/customer-support', 'Customer support', Headset),
      doc('features/error-handling', 'Error handling', CircleAlert),
      doc('features/analytics', 'Analytics', ChartLine),
      doc('features/admin', "Seller's console", LayoutDashboard),
      doc('features/ship-an-update', 'Ship an update', Megaphone),
    ]),
    section('components', 'Components', LayoutTemplate, [
      doc('components/header', 'Header', PanelTop),
      doc('components/hero', 'Hero', Megaphone),
      doc('components/problem', 'Problem', HelpCircle),
      doc('components/with-without', 'With / Without', Split),
      doc('components/features-listicle', 'Features listicle', ListChecks),
      doc('components/features-accordion', 'Features accordion', Archive),
      doc('components/features-grid', 'Features grid', Grid3x3),
      doc('components/cta', 'Call to action', MousePointerClick),
      doc('components/pricing', 'Pricing', Tag),
      doc('components/faq', 'FAQ', HelpCircle),
      doc('components/footer', 'Footer', PanelBottom),
      doc('components/button-lead', 'Button lead', Mail),
      doc('components/button-checkout', 'Button checkout', ShoppingCart),
      doc('components/button-signin', 'Button sign-in', LogIn),
      doc('components/button-account', 'Button account', CircleUser),
      doc('components/button-gradient', 'Button gradient', Sparkles),
      doc('components/better-icon', 'Better icon', BadgeCheck),
      doc('components/testimonial-avatars', 'Testimonial avatars', Users),
      doc('components/rating', 'Rating', Star),
    ]),
    section('security', 'Security', ShieldCheck, [
      doc('security/sending-limit-in-mailgun', 'Sending limit in Mailgun', MailWarning),
      doc('security/monthly-budget-in-openai', 'Monthly budget in OpenAI', Bot),
      doc('security/rate-limiting', 'Rate limiting', Gauge),
    ]),
    doc('deployment', 'Deployment', Wrench),
    doc('extras', 'Extras', Image),
    {type: 'html', value: '<hr aria-hidden="true" />', className: 'sidebar-divider', defaultStyle: false},
    {type: 'link', label: 'Leaderboard', href: ROUTES.leaderboard, customProps: sidebarIcon(Trophy)},
    ...affiliateLinks((appConfig as AppConfig).affiliates, HandCoins),
  ],
} satisfies SidebarsConfig;

export default sidebars;
