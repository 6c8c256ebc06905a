<?php
/**
 * Calls the plugin's pure classes for the Node tests: reads
 * /work/calls.json, a list of [function, ...arguments], prints the results
 * ({"value": …} or {"error": "Class: message"}) as JSON.
 *
 * The shared harness loads the shared library under the name the build
 * gives it inside this plugin (Card2Crypto\Widget\Shared\…), as the zip carries it.
 */

// The plugin's files start with defined( 'ABSPATH' ) || exit; no WordPress function is defined here, so a WordPress call still fails loudly.
define( 'ABSPATH', '/wordpress/' );
require C2C_TEST_ROOT . '/php/testing/harness.php';
c2c_test_load_shared( 'Card2Crypto\\Widget' );
// The plugin's own autoloader, as the main file registers it (includes/Room/Class_Name.php).
Card2Crypto\Widget\Shared\Plugin_Bootstrap::autoload( C2C_TEST_ROOT . '/plugin' );

use Card2Crypto\Widget\Rules\Block_Reference;
use Card2Crypto\Widget\Rules\Partner_Css;
use Card2Crypto\Widget\Rules\Widget_Signer;
use Card2Crypto\Widget\Shared\Settings\Schema;

function c2c_schema(): Schema {
	return Schema::from_file( C2C_TEST_ROOT . '/core/schema/settings.json' );
}

$functions = array(
	'payload'       => array( Block_Reference::class, 'payload' ),
	'ref'           => static function ( string $key, string $payload ) {
		return ( new Block_Reference( $key ) )->ref( $payload );
	},
	'attributes'    => static function ( string $key, $payload, $ref ) {
		return ( new Block_Reference( $key ) )->attributes( $payload, $ref );
	},
	'element_id'    => array( Block_Reference::class, 'element_id' ),
	'is_element_id' => array( Block_Reference::class, 'is_element_id' ),
	'partner_css'   => static function ( array $values ) {
		return Partner_Css::css( c2c_schema()->fields( 'widget' ), $values );
	},
	'sign'          => static function ( array $settings, array $attributes, string $target, string $site_language, ?string $css, int $now ) {
		return ( new Widget_Signer( c2c_schema(), $settings ) )->signed( $attributes, $target, $site_language, $css, $now );
	},
);

c2c_test_run_calls( $functions );
