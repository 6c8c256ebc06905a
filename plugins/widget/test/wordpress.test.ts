/**
 * The plugin's WordPress glue inside a real WordPress (Playground, PHP in
 * WebAssembly) over real HTTP: the three routes of
 * /wp-json/card2crypto-widget/v1 (permission callbacks, argument
 * validation naming the field, signing only what the site rendered, the
 * rate limit, the partner CSS file, the landing redirect, the secret in no
 * response), and the classic widget (registered, hidden from the Legacy
 * Widget block, sanitised and validated on save, rendered through the
 * block's render). Signatures are checked with @card2crypto/core.
 *
 * The browser flows are e2e/specs/widget-*.spec.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalString, hmacSha512Hex, parseLandingUrl, validateWidgetSettings } from '@card2crypto/core';
import { startWordPress, type WordPressSite } from './support/wordpress.js';

const SECRET = 'wp-widget-secret-Ω-7f3a9c';
const TOKEN = 'wp-widget-token-1';
const OPTION = 'card2crypto_widget_settings';
const SETTINGS = {
  title: 'Buy crypto',
  partner_token: TOKEN,
  partner_secret: SECRET,
  environment: 'sandbox',
  default_fiat_currency: 'EUR',
  default_amount: '50.00',
  default_crypto_currency: 'BTC',
  default_language: '',
  base_url: 'http://127.0.0.1:8787',
  widget_script_url: 'http://127.0.0.1:8787/widget.js',
  landing_url: 'http://127.0.0.1:8787/landing',
};
const SIGN = '/wp-json/card2crypto-widget/v1/sign';

interface Rendered {
  html: string;
  scripts: string[];
  styles: string[];
}
interface BlockRef {
  block: string;
  ref: string;
  target: string;
}
interface SignAnswer {
  script: string;
  results: { settings?: Record<string, string | number>; code?: string; message?: string; problems?: { field: string; rule: string; message: string }[] }[];
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&#0?38;|&amp;/g, '&');

/** Every widget container of a rendered page: what the view script sends to the sign route. */
function containers(html: string): BlockRef[] {
  return [...html.matchAll(/<div id="(c2c-widget-[0-9a-f]{12}-\d+)" class="c2c-widget__frame" data-c2c-ref="([0-9a-f]{64})" data-c2c-block="([^"]*)"/g)].map(
    (m) => ({
      target: m[1]!,
      ref: m[2]!,
      block: decode(m[3]!),
    }),
  );
}

/** Core's check of the simple-form signature with the secret. */
function signedBySecret(settings: Record<string, string | number>): boolean {
  const { signature, ...rest } = settings;
  return signature === hmacSha512Hex(canonicalString(rest, { form: 'simple' }), SECRET);
}

describe('the widget plugin inside WordPress', { timeout: 20 * 60_000 }, () => {
  let site: WordPressSite;
  /** Every response of the site in this suite, to look for the secret at the end. */
  const seen: { what: string; text: string }[] = [];

  const record = async (what: string, response: Response): Promise<{ status: number; headers: Headers; text: string }> => {
    const text = await response.text();
    seen.push({ what, text: `${JSON.stringify([...response.headers])}\n${text}` });
    return { status: response.status, headers: response.headers, text };
  };
  const sign = async (body: unknown) =>
    record('sign', await site.fetch(SIGN, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const render = async (content: string) => {
    const rendered = await site.probe<Rendered>({ action: 'render_blocks', content });
    seen.push({ what: 'render', text: rendered.html });
    return rendered;
  };

  before(async () => {
    site = await startWordPress('wordpress-test', 9470);
    await site.probe({ action: 'set_option', name: OPTION, value: SETTINGS });
  });
  after(async () => {
    await site?.stop();
  });

  test('every route has a permission callback and WordPress notices none missing', async () => {
    const routes = await site.probe<{ route: string; methods: string[]; permission: string | null }[]>({ action: 'routes' });
    const byRoute = Object.fromEntries(routes.map((r) => [r.route, r]));
    assert.deepEqual(Object.keys(byRoute).sort(), [
      '/card2crypto-widget/v1',
      '/card2crypto-widget/v1/go',
      '/card2crypto-widget/v1/partner.css',
      '/card2crypto-widget/v1/sign',
    ]);
    assert.deepEqual(byRoute['/card2crypto-widget/v1/sign']!.methods, ['POST']);
    assert.deepEqual(byRoute['/card2crypto-widget/v1/go']!.methods, ['GET']);
    assert.deepEqual(byRoute['/card2crypto-widget/v1/partner.css']!.methods, ['GET']);
    // Public by design (visitors are anonymous), stated explicitly rather than left out.
    for (const route of ['sign', 'go', 'partner.css']) {
      assert.equal(byRoute[`/card2crypto-widget/v1/${route}`]!.permission, '__return_true', route);
    }
    // Only the sign route answers POST.
    assert.equal((await record('GET sign', await site.fetch(SIGN))).status, 404);
    const log = path.join(site.siteDir, 'wp-content', 'debug.log');
    assert.doesNotMatch(existsSync(log) ? readFileSync(log, 'utf8') : '', /permission_callback/);
  });

  test('the sign route signs a rendered block at this moment, as core verifies, and says not to cache it', async () => {
    const page = await render(
      '<!-- wp:card2crypto/widget {"amount":"75","cryptoCurrency":"ETH","lang":"de"} /--><!-- wp:card2crypto/widget {"amount":"75","cryptoCurrency":"ETH","lang":"de"} /-->',
    );
    assert.ok(page.scripts.includes('card2crypto-widget-view'), `the view script is enqueued: ${page.scripts.join(', ')}`);
    const blocks = containers(page.html);
    assert.equal(blocks.length, 2);
    assert.equal(blocks[0]!.ref, blocks[1]!.ref, 'equal blocks share a reference');
    assert.deepEqual(
      blocks.map((b) => b.target.slice(-2)),
      ['-1', '-2'],
      'and get their own element',
    );
    assert.doesNotMatch(page.html, /signature|timestamp/);

    const startedAt = Date.now();
    const answer = await sign({ blocks });
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('cache-control') ?? '', /no-store/);
    const body = JSON.parse(answer.text) as SignAnswer;
    assert.equal(body.script, 'http://127.0.0.1:8787/widget.js');
    for (const [i, result] of body.results.entries()) {
      const settings = result.settings!;
      assert.deepEqual(validateWidgetSettings(settings), []);
      assert.ok(signedBySecret(settings), 'signed with the partner secret (simple form)');
      assert.equal(settings.target_element, blocks[i]!.target);
      assert.ok(Number(settings.timestamp) >= startedAt - 1000 && Number(settings.timestamp) <= Date.now() + 1000, 'stamped now');
      const { signature, timestamp, target_element, ...rest } = settings;
      void signature;
      void timestamp;
      void target_element;
      assert.deepEqual(rest, { partner_token: TOKEN, from_currency: 'EUR', from_amount: 7500, to_currency: 'ETH', lang: 'de' });
    }
  });

  test('the sign route refuses what the site did not render, and names the field of a bad request or setting', async () => {
    const [block] = containers((await render('<!-- wp:card2crypto/widget {"amount":"100"} /-->')).html);
    const answer = await sign({
      blocks: [
        { ...block, block: block!.block.replace('100', '4999') },
        { ...block, target: 'c2c-widget-000000000000-1' },
        { ...block, ref: 'f'.repeat(64) },
      ],
    });
    assert.equal(answer.status, 200);
    const results = (JSON.parse(answer.text) as SignAnswer).results;
    assert.deepEqual(
      results.map((r) => r.code),
      ['card2crypto_unknown_block', 'card2crypto_bad_target', 'card2crypto_unknown_block'],
    );
    for (const r of results) {
      assert.equal(r.settings, undefined);
    }

    // Bad requests: WordPress's argument validation, naming the parameter.
    const missing = await sign({});
    assert.equal(missing.status, 400);
    assert.deepEqual((JSON.parse(missing.text) as { data: { params: string[] } }).data.params, ['blocks']);
    for (const [body, rule] of [
      [{ blocks: [] }, /at least 1/],
      [{ blocks: Array.from({ length: 21 }, () => block) }, /at most 20/],
      // (WordPress reads a string as a list: the first item is then named.)
      [{ blocks: 'all' }, /^blocks\[0\] is not of type object/],
    ] as const) {
      const refused = await sign(body);
      assert.equal(refused.status, 400, JSON.stringify(body).slice(0, 60));
      const error = JSON.parse(refused.text) as { code: string; data: { params: Record<string, string> } };
      assert.equal(error.code, 'rest_invalid_param');
      assert.deepEqual(Object.keys(error.data.params), ['blocks']);
      assert.match(error.data.params.blocks!, rule);
    }

    // A block whose stored amount the service would refuse: the problem names the block's attribute.
    const [low] = containers((await render('<!-- wp:card2crypto/widget {"amount":"10"} /-->')).html);
    const invalid = (JSON.parse((await sign({ blocks: [low] })).text) as SignAnswer).results[0]!;
    assert.equal(invalid.code, 'card2crypto_invalid_settings');
    assert.equal(invalid.problems?.[0]?.field, 'block.amount');
    assert.match(invalid.problems![0]!.message, /50\.00/);

    // No credentials: a readable refusal, nothing signed.
    // (An empty secret in a save keeps the saved one; the secret lives in its own option.)
    await site.probe({ action: 'set_option', name: 'card2crypto_widget_partner_secret', value: null });
    try {
      const unset = (JSON.parse((await sign({ blocks: [block] })).text) as SignAnswer).results[0]!;
      assert.equal(unset.code, 'card2crypto_not_configured');
      assert.equal(unset.settings, undefined);
    } finally {
      await site.probe({ action: 'set_option', name: OPTION, value: SETTINGS });
    }
  });

  test('the go route signs at click time and redirects to the landing page; refusals name the parameter', async () => {
    const page = await render('<!-- wp:card2crypto/buy-button {"text":"Buy now","amount":"60","successUrl":"https://shop.example/thanks"} /-->');
    const href = decode(/href="([^"]+)"/.exec(page.html)![1]!);
    assert.match(href, /\/card2crypto-widget\/v1\/go\?/);
    const route = href.slice(href.indexOf('/wp-json/'));
    const startedAt = Date.now();
    const go = await record('go', await site.fetch(route));
    assert.equal(go.status, 302);
    assert.match(go.headers.get('cache-control') ?? '', /no-store/);
    const parsed = parseLandingUrl(go.headers.get('location')!, { validateParams: true });
    assert.ok(parsed.ok, JSON.stringify(parsed));
    if (!parsed.ok) {
      return;
    }
    const settings = parsed.payload.params as Record<string, string | number>;
    assert.ok(signedBySecret(settings));
    assert.ok(Number(settings.timestamp) >= startedAt - 1000);
    assert.equal(settings.from_amount, 6000);
    // The block's own success address; for the failure, the page the button was on (no Referer: the home page),
    // with a return only this browser (its cookie) can show.
    assert.equal(parsed.payload.callbacks.success, 'https://shop.example/thanks');
    const fail = new URL(parsed.payload.callbacks.fail);
    assert.equal(`${fail.origin}${fail.pathname}`, `${site.url}/`);
    assert.equal(fail.searchParams.get('card2crypto'), 'fail');
    const cookie = /card2crypto_return=([A-Za-z0-9]{32});.*HttpOnly/i.exec(go.headers.get('set-cookie') ?? '')?.[1];
    assert.ok(cookie, `the browser's half of the proof: ${go.headers.get('set-cookie')}`);
    const back = fail.pathname + fail.search;
    const ownResponse = await site.fetch(back, { headers: { cookie: `card2crypto_return=${cookie}` } });
    const own = await ownResponse.text();
    assert.equal(ownResponse.status, 200);
    assert.match(
      own,
      /<dialog open class="c2c-return c2c-return--floating c2c-return--fail"/,
      'the visitor sees what their own return proves (at the end of the page: it holds no button block)',
    );
    assert.match(own, /The payment service reports that your purchase did not go through\./);
    for (const [what, headers] of [
      ['a shared link (no cookie)', {}],
      ['another browser', { cookie: `card2crypto_return=${'x'.repeat(32)}` }],
    ] as const) {
      assert.doesNotMatch(await (await site.fetch(back, { headers })).text(), /c2c-return/, what);
    }
    assert.doesNotMatch(
      await (await site.fetch(back.replace('card2crypto=fail', 'card2crypto=success'), { headers: { cookie: `card2crypto_return=${cookie}` } })).text(),
      /c2c-return/,
      'the other outcome, written by hand',
    );

    const forged = await record('go forged', await site.fetch(route.replace('60', '61')));
    assert.equal(forged.status, 403);
    assert.match(forged.headers.get('content-type') ?? '', /text\/html/);
    assert.match(forged.text, /out of date/);
    const missing = await record('go missing', await site.fetch('/wp-json/card2crypto-widget/v1/go?b=%7B%7D'));
    assert.equal(missing.status, 400);
    assert.deepEqual((JSON.parse(missing.text) as { data: { params: string[] } }).data.params, ['r']);
  });

  test('partner.css serves the colours as CSS at a versioned address the signed settings carry', async () => {
    const empty = await record('css', await site.fetch('/wp-json/card2crypto-widget/v1/partner.css'));
    assert.equal(empty.status, 200);
    assert.equal(empty.text, '');
    await site.probe({ action: 'set_raw_option', name: OPTION, value: { ...SETTINGS, color_primary_fill: '#ff0000', color_primary_text: 'not-a-colour' } });
    try {
      const css = await record('css', await site.fetch('/wp-json/card2crypto-widget/v1/partner.css'));
      assert.equal(css.status, 200);
      assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
      assert.equal(css.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(css.text, '.widgetColor {\n  --primaryFill: #ff0000;\n}\n', 'the invalid colour is left out, the valid one kept');
      const etag = css.headers.get('etag')!;
      const again = await record('css 304', await site.fetch('/wp-json/card2crypto-widget/v1/partner.css', { headers: { 'if-none-match': etag } }));
      assert.equal(again.status, 304);

      const [block] = containers((await render('<!-- wp:card2crypto/widget /-->')).html);
      const settings = (JSON.parse((await sign({ blocks: [block] })).text) as SignAnswer).results[0]!.settings!;
      const address = new URL(String(settings.partner_css));
      assert.equal(address.pathname, '/wp-json/card2crypto-widget/v1/partner.css');
      assert.equal(`"${address.searchParams.get('v')}"`, etag);
      const versioned = await record('css versioned', await site.fetch(address.pathname + address.search));
      assert.match(versioned.headers.get('cache-control') ?? '', /immutable/);
      assert.equal(versioned.text, css.text);
    } finally {
      await site.probe({ action: 'set_option', name: OPTION, value: SETTINGS });
    }
  });

  test('the routes rate-limit each caller with 429 and Retry-After, per route', async () => {
    const [block] = containers((await render('<!-- wp:card2crypto/widget /-->')).html);
    await site.probe({ action: 'set_option', name: 'c2c_test_rate_limit', value: 3 });
    await site.probe({ action: 'reset_rate_limits' });
    try {
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<typeof sign>> | null = null;
      for (let i = 0; i < 4; i++) {
        const answer = await sign({ blocks: [block] });
        statuses.push(answer.status);
        if (answer.status === 429) {
          limited = answer;
        }
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.ok(Number(limited!.headers.get('retry-after')) > 0);
      assert.equal((JSON.parse(limited!.text) as { code: string }).code, 'card2crypto_too_many_requests');
      // The go route counts on its own.
      const page = await render('<!-- wp:card2crypto/buy-button /-->');
      const route = decode(/href="([^"]+)"/.exec(page.html)![1]!);
      const go = route.slice(route.indexOf('/wp-json/'));
      const goes: number[] = [];
      for (let i = 0; i < 4; i++) {
        goes.push((await record('go', await site.fetch(go))).status);
      }
      assert.deepEqual(goes, [302, 302, 302, 429]);

      // Counted on the database every web server shares, under its lock: twenty sign requests at once on every
      // PHP worker, and never more than the limit pass (a transient's read-then-write let racing requests through).
      await site.probe({ action: 'reset_rate_limits' });
      const burst = await Promise.all(Array.from({ length: 20 }, () => sign({ blocks: [block] })));
      assert.deepEqual(burst.map((answer) => answer.status).sort(), [...Array(3).fill(200), ...Array(17).fill(429)], 'exactly the limit passes');
      const counted = await site.probe<{ rows: number; transients: number }>({ action: 'rate_limit_rows' });
      assert.deepEqual(counted, { rows: 1, transients: 0 }, "one budget row for this client's sign route, no transient");
    } finally {
      await site.probe({ action: 'set_option', name: 'c2c_test_rate_limit', value: null });
      await site.probe({ action: 'reset_rate_limits' });
    }
  });

  test('the classic widget is registered, hidden from the Legacy Widget block, and validated on save', async () => {
    const types = await site.probe<{ registered: Record<string, string>; hidden_from_legacy: string[] }>({ action: 'classic_widget_types' });
    assert.equal(types.registered.card2crypto_widget, 'Card2Crypto\\Widget\\Blocks\\Classic_Widget');
    assert.ok(types.hidden_from_legacy.includes('card2crypto_widget'));

    type Saved = { stored: Record<string, string> | null; changed: boolean; form: string };
    const save = (fields: Record<string, string>) => site.probe<Saved>({ action: 'classic_update', number: 2, fields });
    const ok = await save({ title: ' Buy <b>ether</b> \\o/ ', amount: '75', fiatCurrency: '', cryptoCurrency: 'ETH', lang: 'de', extra: 'ignored' });
    assert.deepEqual(ok.stored, { title: 'Buy ether \\o/', amount: '75', fiatCurrency: '', cryptoCurrency: 'ETH', lang: 'de' });
    assert.match(ok.form, /<select class="widefat" id="widget-card2crypto_widget-2-cryptoCurrency" name="widget-card2crypto_widget\[2\]\[cryptoCurrency\]">/);
    assert.match(ok.form, /<option value="ETH" selected='selected'>/);
    assert.match(ok.form, /Site default \(EUR\)/);

    for (const [fields, field, message] of [
      [{ amount: '10' }, 'amount', /Amount: .*50\.00/],
      [{ amount: '12.345' }, 'amount', /Amount: /],
      [{ fiatCurrency: 'XXX' }, 'fiatCurrency', /Fiat currency: /],
      [{ cryptoCurrency: 'DOGE' }, 'cryptoCurrency', /Crypto currency: /],
      [{ lang: 'klingon' }, 'lang', /Language: /],
      [{ title: 'x'.repeat(101) }, 'title', /Heading: at most 100 characters/],
    ] as const) {
      const refused = await save({ title: 'Buy ether', amount: '75', cryptoCurrency: 'ETH', ...fields });
      assert.equal(refused.changed, false, `${field}: nothing is stored`);
      assert.deepEqual(refused.stored, ok.stored);
      assert.match(refused.form, /Not saved: correct the options below\./);
      const problem = new RegExp(`<span id="widget-card2crypto_widget-2-${field}-problem" class="c2c-classic-widget__problem"[^>]*>([^<]*)</span>`).exec(
        refused.form,
      );
      assert.ok(problem, `a message under ${field}: ${refused.form.slice(0, 400)}`);
      assert.match(problem[1]!, message);
      assert.match(refused.form, new RegExp(`id="widget-card2crypto_widget-2-${field}" name="[^"]+"[^>]*aria-invalid="true"`));
      if (field === 'amount') {
        assert.match(refused.form, new RegExp(`value="${fields.amount.replace('.', '\\.')}"`), 'the submitted value is shown to correct it');
      }
    }

    // A site default the widget only inherits never refuses the widget's own save (the settings page reports it).
    await site.probe({ action: 'set_raw_option', name: OPTION, value: { ...SETTINGS, default_amount: '1.00' } });
    try {
      const inherits = await save({ title: 'Buy ether', amount: '', cryptoCurrency: 'ETH' });
      assert.equal(inherits.changed, true);
      assert.doesNotMatch(inherits.form, /Not saved/);
    } finally {
      await site.probe({ action: 'set_option', name: OPTION, value: SETTINGS });
    }
    assert.equal((await save({ title: 'Buy ether \\o/', amount: '75', fiatCurrency: '', cryptoCurrency: 'ETH', lang: 'de' })).changed, true);
  });

  test("the language choices are the payment page's; an older save outside them is kept and said to show English (issue 32, point 7)", async () => {
    // Saved through update_option, so judged by the schema: any ISO 639-1 code still validates.
    await site.probe({ action: 'set_option', name: OPTION, value: { ...SETTINGS, default_language: 'ja' } });
    try {
      const page = (await site.probe<{ html: string }>({ action: 'settings_control', field: 'default_language' })).html;
      seen.push({ what: 'settings control', text: page });
      const options = [...page.matchAll(/<option value="([^"]*)"( selected="selected")?>([^<]*)<\/option>/g)].map((m) => [m[1], m[3], !!m[2]]);
      assert.deepEqual(options, [
        ['', 'Site language', false],
        ['en', 'English (en)', false],
        ['de', 'German (de)', false],
        ['es', 'Spanish (es)', false],
        ['fr', 'French (fr)', false],
        ['ja', 'Japanese (ja): shown in English', true],
      ]);
      assert.match(page, /The payment page is not offered in Japanese \(ja\): buyers see it in English\./);

      // The classic widget: its own older value kept and named; the site's default named the same way.
      const saved = await site.probe<{ stored: Record<string, string> | null; form: string }>({
        action: 'classic_update',
        number: 3,
        fields: { title: 'Buy', amount: '', fiatCurrency: '', cryptoCurrency: '', lang: 'ja' },
      });
      assert.equal(saved.stored?.lang, 'ja');
      assert.match(saved.form, /<option value="ja" selected='selected'>Japanese \(ja\): shown in English<\/option>/);
      assert.match(saved.form, /Site default \(Japanese \(ja\): shown in English\)/);
      assert.doesNotMatch(saved.form, /<option value="it"/);
    } finally {
      await site.probe({ action: 'set_option', name: OPTION, value: SETTINGS });
    }
    // "Site language" sends the page's language when the payment page is offered in it, else none (English).
    assert.equal(await site.probe({ action: 'site_language', locale: 'de_DE' }), 'de');
    assert.equal(await site.probe({ action: 'site_language', locale: 'fr_FR' }), 'fr');
    assert.equal(await site.probe({ action: 'site_language', locale: 'ja' }), '');
    assert.equal(await site.probe({ action: 'site_language', locale: 'it_IT' }), '');
  });

  test('the classic widget renders through the block render: same markup, view script and reference; the route signs what it stored', async () => {
    const classic = await site.probe<Rendered>({ action: 'classic_render', widgets: ['card2crypto_widget-2'] });
    seen.push({ what: 'classic', text: classic.html });
    const block = await render('<!-- wp:card2crypto/widget {"title":"Buy ether \\\\o/","amount":"75","cryptoCurrency":"ETH","lang":"de"} /-->');
    assert.match(classic.html, /^<section id="card2crypto_widget-2" class="widget widget_card2crypto_widget">/);
    assert.ok(block.html.includes('<h2 class="c2c-widget__title">Buy ether \\o/</h2>'), block.html);
    assert.ok(classic.html.includes(block.html.trim()), `same markup:\n${classic.html}\n${block.html}`);
    assert.ok(classic.scripts.includes('card2crypto-widget-view'), `view script enqueued: ${classic.scripts.join(', ')}`);
    assert.ok(classic.styles.includes('card2crypto-widget-view'), `view style enqueued: ${classic.styles.join(', ')}`);

    const [container] = containers(classic.html);
    const settings = (JSON.parse((await sign({ blocks: [container] })).text) as SignAnswer).results[0]!.settings!;
    assert.ok(signedBySecret(settings));
    assert.deepEqual(validateWidgetSettings(settings), []);
    assert.equal(settings.from_amount, 7500);
    assert.equal(settings.to_currency, 'ETH');
    assert.equal(settings.lang, 'de');
  });

  test('a request that needs no settings reads no schema and builds no settings page', async () => {
    assert.deepEqual(await site.probe({ action: 'loaded' }), { schema: false, settings_page: false, plugin: true });
  });

  test('WordPress logged no PHP notice, warning or deprecation, and no translation loaded too early', async () => {
    const log = path.join(site.siteDir, 'wp-content', 'debug.log');
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    assert.doesNotMatch(
      text,
      /PHP (Notice|Warning|Deprecated|Fatal error|Parse error)|_load_textdomain_just_in_time|was called <strong>incorrectly/,
      text.slice(0, 2000),
    );
  });

  test('no response of the site carried the partner secret', async () => {
    const index = await record('rest index', await site.fetch('/wp-json/card2crypto-widget/v1'));
    assert.equal(index.status, 200);
    assert.ok(seen.length > 30, `responses checked: ${seen.length}`);
    const leaks = seen.filter((r) => r.text.includes(SECRET)).map((r) => r.what);
    assert.deepEqual(leaks, []);
  });
});
