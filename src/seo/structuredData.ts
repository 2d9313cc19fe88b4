import {appConfig, type AppConfig, maxSeatsOf, type Plan, PLAN_CURRENCY} from '../config';
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
 * seat's, and `eligibleQuantity` the seats one checkout may buy (schema.org Offer).
 */
function seatsOf(plan: Plan) {
  if (!plan.team) return {};
  return {
    eligibleQuantity: {'@type': 'QuantitativeValue', minValue: 1, maxValue: maxSeatsOf(plan), unitText: 'seat'},
  };
}

/** schema.org Product for the landing page: both plans as offers, and the buyers' rating if any. */
export function productJsonLd(rating: AppConfig['rating'] = (appConfig as AppConfig).rating) {
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: appConfig.appName,
    description: appConfig.appDescription,
    image: `${siteUrl}/img/opengraph-image.jpg`,
    url: `${siteUrl}/`,
    brand: {'@type': 'Brand', name: appConfig.appName},
    offers: (appConfig.plans as readonly Plan[]).map((plan) => ({
      '@type': 'Offer',
      name: plan.name,
      price: plan.price.toFixed(2),
      priceCurrency: PLAN_CURRENCY.toUpperCase(),
      availability: 'https://schema.org/InStock',
      url: `${siteUrl}/#pricing`,
      ...seatsOf(plan),
    })),
  };
  const rated = aggregateRating(rating);
  return rated ? {...product, aggregateRating: rated} : product;
}
