/**
 * Countries as the service's countries endpoint returns them
 * ({ code: ISO 3166-1 numeric, name, alpha2, alpha3 }). The service's real list
 * is not shown; this is the project's default list (decisions.md: "Countries"):
 * the EEA, the UK, Switzerland, the US and the countries whose currencies the
 * fiat table supports. The sandbox serves it from its countries endpoint.
 */
export interface Country {
  /** ISO 3166-1 numeric code. */
  readonly code: number;
  readonly name: string;
  /** ISO 3166-1 alpha-2. */
  readonly alpha2: string;
  /** ISO 3166-1 alpha-3. */
  readonly alpha3: string;
}

type Row = [alpha2: string, alpha3: string, code: number, name: string];

const ROWS: readonly Row[] = [
  // European Union
  ['AT', 'AUT', 40, 'Austria'],
  ['BE', 'BEL', 56, 'Belgium'],
  ['BG', 'BGR', 100, 'Bulgaria'],
  ['HR', 'HRV', 191, 'Croatia'],
  ['CY', 'CYP', 196, 'Cyprus'],
  ['CZ', 'CZE', 203, 'Czechia'],
  ['DK', 'DNK', 208, 'Denmark'],
  ['EE', 'EST', 233, 'Estonia'],
  ['FI', 'FIN', 246, 'Finland'],
  ['FR', 'FRA', 250, 'France'],
  ['DE', 'DEU', 276, 'Germany'],
  ['GR', 'GRC', 300, 'Greece'],
  ['HU', 'HUN', 348, 'Hungary'],
  ['IE', 'IRL', 372, 'Ireland'],
  ['IT', 'ITA', 380, 'Italy'],
  ['LV', 'LVA', 428, 'Latvia'],
  ['LT', 'LTU', 440, 'Lithuania'],
  ['LU', 'LUX', 442, 'Luxembourg'],
  ['MT', 'MLT', 470, 'Malta'],
  ['NL', 'NLD', 528, 'Netherlands'],
  ['PL', 'POL', 616, 'Poland'],
  ['PT', 'PRT', 620, 'Portugal'],
  ['RO', 'ROU', 642, 'Romania'],
  ['SK', 'SVK', 703, 'Slovakia'],
  ['SI', 'SVN', 705, 'Slovenia'],
  ['ES', 'ESP', 724, 'Spain'],
  ['SE', 'SWE', 752, 'Sweden'],
  // Rest of the EEA
  ['IS', 'ISL', 352, 'Iceland'],
  ['LI', 'LIE', 438, 'Liechtenstein'],
  ['NO', 'NOR', 578, 'Norway'],
  // United Kingdom, Switzerland, United States
  ['GB', 'GBR', 826, 'United Kingdom'],
  ['CH', 'CHE', 756, 'Switzerland'],
  ['US', 'USA', 840, 'United States'],
  // Countries implied by the fiat table
  ['AR', 'ARG', 32, 'Argentina'],
  ['AM', 'ARM', 51, 'Armenia'],
  ['AU', 'AUS', 36, 'Australia'],
  ['AZ', 'AZE', 31, 'Azerbaijan'],
  ['BH', 'BHR', 48, 'Bahrain'],
  ['BR', 'BRA', 76, 'Brazil'],
  ['CA', 'CAN', 124, 'Canada'],
  ['HK', 'HKG', 344, 'Hong Kong'],
  ['IL', 'ISR', 376, 'Israel'],
  ['IN', 'IND', 356, 'India'],
  ['KZ', 'KAZ', 398, 'Kazakhstan'],
  ['MY', 'MYS', 458, 'Malaysia'],
  ['MD', 'MDA', 498, 'Moldova'],
  ['TW', 'TWN', 158, 'Taiwan'],
  ['NZ', 'NZL', 554, 'New Zealand'],
  ['SA', 'SAU', 682, 'Saudi Arabia'],
  ['KR', 'KOR', 410, 'South Korea'],
  ['TR', 'TUR', 792, 'Türkiye'],
  ['UA', 'UKR', 804, 'Ukraine'],
  ['VN', 'VNM', 704, 'Viet Nam'],
];

export const COUNTRIES: readonly Country[] = Object.freeze(ROWS.map(([alpha2, alpha3, code, name]) => Object.freeze({ code, name, alpha2, alpha3 })));

/** Country by alpha-2 code (upper case), or undefined. */
export function findCountry(alpha2: string): Country | undefined {
  return COUNTRIES.find((c) => c.alpha2 === alpha2);
}

/**
 * Main currency of each listed country whose currency the fiat table supports
 * (Iceland's ISK is not supported, so IS is absent), for defaults such as "store currency
 * from the shop's country"); every value is a code in the fiat table.
 */
export const COUNTRY_CURRENCY: Readonly<Record<string, string>> = Object.freeze({
  AT: 'EUR',
  BE: 'EUR',
  BG: 'BGN',
  HR: 'EUR',
  CY: 'EUR',
  CZ: 'CZK',
  DK: 'DKK',
  EE: 'EUR',
  FI: 'EUR',
  FR: 'EUR',
  DE: 'EUR',
  GR: 'EUR',
  HU: 'HUF',
  IE: 'EUR',
  IT: 'EUR',
  LV: 'EUR',
  LT: 'EUR',
  LU: 'EUR',
  MT: 'EUR',
  NL: 'EUR',
  PL: 'PLN',
  PT: 'EUR',
  RO: 'RON',
  SK: 'EUR',
  SI: 'EUR',
  ES: 'EUR',
  SE: 'SEK',
  LI: 'CHF',
  NO: 'NOK',
  GB: 'GBP',
  CH: 'CHF',
  US: 'USD',
  AR: 'ARS',
  AM: 'AMD',
  AU: 'AUD',
  AZ: 'AZN',
  BH: 'BHD',
  BR: 'BRL',
  CA: 'CAD',
  HK: 'HKD',
  IL: 'ILS',
  IN: 'INR',
  KZ: 'KZT',
  MY: 'MYR',
  MD: 'MDL',
  TW: 'TWD',
  NZ: 'NZD',
  SA: 'SAR',
  KR: 'KRW',
  TR: 'TRY',
  UA: 'UAH',
  VN: 'VND',
});
