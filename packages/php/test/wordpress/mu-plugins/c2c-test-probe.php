<?php
/**
 * Test-only must-use plugin, mounted into the WordPress that
 * packages/php/test/wordpress.test.ts boots (never shipped): REST routes
 * under /wp-json/c2c-test/v1 that report which copy of the shared library
 * each plugin uses, and run library code inside WordPress (the API client
 * on wp_remote_post, settings saves).
 */

defined( 'ABSPATH' ) || exit;

add_action(
	'rest_api_init',
	static function (): void {
		register_rest_route(
			'c2c-test/v1',
			'/state',
			array(
				'methods'             => 'GET',
				'permission_callback' => '__return_true',
				'callback'            => 'c2c_test_state',
			)
		);
		register_rest_route(
			'c2c-test/v1',
			'/run',
			array(
				'methods'             => 'POST',
				'permission_callback' => '__return_true',
				'callback'            => 'c2c_test_run',
			)
		);
	}
);

/** Which shared library each plugin loaded, from where, and at which version. */
function c2c_test_library( string $plugin_namespace ): ?array {
	$class = $plugin_namespace . '\\Shared\\Library';
	if ( ! class_exists( $class ) ) {
		return null;
	}
	$classes = array();
	foreach ( array( 'Signing\\Signer', 'Signing\\Canonical', 'Settings\\Settings_Validator', 'Callback\\Callback_Verifier' ) as $name ) {
		$full             = $plugin_namespace . '\\Shared\\' . $name;
		$classes[ $name ] = class_exists( $full ) ? ( new ReflectionClass( $full ) )->getFileName() : null;
	}
	return array(
		'version'   => constant( $class . '::VERSION' ),
		'namespace' => $class::namespace_name(),
		'file'      => ( new ReflectionClass( $class ) )->getFileName(),
		'classes'   => $classes,
	);
}

function c2c_test_state(): WP_REST_Response {
	if ( ! function_exists( 'is_plugin_active' ) ) {
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
	}
	$gateways = function_exists( 'WC' ) ? array_keys( WC()->payment_gateways()->payment_gateways() ) : array();
	return new WP_REST_Response(
		array(
			'php'            => PHP_VERSION,
			'wordpress'      => get_bloginfo( 'version' ),
			'woocommerce'    => defined( 'WC_VERSION' ) ? WC_VERSION : null,
			'active_plugins' => get_option( 'active_plugins' ),
			'checkout'       => c2c_test_library( 'Card2Crypto\\Checkout' ),
			'widget'         => c2c_test_library( 'Card2Crypto\\Widget' ),
			'plugins_dir'    => WP_PLUGIN_DIR,
			'gateways'       => $gateways,
			'unprefixed'     => class_exists( 'Card2Crypto\\Shared\\Library', false ),
		)
	);
}

/**
 * Runs one test action: {"action": "...", ...}.
 */
function c2c_test_run( WP_REST_Request $request ): WP_REST_Response {
	$input = json_decode( $request->get_body(), true );
	try {
		switch ( $input['action'] ) {
			case 'api':
				return new WP_REST_Response( c2c_test_api( $input ) );
			case 'set_option':
				update_option( $input['name'], $input['value'] );
				return new WP_REST_Response( get_option( $input['name'] ) );
			case 'get_option':
				return new WP_REST_Response( get_option( $input['name'], null ) );
			case 'uninstall':
				// What "Delete" on the Plugins screen runs (uninstall_plugin()): the plugin's
				// uninstall.php with WP_UNINSTALL_PLUGIN defined; here once per scenario.
				$results = array();
				foreach ( $input['scenarios'] as $scenario ) {
					update_option( $scenario['option'], $scenario['stored'] );
					if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
						define( 'WP_UNINSTALL_PLUGIN', $scenario['plugin'] );
					}
					include WP_PLUGIN_DIR . '/' . dirname( $scenario['plugin'] ) . '/uninstall.php';
					$results[] = get_option( $scenario['option'], null );
				}
				return new WP_REST_Response( $results );
			case 'deactivate':
				require_once ABSPATH . 'wp-admin/includes/plugin.php';
				deactivate_plugins( $input['plugin'], true );
				return new WP_REST_Response( get_option( 'active_plugins' ) );
			case 'log_files':
				$dir   = wp_upload_dir()['basedir'] . '/wc-logs';
				$lines = array();
				foreach ( glob( $dir . '/card2crypto-checkout-*.log' ) ?: array() as $file ) {
					$lines = array_merge( $lines, file( $file, FILE_IGNORE_NEW_LINES ) );
				}
				return new WP_REST_Response( $lines );
		}
	} catch ( Throwable $e ) {
		return new WP_REST_Response( array( 'error' => get_class( $e ) . ': ' . $e->getMessage() ), 500 );
	}
	return new WP_REST_Response( array( 'error' => 'unknown action' ), 400 );
}

/** A Partner_Api_Client call through the checkout plugin's copy and WordPress's HTTP API. */
function c2c_test_api( array $input ): array {
	$client_class = 'Card2Crypto\\Checkout\\Shared\\Api\\Partner_Api_Client';
	$logs         = array();
	$client       = new $client_class(
		$input['base_url'],
		$input['token'],
		$input['secret'],
		array(
			'timeout' => $input['timeout'] ?? 5,
			'logger'  => static function ( string $level, string $message ) use ( &$logs ): void {
				$logs[] = $level . ': ' . $message;
			},
		)
	);
	try {
		$value = $client->{$input['method']}( ...$input['args'] );
		if ( is_object( $value ) ) {
			$value = $value->to_array();
		}
		return array(
			'value' => $value,
			'logs'  => $logs,
		);
	} catch ( Throwable $e ) {
		return array(
			'exception' => array(
				'class'   => get_class( $e ),
				'kind'    => $e->kind ?? null,
				'status'  => $e->status ?? null,
				'meaning' => $e->meaning ?? null,
				'message' => $e->getMessage(),
				'trace'   => $e->getTraceAsString(),
			),
			'logs'      => $logs,
		);
	}
}
