<?php
/**
 * Installs and sets up a native harness site from the command line (the
 * harness has no WP-CLI): `php wp-setup.php <install|setup> <site dir> <json file>`.
 *
 * - install: installs WordPress into the (empty) database unless it is installed.
 * - setup:   loads WordPress as the admin, activates the listed plugins, requires the
 *            listed `run` scripts, then runs the harness seed (scripts/playground/seed.php)
 *            when a harness directory is given, exactly as the Playground blueprint runs it.
 *
 * Prints one JSON line with what it did; exits non-zero with the reason on failure.
 *
 * @package card2crypto-harness
 */

// phpcs:disable WordPress.WP.AlternativeFunctions -- CLI-only harness code.

if ( 'cli' !== PHP_SAPI || $argc < 4 ) {
	fwrite( STDERR, "usage: php wp-setup.php <install|setup> <site dir> <json file>\n" );
	exit( 2 );
}
list( , $card2crypto_step, $card2crypto_site, $card2crypto_file ) = $argv;
$card2crypto_options = json_decode( file_get_contents( $card2crypto_file ), true );

// WordPress reads the request's host for its URLs; the site's own address stands in.
$card2crypto_url            = parse_url( $card2crypto_options['url'] );
$_SERVER['HTTP_HOST']       = $card2crypto_url['host'] . ( isset( $card2crypto_url['port'] ) ? ':' . $card2crypto_url['port'] : '' );
$_SERVER['SERVER_NAME']     = $card2crypto_url['host'];
$_SERVER['SERVER_PORT']     = isset( $card2crypto_url['port'] ) ? (string) $card2crypto_url['port'] : '80';
$_SERVER['REQUEST_URI']     = '/';
$_SERVER['REQUEST_METHOD']  = 'GET';
$_SERVER['REMOTE_ADDR']     = '127.0.0.1';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';

if ( 'install' === $card2crypto_step ) {
	define( 'WP_INSTALLING', true );
	require $card2crypto_site . '/wp-load.php';
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	$card2crypto_done = false;
	if ( ! is_blog_installed() ) {
		$card2crypto_admin = $card2crypto_options['admin'];
		$card2crypto_out   = wp_install( $card2crypto_options['title'], $card2crypto_admin['username'], $card2crypto_admin['email'], true, '', wp_slash( $card2crypto_admin['password'] ) );
		if ( empty( $card2crypto_out['user_id'] ) ) {
			fwrite( STDERR, "WordPress did not install\n" );
			exit( 1 );
		}
		// Pretty permalinks, as on any real store (and as Playground sets up): /wp-json/ routes need them.
		global $wp_rewrite;
		$wp_rewrite->set_permalink_structure( '/%postname%/' );
		flush_rewrite_rules( false );
		$card2crypto_done = true;
	}
	echo wp_json_encode(
		array(
			'installed' => $card2crypto_done,
			'version'   => get_bloginfo( 'version' ),
		)
	), "\n";
	exit( 0 );
}

if ( 'setup' !== $card2crypto_step ) {
	fwrite( STDERR, "unknown step {$card2crypto_step}\n" );
	exit( 2 );
}

require $card2crypto_site . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';
wp_set_current_user( 1 );
$card2crypto_result = array(
	'activated' => array(),
	'errors'    => array(),
);
foreach ( (array) ( $card2crypto_options['activate'] ?? array() ) as $card2crypto_plugin ) {
	if ( is_plugin_active( $card2crypto_plugin ) ) {
		$card2crypto_result['activated'][] = $card2crypto_plugin;
		continue;
	}
	$card2crypto_outcome = activate_plugin( $card2crypto_plugin );
	if ( is_wp_error( $card2crypto_outcome ) ) {
		$card2crypto_result['errors'][] = $card2crypto_plugin . ': ' . $card2crypto_outcome->get_error_message();
	} else {
		$card2crypto_result['activated'][] = $card2crypto_plugin;
	}
}
foreach ( (array) ( $card2crypto_options['run'] ?? array() ) as $card2crypto_script ) {
	// Further set-up scripts (the benchmarks'), with WordPress loaded as the admin.
	require $card2crypto_script;
}
if ( ! empty( $card2crypto_options['seed'] ) ) {
	// seed.php reads its harness directory from $args[0], as under `wp eval-file`.
	$args = array( $card2crypto_options['seed']['harnessDir'] );
	require $card2crypto_options['seed']['file'];
}
echo wp_json_encode( $card2crypto_result ), "\n";
exit( empty( $card2crypto_result['errors'] ) ? 0 : 1 );
