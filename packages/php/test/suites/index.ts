/**
 * Every suite of the shared library's PHP tests, on one PHP: "native" or a
 * php-wasm version. One test file per PHP (php-native, php74, php85.test.ts)
 * calls it, so each runs in its own process on one runtime (support/php.ts),
 * the three side by side.
 */
import { describe } from 'node:test';
import { TEST_PHP_VERSIONS } from '../support/php.js';
import { apiClientSuite } from './api-client.js';
import { bip32Suite, noMathSuite } from './bip32.js';
import { btcAddressSuite } from './btc-address.js';
import { budgetRulesSuite } from './budget-rules.js';
import { callbacksSuite } from './callbacks.js';
import { clientIpSuite } from './client-ip.js';
import { jsonNumbersSuite } from './json-numbers.js';
import { landingUrlSuite } from './landing-url.js';
import { networkSitesSuite } from './network-sites.js';
import { settingsRulesSuite } from './settings-rules.js';
import { vectorsSuite } from './vectors.js';

export function phpSuites(version: string): void {
  if (!TEST_PHP_VERSIONS.includes(version)) {
    describe(`PHP ${version}`, { skip: `PHP ${version} is not among ${TEST_PHP_VERSIONS.join(', ')}` }, () => {});
    return;
  }
  vectorsSuite(version);
  callbacksSuite(version);
  apiClientSuite(version);
  landingUrlSuite(version);
  settingsRulesSuite(version);
  jsonNumbersSuite(version);
  btcAddressSuite(version);
  bip32Suite(version);
  clientIpSuite(version);
  budgetRulesSuite(version);
  networkSitesSuite(version);
  if (version === 'native') {
    noMathSuite();
  }
}
