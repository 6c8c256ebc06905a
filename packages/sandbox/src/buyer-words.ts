/**
 * What a buyer reads about an operation and whom they pay, on every page of
 * the sandbox a buyer meets (the widget, the landing page, the status page):
 * the state in words, never the raw status and code (those stay in the
 * markup's data attributes, the dashboard and the partner API), and the store
 * by its name with its order number (docs/decisions.md, "Sandbox: what a buyer
 * reads" and "Sandbox: whom the buyer pays, and for what").
 */

/** The in-progress and success steps the buyer watches, in the order they happen. */
export const STEP_WORDS: readonly (readonly [code: number, words: string])[] = [
  [2, 'Payment received'],
  [3, 'Identity verified'],
  [4, 'Exchange order executed'],
  [7, 'Withdrawal requested'],
  [6, 'Transaction created'],
  [0, 'Complete'],
];

/** Other states a buyer may meet (created, waiting for the store, confirmed by it). */
const OTHER_WORDS: Readonly<Record<number, string>> = {
  1: 'Waiting for your payment',
  8: 'Waiting for the store to confirm',
  9: 'Confirmed by the store',
};

/** Why a declined operation ended, as the buyer reads it. */
export const REASON_WORDS: Readonly<Record<number, string>> = {
  101: 'payment refused',
  102: 'cancelled before payment',
  103: 'identity verification failed',
  104: 'card verification failed',
  105: 'the rate hold expired',
  106: 'cancelled by the store',
};

/** The state of an operation in words ("Complete", "Not completed: card verification failed"). */
export function statusWords(status: string, code: number): string {
  if (status === 'declined') {
    return `Not completed: ${REASON_WORDS[code] ?? 'declined'}`;
  }
  const step = STEP_WORDS.find(([c]) => c === code);
  return step ? step[1] : (OTHER_WORDS[code] ?? 'In progress');
}

/**
 * The order a partner_operation_id stands for, when it has the form the
 * project's WooCommerce checkout writes (`wc-<order id>-<random hex>`,
 * docs/decisions.md "Checkout: partner_operation_id and payment attempts"),
 * else null: the service cannot know another partner's form, so other ids are
 * shown as the partner's reference, as they are.
 */
export function orderNumber(partnerOperationId: string): string | null {
  const match = /^wc-([1-9]\d{0,18})-[0-9a-f]{8,64}$/.exec(partnerOperationId);
  return match ? match[1]! : null;
}

/** "Order 42" or "Reference abc" for a partner_operation_id; '' without one. */
export function referenceWords(partnerOperationId: string): string {
  if (partnerOperationId === '') {
    return '';
  }
  const order = orderNumber(partnerOperationId);
  return order ? `order ${order}` : `reference ${partnerOperationId}`;
}

/**
 * Whom the buyer pays: the partner's name (what the service knows of it from
 * onboarding: the partners file), else the host of `address` (a page of the
 * partner's site: the landing link's success address, the page the widget runs
 * on), else ''.
 */
export function payeeName(partners: { name: (token: string) => string | null }, partnerToken: string, address: string): string {
  const name = partners.name(partnerToken);
  if (name) {
    return name;
  }
  try {
    return address ? new URL(address).host : '';
  } catch {
    return '';
  }
}
