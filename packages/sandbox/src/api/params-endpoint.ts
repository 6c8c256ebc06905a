/** POST /api/partner/params: the partner's commission as a fraction (0.01 is 1%). */
import type { Endpoint } from './pipeline.js';

export const params: Endpoint = {
  name: 'params',
  timestamp: 'required',
  handle(_body, _partner, ctx) {
    return { body: { service_fee: ctx.pricing.serviceFeeNumber() } };
  },
};
