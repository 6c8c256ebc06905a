<?php
/**
 * Seeds a harness site; runs at every boot (a blueprint step), so every step
 * is idempotent: it activates the plugins, sets WooCommerce up for a EUR store
 * with a few products, points both card2crypto plugins at the sandbox and puts
 * the widget block in the sidebar.
 *
 * Input: <harness dir>/config.json (written by scripts/lib/seed.mjs).
 * Output: <harness dir>/seed-result.json (read back by the harness).
 *
 * @package card2crypto-harness
 */

// phpcs:disable WordPress.WP.AlternativeFunctions -- CLI-only harness code.

// Playground runs this file alone; wp-env runs it through `wp eval-file seed.php
// HARNESS_DIR`, with WordPress loaded and the harness directory as argument.
$card2crypto_harness_dir = isset( $args[0] ) && is_string( $args[0] ) && '' !== $args[0] ? rtrim( $args[0], '/' ) : '/card2crypto-harness';
if ( ! defined( 'ABSPATH' ) ) {
	require_once '/wordpress/wp-load.php';
}
require_once ABSPATH . 'wp-admin/includes/plugin.php';
require_once ABSPATH . 'wp-admin/includes/theme.php';

$config = json_decode( file_get_contents( $card2crypto_harness_dir . '/config.json' ), true );
$result = array(
	'activated' => array(),
	'errors'    => array(),
);

/**
 * Activate a plugin unless active; record the outcome.
 *
 * @param string $plugin Plugin basename.
 * @param array  $result Outcome collector.
 */
function card2crypto_harness_activate( $plugin, array &$result ) {
	if ( is_plugin_active( $plugin ) ) {
		$result['activated'][] = $plugin;
		return;
	}
	try {
		$outcome = activate_plugin( $plugin );
		if ( is_wp_error( $outcome ) ) {
			$result['errors'][] = $plugin . ': ' . wp_strip_all_tags( $outcome->get_error_message() );
		} else {
			$result['activated'][] = $plugin;
		}
	} catch ( Throwable $error ) {
		$result['errors'][] = $plugin . ': ' . get_class( $error ) . ': ' . $error->getMessage();
	}
}

/**
 * Turn on WooCommerce's order tables (HPOS), as on a new store.
 *
 * @param array $result Outcome collector.
 */
function card2crypto_harness_enable_hpos( array &$result ) {
	if ( 'yes' === get_option( 'woocommerce_custom_orders_table_enabled' ) || ! function_exists( 'wc_get_container' ) ) {
		return;
	}
	try {
		$synchronizer = wc_get_container()->get( \Automattic\WooCommerce\Internal\DataStores\Orders\DataSynchronizer::class );
		if ( ! $synchronizer->check_orders_table_exists() ) {
			$synchronizer->create_database_tables();
		}
		$features = wc_get_container()->get( \Automattic\WooCommerce\Internal\Features\FeaturesController::class );
		if ( ! $features->change_feature_enable( 'custom_order_tables', true ) ) {
			$result['errors'][] = 'HPOS: WooCommerce refused to enable the order tables';
		}
	} catch ( Throwable $error ) {
		$result['errors'][] = 'HPOS: ' . $error->getMessage();
	}
}

// Site basics.
update_option( 'blogname', $config['siteTitle'] );
update_option( 'blogdescription', $config['siteTagline'] );
if ( '/%postname%/' !== get_option( 'permalink_structure' ) ) {
	// Through the rewrite object, so that links made later in this same run
	// (the pages and products reported below) are pretty too.
	global $wp_rewrite;
	$wp_rewrite->set_permalink_structure( '/%postname%/' );
	flush_rewrite_rules( false );
}
if ( get_stylesheet() !== $config['theme'] && wp_get_theme( $config['theme'] )->exists() ) {
	switch_theme( $config['theme'] );
	// The widgets are placed below; stop WordPress from mapping the previous
	// theme's widget areas onto this theme's sidebar on the next request.
	delete_option( 'theme_switched' );
}

// WooCommerce first: the checkout plugin requires it.
if ( ! empty( $config['woocommerce'] ) ) {
	card2crypto_harness_activate( 'woocommerce/woocommerce.php', $result );
	if ( class_exists( 'WooCommerce' ) || is_plugin_active( 'woocommerce/woocommerce.php' ) ) {
		foreach ( $config['woocommerceOptions'] as $name => $value ) {
			update_option( $name, $value );
		}
		delete_transient( '_wc_activation_redirect' );
		card2crypto_harness_enable_hpos( $result );
	}
}

foreach ( $config['activate'] as $plugin ) {
	card2crypto_harness_activate( $plugin, $result );
}

// Plugin settings: merge, so settings an admin changed by hand survive a restart
// except the ones the harness owns (credentials and sandbox addresses).
foreach ( $config['options'] as $name => $values ) {
	$current = get_option( $name, array() );
	update_option( $name, array_merge( is_array( $current ) ? $current : array(), $values ) );
}

// Sample products, found again by SKU.
if ( function_exists( 'wc_get_product_id_by_sku' ) && class_exists( 'WC_Product_Simple' ) ) {
	foreach ( $config['products'] as $sample ) {
		$id      = wc_get_product_id_by_sku( $sample['sku'] );
		$product = $id ? wc_get_product( $id ) : new WC_Product_Simple();
		if ( $id ) {
			continue;
		}
		$product->set_name( $sample['name'] );
		$product->set_sku( $sample['sku'] );
		$product->set_regular_price( $sample['price'] );
		$product->set_short_description( $sample['description'] );
		$product->set_description( $sample['description'] );
		$product->set_virtual( true );
		$product->set_status( 'publish' );
		$product->save();
	}
	$shop = function_exists( 'wc_get_page_id' ) ? wc_get_page_id( 'shop' ) : 0;
	if ( $shop > 0 ) {
		update_option( 'show_on_front', 'page' );
		update_option( 'page_on_front', $shop );
	}
	$result['products'] = array_map(
		static function ( $sample ) {
			$id = wc_get_product_id_by_sku( $sample['sku'] );
			return array(
				'sku'  => $sample['sku'],
				'id'   => $id,
				'url'  => $id ? get_permalink( $id ) : null,
			);
		},
		$config['products']
	);
	// A classic (shortcode) checkout beside WooCommerce's block checkout: stores run both, and the
	// card payment is offered on each. Found again by its slug; an owner's edits to it are kept.
	$classic = get_page_by_path( 'classic-checkout', OBJECT, 'page' );
	if ( ! $classic ) {
		$classic_id = wp_insert_post(
			array(
				'post_type'    => 'page',
				'post_status'  => 'publish',
				'post_title'   => 'Classic checkout',
				'post_name'    => 'classic-checkout',
				'post_content' => '<!-- wp:shortcode -->[woocommerce_checkout]<!-- /wp:shortcode -->',
			),
			true
		);
		if ( is_wp_error( $classic_id ) ) {
			$result['errors'][] = 'Classic checkout page: ' . $classic_id->get_error_message();
		}
		$classic = is_wp_error( $classic_id ) ? null : get_post( $classic_id );
	}
	$result['pages'] = array(
		'shop'             => wc_get_page_permalink( 'shop' ),
		'cart'             => wc_get_page_permalink( 'cart' ),
		'checkout'         => wc_get_page_permalink( 'checkout' ),
		'classic_checkout' => $classic ? get_permalink( $classic ) : null,
	);
	$result['woocommerceVersion'] = defined( 'WC_VERSION' ) ? WC_VERSION : null;
	$result['hpos']               = 'yes' === get_option( 'woocommerce_custom_orders_table_enabled' );
	$result['currency']           = get_option( 'woocommerce_currency' );
}

// The widget block in the sidebar: one block widget whose content names the block.
if ( ! empty( $config['widgetBlock'] ) ) {
	$widgets  = get_option( 'widget_block', array() );
	$sidebars = get_option( 'sidebars_widgets', array() );
	$number   = null;
	foreach ( $widgets as $key => $widget ) {
		if ( is_array( $widget ) && isset( $widget['content'] ) && false !== strpos( $widget['content'], $config['widgetBlockName'] ) ) {
			$number = $key;
			break;
		}
	}
	if ( null === $number ) {
		$number             = max( array_merge( array( 1 ), array_filter( array_keys( $widgets ), 'is_int' ) ) ) + 1;
		$widgets[ $number ] = array( 'content' => $config['widgetBlock'] );
	}
	$widgets['_multiwidget'] = 1;
	update_option( 'widget_block', $widgets );
	$id      = 'block-' . $number;
	$sidebar = isset( $sidebars['sidebar-1'] ) && is_array( $sidebars['sidebar-1'] ) ? $sidebars['sidebar-1'] : array();
	if ( ! in_array( $id, $sidebar, true ) ) {
		// First seed: the sidebar shows only the card2crypto widget; WordPress's
		// default widgets (search, recent posts...) stay available as inactive.
		// Widgets of areas this theme lacks go there too, or WordPress would map
		// them into the sidebar.
		$inactive = array();
		foreach ( $sidebars as $area => $ids ) {
			if ( 'array_version' !== $area && is_array( $ids ) ) {
				$inactive = array_merge( $inactive, array_diff( $ids, array( $id ) ) );
			}
		}
		$sidebars = array(
			'wp_inactive_widgets' => array_values( array_unique( $inactive ) ),
			'sidebar-1'           => array( $id ),
		);
	} else {
		$sidebars['sidebar-1'] = $sidebar;
	}
	$sidebars['array_version'] = 3;
	update_option( 'sidebars_widgets', $sidebars );
	$result['widget'] = $id;
}

// The admin sees the screens, not the first-run guides (also keeps screenshots clean).
$admin = get_user_by( 'login', 'admin' );
if ( $admin ) {
	global $wpdb;
	$key         = $wpdb->get_blog_prefix() . 'persisted_preferences';
	$preferences = get_user_meta( $admin->ID, $key, true );
	$preferences = is_array( $preferences ) ? $preferences : array();
	foreach ( array( 'core/edit-widgets', 'core/edit-post', 'core/edit-site', 'core/customize-widgets' ) as $scope ) {
		$preferences[ $scope ]                 = isset( $preferences[ $scope ] ) && is_array( $preferences[ $scope ] ) ? $preferences[ $scope ] : array();
		$preferences[ $scope ]['welcomeGuide'] = false;
	}
	$preferences['_modified'] = gmdate( 'c' );
	update_user_meta( $admin->ID, $key, $preferences );
}

$result['wordpressVersion'] = get_bloginfo( 'version' );
$result['activePlugins']    = get_option( 'active_plugins' );
$result['theme']            = get_stylesheet();
file_put_contents( $card2crypto_harness_dir . '/seed-result.json', wp_json_encode( $result, JSON_PRETTY_PRINT ) );
