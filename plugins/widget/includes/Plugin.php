<?php
/**
 * Wires the plugin into WordPress, in one place: boot() builds the
 * plugin's services once (the settings, read only when something asks;
 * the site's block references; the built scripts; the connection check
 * ...), passes each the services it needs through its constructor, and
 * has every one that hooks into WordPress register its own hooks, in one
 * loop. No other class names this one.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget;

use Card2Crypto\Widget\Admin\Color_Pickers;
use Card2Crypto\Widget\Admin\Privacy_Policy;
use Card2Crypto\Widget\Admin\Settings_Screen;
use Card2Crypto\Widget\Base\Assets;
use Card2Crypto\Widget\Base\Budget_Table;
use Card2Crypto\Widget\Blocks\Block_Types;
use Card2Crypto\Widget\Blocks\Buy_Button_Render;
use Card2Crypto\Widget\Blocks\Classic_Widgets;
use Card2Crypto\Widget\Blocks\Editor_Data;
use Card2Crypto\Widget\Blocks\Widget_Render;
use Card2Crypto\Widget\Connection\Connection_Check;
use Card2Crypto\Widget\Connection\Site_Health;
use Card2Crypto\Widget\Routes\Block_Settings;
use Card2Crypto\Widget\Routes\Go_Route;
use Card2Crypto\Widget\Routes\Partner_Css_Route;
use Card2Crypto\Widget\Routes\Refusal_Page;
use Card2Crypto\Widget\Routes\Return_Notice;
use Card2Crypto\Widget\Routes\Route_Limit;
use Card2Crypto\Widget\Routes\Route_Output;
use Card2Crypto\Widget\Routes\Routes;
use Card2Crypto\Widget\Routes\Sign_Route;
use Card2Crypto\Widget\Settings\Site_Keys;
use Card2Crypto\Widget\Settings\Widget_Settings;
use Card2Crypto\Widget\Shared\Api\Credentials_Check;
use Card2Crypto\Widget\Shared\Assets\Build_Assets;
use Card2Crypto\Widget\Shared\Budget\Visitor_Budget;
use Card2Crypto\Widget\Shared\Database\Site_Lock;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Plugin {

	/** The hourly job that deletes the visitors' budgets whose windows have passed (uninstall.php clears it). */
	const CLEAN_HOOK = 'card2crypto_widget_clean_budgets';

	/** @var array<string, object> The services boot() built, by class name. */
	private static $services = array();

	/** Builds the services and registers every hook of the plugin (called once by Plugin_Bootstrap::start() from the main file). */
	public static function boot( string $file ): void {
		self::$services = self::build( $file );
		register_activation_hook( $file, array( self::$services[ Budget_Table::class ], 'activate' ) );
		foreach ( self::$services as $service ) {
			if ( $service instanceof Hooks ) {
				$service->register();
			}
		}
	}

	/**
	 * The plugin's object graph: each service gets what it uses, built once,
	 * through its constructor. In the order their hooks are registered
	 * (the scripts before the blocks that name them).
	 *
	 * @param string $file The plugin's main file.
	 * @return array<string, object> By class name.
	 */
	public static function build( string $file ): array {
		$dir        = dirname( $file );
		$settings   = new Widget_Settings();
		$keys       = new Site_Keys();
		$build      = new Build_Assets( $file );
		$connection = new Connection_Check( $settings, new Credentials_Check() );
		$returns    = new Return_Notice();
		$blocks     = new Block_Settings( $keys, $settings );
		$budget     = new Visitor_Budget( Budget_Table::SUFFIX, new Site_Lock( 'card2crypto-widget' ), self::CLEAN_HOOK );
		$limit      = new Route_Limit( $budget );
		$widget     = new Widget_Render( $keys, $settings );
		$button     = new Buy_Button_Render( $keys, $returns );
		$sign       = new Sign_Route( $blocks, $limit, $settings );
		$css        = new Partner_Css_Route( $settings );
		$go         = new Go_Route( $blocks, $limit, $returns, new Refusal_Page(), $settings );
		return array(
			Widget_Settings::class   => $settings,
			Site_Keys::class         => $keys,
			Build_Assets::class      => $build,
			Visitor_Budget::class    => $budget,
			Budget_Table::class      => new Budget_Table( $budget, plugin_basename( $file ) ),
			Assets::class            => new Assets( $build, $dir . '/languages' ),
			Block_Types::class       => new Block_Types( $widget, $button, $dir . '/build/blocks' ),
			Editor_Data::class       => new Editor_Data( $settings, $build ),
			Classic_Widgets::class   => new Classic_Widgets( $settings ),
			Return_Notice::class     => $returns,
			Routes::class            => new Routes( $sign, $css, $go ),
			Route_Output::class      => new Route_Output(),
			Settings_Screen::class   => new Settings_Screen( $settings, $connection, plugin_basename( $file ) ),
			Color_Pickers::class     => new Color_Pickers( $settings ),
			Connection_Check::class  => $connection,
			Privacy_Policy::class    => new Privacy_Policy(),
			Site_Health::class       => new Site_Health( $connection, $settings ),
		);
	}

	/**
	 * One service boot() built, for tests and tools (WP-CLI): the plugin's own
	 * classes get theirs through their constructors.
	 *
	 * @template T of object
	 * @param class-string<T> $class
	 * @return T
	 */
	public static function service( string $class ) {
		if ( ! isset( self::$services[ $class ] ) ) {
			throw new \LogicException( $class . ' is not a service of Card2Crypto Widget, or the plugin has not booted.' );
		}
		return self::$services[ $class ];
	}
}
