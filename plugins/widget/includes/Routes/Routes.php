<?php
/**
 * The three anonymous routes under /wp-json/card2crypto-widget/v1/:
 *
 * - POST sign         signed widget settings for the blocks of a page, stamped now (Sign_Route);
 * - GET  partner.css  the widget colours (partner_css) as CSS (Partner_Css_Route);
 * - GET  go           signs at click time and redirects to the landing page (Go_Route).
 *
 * Their addresses are Route_Address's.
 *
 * Visitors are anonymous, so every route is public (permission_callback
 * says so); the block reference and the rate limit guard them.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

use Card2Crypto\Widget\Base\Route_Address;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Routes implements Hooks {

	/** Blocks one sign request may ask for (a page asks once for all its blocks). */
	const MAX_BLOCKS = 20;

	/** On rest_api_init. */
	/** @var Sign_Route */
	private $sign;

	/** @var Partner_Css_Route */
	private $css;

	/** @var Go_Route */
	private $go;

	public function __construct( Sign_Route $sign, Partner_Css_Route $css, Go_Route $go ) {
		$this->sign = $sign;
		$this->css  = $css;
		$this->go   = $go;
	}

	public function register(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
	}

	/** On rest_api_init. */
	public function register_routes(): void {
		$text = array(
			'type'     => 'string',
			'required' => true,
		);
		register_rest_route(
			Route_Address::REST_NAMESPACE,
			'/sign',
			array(
				'methods'             => 'POST',
				'permission_callback' => '__return_true',
				'callback'            => array( $this->sign, 'handle' ),
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
			Route_Address::REST_NAMESPACE,
			'/partner.css',
			array(
				'methods'             => 'GET',
				'permission_callback' => '__return_true',
				'callback'            => array( $this->css, 'handle' ),
			)
		);
		register_rest_route(
			Route_Address::REST_NAMESPACE,
			'/go',
			array(
				'methods'             => 'GET',
				'permission_callback' => '__return_true',
				'callback'            => array( $this->go, 'handle' ),
				'args'                => array(
					'b' => $text,
					'r' => $text,
				),
			)
		);
	}
}
