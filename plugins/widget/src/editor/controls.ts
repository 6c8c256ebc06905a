/**
 * The editor's logic without the editor: choices offered by the block
 * controls (from core's reference data), the site defaults a block falls
 * back to, the problems of a block's attributes (core's settings rules, the
 * same the server applies before signing) and the live preview's model.
 * Pure functions, tested with node:test; index.tsx renders them.
 */
import {
  CRYPTO_ASSETS,
  FIAT_CURRENCIES,
  LANGUAGES,
  PAYMENT_PAGE_LANGUAGES,
  SETTINGS_SCHEMA,
  cryptoAssetLabel,
  findCryptoAsset,
  findFiatCurrency,
  validateSettings,
} from '@card2crypto/core/browser';
import { __, sprintf } from '@wordpress/i18n';

/** The site's settings the editor may see (never the credentials). */
export interface SiteDefaults {
  title: string;
  amount: string;
  fiatCurrency: string;
  cryptoCurrency: string;
  lang: string;
}

/** Attributes both blocks share; "" means "the site's default". */
export interface PurchaseAttributes {
  amount: string;
  fiatCurrency: string;
  cryptoCurrency: string;
  lang: string;
}

export interface WidgetAttributes extends PurchaseAttributes {
  /** Heading above the widget; undefined = the site's title, "" = none. */
  title?: string;
}

export interface ButtonAttributes extends PurchaseAttributes {
  text: string;
  successUrl: string;
  failUrl: string;
}

export interface Option {
  value: string;
  label: string;
  disabled?: boolean;
}

export type PurchaseField = keyof PurchaseAttributes;

/** Block attribute => the settings field it overrides (as Widget_Signer::BLOCK_FIELDS in PHP). */
export const BLOCK_FIELDS: Readonly<Record<PurchaseField, string>> = Object.freeze({
  amount: 'default_amount',
  fiatCurrency: 'default_fiat_currency',
  cryptoCurrency: 'default_crypto_currency',
  lang: 'default_language',
});

/** The settings page's own defaults, for an editor that received none. */
export const SCHEMA_DEFAULTS: SiteDefaults = (() => {
  const fields = new Map(SETTINGS_SCHEMA.plugins.widget.fields.map((f) => [f.id, String(f.default)]));
  return {
    title: fields.get('title') ?? '',
    amount: fields.get('default_amount') ?? '',
    fiatCurrency: fields.get('default_fiat_currency') ?? '',
    cryptoCurrency: fields.get('default_crypto_currency') ?? '',
    lang: fields.get('default_language') ?? '',
  };
})();

const siteDefault = (what: string): string =>
  /* translators: %s: the site's default, e.g. EUR, BTC or German. */
  sprintf(__('Site default (%s)', 'card2crypto-widget'), what);

export function fiatOptions(defaults: SiteDefaults): Option[] {
  return [{ value: '', label: siteDefault(defaults.fiatCurrency) }, ...FIAT_CURRENCIES.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }))];
}

export function cryptoOptions(defaults: SiteDefaults): Option[] {
  const current = findCryptoAsset(defaults.cryptoCurrency);
  return [
    { value: '', label: siteDefault(current ? current.ticker : defaults.cryptoCurrency) },
    ...CRYPTO_ASSETS.map((a) => ({ value: a.symbol, label: cryptoAssetLabel(a) })),
  ];
}

/**
 * The languages a block may choose: the site default, then the languages the
 * payment page is offered in (core's PAYMENT_PAGE_LANGUAGES). A block saved
 * earlier with another ISO 639-1 code keeps it listed, saying that the
 * payment page shows English for it (docs/decisions.md, "Widget language").
 */
export function languageOptions(defaults: SiteDefaults, current = ''): Option[] {
  const option = (l: (typeof LANGUAGES)[number]): Option => ({ value: l.code, label: `${l.name} (${l.code})` });
  const unoffered = (code: string): string | null => {
    const language = PAYMENT_PAGE_LANGUAGES.some((l) => l.code === code) ? undefined : LANGUAGES.find((l) => l.code === code);
    /* translators: %s: a language name and code, e.g. Japanese (ja) */
    return language ? sprintf(__('%s: shown in English', 'card2crypto-widget'), `${language.name} (${language.code})`) : null;
  };
  const site = LANGUAGES.find((l) => l.code === defaults.lang);
  const siteLabel = site ? (unoffered(site.code) ?? site.name) : __('language of the page', 'card2crypto-widget');
  const options: Option[] = [{ value: '', label: siteDefault(siteLabel) }, ...PAYMENT_PAGE_LANGUAGES.map(option)];
  const kept = current === '' ? null : unoffered(current);
  return kept ? [...options, { value: current, label: kept }] : options;
}

/**
 * What a block starts the widget with: its own values, else the site's.
 * The site's amount belongs to the site's currency, so a block that picks
 * another currency without an amount gets none (the buyer types it).
 */
export function effectivePurchase(attributes: PurchaseAttributes, defaults: SiteDefaults): PurchaseAttributes {
  const fiatCurrency = attributes.fiatCurrency || defaults.fiatCurrency;
  const inheritsFiat = fiatCurrency === defaults.fiatCurrency;
  return {
    amount: attributes.amount.trim() || (inheritsFiat ? defaults.amount : ''),
    fiatCurrency,
    cryptoCurrency: attributes.cryptoCurrency || defaults.cryptoCurrency,
    lang: attributes.lang || defaults.lang,
  };
}

/**
 * A message per block attribute that breaks the settings rules once merged
 * with the site's defaults (amount within the currency's limits and
 * decimals, supported currencies and language); {} when the block is fine.
 */
export function purchaseProblems(attributes: PurchaseAttributes, defaults: SiteDefaults): Partial<Record<PurchaseField, string>> {
  const effective = effectivePurchase(attributes, defaults);
  const input: Record<string, string> = {};
  for (const [attribute, field] of Object.entries(BLOCK_FIELDS) as [PurchaseField, string][]) {
    input[field] = effective[attribute];
  }
  const { problems } = validateSettings('widget', input);
  const out: Partial<Record<PurchaseField, string>> = {};
  for (const [attribute, field] of Object.entries(BLOCK_FIELDS) as [PurchaseField, string][]) {
    const problem = problems.find((p) => p.field === field);
    if (problem) {
      out[attribute] = problem.message;
    }
  }
  return out;
}

/** A redirect address a block may store: empty (the site's home page) or an absolute http(s) URL. */
export function redirectProblem(url: string): string | undefined {
  const value = url.trim();
  if (value === '') {
    return undefined;
  }
  try {
    const parsed = new URL(value);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.host !== '' && !/\s/.test(value)) {
      return undefined;
    }
  } catch {
    // reported below
  }
  return __('Enter a full address starting with https:// (or leave empty for the home page).', 'card2crypto-widget');
}

/** Colour field id => CSS custom property and default, in the spec's order. */
export const COLOR_FIELDS: readonly { id: string; property: string; default: string }[] = Object.freeze(
  SETTINGS_SCHEMA.plugins.widget.fields.flatMap((f) => (f.rule.kind === 'color' ? [{ id: f.id, property: f.rule.property, default: String(f.default) }] : [])),
);

export interface PreviewModel {
  title: string;
  amount: string;
  fiatCode: string;
  fiatSymbol: string;
  cryptoTicker: string;
  cryptoName: string;
  /** CSS custom properties (--primaryFill …) with the site's colours or the widget's defaults. */
  style: Record<string, string>;
}

/** What the editor's preview shows: no service needed. */
export function previewModel(attributes: WidgetAttributes, defaults: SiteDefaults, colors: Readonly<Record<string, string>>): PreviewModel {
  const effective = effectivePurchase(attributes, defaults);
  const fiat = findFiatCurrency(effective.fiatCurrency);
  const crypto = findCryptoAsset(effective.cryptoCurrency);
  const style: Record<string, string> = {};
  for (const c of COLOR_FIELDS) {
    style[c.property] = colors[c.id]?.trim() || c.default;
  }
  return {
    title: attributes.title ?? defaults.title,
    amount: effective.amount,
    fiatCode: fiat ? fiat.code : effective.fiatCurrency,
    fiatSymbol: fiat ? fiat.symbol : '',
    cryptoTicker: crypto ? crypto.ticker : effective.cryptoCurrency,
    cryptoName: crypto ? crypto.name : effective.cryptoCurrency,
    style,
  };
}
