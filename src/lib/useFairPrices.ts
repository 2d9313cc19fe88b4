import {useEffect, useState} from 'react';
import {appConfig} from '../config';
import {API_PATHS, type PricesResponse} from '../config/api';
import {createRequest} from './api';
import {useSiteSettings} from './SiteSettingsContext';

function isPrices(body: unknown): body is PricesResponse {
  const answer = body as Partial<PricesResponse> | null;
  return (
    typeof answer?.percentOff === 'number' &&
    Array.isArray(answer.plans) &&
    (answer.countryName === null || typeof answer.countryName === 'string')
  );
}

/**
 * The visitor's prices from the worker (GET prices: the country Cloudflare saw, and the same
 * calculation the checkout charges with), asked once after the page has hydrated, with no token
 * (no sign-in SDK is loaded for it). Null until then, and for good when the worker cannot be
 * reached or fair prices are off: the list prices, which the page shows from the start, stand.
 * An answer with nothing off is kept as null too: it shows what the page already shows, and
 * taking it would draw the whole pricing section again after hydration for nothing.
 */
export function useFairPrices(): PricesResponse | null {
  const {workerUrl} = useSiteSettings();
  const [prices, setPrices] = useState<PricesResponse | null>(null);
  useEffect(() => {
    if (!appConfig.fairPrices.enabled) return undefined;
    let current = true;
    createRequest({baseUrl: workerUrl})
      .json('GET', API_PATHS.prices)
      .then(
        (body) => {
          if (current && isPrices(body) && body.percentOff > 0) setPrices(body);
        },
        // No worker, no answer: the list prices are right for everyone, so this is no error.
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [workerUrl]);
  return prices;
}
