<?php
/**
 * The widget plugin's blocks and their routes: registers the purchase
 * widget block (card2crypto/widget) and the "Buy crypto" landing link
 * (card2crypto/buy-button), renders them, and serves the three anonymous
 * routes under /wp-json/card2crypto-widget/v1/:
 *
 * - POST sign         signed widget settings for one block, stamped now;
 * - GET  partner.css  the widget colours (partner_css);
 * - GET  go           signs at click time and redirects to the landing page.
 *
 * Wired from the main plugin file: Widget_Block::init( __FILE__ ).
 *
 * @package Card2Crypto\Widget
 */

namespace Card2Crypto\Widget;

use Card2Crypto\Widget\Shared\Settings\Http_Url;

require_once __DIR__ . '/class-block-reference.php';
require_once __DIR__ . '/class-partner-css.php';
require_once __DIR__ . '/class-widget-signer.php';
require_once __DIR__ . '/class-landing-url.php';
require_once __DIR__ . '/class-rate-limiter.php';
require_once __DIR__ . '/class-widget-config.php';
require_once __DIR__ . '/class-color-pickers.php';
require_once __DIR__ . '/class-classic-widget.php';

final class Widget_Block {

	const REST_NAMESPACE = 'card2crypto-widget/v1';
	const TEXT_DOMAIN    = 'card2crypto-widget';

	/** Blocks one sign request may ask for (a page asks once for all its blocks). */
	const MAX_BLOCKS = 20;

	/** Script and style handles (block.json refers to them by name). */
	const EDITOR_SCRIPT = 'card2crypto-widget-editor';
	const EDITOR_STYLE  = 'card2crypto-widget-editor';
	const VIEW_SCRIPT   = 'card2crypto-widget-view';
	const VIEW_STYLE    = 'card2crypto-widget-view';

	/** @var string */
	private static $main_file = '';

	/** @var array<string, int> Instances rendered per reference in this request. */
	private static $instances = array();

	/** Hooks everything in; call once from the main plugin file. */
	public static function init( string $main_file ): void {
		self::$main_file = $main_file;
		add_action( 'init', array( self::class, 'register' ) );
		add_action( 'rest_api_init', array( self::class, 'register_routes' ) );
		add_filter( 'rest_pre_serve_request', array( self::class, 'serve_raw' ), 10, 4 );
		( new Color_Pickers( Plugin::settings() ) )->hook();
		Classic_Widget::hook();
	}

	/** @var Widget_Config|null */
	private static $config;

	/** The settings as the settings page stored them (Plugin::settings()), read once per request. */
	public static function config(): Widget_Config {
		if ( null === self::$config ) {
			self::$config = Widget_Config::from_store( Plugin::settings() );
		}
		return self::$config;
	}

	private static function references(): Block_Reference {
		return new Block_Reference( wp_salt( 'nonce' ) );
	}

	private static function url( string $path ): string {
		return plugins_url( $path, self::$main_file );
	}

	private static function dir( string $path ): string {
		return dirname( self::$main_file ) . '/' . $path;
	}

	/** Scripts, styles and both blocks. */
	public static function register(): void {
		$asset = is_readable( self::dir( 'build/editor.asset.php' ) ) ? require self::dir( 'build/editor.asset.php' ) : array(
			'dependencies' => array(),
			'version'      => false,
		);
		wp_register_script( self::EDITOR_SCRIPT, self::url( 'build/editor.js' ), $asset['dependencies'], $asset['version'], true );
		wp_set_script_translations( self::EDITOR_SCRIPT, self::TEXT_DOMAIN );
		wp_register_style( self::EDITOR_STYLE, self::url( 'build/editor.css' ), array(), $asset['version'] );
		$view = is_readable( self::dir( 'build/view.asset.php' ) ) ? require self::dir( 'build/view.asset.php' ) : array( 'version' => false );
		wp_register_script(
			self::VIEW_SCRIPT,
			self::url( 'build/view.js' ),
			array(),
			$view['version'],
			array(
				'in_footer' => true,
				'strategy'  => 'defer',
			)
		);
		wp_register_style( self::VIEW_STYLE, self::url( 'build/view.css' ), array(), $view['version'] );

		register_block_type( self::dir( 'build/blocks/widget' ), array( 'render_callback' => array( self::class, 'render_widget' ) ) );
		register_block_type( self::dir( 'build/blocks/buy-button' ), array( 'render_callback' => array( self::class, 'render_buy_button' ) ) );

		add_action( 'enqueue_block_editor_assets', array( self::class, 'editor_data' ) );
	}

	/**
	 * What the editor shows without asking the service: the site's defaults
	 * and colours (never the credentials), for the preview and the controls' hints.
	 */
	public static function editor_data(): void {
		$config = self::config();
		$data   = array(
			'defaults'    => array(
				'title'          => (string) $config->get( 'title' ),
				'amount'         => (string) $config->get( 'default_amount' ),
				'fiatCurrency'   => (string) $config->get( 'default_fiat_currency' ),
				'cryptoCurrency' => (string) $config->get( 'default_crypto_currency' ),
				'lang'           => (string) $config->get( 'default_language' ),
			),
			'colors'      => $config->colors(),
			'configured'  => $config->has_credentials(),
			'settingsUrl' => current_user_can( 'manage_options' ) ? admin_url( 'options-general.php?page=card2crypto-widget' ) : '',
		);
		wp_add_inline_script( self::EDITOR_SCRIPT, 'window.card2cryptoWidget=' . wp_json_encode( $data ) . ';', 'before' );
	}

	/** The number of this block instance among equal ones on the page (1, 2, ...). */
	private static function instance( string $ref ): int {
		self::$instances[ $ref ] = ( self::$instances[ $ref ] ?? 0 ) + 1;
		return self::$instances[ $ref ];
	}

	/**
	 * The widget block: a container the view script fills. The page carries
	 * the block's reference and attributes, never a signature or the secret,
	 * so it may be cached for as long as the site likes.
	 *
	 * @param array<string, mixed> $attributes
	 */
	public static function render_widget( array $attributes ): string {
		$payload = Block_Reference::payload( $attributes );
		$ref     = self::references()->ref( $payload );
		$id      = Block_Reference::element_id( $ref, self::instance( $ref ) );
		$title   = isset( $attributes['title'] ) && is_string( $attributes['title'] ) ? $attributes['title'] : (string) self::config()->get( 'title' );
		$heading = '' !== trim( $title ) ? '<h2 class="c2c-widget__title">' . esc_html( $title ) . '</h2>' : '';

		return sprintf(
			'<div %1$s>%2$s<div id="%3$s" class="c2c-widget__frame" data-c2c-ref="%4$s" data-c2c-block="%5$s" data-c2c-sign="%6$s" data-c2c-fail="%9$s"><p class="c2c-widget__status">%7$s</p></div><noscript><p class="c2c-widget__status">%8$s</p></noscript></div>',
			get_block_wrapper_attributes( array( 'class' => 'c2c-widget' ) ),
			$heading,
			esc_attr( $id ),
			esc_attr( $ref ),
			esc_attr( $payload ),
			esc_url( rest_url( self::REST_NAMESPACE . '/sign' ) ),
			esc_html__( 'Loading the purchase widget…', 'card2crypto-widget' ),
			esc_html__( 'The purchase widget needs JavaScript.', 'card2crypto-widget' ),
			esc_attr__( 'The purchase widget is unavailable right now. Please try again later.', 'card2crypto-widget' )
		);
	}

	/**
	 * The "Buy crypto" link: to the go route, which signs when the visitor
	 * clicks. Styled as a core button so it follows the theme.
	 *
	 * @param array<string, mixed> $attributes
	 */
	public static function render_buy_button( array $attributes ): string {
		$payload = Block_Reference::payload( $attributes );
		$href    = add_query_arg(
			array(
				'b' => rawurlencode( $payload ),
				'r' => self::references()->ref( $payload ),
			),
			rest_url( self::REST_NAMESPACE . '/go' )
		);
		$text    = isset( $attributes['text'] ) && is_string( $attributes['text'] ) && '' !== trim( $attributes['text'] ) ? $attributes['text'] : __( 'Buy crypto', 'card2crypto-widget' );
		return sprintf(
			'<div %1$s><div class="wp-block-button"><a class="wp-block-button__link wp-element-button" href="%2$s" rel="nofollow">%3$s</a></div></div>',
			get_block_wrapper_attributes( array( 'class' => 'wp-block-buttons c2c-buy-button' ) ),
			esc_url( $href ),
			wp_kses( $text, array( 'strong' => array(), 'em' => array(), 'br' => array() ) )
		);
	}

	/** The three anonymous routes. */
	public static function register_routes(): void {
		$text = array(
			'type'     => 'string',
			'required' => true,
		);
		register_rest_route(
			self::REST_NAMESPACE,
			'/sign',
			array(
				'methods'             => 'POST',
				// Visitors are anonymous; the block reference and the rate limit guard this route.
				'permission_callback' => '__return_true',
				'callback'            => array( self::class, 'sign' ),
				'args'                => array(
					'blocks' => array(
						'type'     => 'array',
						'required' => true,
						'minItems' => 1,
						'maxItems' => self::MAX_BLOCKS,
						'items'    => array(
							'type'       => 'object',
							'properties' => array(
								'block'  => array( 'type' => 'string' ),
								'ref'    => array( 'type' => 'string' ),
								'target' => array( 'type' => 'string' ),
							),
						),
					),
				),
			)
		);
		register_rest_route(
			self::REST_NAMESPACE,
			'/partner.css',
			array(
				'methods'             => 'GET',
				'permission_callback' => '__return_true',
				'callback'            => array( self::class, 'partner_css' ),
			)
		);
		register_rest_route(
			self::REST_NAMESPACE,
			'/go',
			array(
				'methods'             => 'GET',
				'permission_callback' => '__return_true',
				'callback'            => array( self::class, 'go' ),
				'args'                => array(
					'b' => $text,
					'r' => $text,
				),
			)
		);
	}

	/** Refusal when a client asks too often, or null. */
	private static function rate_limited( string $bucket ): ?\WP_REST_Response {
		/**
		 * Filters how many requests one client may make to a widget route per window.
		 *
		 * @param array{limit: int, window: int} $rule   Requests per window (seconds).
		 * @param string                         $bucket "sign" or "go".
		 */
		$rule  = apply_filters(
			'card2crypto_widget_rate_limit',
			array(
				'limit'  => 30,
				'window' => 60,
			),
			$bucket
		);
		$wait  = ( new Rate_Limiter( $bucket, (int) $rule['limit'], (int) $rule['window'] ) )->hit( Rate_Limiter::client_ip(), time() );
		if ( 0 === $wait ) {
			return null;
		}
		$response = self::error( 429, 'c2c_too_many_requests', __( 'Too many requests for the purchase widget. Please wait a moment and try again.', 'card2crypto-widget' ) );
		$response->header( 'Retry-After', (string) $wait );
		return $response;
	}

	/**
	 * @param array<int, array{field: string, rule: string, message: string}> $problems
	 */
	private static function error( int $status, string $code, string $message, array $problems = array() ): \WP_REST_Response {
		$body = array(
			'code'    => $code,
			'message' => $message,
			'data'    => array( 'status' => $status ),
		);
		if ( array() !== $problems ) {
			$body['data']['problems'] = array_map(
				static function ( array $problem ): array {
					return array(
						'field'   => $problem['field'],
						'rule'    => $problem['rule'],
						'message' => $problem['message'],
					);
				},
				$problems
			);
		}
		$response = new \WP_REST_Response( $body, $status );
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}

	/**
	 * The block's attributes when its reference is genuine, or a refusal.
	 *
	 * @return array<string, string>|\WP_REST_Response
	 */
	private static function block_attributes( string $payload, string $ref ) {
		$attributes = self::references()->attributes( $payload, $ref );
		if ( null === $attributes ) {
			return self::error( 403, 'c2c_unknown_block', __( 'This purchase widget is out of date. Please reload the page.', 'card2crypto-widget' ) );
		}
		return $attributes;
	}

	/**
	 * Signed settings for the block, or the problems.
	 *
	 * @param array<string, string> $attributes
	 * @return array<string, string|int>|\WP_REST_Response
	 */
	private static function signed_settings( Widget_Config $config, array $attributes, string $target ) {
		if ( ! $config->has_credentials() ) {
			return self::error( 503, 'c2c_not_configured', __( 'The purchase widget is not set up yet: the site has no partner credentials.', 'card2crypto-widget' ) );
		}
		$css    = $config->partner_css();
		$css_at = '' === $css ? null : add_query_arg( 'v', Partner_Css::version( $css ), rest_url( self::REST_NAMESPACE . '/partner.css' ) );
		$result = ( new Widget_Signer( $config->schema(), $config->values() ) )->signed( $attributes, $target, $config->site_language(), $css_at, Widget_Signer::now_ms() );
		if ( array() !== $result['problems'] ) {
			return self::error( 503, 'c2c_invalid_settings', __( 'The purchase widget cannot start: its settings are not valid.', 'card2crypto-widget' ), $result['problems'] );
		}
		return $result['settings'];
	}

	/**
	 * POST sign { blocks: [{ block, ref, target }, …] }: one request for every
	 * block of a page. Answers { script, results: [{ settings } | { code, message }, …] }
	 * in the same order, each stamped at this moment.
	 */
	public static function sign( \WP_REST_Request $request ): \WP_REST_Response {
		$limited = self::rate_limited( 'sign' );
		if ( null !== $limited ) {
			return $limited;
		}
		$config  = self::config();
		$results = array();
		foreach ( (array) $request['blocks'] as $item ) {
			$results[] = self::sign_one( $config, is_array( $item ) ? $item : array() );
		}
		$response = new \WP_REST_Response(
			array(
				'script'  => $config->service_url( 'widget_script_url' ),
				'results' => $results,
			),
			200
		);
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}

	/**
	 * Signed settings for one block, or why not.
	 *
	 * @param array<string, mixed> $item { block, ref, target } as the page sent them.
	 * @return array<string, mixed> { settings } or { code, message[, problems] }.
	 */
	private static function sign_one( Widget_Config $config, array $item ): array {
		$ref        = is_string( $item['ref'] ?? null ) ? $item['ref'] : '';
		$attributes = self::block_attributes( is_string( $item['block'] ?? null ) ? $item['block'] : '', $ref );
		if ( ! $attributes instanceof \WP_REST_Response && ! Block_Reference::is_element_id( $item['target'] ?? null, $ref ) ) {
			$attributes = self::error( 400, 'c2c_bad_target', __( 'The widget element id does not belong to this block.', 'card2crypto-widget' ) );
		}
		$settings = $attributes instanceof \WP_REST_Response ? $attributes : self::signed_settings( $config, $attributes, (string) $item['target'] );
		if ( $settings instanceof \WP_REST_Response ) {
			$data = $settings->get_data();
			return array_filter(
				array(
					'code'     => $data['code'],
					'message'  => $data['message'],
					'problems' => $data['data']['problems'] ?? null,
				)
			);
		}
		return array( 'settings' => $settings );
	}

	/** GET partner.css: the colours as CSS; long-cached when asked for by its current version. */
	public static function partner_css( \WP_REST_Request $request ): \WP_REST_Response {
		$css      = self::config()->partner_css();
		$version  = Partner_Css::version( $css );
		$etag     = '"' . $version . '"';
		$response = new \WP_REST_Response( $css, 200 );
		$response->header( 'Content-Type', 'text/css; charset=UTF-8' );
		$response->header( 'ETag', $etag );
		$response->header( 'X-Content-Type-Options', 'nosniff' );
		$response->header( 'Access-Control-Allow-Origin', '*' );
		// The address carries the version, so a colour change is a new URL: the old one may be cached for good.
		$response->header( 'Cache-Control', $request['v'] === $version ? 'public, max-age=31536000, immutable' : 'public, max-age=60' );
		$if_none_match = isset( $_SERVER['HTTP_IF_NONE_MATCH'] ) ? trim( sanitize_text_field( wp_unslash( $_SERVER['HTTP_IF_NONE_MATCH'] ) ) ) : '';
		if ( $etag === $if_none_match ) {
			$response->set_status( 304 );
			$response->set_data( '' );
		}
		return $response;
	}

	/** GET go: sign now and send the visitor to the landing page, or show why not. */
	public static function go( \WP_REST_Request $request ): \WP_REST_Response {
		$refusal = self::rate_limited( 'go' );
		$ref     = (string) $request['r'];
		if ( null === $refusal ) {
			$attributes = self::block_attributes( (string) $request['b'], $ref );
			$refusal    = $attributes instanceof \WP_REST_Response ? $attributes : null;
		}
		if ( null === $refusal ) {
			$config   = self::config();
			$settings = self::signed_settings( $config, $attributes, 'c2c-landing-' . substr( $ref, 0, 12 ) );
			$refusal  = $settings instanceof \WP_REST_Response ? $settings : null;
		}
		if ( null !== $refusal ) {
			return self::html_page( $refusal );
		}
		$success = $attributes['successUrl'] ?? '';
		$fail    = $attributes['failUrl'] ?? '';
		try {
			$location = Landing_Url::build(
				$config->service_url( 'landing_url' ),
				$settings,
				'' !== $success && Http_Url::is_valid( $success ) ? $success : add_query_arg( 'card2crypto', 'success', home_url( '/' ) ),
				'' !== $fail && Http_Url::is_valid( $fail ) ? $fail : add_query_arg( 'card2crypto', 'fail', home_url( '/' ) )
			);
		} catch ( \InvalidArgumentException $e ) {
			return self::html_page( self::error( 503, 'c2c_invalid_settings', $e->getMessage() ) );
		}
		$response = new \WP_REST_Response( '', 302 );
		$response->header( 'Location', $location );
		$response->header( 'Cache-Control', 'no-store' );
		$response->header( 'Content-Type', 'text/html; charset=UTF-8' );
		return $response;
	}

	/** A refusal of the go route as a small readable page (a person clicked a link). */
	private static function html_page( \WP_REST_Response $refusal ): \WP_REST_Response {
		$data     = $refusal->get_data();
		$html     = '<!doctype html><meta charset="utf-8"><meta name="robots" content="noindex"><title>' . esc_html__( 'Buy crypto', 'card2crypto-widget' ) . '</title>'
			. '<p>' . esc_html( (string) $data['message'] ) . '</p><p><a href="' . esc_url( home_url( '/' ) ) . '">' . esc_html__( 'Back to the site', 'card2crypto-widget' ) . '</a></p>';
		$response = new \WP_REST_Response( $html, $refusal->get_status() );
		foreach ( $refusal->get_headers() as $name => $value ) {
			$response->header( $name, $value );
		}
		$response->header( 'Content-Type', 'text/html; charset=UTF-8' );
		return $response;
	}

	/**
	 * Sends the CSS and HTML answers of this plugin's routes as they are,
	 * instead of as JSON strings.
	 *
	 * @param bool              $served
	 * @param \WP_HTTP_Response $result
	 * @param \WP_REST_Request  $request
	 */
	public static function serve_raw( $served, $result, $request ): bool {
		if ( $served || ! in_array( $request->get_route(), array( '/' . self::REST_NAMESPACE . '/partner.css', '/' . self::REST_NAMESPACE . '/go' ), true ) ) {
			return (bool) $served;
		}
		$data = $result->get_data();
		if ( ! is_string( $data ) ) {
			return false;
		}
		echo $data; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- CSS built from validated colours, or HTML escaped above.
		return true;
	}
}
