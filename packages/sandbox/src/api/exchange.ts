/**
 * POST /api/partner/exchange: every fiat x crypto pair with its limits
 * (decisions.md, "Sandbox: price table and quotes"). All amounts are minimum
 * units: from.amount is the currency's minimum purchase and to.amount what it
 * buys after the fee (exactly what rate fixing would quote). The signed text is
 * cached per partner: the table does not change while the sandbox runs.
 */
import { CRYPTO_ASSETS, FIAT_CURRENCIES } from '@card2crypto/core';
import { amountValue } from '../json.js';
import type { Pricing } from '../pricing.js';
import { signedJson, type Endpoint } from './pipeline.js';

export function currencyPairs(pricing: Pricing): Record<string, unknown>[] {
  const pairs: Record<string, unknown>[] = [];
  for (const fiat of FIAT_CURRENCIES) {
    const limits = pricing.limits(fiat);
    for (const asset of CRYPTO_ASSETS) {
      const quote = pricing.quote({ fromCurrency: fiat.code, toCurrency: asset.symbol, fromAmount: limits.min });
      pairs.push({
        from: {
          amount: amountValue(limits.min.toString()),
          min_amount: amountValue(limits.min.toString()),
          max_amount: amountValue(limits.maxWithoutKyc.toString()),
          min_kyc_amount: amountValue(limits.minKyc.toString()),
          max_kyc_amount: amountValue(limits.maxKyc.toString()),
          code: fiat.code,
          name: fiat.name,
          symbol: fiat.symbol,
          minor_unit: fiat.decimals,
        },
        to: {
          amount: amountValue(quote.toAmount.toString()),
          code: asset.symbol,
          name: asset.name,
          symbol: asset.ticker,
          minor_unit: asset.decimals,
        },
      });
    }
  }
  return pairs;
}

const cache = new WeakMap<Pricing, Map<string, string>>();

export const exchange: Endpoint = {
  name: 'exchange',
  timestamp: 'required',
  handle(_body, partner, ctx) {
    let byPartner = cache.get(ctx.pricing);
    if (!byPartner) {
      cache.set(ctx.pricing, (byPartner = new Map()));
    }
    const key = `${partner.token}\u0000${partner.secret}`;
    let text = byPartner.get(key);
    if (text === undefined) {
      text = signedJson({ pairs: currencyPairs(ctx.pricing) }, partner.secret);
      byPartner.set(key, text);
    }
    return { signedText: text };
  },
};
