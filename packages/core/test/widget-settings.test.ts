import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verify } from '../src/signing/index.js';
import { ValidationError } from '../src/validation.js';
import { buildSignedWidgetSettings } from '../src/widget-settings-builder.js';
import { type UnsignedWidgetSettings, validateWidgetSettings } from '../src/widget-settings.js';

const SECRET = 'widget-secret-Ω-1';
const SIG = 'ab'.repeat(64);

const base = { target_element: 'widget', partner_token: 'tok_1', timestamp: 1_700_000_000_000, signature: SIG };
const rules = (input: unknown, options = {}): string[][] => validateWidgetSettings(input, options).map((p) => [p.field, p.rule]);

test('valid signed settings have no problems', () => {
  assert.deepEqual(rules(base), []);
  assert.deepEqual(
    rules({
      ...base,
      from_currency: 'EUR',
      from_amount: 10050,
      to_currency: 'BTC',
      to_amount: 150000,
      to_account: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      lang: 'de',
      user_login: 'buyer@example.com',
      partner_operation_id: 'order-42',
      partner_css: 'https://shop.example/wp-content/uploads/card2crypto/widget.css',
      calculation_id: '3f2b9c1e-0d4a-4b7e-9f00-1a2b3c4d5e6f',
      onLoaded: () => {},
      onOperationSuccess: () => {},
    }),
    [],
  );
});

test('every problem is reported at once, with field and rule, in setting order', () => {
  const problems = validateWidgetSettings({
    partner_token: '',
    timestamp: 1_700_000_000, // seconds
    signature: 'xyz',
    from_amount: 12.5,
    to_currency: 'btc',
    to_amount: 2 ** 53,
    to_account: 'not a wallet',
    lang: 'EN',
    user_login: 'someone',
    partner_css: 'javascript:alert(1)',
    calculation_id: 'has space',
    fromAmount: 100,
    onLoaded: 'not a function',
  });
  assert.deepEqual(
    problems.map((p) => [p.field, p.rule]),
    [
      ['target_element', 'required'],
      ['partner_token', 'required'],
      ['timestamp', 'timestamp'],
      ['signature', 'signature'],
      ['from_amount', 'requires'],
      ['from_amount', 'minor_amount'],
      ['to_currency', 'crypto_currency'],
      ['to_amount', 'safe_integer'],
      ['to_account', 'wallet_address'],
      ['lang', 'lang'],
      ['user_login', 'email'],
      ['partner_css', 'url'],
      ['calculation_id', 'calculation_id'],
      ['onLoaded', 'handler'],
      ['fromAmount', 'unknown_field'],
    ],
  );
  const message = (field: string): string => problems.find((p) => p.field === field)!.message;
  assert.match(message('to_amount'), /not a safe integer/);
  assert.match(message('to_currency'), /exactly "BTC"/);
  assert.match(message('lang'), /lower case: "en"/);
  assert.match(message('timestamp'), /looks like seconds/);
  assert.match(message('from_amount'), /from_currency/);
});

test('amounts: requires, positive integers, per-currency limits in minor units', () => {
  assert.deepEqual(rules({ ...base, to_amount: 100 }), [['to_amount', 'requires']]);
  assert.deepEqual(rules({ ...base, from_currency: 'EUR', from_amount: 4999 }), [['from_amount', 'min']]);
  assert.deepEqual(rules({ ...base, from_currency: 'EUR', from_amount: 5000 }), []);
  assert.deepEqual(rules({ ...base, from_currency: 'EUR', from_amount: 500000 }), []);
  assert.deepEqual(rules({ ...base, from_currency: 'EUR', from_amount: 500001 }), [['from_amount', 'max']]);
  assert.deepEqual(rules({ ...base, from_currency: 'KRW', from_amount: 99999 }), [['from_amount', 'min']]);
  assert.deepEqual(rules({ ...base, from_currency: 'KRW', from_amount: 20000000 }), []);
  assert.deepEqual(rules({ ...base, from_currency: 'BHD', from_amount: 30000 }), []);
  assert.deepEqual(rules({ ...base, from_currency: 'BHD', from_amount: 29999 }), [['from_amount', 'min']]);
  assert.deepEqual(rules({ ...base, from_currency: 'VND', from_amount: 150000000 }), []);
  assert.deepEqual(rules({ ...base, from_currency: 'EUR', from_amount: 0 }), [['from_amount', 'minor_amount']]);
  assert.deepEqual(rules({ ...base, from_currency: 'EUR', from_amount: -5000 }), [['from_amount', 'minor_amount']]);
  assert.deepEqual(rules({ ...base, from_currency: 'EUR', from_amount: '5000' }), [['from_amount', 'type']]);
  assert.deepEqual(rules({ ...base, from_currency: 'EUR', from_amount: Number.NaN }), [['from_amount', 'minor_amount']]);
  assert.match(validateWidgetSettings({ ...base, from_currency: 'EUR', from_amount: 4999 })[0]!.message, /49\.99 EUR.*minimum 50\.00 EUR \(5000 minor units\)/);
  assert.deepEqual(rules({ ...base, to_currency: 'ETH', to_amount: Number.MAX_SAFE_INTEGER }), []);
  assert.deepEqual(rules({ ...base, to_currency: 'ETH', to_amount: 1e18 }), [['to_amount', 'safe_integer']]);
  assert.deepEqual(rules({ ...base, to_currency: 'BTC', to_amount: 0.5 }), [['to_amount', 'minor_amount']]);
  assert.deepEqual(rules({ ...base, to_currency: 'BTC', to_amount: 10n }), [['to_amount', 'type']]);
});

test('currencies: upper-case ISO 4217 codes from the table, crypto symbols exactly as the service writes them', () => {
  assert.deepEqual(rules({ ...base, from_currency: 'eur' }), [['from_currency', 'fiat_currency']]);
  assert.match(validateWidgetSettings({ ...base, from_currency: 'eur' })[0]!.message, /upper case: "EUR"/);
  assert.match(validateWidgetSettings({ ...base, from_currency: 'JPY' })[0]!.message, /not supported/);
  assert.match(validateWidgetSettings({ ...base, from_currency: 'EURO' })[0]!.message, /three-letter/);
  assert.deepEqual(rules({ ...base, to_currency: '056075bf-715f-4174-b841-e9a77c18328e' }), []);
  assert.deepEqual(rules({ ...base, to_currency: '1E37B77-E0F5-4023-A98E-03156595A80B' }), []);
  assert.deepEqual(rules({ ...base, to_currency: 'DOGE' }), [['to_currency', 'crypto_currency']]);
});

test('wallet addresses by chain', () => {
  const withCurrency = (to_currency: string, to_account: string): string[][] => rules({ ...base, to_currency, to_account });
  assert.deepEqual(withCurrency('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'), []);
  assert.deepEqual(withCurrency('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'), [['to_account', 'btc_address']]);
  assert.deepEqual(
    rules({ ...base, to_currency: 'BTC', to_account: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7' }, { btcNetworks: ['mainnet'] }),
    [['to_account', 'btc_address']],
  );
  assert.deepEqual(withCurrency('ETH', '0x52908400098527886E0F7030069857D2E4169EE7'), []);
  assert.deepEqual(withCurrency('BEP20USDT', '0x5290840009852788'), [['to_account', 'wallet_address']]);
  assert.deepEqual(withCurrency('TRX', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8'), []);
  assert.deepEqual(withCurrency('TRC20USDT', '0x52908400098527886E0F7030069857D2E4169EE7'), [['to_account', 'wallet_address']]);
  assert.deepEqual(withCurrency('NEAR', 'alice.near'), []);
});

test('types, nulls, non-objects, unsigned mode', () => {
  assert.deepEqual(rules(null), [['', 'object']]);
  assert.deepEqual(rules([base]), [['', 'object']]);
  assert.deepEqual(rules({ ...base, lang: null }), [['lang', 'type']]);
  assert.deepEqual(rules({ ...base, target_element: null }), [['target_element', 'required']]);
  assert.deepEqual(rules({ ...base, lang: undefined }), []);
  assert.deepEqual(rules({ ...base, partner_operation_id: 42 }), [['partner_operation_id', 'type']]);
  assert.deepEqual(rules({ ...base, partner_operation_id: '' }), [['partner_operation_id', 'not_empty']]);
  assert.deepEqual(rules({ ...base, target_element: 'my widget' }), [['target_element', 'html_id']]);
  assert.deepEqual(rules({ target_element: 'w', partner_token: 't' }, { signed: false }), []);
  assert.deepEqual(rules({ target_element: 'w', partner_token: 't', timestamp: 1, signature: SIG }, { signed: false }), [
    ['timestamp', 'set_by_builder'],
    ['signature', 'set_by_builder'],
  ]);
  assert.deepEqual(rules({ target_element: 'w', partner_token: 't' }), [
    ['timestamp', 'required'],
    ['signature', 'required'],
  ]);
});

test('builder stamps timestamp, signs the simple form, and the signature verifies', () => {
  const settings: UnsignedWidgetSettings = {
    target_element: 'card2crypto-widget',
    partner_token: 'tok_1',
    from_currency: 'EUR',
    from_amount: 10050,
    to_currency: 'BTC',
    to_account: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    partner_operation_id: 'заказ-42 «café»',
    lang: undefined,
  };
  const copy = structuredClone(settings);
  const signed = buildSignedWidgetSettings(settings, { secret: SECRET, now: () => 1_700_000_000_123 });
  assert.deepEqual(settings, copy, 'input not modified');
  assert.equal(signed.timestamp, 1_700_000_000_123);
  assert.ok(!('lang' in signed), 'undefined settings are dropped');
  assert.match(signed.signature, /^[0-9a-f]{128}$/);
  // Independent recomputation of the simple form: name:value lines, ordinal sort, ';', HMAC-SHA512 hex.
  const { signature, ...rest } = signed;
  const canonical = Object.entries(rest)
    .map(([k, v]) => `${k}:${String(v)}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .join(';');
  assert.equal(signature, createHmac('sha512', SECRET).update(canonical, 'utf8').digest('hex'));
  assert.deepEqual(verify(signed, SECRET).ok, true);
  assert.deepEqual(verify({ ...signed, from_amount: 10051 }, SECRET).ok, false);
  assert.deepEqual(validateWidgetSettings(signed), []);
  const now = Date.now();
  assert.ok(Math.abs(buildSignedWidgetSettings(settings, { secret: SECRET }).timestamp - now) < 5000, 'defaults to the clock');
});

test('builder refuses invalid settings with every problem', () => {
  assert.throws(
    () =>
      buildSignedWidgetSettings({ target_element: '', partner_token: 'tok', from_amount: 1, to_currency: 'XXX' } as UnsignedWidgetSettings, {
        secret: SECRET,
      }),
    (error: unknown) =>
      error instanceof ValidationError &&
      JSON.stringify(error.problems.map((p) => [p.field, p.rule])) ===
        JSON.stringify([
          ['target_element', 'required'],
          ['from_amount', 'requires'],
          ['to_currency', 'crypto_currency'],
        ]),
  );
  assert.throws(
    () => buildSignedWidgetSettings({ target_element: 'w', partner_token: 't', timestamp: 5 } as UnsignedWidgetSettings, { secret: SECRET }),
    ValidationError,
  );
  assert.throws(() => buildSignedWidgetSettings({ target_element: 'w', partner_token: 't' }, { secret: '' }), TypeError);
});

test('the browser entry never reaches node: modules, the signing code or the key parser; its only packages are @scure/base and @noble/hashes', () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const start = resolve(here, '../src/browser.js');
  const seen = new Set<string>();
  const packages = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) {
      continue;
    }
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const specifier = (match[1] ?? match[2])!;
      if (specifier.startsWith('.')) {
        stack.push(resolve(dirname(file), specifier));
        continue;
      }
      // The audited encodings and hashes (README, "Dependency policy"), walked into as well.
      assert.match(specifier, /^@(scure\/base|noble\/hashes\/[\w.]+)$/, `${file} imports ${specifier}`);
      packages.add(specifier.split('/').slice(0, 2).join('/'));
      stack.push(createRequire(file).resolve(specifier));
    }
  }
  assert.ok(seen.size >= 10, `walked ${seen.size} modules`);
  assert.deepEqual([...packages].sort(), ['@noble/hashes', '@scure/base']);
  for (const file of seen) {
    assert.ok(!file.includes('/signing/'), `browser bundle reaches ${file}`);
    assert.ok(!file.includes('/bip32/'), `browser bundle reaches the key parser: ${file}`);
  }
});
