/**
 * Amounts as Stripe keeps them (the currency's smallest unit) written for a person: 6900 USD is
 * $69.00. The site's console and the worker's admin log both write money this way, so a refund
 * reads the same in the log as on the purchase's page. No DOM or Node: the worker imports it.
 */
const formats = new Map<string, Intl.NumberFormat>();

function formatOf(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let format = formats.get(code);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {style: 'currency', currency: code});
    formats.set(code, format);
  }
  return format;
}

export function formatMoney(amount: number | null, currency: string | null): string {
  if (amount === null) return '—';
  if (!currency) return String(amount);
  const format = formatOf(currency);
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** An amount as a price reads: without cents when it is whole ($30), else with them ($30.50). */
export function formatPrice(amount: number, currency: string): string {
  const format = formatOf(currency);
  const unit = 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2);
  if (amount % unit !== 0) return format.format(amount / unit);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  }).format(amount / unit);
}

/**
 * What a seller typed ("15", "15.50") in the currency's smallest unit, or null when it is not an
 * amount of that currency. For the form only: the worker decides what may be refunded.
 */
export function parseMoney(text: string, currency: string): number | null {
  const digits = formatOf(currency).resolvedOptions().maximumFractionDigits ?? 2;
  const match = /^(\d{1,9})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || 0);
}

/** An amount in the smallest unit as a seller types it: 1550 USD is "15.50". */
export function moneyInput(amount: number, currency: string): string {
  const digits = formatOf(currency).resolvedOptions().maximumFractionDigits ?? 2;
  return (amount / 10 ** digits).toFixed(digits);
}
