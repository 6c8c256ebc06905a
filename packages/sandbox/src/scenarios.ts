/**
 * Test cards: the card number a buyer types decides how the operation ends
 * (decisions.md, "Sandbox: test cards"). Every number is Luhn-valid; the second
 * group of the 4000 cards names the outcome's status code. Any other valid
 * card number succeeds.
 *
 * A plan is the list of status codes the operation walks after the buyer
 * presses Pay, one step every --step-delay (sandbox time); it always follows
 * core's OPERATION_FLOW (operations.ts checks each step with decideTransition).
 */
export type Scenario =
  'success' | 'payment_refused' | 'user_opt_out' | 'verification_failed' | 'card_verification_failed' | 'rate_expired' | 'partner_confirmation';

export interface TestCard {
  number: string;
  scenario: Scenario;
  /** What happens, for the README and the pages. */
  outcome: string;
}

export const TEST_CARDS: readonly TestCard[] = Object.freeze([
  { number: '4242424242424242', scenario: 'success', outcome: 'Success: pending 2, 3, 4, 7, then success 6 and 0' },
  { number: '5555555555554444', scenario: 'success', outcome: 'Success (MasterCard)' },
  { number: '4000010100000000', scenario: 'payment_refused', outcome: 'declined 101: payment refused' },
  { number: '4000010200000009', scenario: 'user_opt_out', outcome: 'declined 102: customer opt-out (payment not finalised)' },
  { number: '4000010300000008', scenario: 'verification_failed', outcome: 'declined 103: identity verification failed (after the money is received)' },
  { number: '4000010400000007', scenario: 'card_verification_failed', outcome: 'declined 104: card verification failed' },
  { number: '4000010500000006', scenario: 'rate_expired', outcome: 'declined 105: rate hold expired' },
  {
    number: '4000000800000004',
    scenario: 'partner_confirmation',
    outcome: 'awaiting confirm 8 until the partner confirms (then 9, 4, 7, success 6, 0) or cancels (declined 106)',
  },
] as const satisfies readonly TestCard[]);

/** Codes walked after Pay for each scenario. */
export const PLANS: Readonly<Record<Scenario, readonly number[]>> = Object.freeze({
  success: [2, 3, 4, 7, 6, 0],
  payment_refused: [101],
  user_opt_out: [102],
  verification_failed: [2, 103],
  card_verification_failed: [104],
  rate_expired: [105],
  partner_confirmation: [2, 3, 8],
});

/** Codes walked after the partner confirms (from awaiting confirm 8). */
export const AFTER_CONFIRM: readonly number[] = Object.freeze([9, 4, 7, 6, 0]);

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) {
    return false;
  }
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function scenarioOf(digits: string): Scenario {
  return TEST_CARDS.find((c) => c.number === digits)?.scenario ?? 'success';
}

/** Card brand from the number's prefix. */
export function cardType(digits: string): string {
  if (digits.startsWith('4')) {
    return 'VISA';
  }
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) {
    return 'MASTERCARD';
  }
  if (two === 50 || (two >= 56 && two <= 69)) {
    return 'MAESTRO';
  }
  return 'CARD';
}

/** First six and last four digits shown, the rest masked: 424242******4242. */
export function maskCardNumber(digits: string): string {
  return `${digits.slice(0, 6)}${'*'.repeat(Math.max(0, digits.length - 10))}${digits.slice(-4)}`;
}
