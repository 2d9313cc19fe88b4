import type Stripe from 'stripe';
import {PLAN_CURRENCY} from '../../../src/config';

/**
 * What the buyer paid after discounts and before tax, in the seller's currency: Stripe's total
 * less its tax; under Adaptive Pricing (`currency_conversion`), the same in the source currency
 * the seller's prices are in, the tax taken off in the share it is of the total (which needs no
 * reading of how Stripe states its exchange rate for currencies of other decimals).
 */
export function baseOf(session: Stripe.Checkout.Session): {base: number; currency: string} {
  const tax = session.total_details?.amount_tax ?? 0;
  const conversion = session.currency_conversion;
  if (conversion) {
    const total = session.amount_total ?? 0;
    const taxInSource = total > 0 ? Math.round((tax * conversion.amount_total) / total) : 0;
    return {
      base: Math.max(0, conversion.amount_total - taxInSource),
      currency: conversion.source_currency.toLowerCase(),
    };
  }
  return {
    base: Math.max(0, (session.amount_total ?? 0) - tax),
    currency: (session.currency ?? PLAN_CURRENCY).toLowerCase(),
  };
}
