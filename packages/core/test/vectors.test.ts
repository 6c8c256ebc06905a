import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { buildVectorFile, serialiseVectorFile, VECTORS_URL, type VectorCase, type VectorFile } from '../scripts/generate-vectors.js';
import { canonicalString, parseJsonLossless, sign, verify } from '../src/signing/index.js';

const committedText = readFileSync(fileURLToPath(VECTORS_URL), 'utf8');
const committed = JSON.parse(committedText) as VectorFile;

function referenceHmac(text: string, secret: string): string {
  return createHmac('sha512', Buffer.from(secret, 'utf8')).update(Buffer.from(text, 'utf8')).digest('hex');
}

describe('vectors/signing.json', () => {
  it('is exactly what the generator produces now (run npm run vectors after changing signing)', () => {
    assert.equal(committedText, serialiseVectorFile(buildVectorFile()));
  });

  it('has at least 200 uniquely named cases covering both forms, valid and invalid', () => {
    const cases = committed.cases;
    assert.equal(committed.version, 1);
    assert.ok(cases.length >= 200, `${cases.length} cases`);
    assert.equal(new Set(cases.map((c) => c.name)).size, cases.length);
    assert.ok(cases.some((c) => c.form === 'simple') && cases.some((c) => c.form === 'general'));
    assert.ok(cases.filter((c) => c.expect === 'invalid').length >= 20);
    assert.ok(cases.some((c) => c.name.startsWith('wrong-secret')) && cases.some((c) => c.name.startsWith('tampered')));
    assert.ok(cases.some((c) => c.numbers === 'js') && cases.some((c) => c.nulls === 'omit'));
    const canonicals = cases.map((c) => c.canonical).join('\n');
    for (const needle of ['items:10:', '\uFB33', '\u{1F600}', '\u20AC', 'e\u0301', ':true', ':false', '9007199254740991', '1e+21', 'a:b:flat;a:b:nested']) {
      assert.ok(canonicals.includes(needle), `no case covers ${JSON.stringify(needle)}`);
    }
  });

  for (const c of committed.cases) {
    it(`${c.name}: ${c.expect}`, () => checkCase(c));
  }
});

/** The body as received: the JSON text of the object with "signature" added as its last member. */
function withSignatureMember(objectText: string, signature: string): string {
  const inner = objectText.trimEnd().slice(0, -1).trimEnd();
  return `${inner}${inner.endsWith('{') ? '' : ','}"signature":${JSON.stringify(signature)}}`;
}

function checkCase(c: VectorCase): void {
  assert.equal(c.input_json?.includes('"signature"') ?? false, false, 'input_json carries no signature member');
  // 1. The canonical string is what the body gives under the stated reading.
  const body: object = c.input_json !== undefined ? (parseJsonLossless(c.input_json) as object) : c.input;
  assert.equal(canonicalString(body, { form: c.form, numbers: c.numbers ?? 'raw', nulls: c.nulls ?? 'empty' }), c.canonical);

  // 2. For valid cases the signature is the HMAC of that string (checked with node:crypto directly).
  if (c.expect === 'valid') {
    assert.equal(c.signature.toLowerCase(), referenceHmac(c.canonical, c.secret));
    if (c.input_json === undefined && c.nulls === undefined) {
      assert.equal(sign(c.input, c.secret, { form: c.form }), c.signature);
    }
  } else {
    assert.notEqual(c.signature.toLowerCase(), referenceHmac(c.canonical, c.secret));
  }

  // 3. Verification gives the expected verdict, from the text and from the parsed object.
  const received = c.input_json !== undefined ? withSignatureMember(c.input_json, c.signature) : JSON.stringify({ ...c.input, signature: c.signature });
  const fromText = verify(received, c.secret, { form: c.form });
  assert.equal(fromText.ok, c.expect === 'valid', JSON.stringify(fromText));
  if (!fromText.ok) {
    assert.equal(fromText.reason, 'mismatch');
  }
  if (fromText.ok) {
    assert.equal(fromText.canonical, c.canonical);
  }
  if (c.input_json === undefined) {
    assert.equal(verify({ ...c.input, signature: c.signature }, c.secret, { form: c.form }).ok, c.expect === 'valid');
  }
}
