<?php
/**
 * Runs an uninstall.php (path under the test root in /work/uninstall.json) against a minimal fake
 * of the WordPress and Action Scheduler functions it calls, over an
 * in-memory options table and table list, and prints what is left:
 * {"options": {...}, "tables": [...], "unscheduled": [...], "queries": [...]}.
 */

/** Where the test layout (/plugin, /php, /work) is rooted: the runner's C2C_TEST_ROOT when it sets one. */
$c2c_root = C2C_TEST_ROOT;
require $c2c_root . '/php/testing/harness.php';

$c2c_input = json_decode( file_get_contents( $c2c_root . '/work/uninstall.json' ), true );
foreach ( $c2c_input['constants'] as $c2c_name => $c2c_value ) {
	define( $c2c_name, $c2c_value );
}
define( 'WP_UNINSTALL_PLUGIN', $c2c_input['plugin'] );
// As WordPress has it when it runs an uninstall.php: the shared files it requires check it.
define( 'ABSPATH', $c2c_root . '/' );

$GLOBALS['c2c_options']     = $c2c_input['options'];
$GLOBALS['c2c_tables']      = $c2c_input['tables'];
$GLOBALS['c2c_unscheduled'] = array();
$GLOBALS['c2c_queries']     = array();

function is_multisite() {
	return false;
}
function get_option( $name, $default = false ) {
	return array_key_exists( $name, $GLOBALS['c2c_options'] ) ? $GLOBALS['c2c_options'][ $name ] : $default;
}
function update_option( $name, $value ) {
	$GLOBALS['c2c_options'][ $name ] = $value;
	return true;
}
function delete_option( $name ) {
	unset( $GLOBALS['c2c_options'][ $name ] );
	return true;
}
function delete_transient( $name ) {
	unset( $GLOBALS['c2c_options'][ '_transient_' . $name ], $GLOBALS['c2c_options'][ '_transient_timeout_' . $name ] );
	return true;
}
function wp_clear_scheduled_hook( $hook ) {
	$GLOBALS['c2c_unscheduled'][] = array( 'wp-cron', $hook );
	return 0;
}
function as_unschedule_all_actions( $hook, $args = array(), $group = '' ) {
	$GLOBALS['c2c_unscheduled'][] = array( $hook, $args, $group );
}

/** The three statements uninstall.php sends, interpreted; anything else fails the test. */
final class C2C_Fake_Wpdb {
	public $prefix  = 'wp_';
	public $options = 'wp_options';

	public function suppress_errors( $suppress = true ) {
		return false;
	}

	public function esc_like( $text ) {
		return addcslashes( $text, '_%\\' );
	}

	public function prepare( $query, ...$args ) {
		$i = 0;
		return preg_replace_callback(
			'/%[isd]/',
			static function ( $m ) use ( &$i, $args ) {
				$value = $args[ $i++ ];
				return '%i' === $m[0] ? '`' . $value . '`' : ( '%d' === $m[0] ? (string) (int) $value : "'" . addslashes( $value ) . "'" );
			},
			$query
		);
	}

	public function query( $sql ) {
		$GLOBALS['c2c_queries'][] = $sql;
		if ( preg_match( '/^DROP TABLE IF EXISTS `([^`]+)`$/', $sql, $m ) ) {
			$GLOBALS['c2c_tables'] = array_values( array_diff( $GLOBALS['c2c_tables'], array( $m[1] ) ) );
			return true;
		}
		if ( preg_match( "/^DELETE FROM `wp_options` WHERE option_name LIKE '(.*)'$/", $sql, $m ) ) {
			$pattern = '/^' . c2c_like_to_regex( stripslashes( $m[1] ) ) . '$/';
			$deleted = 0;
			foreach ( array_keys( $GLOBALS['c2c_options'] ) as $name ) {
				if ( preg_match( $pattern, $name ) ) {
					unset( $GLOBALS['c2c_options'][ $name ] );
					++$deleted;
				}
			}
			return $deleted;
		}
		throw new RuntimeException( 'Unexpected query: ' . $sql );
	}
}
$GLOBALS['wpdb'] = new C2C_Fake_Wpdb();

/** SQL LIKE (backslash escapes) as a regular expression body. */
function c2c_like_to_regex( string $like ): string {
	$out = '';
	for ( $i = 0, $n = strlen( $like ); $i < $n; $i++ ) {
		$ch = $like[ $i ];
		if ( '\\' === $ch && $i + 1 < $n ) {
			$out .= preg_quote( $like[ ++$i ], '/' );
		} elseif ( '%' === $ch ) {
			$out .= '.*';
		} elseif ( '_' === $ch ) {
			$out .= '.';
		} else {
			$out .= preg_quote( $ch, '/' );
		}
	}
	return $out;
}

( static function ( string $file ): void {
	require $file;
} )( $c2c_root . $c2c_input['file'] );

c2c_test_output(
	array(
		'options'     => (object) $GLOBALS['c2c_options'],
		'tables'      => $GLOBALS['c2c_tables'],
		'unscheduled' => $GLOBALS['c2c_unscheduled'],
		'queries'     => $GLOBALS['c2c_queries'],
	)
);
