/**
 * The two prompts of the "Privacy policy with GPT" tutorial, filled with this product's facts
 * from src/config: a rename or a new price changes them too. The page shows them as they are.
 */
import {appConfig} from '@site/src/config';

const {appName, domainName} = appConfig;
const support = appConfig.support.email;
const [starter, advanced] = appConfig.plans;
const planPrices = appConfig.plans.map((plan) => `${plan.name} ${plan.price} USD`).join(', ');

export const privacyPolicyPrompt = `You are helping me draft the privacy policy of my web app. Write it in plain, precise English, for
the people who use the site. Do not invent facts: use only the facts below, and where something is
missing, write a placeholder in square brackets such as [COMPANY ADDRESS] and list the placeholders
after the text.

FACTS
- Product: ${appName}, a starter kit of source code for building SaaS and AI web apps.
- Website: https://${domainName}
- Contact for privacy questions and requests: ${support}
- Seller: [COMPANY NAME AND ADDRESS]
- Sales: one-time purchase with lifetime access. Plans: ${planPrices}.
  Refund on request within ${appConfig.guarantee.days} days of purchase, by e-mail.
- Governing law: French law; the courts of France have jurisdiction, without removing the
  mandatory protections of a consumer's own country. The GDPR applies. The supervisory authority
  is the CNIL.
- The site and the product are not directed to children under 13, and we do not knowingly collect
  data from children under 13.

DATA WE COLLECT AND WHY
- Account and sign-in: e-mail address; with Google sign-in, also name and profile photo. Sign-in
  with Google, with an e-mail and a password, or with a one-time sign-in link sent by e-mail. A
  password is kept only as a hash by the provider; we never see it. Provider: Firebase
  Authentication (Google), or Supabase Auth if we switch to it.
- Purchases: Stripe customer id, plan, amount, currency, date, payment status, refunds and
  disputes. Payments go through Stripe Checkout; card details go to Stripe only, never to us.
  Accounting records are kept 10 years as French law requires.
- Repository access: the GitHub username the buyer enters and GitHub's numeric user id, to invite
  that account to a private GitHub repository and to remove access after a refund or dispute.
- E-mails: a welcome e-mail after purchase and sign-in links, sent through Mailgun. Replies to our
  e-mails are forwarded to our team.
- Waitlist: e-mail addresses left on a waitlist form, to announce the product and offers, with
  consent that can be withdrawn at any time.
- Backend: a Cloudflare Worker with a Cloudflare D1 database stores purchases, customers, GitHub
  access and waitlist e-mails.
- Analytics: Plausible, through our own proxy, with no cookies and aggregate statistics only.
- Optional, only when enabled: the Meta (Facebook) pixel (page views and checkout clicks, for
  advertising), Google Analytics (page speed measurements, "web vitals"), and the Crisp chat
  widget. These set cookies and need consent where the law requires it.
- Browser storage: the sign-in session; the e-mail address of a pending sign-in link, kept in
  local storage until the link is opened; a marker that someone has signed in on this browser;
  after a purchase, the Stripe checkout session id, kept in the tab's session storage until the
  dashboard has used it.

WHAT TO WRITE
Sections, numbered: who is responsible; the data we collect, why, and the legal basis under
Article 6 GDPR for each kind; cookies and local storage; who receives the data (each provider above,
with a link to its privacy policy); international transfers and their safeguards; how long we keep
each kind of data; how we protect it; the user's rights and how to exercise them, including the
right to complain to the CNIL; children; changes to the policy; governing law; contact.

FORMAT
Output MDX for a Docusaurus site, and nothing else:
- The first line is exactly: import {appConfig} from '@site/src/config';
- Then an empty line, then the text. No "Last updated" line: the page prints its date itself.
- No top-level "#" heading. Use "##" for numbered sections and "###" below them.
- Write the product name as {appConfig.appName} and the website as https://{appConfig.domainName},
  and the number of days of the refund promise as {appConfig.guarantee.days}.
- Write every mention of the support e-mail as this exact link:
  <a href={\`mailto:\${appConfig.support.email}\`}>{appConfig.support.email}</a>
- Link to the terms of service as [Terms of Service](/tos).
- Do not use the characters { } < > anywhere else.`;

export const termsPrompt = `Now draft the terms of service of the same web app, with the same facts, in plain, precise English.
Do not invent facts; use placeholders in square brackets for anything missing and list them after
the text.

ADDITIONAL FACTS
- What is sold: source code (a boilerplate), delivered by an invitation to a private GitHub
  repository after payment, to one GitHub account per purchase. It is not a hosted service: buyers
  run it with their own accounts at Stripe, Firebase or Supabase, Cloudflare and Mailgun.
- Licence: use in unlimited projects, personal or for clients, commercial use allowed, modify
  freely. Forbidden: reselling or redistributing the kit itself as a template or starter kit,
  publishing its code, sharing repository access.
- Plans: ${starter.name} ${starter.price} USD (the kit as it is on the day of purchase, support about the purchase and
  access); ${advanced.name} ${advanced.price} USD (everything in ${starter.name}, AI prompts for terms and privacy, lifetime
  updates, help with your setup by e-mail and chat, answered usually the same day, no guaranteed
  response time). One-time payment, no
  subscription.
- Payments by Stripe Checkout. The contract is formed when Stripe confirms the payment.
- Refunds: full refund on request within ${appConfig.guarantee.days} days of purchase by e-mail to ${support},
  without a reason. Buyers in the EU agree to immediate delivery of digital content and so lose
  the 14-day withdrawal right; say so clearly.
- A refund, a chargeback or a serious breach of the licence ends the licence and removes
  repository access.
- The AI prompts give drafts, not legal advice.
- Governing law: French law, courts of France, without removing a consumer's mandatory
  protections. Minimum age 13.

WHAT TO WRITE
Sections, numbered: acceptance; the product; eligibility and accounts; plans, prices and payment;
delivery and access; licence (what you may and may not do); refunds; updates and support;
acceptable use; intellectual property; disclaimer; limitation of liability (not beyond what the law
allows, and never limiting consumers' mandatory rights); termination and revocation of access;
changes to the terms; governing law and disputes; contact.

FORMAT
The same MDX rules as the privacy policy, except: link to the privacy policy as
[Privacy Policy](/privacy-policy).`;
