<?php
/**
 * Test bootstrap: the shared harness (strict errors, calls, output) and the
 * library unprefixed (Card2Crypto\Shared => /php/src). The plugins' tests
 * load it under their own namespaces instead, as their zips carry it.
 */

require C2C_TEST_ROOT . '/php/testing/harness.php';
c2c_test_load_shared();
