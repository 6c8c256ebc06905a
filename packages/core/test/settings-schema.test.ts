import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FIAT_CURRENCIES } from '../src/reference/fiat.js';
import { type Field, type PluginId, SANDBOX_SERVICE_URLS, SETTINGS_SCHEMA, settingsSchemaJson } from '../src/settings-schema.js';
import { validateSettings } from '../src/settings-validator.js';
import { settingsRuleVectorsJson } from '../src/settings-vectors.js';
import { THEME_PROPERTIES } from '../src/theme.js';

// dist/test/ -> package root
const committed = (path: string): string => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const STALE = 'stale: run `npx tsc -b packages/core && node packages/core/dist/scripts/export-settings-schema.js` and commit';

test('committed schema/settings.json is up to date', () => {
  assert.equal(committed('schema/settings.json'), settingsSchemaJson(), STALE);
});

test('committed schema/rule-vectors.json is up to date', () => {
  assert.equal(committed('schema/rule-vectors.json'), settingsRuleVectorsJson(), STALE);
});

const fieldsOf = (plugin: PluginId): Field[] => SETTINGS_SCHEMA.plugins[plugin].fields;
const field = (plugin: PluginId, id: string): Field => {
  const f = fieldsOf(plugin).find((x) => x.id === id);
  assert.ok(f, `${plugin}.${id}`);
  return f;
};
const rules = (plugin: PluginId, values: unknown, options = {}): string[][] => validateSettings(plugin, values, options).problems.map((p) => [p.field, p.rule]);

test('shape: documented fields of both plugins, well formed', () => {
  const json = JSON.parse(settingsSchemaJson());
  assert.equal(json.version, 1);
  assert.deepEqual(Object.keys(json.plugins), ['checkout', 'widget']);
  assert.deepEqual(
    fieldsOf('checkout').map((f) => f.id),
    [
      'enabled',
      'title',
      'description',
      'wallet_mode',
      'wallet_address',
      'wallet_key_secret',
      'gap_limit',
      'store_currency',
      'payment_flow',
      'auto_confirm',
      'fix_rate',
      'partner_token',
      'partner_secret',
      'environment',
      'base_url',
      'widget_script_url',
      'landing_url',
      'callback_ips',
      'trust_proxy_header',
      'service_rate',
      'reconcile_rate',
      'debug_logging',
      'delete_data_on_uninstall',
    ],
  );
  assert.deepEqual(
    fieldsOf('widget').map((f) => f.id),
    [
      'title',
      'partner_token',
      'partner_secret',
      'default_fiat_currency',
      'default_amount',
      'default_crypto_currency',
      'default_language',
      'environment',
      'base_url',
      'widget_script_url',
      'landing_url',
      'color_primary_fill',
      'color_primary_text',
      'color_secondary_text',
      'color_form_stroke_color',
      'color_background_color',
      'color_success_color',
      'color_warning_color',
      'color_box_shadow',
      'delete_data_on_uninstall',
    ],
  );
  const types = new Set(['checkbox', 'text', 'textarea', 'secret', 'select', 'url', 'amount', 'color', 'email']);
  for (const plugin of ['checkout', 'widget'] as const) {
    const schema = SETTINGS_SCHEMA.plugins[plugin];
    const ids = new Set(schema.fields.map((f) => f.id));
    assert.equal(ids.size, schema.fields.length, 'unique ids');
    const groups = new Set(schema.groups.map((g) => g.id));
    for (const f of schema.fields) {
      const where = `${plugin}.${f.id}`;
      assert.match(f.id, /^[a-z][a-z0-9_]*$/, where);
      assert.ok(types.has(f.type), where);
      assert.ok(f.label.length > 0 && f.help.length > 0, where);
      assert.ok(groups.has(f.group), `${where} group ${f.group}`);
      assert.equal(typeof f.required, 'boolean', where);
      assert.equal(typeof f.secret, 'boolean', where);
      assert.equal(typeof f.default, f.type === 'checkbox' ? 'boolean' : 'string', where);
      for (const c of f.requiredWhen ?? []) {
        assert.ok(ids.has(c.field), `${where} requiredWhen ${c.field}`);
      }
      if (f.type === 'select') {
        assert.ok(f.options && f.options.length > 0, where);
        assert.ok(
          f.options.some((o) => o.value === f.default),
          `${where} default is an option`,
        );
        if (f.rule.kind === 'enum') {
          assert.deepEqual(
            f.rule.values,
            f.options.map((o) => o.value),
            where,
          );
        }
      }
      if (f.rule.kind === 'minor_amount') {
        assert.ok(ids.has(f.rule.currencyField), where);
      }
      if (f.rule.kind === 'btc_address') {
        assert.ok(ids.has(f.rule.environmentField), where);
      }
    }
  }
  for (const plugin of ['checkout', 'widget'] as const) {
    const secret = field(plugin, 'partner_secret');
    assert.deepEqual([secret.type, secret.secret, secret.constant], ['secret', true, 'CARD2CRYPTO_PARTNER_SECRET']);
    assert.equal(field(plugin, 'partner_token').constant, 'CARD2CRYPTO_PARTNER_TOKEN');
    assert.deepEqual(
      field(plugin, 'environment').options!.map((o) => o.value),
      ['sandbox', 'production'],
    );
    assert.equal(field(plugin, 'environment').default, 'sandbox');
    for (const id of ['base_url', 'widget_script_url', 'landing_url'] as const) {
      assert.equal(field(plugin, id).environmentDefaults?.sandbox, SANDBOX_SERVICE_URLS[id]);
    }
  }
  assert.deepEqual(
    fieldsOf('checkout')
      .filter((f) => f.secret)
      .map((f) => f.id),
    ['wallet_key_secret', 'partner_secret'],
    'the partner secret and the wallet key (it reveals every address of the wallet) are secret',
  );
  assert.equal(field('checkout', 'wallet_address').rule.kind, 'btc_address');
  assert.deepEqual(
    field('checkout', 'store_currency')
      .options!.slice(1)
      .map((o) => o.value),
    FIAT_CURRENCIES.map((c) => c.code),
  );
  assert.deepEqual(
    THEME_PROPERTIES.map((t) => {
      const f = fieldsOf('widget').find((x) => x.rule.kind === 'color' && x.rule.property === t.cssVar)!;
      return [f.type, f.default];
    }),
    THEME_PROPERTIES.map((t) => ['color', t.default]),
  );
  assert.equal(json.reference.fiat.find((c: { code: string }) => c.code === 'BHD').maxMinor, 2000000);
});

test("the widget language offers the site's language and the payment page's languages; any ISO 639-1 code stays valid (issue 32, point 7)", () => {
  const lang = field('widget', 'default_language');
  assert.deepEqual(lang.options, [
    { value: '', label: 'Site language' },
    { value: 'en', label: 'English (en)' },
    { value: 'de', label: 'German (de)' },
    { value: 'es', label: 'Spanish (es)' },
    { value: 'fr', label: 'French (fr)' },
  ]);
  assert.match(lang.help, /else English/);
  // PHP reads both lists from the exported JSON: what the rule accepts, and what the page is offered in.
  const json = JSON.parse(settingsSchemaJson());
  assert.equal(json.reference.languages.length, 183);
  assert.deepEqual(json.reference.languages[0], { code: 'aa', name: 'Afar' });
  assert.deepEqual(json.reference.paymentPageLanguages, ['en', 'de', 'es', 'fr']);
  const creds = { partner_token: 'tok', partner_secret: 'sec' };
  // An older save outside the list keeps validating; a non-code does not.
  assert.deepEqual(rules('widget', { ...creds, default_language: 'ja' }), []);
  assert.equal(validateSettings('widget', { ...creds, default_language: 'ja' }).values.default_language, 'ja');
  assert.deepEqual(rules('widget', { ...creds, default_language: 'jp' }), [['default_language', 'lang']]);
});

test('defaults are valid (checkout disabled; widget once credentials exist)', () => {
  assert.deepEqual(rules('checkout', {}), []);
  const result = validateSettings('widget', { partner_token: 't', partner_secret: 's' });
  assert.deepEqual(result.problems, []);
  assert.equal(result.values.default_fiat_currency, 'EUR');
  assert.equal(result.values.color_box_shadow, 'rgba(40, 51, 78, 0.3)');
  assert.equal(Object.keys(result.values).length, fieldsOf('widget').length);
});

test('required fields apply when their conditions hold; constants and stored secrets satisfy them', () => {
  assert.deepEqual(rules('checkout', { enabled: 'yes' }), [
    ['wallet_address', 'required'],
    ['partner_token', 'required'],
    ['partner_secret', 'required'],
  ]);
  assert.deepEqual(rules('checkout', { enabled: 'yes', title: '   ' }).slice(0, 1), [['title', 'required']]);
  const wallet = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
  assert.deepEqual(
    rules('checkout', { enabled: true, wallet_address: wallet }, { definedConstants: ['CARD2CRYPTO_PARTNER_TOKEN', 'CARD2CRYPTO_PARTNER_SECRET'] }),
    [],
  );
  const kept = validateSettings(
    'checkout',
    { enabled: true, wallet_address: wallet, partner_token: 't', partner_secret: '' },
    { stored: { partner_secret: 'old-secret' } },
  );
  assert.deepEqual(kept.problems, []);
  assert.equal(kept.values.partner_secret, 'old-secret');
  assert.deepEqual(rules('checkout', { enabled: true, environment: 'production', wallet_address: wallet, partner_token: 't', partner_secret: 's' }), [
    ['base_url', 'required'],
    ['widget_script_url', 'required'],
    ['landing_url', 'required'],
  ]);
});

test('rules: wallet by environment, amounts exact in the currency, colours, lists, types', () => {
  const testnet = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
  assert.deepEqual(rules('checkout', { wallet_address: testnet }), []);
  assert.deepEqual(rules('checkout', { wallet_address: testnet, environment: 'production' }), [['wallet_address', 'btc_address']]);
  assert.match(validateSettings('checkout', { wallet_address: testnet, environment: 'production' }).problems[0]!.message, /testnet address; expected mainnet/);

  const creds = { partner_token: 't', partner_secret: 's' };
  const amount = (default_amount: string, default_fiat_currency = 'EUR') => validateSettings('widget', { ...creds, default_amount, default_fiat_currency });
  assert.equal(amount('100').values.default_amount, '100.00');
  assert.equal(amount('30.5', 'BHD').values.default_amount, '30.500');
  assert.equal(amount('100000', 'KRW').values.default_amount, '100000');
  assert.deepEqual(
    amount('100.5', 'KRW').problems.map((p) => p.rule),
    ['minor_amount'],
  );
  assert.match(amount('100.5', 'KRW').problems[0]!.message, /whole amounts only/);
  assert.match(amount('49.99').problems[0]!.message, /between 50\.00 and 5000\.00 EUR/);
  assert.deepEqual(amount('5000').problems, []);
  assert.deepEqual(
    amount('1e3').problems.map((p) => p.rule),
    ['minor_amount'],
  );

  const colours = validateSettings('widget', { ...creds, color_primary_fill: '#ABCDEF', color_primary_text: 'expression(alert(1))' });
  assert.equal(colours.values.color_primary_fill, '#abcdef');
  assert.deepEqual(
    colours.problems.map((p) => [p.field, p.rule]),
    [['color_primary_text', 'color']],
  );
  assert.equal(colours.values.color_primary_text, 'expression(alert(1))', 'invalid value kept to show again');

  const ips = validateSettings('checkout', { callback_ips: '198.51.100.7,  2001:db8::/48\n\n::1' });
  assert.equal(ips.values.callback_ips, '198.51.100.7\n2001:db8::/48\n::1');
  assert.match(validateSettings('checkout', { callback_ips: '198.51.100.7\n300.1.1.1\n10.0.0.0/40' }).problems[0]!.message, /300\.1\.1\.1, 10\.0\.0\.0\/40/);

  assert.deepEqual(rules('checkout', { enabled: 'maybe', title: 5, description: ['x'], nonsense: 1 }), [
    ['nonsense', 'unknown_field'],
    ['enabled', 'boolean'],
    ['title', 'type'],
    ['description', 'type'],
  ]);
  assert.deepEqual(rules('checkout', 'enabled=yes'), [['', 'type']]);
  assert.throws(() => validateSettings('shop' as PluginId, {}), TypeError);
});

test('problem messages never carry a secret value', () => {
  const secret = 'my secret value';
  const result = validateSettings('checkout', { partner_secret: secret });
  assert.deepEqual(
    result.problems.map((p) => [p.field, p.rule]),
    [['partner_secret', 'text']],
  );
  for (const p of result.problems) {
    assert.ok(!p.message.includes(secret), p.message);
  }
});

test('production refuses the sandbox addresses with a message that says why, naming the field', () => {
  const problems = validateSettings('checkout', {
    environment: 'production',
    base_url: 'http://api.example.com',
    landing_url: 'https://[::ffff:10.0.0.1]/l',
  }).problems;
  assert.deepEqual(
    problems.map((p) => [p.field, p.message]),
    [
      ['base_url', 'API address: production needs an https:// address.'],
      [
        'landing_url',
        'Landing page address: production cannot use this computer or a private network (localhost, 127.x, 10.x, 192.168.x, ...): that is the sandbox. Enter the address your partner manager gave you, or choose the sandbox environment.',
      ],
    ],
  );
});

test("the service's environment and addresses are the partner's in both plugins, changed only with unfiltered_html", () => {
  assert.equal(SETTINGS_SCHEMA.partnerOnlyCapability, 'unfiltered_html');
  for (const plugin of ['checkout', 'widget'] as const) {
    assert.deepEqual(
      SETTINGS_SCHEMA.plugins[plugin].fields.filter((f) => f.partnerOnly).map((f) => f.id),
      // The checkout's store-wide requests a second to the service too (issue 33): the partner's limit is the partner's.
      ['environment', 'base_url', 'widget_script_url', 'landing_url', ...(plugin === 'checkout' ? ['service_rate'] : [])],
      plugin,
    );
  }
});

test("a shop manager's change of the widget script address is refused, naming the field; the rest of the save is judged as usual", () => {
  const stored = { widget_script_url: 'https://cdn.example.com/widget.js', environment: 'production' };
  const refused = validateSettings(
    'checkout',
    { title: 'Card', widget_script_url: 'https://attacker.example/x.js' },
    { stored, mayChangePartnerSettings: false },
  );
  assert.deepEqual(
    refused.problems.map((p) => [p.field, p.rule, p.message]),
    [
      [
        'widget_script_url',
        'partner_only',
        "Widget script address: only a user who may add unfiltered code (an administrator; on a multisite network, a super admin) can change the payment service's environment and addresses.",
      ],
    ],
  );
  // Left out, the environment kept its stored value (a disabled select is not sent).
  assert.equal(refused.values.environment, 'production');
  // The same save by a user who may add unfiltered code.
  assert.deepEqual(validateSettings('checkout', { widget_script_url: 'https://cdn2.example.com/w.js' }, { stored }).problems, []);
});

test('the client address header is one of the forwarding headers proxies set', () => {
  for (const header of ['X-Forwarded-For', 'X-Real-IP', 'CF-Connecting-IP', 'True-Client-IP', 'Forwarded', '']) {
    assert.deepEqual(validateSettings('checkout', { trust_proxy_header: header }).problems, [], header);
  }
  for (const header of ['Host', 'REMOTE_ADDR', 'Remote-Addr', 'X-Client-IP', 'x-forwarded-for']) {
    assert.deepEqual(
      validateSettings('checkout', { trust_proxy_header: header }).problems.map((p) => [p.field, p.rule]),
      [['trust_proxy_header', 'enum']],
      header,
    );
  }
});

test('help texts speak to the owner: no raw spec placeholders, no fixed address of one machine', () => {
  for (const plugin of ['checkout', 'widget'] as const) {
    for (const f of fieldsOf(plugin)) {
      assert.doesNotMatch(f.help, /\{[a-z_]+\}/, `${plugin}.${f.id}: a spec placeholder in its help`);
      assert.doesNotMatch(
        f.help,
        /127\.0\.0\.1|localhost/,
        `${plugin}.${f.id}: an address of one machine in its help (the empty field's placeholder shows it)`,
      );
    }
  }
  // The empty field still shows where the sandbox is.
  assert.equal(field('checkout', 'base_url').placeholder, SANDBOX_SERVICE_URLS.base_url);
});

test('a new address per order: the key is required in that mode only, checked for its network, a private key refused with why', async () => {
  const { validateSettings: validateOnServer } = await import('../src/index.js');
  const zpub = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
  const vpub = 'vpub5a4dEdDnep63MvxDLiqv26g1p6LS4uq2KhUq6gmaJhgzVLuVB19FJ8Deb4UbNg3Pv4UXq2AxawQgg6mRCeSWX7Eor8SG3omJPhuVgtwya1o';
  const on = { enabled: true, partner_token: 't', partner_secret: 's' };
  const problems = (values: Record<string, unknown>) => validateOnServer('checkout', values).problems.map((p) => `${p.field} ${p.rule}: ${p.message}`);
  // One address: the key is not asked for; a new address per order: the key is, the address is not.
  assert.deepEqual(problems({ ...on, wallet_address: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7' }), []);
  assert.deepEqual(problems({ ...on, wallet_mode: 'xpub' }), ['wallet_key_secret required: Extended public key or descriptor is required.']);
  // The sandbox takes testnet keys (no real bitcoin to a test store); production mainnet ones.
  const sandboxZpub = problems({ ...on, wallet_mode: 'xpub', wallet_key_secret: zpub });
  assert.equal(sandboxZpub.length, 1);
  assert.match(
    sandboxZpub[0]!,
    /^wallet_key_secret wallet_key: Extended public key or descriptor: This is a mainnet key \(zpub\); the sandbox takes testnet keys/,
  );
  const ok = validateOnServer('checkout', { ...on, wallet_mode: 'xpub', wallet_key_secret: ` ${vpub}\n` });
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.values.wallet_key_secret, vpub, 'stored trimmed');
  const xprv = problems({
    wallet_mode: 'xpub',
    wallet_key_secret: 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
  });
  assert.equal(xprv.length, 1);
  assert.match(xprv[0]!, /^wallet_key_secret wallet_key: .*private/i);
  assert.ok(!xprv[0]!.includes('xprv9s21'), 'the refusal never repeats the key');
  // The browser entry has no key parser: a key is never checked (or seen) there.
  assert.deepEqual(rules('checkout', { wallet_mode: 'xpub', wallet_key_secret: vpub }), [['wallet_key_secret', 'wallet_key']]);
  assert.deepEqual(rules('checkout', { gap_limit: '1001' }), [['gap_limit', 'text']]);
  assert.deepEqual(rules('checkout', { gap_limit: '1000' }), []);
  // Background checks stay under the store-wide service rate's default range (issue 33): at most 20 a second.
  for (const rate of ['0', '21', '100', '2.5', '-1', 'ten', '010']) {
    assert.deepEqual(rules('checkout', { reconcile_rate: rate }), [['reconcile_rate', 'text']], rate);
  }
  for (const rate of ['1', '10', '20']) {
    assert.deepEqual(rules('checkout', { reconcile_rate: rate }), [], rate);
  }
  for (const rate of ['0', '101', '2.5', 'ten', '010']) {
    assert.deepEqual(rules('checkout', { service_rate: rate }), [['service_rate', 'text']], rate);
  }
  for (const rate of ['1', '10', '100']) {
    assert.deepEqual(rules('checkout', { service_rate: rate }), [], rate);
  }
});

test('the wallet key has a maximum length in the schema, checked before the key is read, in the browser entry too (issue 31, point 4)', async () => {
  const { validateSettings: validateOnServer, WALLET_KEY_MAX_LENGTH } = await import('../src/index.js');
  assert.deepEqual(field('checkout', 'wallet_key_secret').rule, { kind: 'wallet_key', environmentField: 'environment', maxLength: WALLET_KEY_MAX_LENGTH });
  assert.equal(WALLET_KEY_MAX_LENGTH, 512);
  const huge = 'x'.repeat(200_000);
  for (const validate of [validateOnServer, validateSettings]) {
    const started = performance.now();
    const result = validate('checkout', { wallet_mode: 'xpub', wallet_key_secret: huge });
    assert.deepEqual(
      result.problems.map((p) => [p.field, p.rule, p.message]),
      [['wallet_key_secret', 'wallet_key', 'Extended public key or descriptor: at most 512 characters.']],
    );
    assert.ok(performance.now() - started < 2000);
  }
});
