/** The docs' URLs, exactly as the product promises them (spec §2, issue 5). */
const SECTIONS = {
  tutorials: [
    'ship-in-5-minutes',
    'make-it-yours',
    'static-page',
    'user-authentication',
    'api-call',
    'private-page',
    'stripe-subscriptions',
    'privacy-policy-with-gpt',
  ],
  features: [
    'seo',
    'database',
    'emails',
    'payments',
    'google-oauth',
    'magic-links',
    'customer-support',
    'error-handling',
    'analytics',
    'admin',
  ],
  components: [
    'header',
    'hero',
    'problem',
    'with-without',
    'features-listicle',
    'features-accordion',
    'features-grid',
    'cta',
    'pricing',
    'faq',
    'footer',
    'button-lead',
    'button-checkout',
    'button-signin',
    'button-account',
    'button-gradient',
    'better-icon',
    'testimonial-avatars',
    'rating',
  ],
  security: ['sending-limit-in-mailgun', 'monthly-budget-in-openai', 'rate-limiting'],
} as const;

/** Pages the current docs have and the released 1.0 does not. */
export const NEW_SINCE_1_0 = ['/docs/features/admin', '/docs/tutorials/make-it-yours'];

export const COMPONENT_PAGES = SECTIONS.components.map((name) => `/docs/components/${name}`);

/** Every docs URL, without trailing slashes: the section indexes, their pages, and the single pages. */
export const DOCS_URLS: string[] = [
  '/docs',
  ...Object.entries(SECTIONS).flatMap(([section, pages]) => [
    `/docs/${section}`,
    ...pages.map((page) => `/docs/${section}/${page}`),
  ]),
  '/docs/deployment',
  '/docs/extras',
];
