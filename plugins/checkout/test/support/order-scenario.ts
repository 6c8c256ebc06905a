/**
 * The store every PHP scenario of the checkout's order logic starts from
 * (test/php/admin.php, callback.php, events.php read it from scenario.json):
 * the gateway set up for the sandbox environment, order 7 of EUR 79.00
 * awaiting payment, and its one attempt, not yet heard of by the service.
 */
export const WALLET = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
export const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';
/** The attempt's partner operation id (what the service echoes in partner_info.operation_id). */
export const POID = 'wc-7-00112233445566778899aabb';

export interface ScenarioChanges {
  /** Settings that differ from the sandbox set-up. */
  settings?: Record<string, string>;
  /** The order's status and total, if not pending and 79.00. */
  order?: { status?: string; total?: string };
  /** What the PHP script plays: `steps`, `requests`, … */
  [key: string]: unknown;
}

export function orderScenario({ settings = {}, order = {}, ...rest }: ScenarioChanges = {}): Record<string, unknown> {
  return {
    settings: {
      enabled: 'yes',
      partner_token: 'tok-1',
      partner_secret: SECRET,
      wallet_address: WALLET,
      store_currency: 'EUR',
      environment: 'sandbox',
      base_url: 'https://service.test',
      debug_logging: 'no',
      ...settings,
    },
    order: { id: 7, status: order.status ?? 'pending', total: order.total ?? '79.00', currency: 'EUR', meta: { _card2crypto_partner_operation_id: POID } },
    attempts: [
      {
        order_id: 7,
        partner_operation_id: POID,
        expected_amount: 7900,
        expected_currency: 'EUR',
        expected_wallet: WALLET,
        status: '',
        status_code: -1,
        version: 0,
      },
    ],
    ...rest,
  };
}
