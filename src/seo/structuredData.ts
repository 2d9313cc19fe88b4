import {appConfig, PLAN_CURRENCY} from '../config';
import {siteUrl} from './siteUrl';

/** schema.org Product for the landing page: both plans as offers, and the rating of §9. */
export function productJsonLd() {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: appConfig.appName,
    description: appConfig.appDescription,
    image: `${siteUrl}/img/opengraph-image.jpg`,
    url: `${siteUrl}/`,
    brand: {'@type': 'Brand', name: appConfig.appName},
    offers: appConfig.plans.map((plan) => ({
      '@type': 'Offer',
      name: plan.name,
      price: plan.price.toFixed(2),
      priceCurrency: PLAN_CURRENCY.toUpperCase(),
      availability: 'https://schema.org/InStock',
      url: `${siteUrl}/#pricing`,
    })),
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: appConfig.rating.value.toFixed(1),
      reviewCount: appConfig.rating.count,
    },
  };
}
