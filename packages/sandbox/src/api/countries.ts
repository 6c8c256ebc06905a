/** POST /api/partner/countries: core's country list; the signed text is cached per partner. */
import { COUNTRIES } from '@card2crypto/core';
import { signedJson, type Endpoint } from './pipeline.js';

const cache = new Map<string, string>();

export const countries: Endpoint = {
  name: 'countries',
  timestamp: 'required',
  handle(_body, partner) {
    const key = `${partner.token}\u0000${partner.secret}`;
    let text = cache.get(key);
    if (text === undefined) {
      text = signedJson({ countries: COUNTRIES.map((c) => ({ code: c.code, name: c.name, alpha2: c.alpha2, alpha3: c.alpha3 })) }, partner.secret);
      cache.set(key, text);
    }
    return { signedText: text };
  },
};
