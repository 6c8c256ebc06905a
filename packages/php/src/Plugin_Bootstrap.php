<?php
/**
 * What both plugins' main files do, written once: autoload the plugin's
 * classes and its copy of this library, load its translations, and boot it.
 *
 * A plugin's namespace is this copy's without "\Shared" (the build writes
 * this file as Card2Crypto\Widget\Shared\Plugin_Bootstrap into the widget
 * plugin), so each plugin autoloads only its own prefix and two plugins
 * carrying different versions of this library never share a class:
 *   <Plugin>\Shared\Foo\Bar => lib/shared/Foo/Bar.php
 *   <Plugin>\Class_Name     => includes/Class_Name.php
 *   <Plugin>\Room\Class    => includes/Room/Class.php (a plugin's rooms)
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared;

use Card2Crypto\Shared\Settings\Schema;

final class Plugin_Bootstrap {

	/** @var string The plugin's directory, without a trailing slash. */
	private static $dir = '';

	/**
	 * From the main plugin file: the autoloader, the text domain on init,
	 * then $plugin_class::boot( $main_file ), which registers the plugin's
	 * hooks. (A class name, not a callable: the class can only be loaded once
	 * the autoloader is registered here.)
	 */
	public static function start( string $main_file, string $plugin_class ): void {
		self::autoload( dirname( $main_file ) );
		add_action(
			'init',
			static function () use ( $main_file ): void {
				load_plugin_textdomain( 'card2crypto-shared', false, dirname( plugin_basename( $main_file ) ) . '/languages' );
			}
		);
		$plugin_class::boot( $main_file );
	}

	/** Registers the plugin's autoloader (also what the tests use, without WordPress). */
	public static function autoload( string $plugin_dir ): void {
		self::$dir = rtrim( $plugin_dir, '/' );
		$shared    = __NAMESPACE__ . '\\';
		$own       = substr( $shared, 0, -strlen( 'Shared\\' ) );
		$dir       = self::$dir;
		spl_autoload_register(
			static function ( string $class ) use ( $shared, $own, $dir ): void {
				if ( 0 === strncmp( $class, $shared, strlen( $shared ) ) ) {
					$file = $dir . '/lib/shared/' . str_replace( '\\', '/', substr( $class, strlen( $shared ) ) ) . '.php';
				} elseif ( 0 === strncmp( $class, $own, strlen( $own ) ) ) {
					$file = $dir . '/includes/' . str_replace( '\\', '/', substr( $class, strlen( $own ) ) ) . '.php';
				} else {
					return;
				}
				if ( is_readable( $file ) ) {
					require $file;
				}
			}
		);
	}

	/** The plugin's directory (set by start() or autoload()). */
	public static function dir(): string {
		return self::$dir;
	}

	/** The settings schema the build wrote into the plugin (lib/settings-schema.php), read once per request. */
	public static function schema(): Schema {
		return Schema::from_file( self::$dir . '/lib/settings-schema.php' );
	}
}
