<?php
/**
 * Runs Database\Network_Sites against a fake network: /work/network.json is
 * a list of scenarios {multisite, large, current, sites: {network id: [site
 * ids]}, active: [basenames active for the network], call: [method, ...args]}
 * (method: activate, initialize_site (a site id, or null for something that
 * is not a WP_Site), drop_tables, each_site (its run throws on the site
 * "throw_on" names)). Prints per scenario what happened, in order
 * (["switch", id], ["install", site], ["run", site], ["restore", site],
 * ["get_sites", args]), and the call's value or exception.
 */

use Card2Crypto\Shared\Database\Network_Sites;

require __DIR__ . '/bootstrap.php';

// phpcs:disable Universal.Files.SeparateFunctionsFromOO, WordPress.NamingConventions

/** The fake network's state (one scenario at a time). */
$GLOBALS['c2c_net'] = array();

/** Just enough of WordPress's site object. */
final class WP_Site {
	/** @var string */
	public $blog_id;

	public function __construct( int $id ) {
		$this->blog_id = (string) $id;
	}
}

function c2c_net_log( array $entry ): void {
	$GLOBALS['c2c_net']['log'][] = $entry;
}
function is_multisite(): bool {
	return (bool) $GLOBALS['c2c_net']['multisite'];
}
function wp_is_large_network(): bool {
	return (bool) $GLOBALS['c2c_net']['large'];
}
function get_current_network_id(): int {
	return 1;
}
function get_sites( array $args ): array {
	c2c_net_log( array( 'get_sites', $args ) );
	$ids = array();
	foreach ( $GLOBALS['c2c_net']['sites'] as $network => $sites ) {
		if ( ! isset( $args['network_id'] ) || (int) $network === (int) $args['network_id'] ) {
			foreach ( $sites as $site ) {
				$ids[] = (string) $site; // As WordPress gives them: strings.
			}
		}
	}
	return $ids;
}
function switch_to_blog( int $id ): bool {
	$GLOBALS['c2c_net']['stack'][] = $GLOBALS['c2c_net']['current'];
	$GLOBALS['c2c_net']['current'] = $id;
	c2c_net_log( array( 'switch', $id ) );
	return true;
}
function restore_current_blog(): bool {
	$GLOBALS['c2c_net']['current'] = array_pop( $GLOBALS['c2c_net']['stack'] );
	c2c_net_log( array( 'restore', $GLOBALS['c2c_net']['current'] ) );
	return true;
}
function get_site_option( string $name, $default = false ) {
	return 'active_sitewide_plugins' === $name ? array_fill_keys( $GLOBALS['c2c_net']['active'], 1 ) : $default;
}

/** The part of wpdb Network_Sites reads: each site's table prefix. */
final class C2C_Net_Wpdb {
	public function get_blog_prefix( int $site_id ): string {
		return 1 === $site_id ? 'wp_' : 'wp_' . $site_id . '_';
	}
}
$GLOBALS['wpdb'] = new C2C_Net_Wpdb();

$results = array();
foreach ( json_decode( (string) file_get_contents( C2C_TEST_ROOT . '/work/network.json' ), true ) as $scenario ) {
	$GLOBALS['c2c_net'] = array(
		'multisite' => $scenario['multisite'],
		'large'     => $scenario['large'] ?? false,
		'current'   => $scenario['current'] ?? 1,
		'sites'     => $scenario['sites'] ?? array(),
		'active'    => $scenario['active'] ?? array(),
		'stack'     => array(),
		'log'       => array(),
	);
	$sites = new Network_Sites(
		static function (): void {
			c2c_net_log( array( 'install', $GLOBALS['c2c_net']['current'] ) );
		},
		static function ( string $prefix ): array {
			return array( $prefix . 'c2c_one', $prefix . 'c2c_two' );
		}
	);
	$call   = $scenario['call'];
	$method = array_shift( $call );
	$result = array();
	try {
		switch ( $method ) {
			case 'initialize_site':
				$sites->initialize_site( null === $call[0] ? (object) array( 'blog_id' => 9 ) : new WP_Site( (int) $call[0] ), $call[1] );
				$value = null;
				break;
			case 'each_site':
				$throw_on = $call[0] ?? null;
				Network_Sites::each_site(
					static function () use ( $throw_on ): void {
						c2c_net_log( array( 'run', $GLOBALS['c2c_net']['current'] ) );
						if ( $GLOBALS['c2c_net']['current'] === $throw_on ) {
							throw new RuntimeException( 'site ' . $throw_on . ' failed' );
						}
					}
				);
				$value = null;
				break;
			default:
				$value = $sites->$method( ...$call );
		}
		$result['value'] = $value;
	} catch ( Throwable $e ) {
		$result['error'] = get_class( $e ) . ': ' . $e->getMessage();
	}
	$result['log']     = $GLOBALS['c2c_net']['log'];
	$result['current'] = $GLOBALS['c2c_net']['current'];
	$results[]         = $result;
}
c2c_test_output( $results );
