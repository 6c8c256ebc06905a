<?php
/**
 * Calls the plugin's pure classes for the Node tests: reads
 * /work/calls.json, a list of [function, ...arguments], prints the results
 * ({"value": …} or {"error": "Class: message"}) as JSON.
 *
 * The shared library is loaded from packages/php under the name the build
 * gives it inside this plugin (Card2Crypto\Widget\Shared\…), by aliasing.
 */

error_reporting( E_ALL );
ini_set( 'display_errors', '1' );
set_error_handler(
	static function ( int $severity, string $message, string $file, int $line ): bool {
		throw new ErrorException( $message, 0, $severity, $file, $line );
	}
);

spl_autoload_register(
	static function ( string $class ): void {
		$shared = 'Card2Crypto\\Shared\\';
		$prefixed = 'Card2Crypto\\Widget\\Shared\\';
		if ( 0 === strncmp( $class, $shared, strlen( $shared ) ) ) {
			$file = '/shared/src/' . str_replace( '\\', '/', substr( $class, strlen( $shared ) ) ) . '.php';
			if ( is_file( $file ) ) {
				require $file;
			}
		} elseif ( 0 === strncmp( $class, $prefixed, strlen( $prefixed ) ) ) {
			$original = $shared . substr( $class, strlen( $prefixed ) );
			if ( class_exists( $original ) ) {
				class_alias( $original, $class );
			}
		}
	}
);

require '/plugin/includes/class-block-reference.php';
require '/plugin/includes/class-partner-css.php';
require '/plugin/includes/class-widget-signer.php';
require '/plugin/includes/class-landing-url.php';
require '/plugin/includes/class-rate-limiter.php';

// Transients in memory (one request), enough for the rate limiter's rules.
$GLOBALS['c2c_transients'] = array();
function get_transient( string $key ) {
	return $GLOBALS['c2c_transients'][ $key ] ?? false;
}
function set_transient( string $key, $value, int $expiration ): bool {
	$GLOBALS['c2c_transients'][ $key ] = $value;
	return true;
}

use Card2Crypto\Widget\Block_Reference;
use Card2Crypto\Widget\Landing_Url;
use Card2Crypto\Widget\Partner_Css;
use Card2Crypto\Widget\Rate_Limiter;
use Card2Crypto\Widget\Widget_Signer;
use Card2Crypto\Widget\Shared\Settings\Schema;

function c2c_schema(): Schema {
	return Schema::from_file( '/core/schema/settings.json' );
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
	'landing_url'   => array( Landing_Url::class, 'build' ),
	// Each hit is [bucket, client, now]; returns the seconds to wait for each (0 = allowed).
	'rate_limit'    => static function ( int $limit, int $window, array $hits ) {
		return array_map(
			static function ( array $hit ) use ( $limit, $window ): int {
				return ( new Rate_Limiter( $hit[0], $limit, $window ) )->hit( $hit[1], $hit[2] );
			},
			$hits
		);
	},
);

$calls   = json_decode( file_get_contents( '/work/calls.json' ), true );
$results = array();
foreach ( $calls as $call ) {
	$name = array_shift( $call );
	try {
		$results[] = array( 'value' => call_user_func_array( $functions[ $name ], $call ) );
	} catch ( Throwable $e ) {
		$results[] = array( 'error' => get_class( $e ) . ': ' . $e->getMessage() );
	}
}
echo json_encode( $results, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
