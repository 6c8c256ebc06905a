/**
 * Database\Network_Sites, the one multisite rule both plugins use for their
 * tables (the checkout's payment tables, the widget's budgets table) and the
 * one site loop of both uninstall.php files, against a fake network
 * (test/php/network-sites.php): which sites get tables on activation and
 * when a site is made, which tables go with a deleted site, and every site
 * gone through on uninstall, each restored after. The real network is the
 * checkout's WordPress-level multisite suite.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PhpSandbox } from '../support/php.js';

type Entry = [string, unknown];
interface Outcome {
  value?: unknown;
  error?: string;
  log: Entry[];
  current: number;
}
interface Scenario {
  multisite: boolean;
  large?: boolean;
  current?: number;
  sites?: Record<string, number[]>;
  active?: string[];
  call: unknown[];
}

const BASENAME = 'card2crypto-checkout/card2crypto-checkout.php';
/** Two networks: sites 1-3 on the current one, 7 on another. */
const SITES = { '1': [1, 2, 3], '2': [7] };
const ALL_OF_NETWORK = { fields: 'ids', number: 0, network_id: 1 };
const ALL = { fields: 'ids', number: 0 };

export function networkSitesSuite(version: string): void {
  describe(`PHP ${version}: Network_Sites`, () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start(version);
    });
    const run = (scenarios: Scenario[]) => php.runJson<Outcome[]>('network-sites.php', { 'network.json': JSON.stringify(scenarios) });

    test('activation: this site, or every site of the current network when activated for it (not a large one)', async () => {
      const got = await run([
        { multisite: false, call: ['activate', true] },
        { multisite: true, current: 2, sites: SITES, call: ['activate', false] },
        { multisite: true, current: 2, sites: SITES, large: true, call: ['activate', true] },
        { multisite: true, sites: SITES, call: ['activate', true] },
        { multisite: true, sites: SITES, call: ['activate', '1'] },
      ]);
      assert.deepEqual(got[0]!.log, [['install', 1]], 'outside a network: this site');
      assert.deepEqual(got[1]!.log, [['install', 2]], 'activated on one site: that site');
      assert.deepEqual(got[2]!.log, [['install', 2]], 'a large network: each site at its next request, this one now');
      const everySite = [
        ['get_sites', ALL_OF_NETWORK],
        ...[1, 2, 3].flatMap((site) => [
          ['switch', site],
          ['install', site],
          ['restore', 1],
        ]),
      ];
      assert.deepEqual(got[3]!.log, everySite, "the network's sites, each switched to and back; not the other network's");
      assert.deepEqual(got[4]!.log, everySite, 'what WordPress passes, read as a boolean');
      assert.ok(got.every((outcome) => outcome.current === (outcome === got[1] || outcome === got[2] ? 2 : 1)));
    });

    test('a new site gets the tables only while the plugin is active for the network', async () => {
      const got = await run([
        { multisite: true, sites: SITES, active: [BASENAME], call: ['initialize_site', 4, BASENAME] },
        { multisite: true, sites: SITES, active: ['other/other.php'], call: ['initialize_site', 4, BASENAME] },
        { multisite: true, sites: SITES, active: [BASENAME], call: ['initialize_site', null, BASENAME] },
        { multisite: false, active: [BASENAME], call: ['initialize_site', 4, BASENAME] },
      ]);
      assert.deepEqual(got[0]!.log, [
        ['switch', 4],
        ['install', 4],
        ['restore', 1],
      ]);
      assert.deepEqual(got[1]!.log, [], 'active on some sites only: each makes its own on activation');
      assert.deepEqual(got[2]!.log, [], 'not a site');
      assert.deepEqual(got[3]!.log, [], 'not a network');
    });

    test("a deleted site's tables: the plugin's of that site join WordPress's list, once", async () => {
      const got = await run([
        { multisite: true, call: ['drop_tables', ['wp_3_posts', 'wp_3_c2c_one'], 3] },
        { multisite: true, call: ['drop_tables', ['wp_posts'], 0] },
        { multisite: true, call: ['drop_tables', 'not a list', 3] },
      ]);
      assert.deepEqual(got[0]!.value, ['wp_3_posts', 'wp_3_c2c_one', 'wp_3_c2c_two']);
      assert.deepEqual(got[1]!.value, ['wp_posts'], 'no site: unchanged');
      assert.equal(got[2]!.value, 'not a list', "another filter's odd value: left alone");
    });

    test('uninstall: every site of the installation in turn (every network), or this one outside a network', async () => {
      const got = await run([
        { multisite: false, call: ['each_site'] },
        { multisite: true, sites: SITES, call: ['each_site'] },
        { multisite: true, sites: SITES, call: ['each_site', 2] },
      ]);
      assert.deepEqual(got[0]!.log, [['run', 1]]);
      assert.deepEqual(got[1]!.log, [
        ['get_sites', ALL],
        ...[1, 2, 3, 7].flatMap((site) => [
          ['switch', site],
          ['run', site],
          ['restore', 1],
        ]),
      ]);
      assert.equal(got[2]!.error, 'RuntimeException: site 2 failed');
      assert.deepEqual(
        got[2]!.log.slice(-2),
        [
          ['run', 2],
          ['restore', 1],
        ],
        'a site that fails is left, back on the site it started from',
      );
      assert.equal(got[2]!.current, 1);
    });
  });
}
