/**
 * The pages a local-mode buyer sees in place of Stripe's hosted ones: the checkout page (plan,
 * price, e-mail, Pay) and the billing portal. Plain HTML, no script (./standInPage.ts): they work
 * in any browser.
 */
import type Stripe from 'stripe';
import {findPlanByPriceId, planForSeats} from '../../src/config';
import {isoCountries} from './countries';
import {PROMOTIONS_LABEL} from './stripeRecovery';
import {escapeHtml as escape, standInPage} from './standInPage';

function page(title: string, body: string): string {
  return standInPage(
    title,
    body,
    `  .price { font-size: 2rem; font-weight: 700; margin: 0 0 1.5rem; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  .terms, .promotions { display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; margin-bottom: 1rem; }
  .terms input, .promotions input { width: auto; margin: .3rem 0 0; }
  select { width: 100%; box-sizing: border-box; padding: .6rem .75rem; border: 1px solid #8792a2; border-radius: 6px; font-size: 1rem; margin-bottom: 1rem; background: #fff; }
  input { width: 100%; box-sizing: border-box; padding: .6rem .75rem; border: 1px solid #8792a2; border-radius: 6px; font-size: 1rem; margin-bottom: 1rem; }
  button { width: 100%; padding: .75rem; border: 0; border-radius: 6px; background: #0f766e; color: #fff; font-size: 1rem; font-weight: 600; cursor: pointer; }
  button.leave { margin-top: .75rem; padding: .5rem; background: none; color: #0b534d; font-weight: 400; text-decoration: underline; }
`,
  );
}

/** Stripe's hosted pages that local mode draws, by what its notes call them. */
const STRIPE_PAGES = {
  checkout: 'Stripe Checkout',
  portal: 'the Stripe billing portal',
  receipt: "a Stripe payment's receipt",
  invoice: "Stripe's hosted invoice page",
} as const;
export type StripePage = keyof typeof STRIPE_PAGES;

/** The note at the top of each page: which of Stripe's pages it stands in for. */
function localNote(stripePage: StripePage): string {
  return `<p class="local"><strong>Local mode:</strong> this page stands in for ${STRIPE_PAGES[stripePage]}. No card is charged.</p>`;
}

/** What a checkout session sells: one price, and how many of it (a team's seats). */
export interface SessionItem {
  price: string;
  quantity: number;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The checkout page: the plan, and what the session charges (Stripe's `amount_total`). A session
 * with a coupon (an upgrade's credit for the plan bought before) shows the plan's price and the
 * credit taken off it, as Checkout's summary does (an upgrade's credit, a fair price's discount).
 * The card's country is the payer's to pick, `cardCountry` by default. The e-mail is the one the
 * session was given (`customer_email`, to change at will); for a session made for a customer (an
 * upgrade, on its purchase's customer), `customerEmail`, the customer's, shown locked as Checkout
 * shows it. A session that takes promotion codes (`allow_promotion_codes`) has Checkout's optional
 * field for one; one that collects consent to promotional e-mails (`consent_collection.promotions:
 * 'auto'`), Checkout's box for it under the e-mail, unticked. A second button lets the session
 * expire at once, unpaid, as it would after 24 hours: local mode's way to try abandoned-cart recovery.
 */
export function checkoutPage(
  session: Stripe.Checkout.Session,
  {price: priceId, quantity}: SessionItem,
  {
    credit,
    cardCountry = 'US',
    customerEmail,
  }: {credit?: {name: string; amount: number}; cardCountry?: string; customerEmail?: string} = {},
): string {
  const plan = findPlanByPriceId(priceId);
  const name = plan ? planForSeats(session.metadata?.plan ?? plan.name, quantity) : priceId;
  const price = plan ? dollars(session.amount_total ?? plan.price * 100) : '';
  const creditLine =
    plan && credit
      ? `<p>${escape(plan.name)}: ${dollars(session.amount_subtotal ?? plan.price * 100)}<br>${escape(credit.name)}: −${dollars(credit.amount)}</p>\n`
      : '';
  const email = customerEmail ?? session.customer_email ?? '';
  return page(
    `Pay for ${name}`,
    `${localNote('checkout')}
<h1>${escape(name)}</h1>
${creditLine}<p class="price">${escape(price)} <small>one-time payment</small></p>
<form method="post" action="/checkout/${encodeURIComponent(session.id)}">
  <label for="email">Email</label>
  <input id="email" name="email" type="email" required autocomplete="email" value="${escape(email)}"${customerEmail ? ' readonly' : ''}>
${session.consent_collection?.promotions === 'auto' ? promotionsBox : ''}  <label for="card-country">Card country</label>
  <select id="card-country" name="cardCountry">${countryOptions(cardCountry)}</select>
${session.allow_promotion_codes ? promotionCodeField : ''}${session.consent_collection?.terms_of_service === 'required' ? termsBox(session.custom_text?.terms_of_service_acceptance?.message) : ''}  <button type="submit">Pay ${escape(price)}</button>
  <button type="submit" class="leave" formaction="/checkout/${encodeURIComponent(session.id)}/leave" formnovalidate>Leave without paying (let this checkout expire)</button>
</form>
<p><a href="${escape(session.cancel_url ?? '/')}">Cancel and go back</a></p>`,
  );
}

const promotionCodeField = `  <label for="promotion-code">Promotion code</label>
  <input id="promotion-code" name="promotionCode" type="text" autocomplete="off" autocapitalize="characters">
`;

/** Checkout's box for promotional e-mails: unticked, the buyer's to tick. */
const promotionsBox = `  <label class="promotions"><input name="promotions" type="checkbox" value="opt_in"> ${PROMOTIONS_LABEL}</label>
`;

/** Every country, the default one selected. */
function countryOptions(selected: string): string {
  return isoCountries()
    .map(({code, name}) => `<option value="${code}"${code === selected ? ' selected' : ''}>${escape(name)}</option>`)
    .join('');
}

/**
 * The terms' checkbox Checkout shows with `consent_collection.terms_of_service: 'required'`: the
 * session's custom text (its Markdown links as links), or Stripe's default sentence.
 */
function termsBox(message: string | undefined): string {
  const text = message
    ? escape(message).replace(
        /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g,
        '<a href="$2" target="_blank" rel="noopener noreferrer">$1</a>',
      )
    : 'I agree to the Terms of Service.';
  return `<label class="terms"><input name="terms" type="checkbox" value="accepted" required> ${text}</label>`;
}

/** A message on one of the stand-in pages (`stripePage`): an unknown session, a checkout already paid, the portal. */
export function messagePage(
  stripePage: StripePage,
  title: string,
  text: string,
  link?: {href: string; label: string},
): string {
  return page(
    title,
    `${localNote(stripePage)}<h1>${escape(title)}</h1><p>${escape(text)}</p>${link ? `<p><a href="${escape(link.href)}">${escape(link.label)}</a></p>` : ''}`,
  );
}
