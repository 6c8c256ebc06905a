/**
 * The PHP library's BIP32 (Btc\Bip32) against the official vectors
 * (packages/core/vectors/bips.json) and the project's shared vector file
 * (packages/core/vectors/bip32-addresses.json, generated from core), on each
 * big-number backend the runtime has: GMP and BCMath natively, BCMath in
 * php-wasm (built without GMP). A host with neither is the native PHP started
 * with -n (no php.ini, so neither shared extension): it gets the answer a
 * settings page shows (noMathSuite).
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deriveAddresses, parseWalletKey } from '@card2crypto/core';
import { PhpSandbox, REPO_DIR, type CallResult } from '../support/php.js';

const VECTORS = path.join(REPO_DIR, 'packages/core/vectors');
const BIPS = JSON.parse(readFileSync(path.join(VECTORS, 'bips.json'), 'utf8'));
const SHARED = JSON.parse(readFileSync(path.join(VECTORS, 'bip32-addresses.json'), 'utf8'));
const NO_MATH =
  "This server's PHP has neither the GMP nor the BCMath extension, so it cannot derive addresses from an extended public key. Ask your host to enable one of them (GMP is faster); until then, payments go to the single address.";

interface Refused {
  refused: { code: string; message: string };
}

/** `length` base58 characters (a fixed pseudo-random sequence). */
function longBase58(length: number): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let state = 31;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += alphabet[state % 58];
  }
  return out;
}

function values(results: CallResult[]): unknown[] {
  return results.map((r, i) => {
    if (r.error !== undefined) {
      throw new Error(`call ${i}: ${r.error}`);
    }
    return r.value;
  });
}

/** The suite on one PHP: "native" or a php-wasm version, every backend it has. */
export function bip32Suite(version: string): void {
  const title = `PHP ${version}: BIP32 wallet keys and addresses`;
  const native = version === 'native';
  const backends = native ? ['gmp', 'bcmath'] : ['bcmath'];

  describe(title, () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start(version);
    });

    test(`support() names the backend: ${backends[0]}`, async () => {
      const [support, best, gmp] = values(await php.call([['bip32_support'], ['bip32_backend', null], ['bip32_backend', 'gmp']]));
      assert.deepEqual((support as { available: boolean; backend: string }).available, true);
      assert.equal((support as { backend: string }).backend, backends[0]);
      assert.equal(best, backends[0]);
      if (native) {
        assert.equal(gmp, 'gmp');
      } else {
        // php-wasm has no GMP: asking for it is refused, by name.
        assert.deepEqual(gmp, { refused: { code: 'no_math', message: "This server's PHP has no GMP extension." } });
      }
    });

    if (native) {
      test('Secp256k1_Table holds j·16^i·G (recomputed with GMP by plain affine additions)', async () => {
        assert.deepEqual(await php.one('bip32_comb_table'), [64, null]);
      });
    }

    test('segwit encoder and decoder (BIP173/BIP350 valid and invalid addresses), HASH160 (BIP49), descriptor checksums (BIP380)', async () => {
      const calls: unknown[][] = BIPS.segwit.valid.map(({ address, script_pubkey: script }: { address: string; script_pubkey: string }) => [
        'bip32_segwit',
        address.toLowerCase().slice(0, 2),
        script.startsWith('00') ? 0 : parseInt(script.slice(0, 2), 16) - 0x50,
        script.slice(4),
      ]);
      calls.push(['bip32_hash160', BIPS.bip49.addresses[0].public_key], ['bip32_hash160', BIPS.bip49.script_sig]);
      calls.push(['bip32_checksum', 'raw(deadbeef)'], ['bip32_checksum', 'raw(Ü)']);
      calls.push(...BIPS.segwit.invalid.map((v: { address: string }) => ['btc_validate', v.address]));
      const got = values(await php.call(calls));
      const invalid = got.splice(calls.length - BIPS.segwit.invalid.length) as { valid: boolean }[];
      assert.equal(invalid.length, 25);
      assert.deepEqual(
        invalid.map((r) => r.valid),
        BIPS.segwit.invalid.map(() => false),
        'BIP173/BIP350 invalid addresses',
      );
      assert.deepEqual(
        got.slice(0, BIPS.segwit.valid.length),
        BIPS.segwit.valid.map((v: { address: string }) => v.address.toLowerCase()),
      );
      assert.deepEqual(got.slice(BIPS.segwit.valid.length), [BIPS.bip49.keyhash, BIPS.bip49.address_bytes, '89f8spxm', null]);
    });

    for (const backend of backends) {
      test(`${backend}: BIP32 test vectors (public steps of 1 and 2, ext pubs of 1 to 4, vector 5)`, async () => {
        const steps = BIPS.bip32.public_steps as { parent: string; index: number; child: string }[];
        const got = values(
          await php.call([
            ...steps.map((s) => ['bip32_child', s.parent, s.index, backend]),
            ...BIPS.bip32.ext_pubs.map((x: string) => ['bip32_key', x, backend]),
            ...BIPS.bip32.invalid.map((v: { key: string }) => ['bip32_key', v.key, backend]),
          ]),
        );
        assert.deepEqual(
          got.slice(0, steps.length),
          steps.map((s) => s.child),
        );
        const keys = got.slice(steps.length, steps.length + BIPS.bip32.ext_pubs.length) as { serialized: string }[];
        assert.deepEqual(
          keys.map((k) => k.serialized),
          BIPS.bip32.ext_pubs,
        );
        const invalid = got.slice(steps.length + BIPS.bip32.ext_pubs.length) as Refused[];
        assert.deepEqual(
          invalid.map((r) => r.refused?.code),
          BIPS.bip32.invalid.map((v: { code: string }) => v.code),
        );
      });

      test(`${backend}: BIP84 and BIP49 addresses; their private keys refused`, async () => {
        const expected = [
          ...BIPS.bip84.addresses.map((a: { index: number; change: boolean }) => [BIPS.bip84.account_zpub, 'production', a]),
          ...BIPS.bip49.addresses.map((a: { index: number; change: boolean }) => [BIPS.bip49.account_upub, 'sandbox', a]),
        ] as [string, string, { index: number; change: boolean; public_key: string; address: string }][];
        const got = values(
          await php.call([
            ...expected.map(([key, env, a]) => ['bip32_derive', key, a.index, 1, a.change, env, backend]),
            ['bip32_wallet', BIPS.bip84.account_zprv, null, backend],
            ['bip32_wallet', BIPS.bip49.account_uprv, null, backend],
          ]),
        );
        expected.forEach(([, , a], i) => {
          const [row] = got[i] as { public_key: string; address: string; index: number; change: boolean }[];
          assert.deepEqual([row?.public_key, row?.address, row?.index, row?.change], [a.public_key, a.address, a.index, a.change]);
        });
        assert.deepEqual(
          got.slice(expected.length).map((r) => (r as Refused).refused.code),
          ['private_key', 'private_key'],
        );
      });

      test(`${backend}: BIP380-382 descriptors`, async () => {
        const d = BIPS.descriptors;
        const ranged = d.ranged[0];
        const single = d.single[0];
        const refusals: [string, string][] = [
          ...d.invalid_checksums.map((t: string) => [t, 'descriptor_checksum']),
          ...d.invalid_characters.map((t: string) => [t, 'descriptor']),
          ...d.private.map((t: string) => [t, 'private_key']),
          ...d.hardened_children.map((t: string) => [t, 'hardened_after_key']),
          ...d.unsupported.map((t: string) => [t, 'descriptor_unsupported']),
          ...d.invalid_origins.map((o: string) => [`wpkh(${o}${d.invalid_origin_key}/*)`, 'descriptor']),
          [single.descriptor, 'not_ranged'],
        ];
        const got = values(
          await php.call([
            ['bip32_derive', ranged.descriptor, 0, 3, false, null, backend],
            ['bip32_derive', ranged.descriptor, 0, 1, true, null, backend],
            ['bip32_derive', single.descriptor.replace(/\/0\)$/, '/*)'), 0, 1, false, null, backend],
            ...refusals.map(([text]) => ['bip32_wallet', text, null, backend]),
          ]),
        );
        const segwit = values(await php.call(ranged.script_pubkeys.map((s: string) => ['bip32_segwit', 'bc', 0, s.slice(4)])));
        assert.deepEqual(
          (got[0] as { address: string }[]).map((a) => a.address),
          segwit,
        );
        assert.equal((got[1] as Refused).refused.code, 'no_change_chain');
        // The BIP381 script's address, as core (itself checked against the BIP) gives it.
        assert.equal((got[2] as { address: string }[])[0]?.address, deriveAddresses(single.descriptor.replace(/\/0\)$/, '/*)'))[0]?.address);
        assert.deepEqual(
          got.slice(3).map((r) => (r as Refused).refused?.code),
          refusals.map(([, code]) => code),
        );
      });

      test(
        `${backend}: a 200,000-character key or descriptor is refused by its length within 2 s, where decoding it took minutes (issue 31, point 4)`,
        { timeout: 60_000 },
        async () => {
          // Before the limit, base58-decoding this text took minutes (time grows with the square of the length).
          const huge = `xpub${longBase58(200_000 - 4)}`;
          const calls = [
            ['timed', 'bip32_wallet', huge, 'production', backend],
            ['timed', 'bip32_wallet', `wpkh(${huge}/0/*)`, null, backend],
            ['timed', 'bip32_derive', ` ${huge}\n`, 0, 1, false, null, backend],
            ['timed', 'bip32_key', huge, backend],
          ];
          const got = values(await php.call(calls)) as { value: Refused; seconds: number }[];
          const lengths = [200_000, 200_010, 200_000, 200_000];
          got.forEach((r, i) => {
            const message = `A wallet key or descriptor has at most 512 characters (an extended public key has 111); this one has ${lengths[i]}.`;
            assert.deepEqual(r.value.refused, { code: 'too_long', message });
            // Core says the same.
            assert.throws(() => parseWalletKey(calls[i]![2] as string), { code: 'too_long', message });
            assert.ok(r.seconds < 2, `call ${i} took ${r.seconds.toFixed(3)} s`);
          });
        },
      );

      // BCMath before PHP 8.4's rewrite is several times slower: on PHP 7.4 (WebAssembly without a JIT, 10 s for the
      // first addresses) and on the native PHP (8.2 here: 14 s for the whole lists, the slowest PHP unit test) each key
      // of the file is read and its first receive and change address derived (every key, every path); the whole lists
      // are derived on 8.5's BCMath and on the native GMP, the same code.
      const first = version === '7.4' || (version === 'native' && backend === 'bcmath');
      test(`${backend}: vectors/bip32-addresses.json (${SHARED.valid.length} keys${first ? ', the first address of each chain' : ''}, ${SHARED.refusals.length} refusals), field for field and message for message`, async () => {
        type Valid = (typeof SHARED.valid)[number];
        const calls: unknown[][] = [];
        const upTo = <T>(list: T[]): T[] => (first ? list.slice(0, 1) : list);
        for (const c of SHARED.valid as Valid[]) {
          calls.push(['bip32_wallet', c.input, c.environment, backend]);
          calls.push(['bip32_derive', c.input, c.from, upTo(c.receive).length, false, c.environment, backend]);
          if (c.change !== null) {
            calls.push(['bip32_derive', c.input, c.from, upTo(c.change).length, true, c.environment, backend]);
          }
        }
        for (const r of SHARED.refusals) {
          calls.push(['bip32_wallet', r.input, r.environment, backend]);
        }
        const got = values(await php.call(calls));
        const failures: string[] = [];
        let at = 0;
        for (const c of SHARED.valid as Valid[]) {
          const wallet = got[at++] as Record<string, unknown> & { key: Record<string, unknown> };
          const receive = (got[at++] as { address: string }[]).map((a) => a.address);
          const change = c.change === null ? null : (got[at++] as { address: string }[]).map((a) => a.address);
          const shaped = wallet.key
            ? {
                source: wallet.source,
                prefix: wallet.key.prefix,
                network: wallet.network,
                address_type: wallet.address_type,
                depth: wallet.key.depth,
                parent_fingerprint: wallet.key.parent_fingerprint,
                child_number: wallet.key.child_number,
                chain_code: wallet.key.chain_code,
                public_key: wallet.key.public_key,
                receive_path: wallet.receive_path,
                change_path: wallet.change_path,
                origin: wallet.origin,
                descriptor: wallet.descriptor,
              }
            : wallet;
          const expected = { wallet: c.wallet, receive: upTo(c.receive), change: c.change === null ? null : upTo(c.change) };
          if (JSON.stringify({ wallet: shaped, receive, change }) !== JSON.stringify(expected)) {
            failures.push(`${c.name}\n  file: ${JSON.stringify(expected)}\n  php:  ${JSON.stringify({ wallet: shaped, receive, change })}`);
          }
        }
        for (const r of SHARED.refusals) {
          const answer = got[at++] as Refused;
          if (JSON.stringify(answer.refused) !== JSON.stringify({ code: r.code, message: r.message })) {
            failures.push(`${r.name}\n  file: ${r.code} ${r.message}\n  php:  ${JSON.stringify(answer)}`);
          }
        }
        assert.deepEqual(failures, [], failures.join('\n'));
      });
    }
  });
}

/** The native PHP started with -n: neither extension. */
export function noMathSuite(): void {
  describe('a host with neither GMP nor BCMath (native PHP with -n: no php.ini, no shared extension)', () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start('native', ['-n']);
    });

    test('support() says why, in words a settings page can show; deriving is refused with the same words', async () => {
      const zpub = BIPS.bip84.account_zpub;
      const [support, wallet, derive] = values(
        await php.call([['bip32_support'], ['bip32_wallet', zpub, 'production', null], ['bip32_derive', zpub, 0, 3, false, 'production', null]]),
      );
      assert.deepEqual(support, { available: false, backend: null, message: NO_MATH });
      assert.deepEqual(wallet, { refused: { code: 'no_math', message: NO_MATH } });
      assert.deepEqual(derive, { refused: { code: 'no_math', message: NO_MATH } });
      // Core, which needs neither, parses the same key: the refusal is the host's, not the key's.
      assert.equal(parseWalletKey(zpub).addressType, 'p2wpkh');
    });
  });
}
