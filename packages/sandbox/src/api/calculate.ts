/**
 * POST /api/partner/exchange/calculate: fixes a rate. Exactly one of
 * from_amount / to_amount; timestamp optional (decisions.md). The calculation
 * is stored with its expiry (--rate-lifetime, sandbox seconds) for the widget's
 * calculation_id setting.
 */
import { randomUUID } from 'node:crypto';
import { findFiatCurrency, isCryptoSymbol, cryptoSymbolCaseInsensitive } from '@card2crypto/core';
import { serviceTime } from '../clock.js';
import { amountValue } from '../json.js';
import { QuoteError } from '../pricing.js';
import { ApiError, invalid } from './errors.js';
import { optionalAmount, requiredString } from './params.js';
import type { Endpoint } from './pipeline.js';

export const calculate: Endpoint = {
  name: 'calculate',
  timestamp: 'optional',
  handle(body, partner, ctx) {
    const fromCurrency = requiredString(body, 'from_currency');
    if (!findFiatCurrency(fromCurrency)) {
      const upper = fromCurrency.toUpperCase();
      throw invalid(
        'from_currency',
        findFiatCurrency(upper) ? `from_currency must be upper case: ${upper}` : `from_currency ${fromCurrency} is not a supported fiat currency`,
      );
    }
    const toCurrency = requiredString(body, 'to_currency');
    if (!isCryptoSymbol(toCurrency)) {
      const canonical = cryptoSymbolCaseInsensitive(toCurrency);
      throw invalid('to_currency', canonical ? `to_currency must be written ${canonical}` : `to_currency ${toCurrency} is not a supported crypto asset`);
    }
    const fromAmount = optionalAmount(body, 'from_amount');
    const toAmount = optionalAmount(body, 'to_amount');
    if (fromAmount !== undefined && toAmount !== undefined) {
      throw invalid('to_amount', 'give exactly one of from_amount and to_amount, not both');
    }
    if (fromAmount === undefined && toAmount === undefined) {
      throw new ApiError(400, 'missing_parameter', 'give exactly one of from_amount and to_amount', 'from_amount');
    }
    let quote;
    try {
      quote = ctx.pricing.quote({ fromCurrency, toCurrency, ...(fromAmount !== undefined ? { fromAmount } : { toAmount: toAmount! }) });
    } catch (error) {
      if (error instanceof QuoteError) {
        throw invalid(error.field, error.message);
      }
      throw error;
    }
    const now = ctx.clock.now();
    const expiresAt = Math.round(now + ctx.clock.scale(ctx.settings.rateLifetimeSeconds * 1000));
    const id = randomUUID();
    ctx.store.insertCalculation({
      id,
      partnerToken: partner.token,
      fromCurrency: quote.fromCurrency,
      toCurrency: quote.toCurrency,
      fromAmount: quote.fromAmount.toString(),
      toAmount: quote.toAmount.toString(),
      feeAmount: quote.feeAmount.toString(),
      rate: quote.rate,
      createdAt: now,
      expiresAt,
    });
    return {
      body: {
        from_currency: quote.fromCurrency,
        to_currency: quote.toCurrency,
        from_amount: amountValue(quote.fromAmount.toString()),
        to_amount: amountValue(quote.toAmount.toString()),
        calculation_id: id,
        expired_at: serviceTime(expiresAt),
      },
    };
  },
};
