/**
 * The 249 countries and territories of ISO 3166-1 alpha-2, with their English names, from the
 * runtime's own CLDR data (Intl.DisplayNames): CLDR also names codes that are not ISO 3166-1
 * countries (groupings such as EU and UN, reserved and withdrawn codes), left out here by name.
 * For the local checkout page's card-country picker and the check of the fair-price tiers.
 */
const NOT_ISO_COUNTRIES = new Set([
  // Groupings and user-assigned codes.
  'EU',
  'EZ',
  'UN',
  'QO',
  'XA',
  'XB',
  'XK',
  'ZZ',
  // Exceptionally reserved or transitional, not assigned to a country.
  'AC',
  'CP',
  'CQ',
  'DG',
  'EA',
  'FX',
  'IC',
  'TA',
  'UK',
  // Withdrawn.
  'AN',
  'BU',
  'CS',
  'DD',
  'DY',
  'HV',
  'NH',
  'RH',
  'SU',
  'TP',
  'VD',
  'YD',
  'YU',
  'ZR',
]);

export interface Country {
  code: string;
  name: string;
}

let cached: Country[] | undefined;

/** Every ISO 3166-1 alpha-2 country, sorted by name. */
export function isoCountries(): Country[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], {type: 'region', fallback: 'none'});
  const found: Country[] = [];
  for (let first = 65; first <= 90; first++) {
    for (let second = 65; second <= 90; second++) {
      const code = String.fromCharCode(first, second);
      const name = names.of(code);
      if (name && !NOT_ISO_COUNTRIES.has(code)) found.push({code, name});
    }
  }
  cached = found.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return cached;
}
