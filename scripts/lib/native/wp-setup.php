<?php
/**
 * Installs and sets up a native harness site from the command line (the
 * harness has no WP-CLI): `php wp-setup.php <install|setup> <site dir> <json file>`.
 *
 * - install: installs WordPress into the (empty) database unless it is installed; with
 *            `multisite`, makes it a subdirectory network on the site's address (as
 *            Tools → Network Setup does), or moves the network to that address when the
 *            site starts on another port.
 * - setup:   loads WordPress as the admin, activates the listed plugins, requires the
 *            listed `run` scripts, then runs the harness seed (scripts/playground/seed.php)
 *            when a harness directory is given, exactly as the Playground blueprint runs it.
 *            On a network, `path` ('/shop2/') names the site loaded (the main one: '/').
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
$_SERVER['REQUEST_URI']     = isset( $card2crypto_options['path'] ) ? (string) $card2crypto_options['path'] : '/';
$_SERVER['REQUEST_METHOD']  = 'GET';
$_SERVER['REMOTE_ADDR']     = '127.0.0.1';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';

/**
 * The main site made a subdirectory network on $domain (host:port) unless it
 * is one (Tools → Network Setup's own steps); a network made on another port
 * is moved to $domain: each site's address is kept in the database.
 *
 * @return bool Whether the network was made now.
 */
function card2crypto_network( string $domain, array $admin, string $title ): bool {
	global $wpdb;
	foreach ( $wpdb->tables( 'ms_global' ) as $table => $prefixed_table ) {
		$wpdb->$table = $prefixed_table;
	}
	$suppress = $wpdb->suppress_errors( true );
	$current  = $wpdb->get_var( "SELECT domain FROM {$wpdb->site} WHERE id = 1" );
	$wpdb->suppress_errors( $suppress );
	if ( null === $current ) {
		install_network();
		$made = populate_network( 1, $domain, $admin['email'], $title, '/', false );
		if ( is_wp_error( $made ) ) {
			fwrite( STDERR, 'The network was not made: ' . $made->get_error_message() . "\n" );
			exit( 1 );
		}
		// populate_network() gives the main site /blog/ links; the harness's are /%postname%/.
		global $wp_rewrite;
		$wp_rewrite->set_permalink_structure( '/%postname%/' );
		flush_rewrite_rules( false );
		return true;
	}
	if ( $current !== $domain ) {
		$wpdb->update( $wpdb->site, array( 'domain' => $domain ), array( 'domain' => $current ) );
		foreach ( $wpdb->get_results( $wpdb->prepare( "SELECT blog_id, path FROM {$wpdb->blogs} WHERE domain = %s", $current ) ) as $blog ) {
			// WordPress is loaded as one site here: each site's prefix is spelt out (wpdb::get_blog_prefix() on a network).
			$options = $wpdb->base_prefix . ( 1 === (int) $blog->blog_id ? '' : (int) $blog->blog_id . '_' ) . 'options';
			$address = 'http://' . $domain . $blog->path;
			$wpdb->query( $wpdb->prepare( 'UPDATE %i SET option_value = %s WHERE option_name IN (%s, %s)', $options, untrailingslashit( $address ), 'home', 'siteurl' ) );
		}
		$wpdb->update( $wpdb->blogs, array( 'domain' => $domain ), array( 'domain' => $current ) );
	}
	return false;
}

if ( 'install' === $card2crypto_step ) {
	define( 'WP_INSTALLING', true );
	if ( ! empty( $card2crypto_options['multisite'] ) ) {
		// wp-config.php's network constants wait until the network is made (site.mjs).
		define( 'CARD2CRYPTO_NETWORK_SETUP', true );
	}
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
	$card2crypto_network = ! empty( $card2crypto_options['multisite'] )
		&& card2crypto_network( $_SERVER['HTTP_HOST'], $card2crypto_options['admin'], $card2crypto_options['title'] );
	echo wp_json_encode(
		array(
			'installed' => $card2crypto_done,
			'network'   => $card2crypto_network,
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
