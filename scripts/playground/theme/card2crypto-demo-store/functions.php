<?php
/**
 * card2crypto demo store: theme setup.
 *
 * @package card2crypto-demo-store
 */

defined( 'ABSPATH' ) || exit;

add_action(
	'after_setup_theme',
	static function () {
		add_theme_support( 'title-tag' );
		add_theme_support( 'woocommerce' );
		add_theme_support( 'wc-product-gallery-zoom' );
		add_theme_support( 'wc-product-gallery-lightbox' );
		add_theme_support( 'html5', array( 'search-form', 'gallery', 'caption', 'style', 'script' ) );
		register_nav_menus( array( 'primary' => __( 'Primary', 'card2crypto-demo-store' ) ) );
	}
);

add_action(
	'widgets_init',
	static function () {
		register_sidebar(
			array(
				'name'          => __( 'Sidebar', 'card2crypto-demo-store' ),
				'id'            => 'sidebar-1',
				'description'   => __( 'Shown beside every page but the checkout; holds the card2crypto widget in the demo store.', 'card2crypto-demo-store' ),
				'before_widget' => '<section id="%1$s" class="widget %2$s">',
				'after_widget'  => '</section>',
				'before_title'  => '<h2 class="widget-title">',
				'after_title'   => '</h2>',
			)
		);
	}
);

add_action(
	'wp_enqueue_scripts',
	static function () {
		wp_enqueue_style( 'card2crypto-demo-store', get_stylesheet_uri(), array(), wp_get_theme()->get( 'Version' ) );
	}
);

/**
 * Whether the sidebar shows on this page: not on WooCommerce's checkout, whose
 * order-pay and order-received endpoints is_checkout() also covers, so the
 * sidebar's "Buy crypto" widget never sits beside the payment widget.
 */
function card2crypto_demo_store_has_sidebar() {
	return ! ( function_exists( 'is_checkout' ) && is_checkout() );
}

add_filter(
	'body_class',
	static function ( $classes ) {
		if ( ! card2crypto_demo_store_has_sidebar() ) {
			$classes[] = 'card2crypto-no-sidebar';
		}
		return $classes;
	}
);

/**
 * Fallback menu: the shop pages when WooCommerce is active, else the pages.
 */
function card2crypto_demo_store_menu() {
	$links = array( home_url( '/' ) => __( 'Home', 'card2crypto-demo-store' ) );
	if ( function_exists( 'wc_get_page_permalink' ) ) {
		$links[ wc_get_page_permalink( 'shop' ) ]      = __( 'Shop', 'card2crypto-demo-store' );
		$links[ wc_get_page_permalink( 'cart' ) ]      = __( 'Cart', 'card2crypto-demo-store' );
		$links[ wc_get_page_permalink( 'checkout' ) ]  = __( 'Checkout', 'card2crypto-demo-store' );
		$links[ wc_get_page_permalink( 'myaccount' ) ] = __( 'My account', 'card2crypto-demo-store' );
	}
	echo '<ul>';
	foreach ( $links as $url => $label ) {
		printf( '<li><a href="%s">%s</a></li>', esc_url( $url ), esc_html( $label ) );
	}
	echo '</ul>';
}
