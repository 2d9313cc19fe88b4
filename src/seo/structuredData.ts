import {appConfig, type AppConfig, maxSeatsOf, type Plan, PLAN_CURRENCY, planForSeats, planForTeams} from '../config';
import {siteUrl} from './siteUrl';

/**
 * The product's rating as schema.org writes it, or nothing. Search engines allow only ratings
 * customers gave, on the marked-up product, with their count: a made-up or self-given one breaks
 * Google's review-snippet rules. So it is the seller's own `appConfig.rating`, and without one the
 * page claims no rating at all.
 */
export function aggregateRating(rating: AppConfig['rating']) {
  if (!rating) return undefined;
  return {
    '@type': 'AggregateRating',
    ratingValue: rating.value.toFixed(1),
    bestRating: '5',
    ratingCount: rating.count,
  };
}

/**
 * A plan sold for teams is priced per seat, as its card's picker sells it: the offer's price is one
 * seat's, and `eligibleQuantity` the seats one checkout may buy (schema.org Offer). A team's own
 * price for each seat (`team.seatPrice`) is an offer of its own, for 2 seats or more; the plan's
 * offer is then for one.
 */
function offersOf(plan: Plan) {
  const offer = (name: string, price: number, seats: {minValue: number; maxValue: number} | null) => ({
    '@type': 'Offer',
    name,
    price: price.toFixed(2),
    priceCurrency: PLAN_CURRENCY.toUpperCase(),
    availability: 'https://schema.org/InStock',
    url: `${siteUrl}/#pricing`,
    ...(seats && {eligibleQuantity: {'@type': 'QuantitativeValue', ...seats, unitText: 'seat'}}),
  });
  if (!plan.team) return [offer(plan.name, plan.price, null)];
  const tiers = plan.team.tiers ?? [];
  // Fixed tiers: the plan for one, and each team at its price. No seat count beside it: an offer's
  // price is read as one unit's, and a tier's is the whole team's.
  if (tiers.length > 0)
    return [
      offer(plan.name, plan.price, null),
      ...tiers.map((tier) => offer(planForSeats(plan.name, tier.seats), tier.price, null)),
    ];
  const most = maxSeatsOf(plan);
  if (!plan.team.seatPrice) return [offer(plan.name, plan.price, {minValue: 1, maxValue: most})];
  return [
    offer(plan.name, plan.price, null),
    offer(planForTeams(plan.name), plan.team.seatPrice.price, {minValue: 2, maxValue: most}),
  ];
}

/** schema.org Product for the landing page: the plans as offers (a team's price too), and the buyers' rating if any. */
export function productJsonLd(
  rating: AppConfig['rating'] = (appConfig as AppConfig).rating,
  plans: readonly Plan[] = appConfig.plans,
) {
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: appConfig.appName,
    description: appConfig.appDescription,
    image: `${siteUrl}/img/opengraph-image.jpg`,
    url: `${siteUrl}/`,
    brand: {'@type': 'Brand', name: appConfig.appName},
    offers: plans.flatMap(offersOf),
  };
  const rated = aggregateRating(rating);
  return rated ? {...product, aggregateRating: rated} : product;
}
