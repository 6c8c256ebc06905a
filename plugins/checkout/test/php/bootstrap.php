<?php
/**
 * Test bootstrap (no WordPress): the shared harness, the shared library
 * under Card2Crypto\Checkout\Shared as the plugin's zip carries it, and the
 * plugin's classes from includes/ (mounted at /plugin) through the plugin's
 * own autoloader, which also finds the settings schema the build copied to
 * /plugin/lib.
 */

// Every file of the plugin (lib/settings-schema.php among them) starts with defined( 'ABSPATH' ) || exit;
// no WordPress function is defined here, so a WordPress call still fails loudly.
defined( 'ABSPATH' ) || define( 'ABSPATH', '/nowhere/' );
require C2C_TEST_ROOT . '/php/testing/harness.php';
c2c_test_load_shared( 'Card2Crypto\\Checkout' );

// The plugin's own autoloader (includes/, and the built lib/shared for anything the line above does not load).
Card2Crypto\Checkout\Shared\Plugin_Bootstrap::autoload( C2C_TEST_ROOT . '/plugin' );
