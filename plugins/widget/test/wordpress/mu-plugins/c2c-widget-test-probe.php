<?php
/**
 * Test-only must-use plugin, mounted into the WordPress that
 * test/wordpress.test.ts boots (never shipped; test/ is not in the zip):
 * POST /wp-json/c2c-widget-test/v1/run { action, ... } sets the widget's
 * settings, renders blocks and classic widgets the way a page does, and
 * reports what WordPress registered. It also lets the test lower the
 * rate limit through the plugin's documented filter.
 */

defined( 'ABSPATH' ) || exit;

add_filter(
	'card2crypto_widget_rate_limit',
	static function ( array $rule ): array {
		$limit = (int) get_option( 'c2c_test_rate_limit', 0 );
		return $limit > 0 ? array(
			'limit'  => $limit,
			'window' => 60,
		) : $rule;
	}
);

add_action(
	'widgets_init',
	static function (): void {
		register_sidebar(
			array(
				'id'            => 'c2c-test-sidebar',
				'name'          => 'Test sidebar',
				'before_widget' => '<section id="%1$s" class="widget %2$s">',
				'after_widget'  => '</section>',
			)
		);
	}
);

add_action(
	'rest_api_init',
	static function (): void {
		register_rest_route(
			'c2c-widget-test/v1',
			'/run',
			array(
				'methods'             => 'POST',
				'permission_callback' => '__return_true',
				'callback'            => 'c2c_widget_test_run',
			)
		);
	}
);

/** The scripts and styles a render enqueued. */
function c2c_widget_test_assets(): array {
	return array(
		'scripts' => array_values( wp_scripts()->queue ),
		'styles'  => array_values( wp_styles()->queue ),
	);
}

function c2c_widget_test_run( WP_REST_Request $request ): WP_REST_Response {
	$p = $request->get_json_params();
	switch ( $p['action'] ?? '' ) {
		case 'set_option':
			if ( null === $p['value'] ) {
				delete_option( $p['name'] );
			} else {
				update_option( $p['name'], $p['value'] );
			}
			return new WP_REST_Response( true );

		case 'set_raw_option':
			// A value no save path accepts any more (every write is judged by the schema): what an older version
			// stored, written around update_option's filters, to see that the plugin copes with it.
			global $wpdb;
			$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s", $p['name'] ) ); // phpcs:ignore
			$wpdb->insert( $wpdb->options, array( 'option_name' => $p['name'], 'option_value' => maybe_serialize( $p['value'] ), 'autoload' => 'on' ) ); // phpcs:ignore
			wp_cache_delete( 'alloptions', 'options' );
			wp_cache_delete( $p['name'], 'options' );
			return new WP_REST_Response( true );

		case 'reset_rate_limits':
			global $wpdb;
			// The routes' budgets (Route_Limit: the shared Visitor_Budget on the widget's table).
			$wpdb->query( "DELETE FROM {$wpdb->prefix}card2crypto_widget_budgets" ); // phpcs:ignore
			wp_cache_flush();
			return new WP_REST_Response( true );

		case 'rate_limit_rows':
			global $wpdb;
			return new WP_REST_Response(
				array(
					'rows'       => (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->prefix}card2crypto_widget_budgets" ), // phpcs:ignore
					'transients' => (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE '%c2c\\_rl\\_%'" ), // phpcs:ignore
				)
			);

		case 'loaded':
			// Which of the plugin's settings classes this request has loaded so far (it asked for none).
			return new WP_REST_Response(
				array(
					'schema'        => class_exists( 'Card2Crypto\\Widget\\Shared\\Settings\\Schema', false ),
					'settings_page' => class_exists( 'Card2Crypto\\Widget\\Shared\\Settings\\Settings_Page', false ),
					'plugin'        => class_exists( 'Card2Crypto\\Widget\\Plugin', false ),
				)
			);

		case 'render_blocks':
			$html = do_blocks( (string) $p['content'] );
			return new WP_REST_Response( array( 'html' => $html ) + c2c_widget_test_assets() );

		case 'routes':
			$out = array();
			foreach ( rest_get_server()->get_routes( 'card2crypto-widget/v1' ) as $route => $handlers ) {
				foreach ( $handlers as $handler ) {
					$callback = $handler['permission_callback'] ?? null;
					$out[]    = array(
						'route'      => $route,
						'methods'    => array_keys( array_filter( $handler['methods'] ) ),
						'permission' => is_string( $callback ) ? $callback : ( null === $callback ? null : 'callable' ),
					);
				}
			}
			return new WP_REST_Response( $out );

		case 'classic_widget_types':
			global $wp_widget_factory;
			$types = array();
			foreach ( $wp_widget_factory->widgets as $widget ) {
				// The plugin registers its widget as an object (keyed by object hash), so the class is asked of it.
				$types[ $widget->id_base ] = get_class( $widget );
			}
			return new WP_REST_Response(
				array(
					'registered'         => $types,
					'hidden_from_legacy' => array_values( (array) apply_filters( 'widget_types_to_hide_from_legacy_widget_block', array() ) ),
				)
			);

		case 'classic_update':
			// As the widgets screen saves one widget: WP_Widget::update_callback() with the posted fields.
			$widget = c2c_widget_test_classic();
			$number = (int) $p['number'];
			$before = get_option( 'widget_card2crypto_widget', array() );
			$_POST['widget-card2crypto_widget'] = array( $number => wp_slash( $p['fields'] ) );
			$widget->_set( $number );
			$widget->update_callback();
			unset( $_POST['widget-card2crypto_widget'] );
			ob_start();
			$widget->_set( $number );
			$widget->form_callback( $number );
			$form  = ob_get_clean();
			$after = get_option( 'widget_card2crypto_widget', array() );
			return new WP_REST_Response(
				array(
					'stored'  => $after[ $number ] ?? null,
					'changed' => $before !== $after,
					'form'    => $form,
				)
			);

		case 'settings_control':
			// One field of the settings page, as Settings_Page renders it.
			$field = Card2Crypto\Widget\Plugin::service( Card2Crypto\Widget\Settings\Widget_Settings::class )->store()->fields()[ $p['field'] ];
			$view  = new Card2Crypto\Widget\Shared\Settings\Field_View( Card2Crypto\Widget\Plugin::service( Card2Crypto\Widget\Settings\Widget_Settings::class )->store() );
			return new WP_REST_Response( array( 'html' => Card2Crypto\Widget\Shared\Settings\Field_Renderer::control( $view, $field, 'c2c[' . $p['field'] . ']', 'c2c-' . $p['field'] ) ) );

		case 'site_language':
			// The language "Site language" sends for a page in this locale.
			$locale = (string) $p['locale'];
			add_filter(
				'determine_locale',
				static function () use ( $locale ): string {
					return $locale;
				}
			);
			return new WP_REST_Response( Card2Crypto\Widget\Plugin::service( Card2Crypto\Widget\Settings\Widget_Settings::class )->config()->site_language() );

		case 'classic_render':
			// The sidebar as a classic theme renders it.
			update_option( 'sidebars_widgets', array( 'wp_inactive_widgets' => array(), 'c2c-test-sidebar' => $p['widgets'], 'array_version' => 3 ) );
			$GLOBALS['_wp_sidebars_widgets'] = array(); // Read again from the option.
			ob_start();
			dynamic_sidebar( 'c2c-test-sidebar' );
			$html = ob_get_clean();
			return new WP_REST_Response( array( 'html' => $html ) + c2c_widget_test_assets() );
	}
	return new WP_REST_Response( array( 'error' => 'unknown action' ), 400 );
}

function c2c_widget_test_classic(): WP_Widget {
	global $wp_widget_factory;
	foreach ( $wp_widget_factory->widgets as $widget ) {
		if ( 'card2crypto_widget' === $widget->id_base ) {
			return $widget;
		}
	}
	throw new RuntimeException( 'The classic widget is not registered.' );
}
