/**
 * What a buyer types never makes an ambiguous callback: the widget's pay
 * step refuses a card holder name with ";" (it would let the name be read
 * as extra lines of the signed canonical string).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PARTNER, post, startTestSandbox, type TestSandbox } from './helpers.js';

const WALLET = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';

describe('card holder name', () => {
  let sandbox: TestSandbox;
  let api: string;
  before(async () => {
    sandbox = await startTestSandbox();
    api = new URL('/widget/api/', sandbox.urls.widget_script_url).href;
    sandbox.context.store.insertSession({
      id: 'sess-1',
      partnerToken: PARTNER.token,
      settings: { partner_operation_id: 'wc-1-abc' },
      parentOrigin: 'http://shop.test',
      instance: 'i1',
      createdAt: Date.now(),
    });
  });
  after(() => sandbox?.dispose());

  const start = async () => {
    const reply = await post(
      api + 'operations',
      JSON.stringify({
        session: 'sess-1',
        from_currency: 'EUR',
        to_currency: 'BTC',
        from_amount: '5000',
        to_account: WALLET,
        email: 'buyer@example.com',
        country: 'DE',
      }),
    );
    assert.equal(reply.status, 200, reply.text);
    return (JSON.parse(reply.text) as { operation_id: string }).operation_id;
  };
  const pay = (id: string, holder: string) =>
    post(
      api + `operations/${encodeURIComponent(id)}/pay`,
      JSON.stringify({ session: 'sess-1', card_number: '4242 4242 4242 4242', card_holder: holder, expiry_month: '12', expiry_year: '2039', cvc: '123' }),
    );

  it('refuses ";" in the name, naming the field', async () => {
    const reply = await pay(await start(), 'x;operation_data:status:success');
    assert.equal(reply.status, 400, reply.text);
    assert.equal((JSON.parse(reply.text) as { error: { field: string } }).error.field, 'card_holder');
  });

  it('accepts an ordinary name, ":" included', async () => {
    const reply = await pay(await start(), "Anne-Marie O'Neil: Jr.");
    assert.equal(reply.status, 200, reply.text);
  });
});
