<?php
/**
 * The WooCommerce payment gateway. Its settings form is generated from the
 * shared settings schema. Saving validates every field by its rule, then
 * tests the credentials with a signed params request (Settings_Status::check())
 * and says whether the service accepts them. A refused save (a field's
 * rule, or the service refusing new credentials) writes nothing: the form
 * comes back with what the owner typed (never the secret) and each error
 * next to its field.
 *
 * Taking payments: see Gateway_Payments.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Gateway;

use Card2Crypto\Checkout\Admin\Books_Chart;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Payment\Availability;
use Card2Crypto\Checkout\Payment\Order_Address;
use Card2Crypto\Checkout\Payment\Payment_Flows;
use Card2Crypto\Checkout\Rules\Wallet_Words;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Settings\Settings_Status;
use Card2Crypto\Checkout\Shared\Settings\Field_Renderer;
use Card2Crypto\Checkout\Shared\Settings\Field_View;

defined( 'ABSPATH' ) || exit;

class Gateway extends \WC_Payment_Gateway {

	// Availability, checkout fields and placing the order (includes/Gateway/Gateway_Payments.php).
	use Gateway_Payments;

	/**
	 * Why the save in this request refused each field, by field id. Static:
	 * WooCommerce may render the form from another instance of the gateway
	 * than the one that saved it.
	 *
	 * @var array<string, string>
	 */
	private static $refused = array();

	/** @var array<string, string>|null What the owner typed in a refused save in this request, by field id; null otherwise. */
	private static $typed;

	/** @var Config */
	private $config;

	/** @var Payment_Flows */
	private $payments;

	/** @var Order_Address */
	private $addresses;

	/** @var Books_Chart */
	private $chart;

	/** @var Service_Door */
	private $gateway;

	/** @var Service_Health */
	private $health;

	/** @var Availability When the method is offered (not $availability: WC_Payment_Gateway has a public one). */
	private $offer;

	/** @var Settings_Status */
	private $status;

	/** Built once by the wiring (Plugin::boot()) and handed to WooCommerce as an object. */
	public function __construct( Config $config, Payment_Flows $payments, Order_Address $addresses, Books_Chart $chart, Service_Door $gateway, Service_Health $health, Availability $availability, Settings_Status $status ) {
		$this->gateway      = $gateway;
		$this->config       = $config;
		$this->payments     = $payments;
		$this->addresses    = $addresses;
		$this->chart        = $chart;
		$this->health       = $health;
		$this->offer        = $availability;
		$this->status       = $status;

		$this->id                 = Keys::GATEWAY_ID;
		$this->method_title       = __( 'Card2Crypto', 'card2crypto-checkout' );
		$this->method_description = __( 'Buyers pay with Visa, Mastercard, Maestro, SEPA or Google Pay through the card-to-crypto service; the bitcoin bought is sent to your wallet.', 'card2crypto-checkout' );
		// The payment box always has something to say (what happens, accepted methods, the
		// estimate), so it must open even when the owner leaves the description empty.
		$this->has_fields         = true;
		$this->supports           = array( 'products' );

		$this->init_form_fields();
		$this->init_settings();
		$this->load_texts();

		add_action( 'woocommerce_update_options_payment_gateways_' . $this->id, array( $this, 'process_admin_options' ) );
	}

	/** The schema's words for fields and problems, over the settings in use. */
	private function field_view(): Field_View {
		return new Field_View( $this->config->store() );
	}

	/** Form fields from the schema: a heading per group, then its fields. */
	public function init_form_fields() {
		$view   = $this->field_view();
		$fields = array();
		foreach ( $view->groups() as $group ) {
			$fields[ 'c2c_group_' . $group['id'] ] = array(
				'title' => $group['label'],
				'type'  => 'title',
			);
			foreach ( $this->config->store()->fields() as $id => $field ) {
				if ( $field['group'] !== $group['id'] ) {
					continue;
				}
				$default         = $field['default'];
				$fields[ $id ]   = array(
					'title'   => $view->label( $field ),
					'type'    => 'c2c_field',
					'default' => is_bool( $default ) ? ( $default ? 'yes' : 'no' ) : (string) $default,
					'c2c'     => $field,
				);
			}
		}
		$this->form_fields = $fields;
	}

	/**
	 * One schema field as a row of WooCommerce's settings table
	 * (WC_Settings_API calls generate_{type}_html).
	 *
	 * @param string $key
	 * @param array  $data
	 */
	public function generate_c2c_field_html( $key, $data ): string {
		$field   = $data['c2c'];
		$html_id = $this->get_field_key( $key );
		$typed   = null;
		if ( null !== self::$typed ) {
			if ( 'checkbox' === $field['type'] ) {
				$typed = isset( self::$typed[ $key ] ) && '' !== self::$typed[ $key ] ? 'yes' : 'no';
			} else {
				$typed = self::$typed[ $key ] ?? '';
			}
		}
		$control = Field_Renderer::control( $this->field_view(), $field, $html_id, $html_id, isset( self::$refused[ $key ] ), $typed, self::$refused[ $key ] ?? '' );
		return '<tr valign="top"><th scope="row" class="titledesc"><label for="' . esc_attr( $html_id ) . '">' . esc_html( $data['title'] ) . '</label></th>'
			. '<td class="forminp"><fieldset><legend class="screen-reader-text"><span>' . esc_html( $data['title'] ) . '</span></legend>' . $control . '</fieldset></td></tr>';
	}

	/** The settings page: what still blocks the gateway, then the form. */
	public function admin_options() {
		$problems = $this->config->store()->problems();
		if ( 'yes' === $this->enabled && array() !== $problems ) {
			$view = $this->field_view();
			echo '<div class="notice notice-warning inline"><p>' . esc_html__( 'Buyers cannot use this payment method until these settings are fixed:', 'card2crypto-checkout' ) . '</p><ul>';
			foreach ( $problems as $problem ) {
				echo '<li>' . esc_html( $view->problem_message( $problem ) ) . '</li>';
			}
			echo '</ul></div>';
		}
		// After a refused save the box speaks of the saved credentials, not of what was typed. Beside it, the last 30 days.
		echo '<div class="card2crypto-overview" style="display:flex;flex-wrap:wrap;gap:0 16px;align-items:flex-start">';
		echo '<div style="flex:1 1 360px;min-width:0">';
		$this->status->render( $this->gateway, array() !== self::$refused );
		echo '</div>';
		$this->chart->render();
		echo '</div>';
		$this->render_addresses();
		parent::admin_options();
	}

	/**
	 * With a new address for each order: the first three addresses of the
	 * saved key, to compare with the wallet's own list before taking
	 * payments, and how close the addresses in use come to the wallet's gap
	 * limit. A key that cannot be used says why.
	 */
	private function render_addresses(): void {
		if ( ! $this->addresses->active() ) {
			return;
		}
		echo '<div class="card2crypto-addresses notice inline notice-info" style="padding:8px 12px" data-card2crypto="addresses">';
		try {
			$first = $this->addresses->first( 3 );
			$gap   = $this->addresses->gap();
		} catch ( \Throwable $e ) {
			echo '<p><strong>' . esc_html__( 'The saved extended public key cannot be used:', 'card2crypto-checkout' ) . '</strong> ' . esc_html( $e->getMessage() ) . '</p></div>';
			return;
		}
		echo '<p><strong>' . esc_html__( 'The first addresses of your wallet, as the store derives them. Compare them with your wallet\'s receive addresses before taking payments:', 'card2crypto-checkout' ) . '</strong></p><ol start="0" data-card2crypto="first-addresses">';
		foreach ( $first as $address ) {
			echo '<li><code>' . esc_html( $address ) . '</code></li>';
		}
		echo '</ol><p data-card2crypto="address-gap">' . esc_html( Wallet_Words::gap_text( $gap ) ) . '</p></div>';
	}

	/**
	 * Saves the form. WooCommerce has checked the settings nonce before
	 * calling this; the capability is checked again here.
	 *
	 * @return bool
	 */
	public function process_admin_options() {
		if ( ! current_user_can( 'manage_woocommerce' ) ) {
			return false;
		}
		$this->init_settings();
		$post      = $this->get_post_data();
		$submitted = array();
		foreach ( $this->config->store()->fields() as $id => $field ) {
			$key = $this->get_field_key( $id );
			if ( isset( $post[ $key ] ) && is_string( $post[ $key ] ) ) {
				$submitted[ $id ] = wp_unslash( $post[ $key ] );
			}
		}
		$prepared = $this->config->store()->prepare_save( $submitted );
		$view     = $this->field_view();
		$errors   = array();
		foreach ( $prepared['problems'] as $problem ) {
			$message                      = $view->problem_message( $problem );
			$errors[ $problem['field'] ] = isset( $errors[ $problem['field'] ] ) ? $errors[ $problem['field'] ] . ' ' . $message : $message;
		}
		$check = null;
		if ( array() === $errors ) {
			$candidate = $this->config->with_values( $prepared['values'] );
			if ( $candidate->credentials()->complete() ) {
				// A fresh signed params request with what would be saved (cached for the status box). New
				// credentials are recorded as the store's state only once saved: a refused save leaves the
				// state of the saved ones, which stay in use.
				$changed = $this->connection_changed( $this->config, $candidate );
				$check   = $this->status->check( $this->gateway->with_config( $candidate ), true, ! $changed );
				if ( ! $check['ok'] && $changed ) {
					$errors[ $check['field'] ?? 'partner_token' ] = $check['message'];
				} elseif ( $changed ) {
					$this->health->with_config( $candidate )->record_check( null );
				}
			}
		}
		if ( array() !== $errors ) {
			$this->refuse_save( $errors, $submitted, null !== $check && ! $check['ok'] );
			return false;
		}

		$this->settings = $prepared['values'];
		$saved          = update_option( $this->get_option_key(), apply_filters( 'woocommerce_settings_api_sanitized_fields_' . $this->id, $this->settings ), 'yes' );

		$this->init_settings();
		$this->load_texts();
		if ( null !== $check && $check['ok'] ) {
			\WC_Admin_Settings::add_message( __( 'The service accepted the partner token and secret.', 'card2crypto-checkout' ) );
		} elseif ( null !== $check ) {
			// Only other settings changed: saved (so that the owner can still switch the method off), and said plainly.
			/* translators: %s: why the service refuses the credentials */
			\WC_Admin_Settings::add_error( sprintf( __( 'Your changes were saved, but the service refuses the saved credentials. %s', 'card2crypto-checkout' ), $check['message'] ) );
		}
		return $saved;
	}

	/**
	 * A refused save: nothing is written; the form shows what was typed and
	 * each error next to its field. A secret field's value (the partner
	 * secret, the wallet's key) is never sent back: a typed one must be
	 * entered again.
	 *
	 * @param array<string, string> $errors    Why, by field id.
	 * @param array<string, string> $submitted What was typed, by field id.
	 */
	private function refuse_save( array $errors, array $submitted, bool $service_refused ): void {
		$fields = $this->config->store()->fields();
		foreach ( $this->config->store()->secret_ids() as $id ) {
			if ( isset( $submitted[ $id ] ) && '' !== trim( $submitted[ $id ] ) ) {
				// "The key you entered…" for the wallet's extended public key, which is no secret.
				$again         = $this->field_view()->not_saved( $fields[ $id ] );
				$errors[ $id ] = isset( $errors[ $id ] ) ? $errors[ $id ] . ' ' . $again : $again;
			}
		}
		self::$typed = array();
		foreach ( $submitted as $id => $value ) {
			self::$typed[ $id ] = $value;
		}
		self::$refused = $errors;
		\WC_Admin_Settings::add_error(
			$service_refused
				? __( 'Nothing was saved: the service refuses these credentials. The reason is shown next to the field below; what you typed is kept in the form.', 'card2crypto-checkout' )
				: __( 'Nothing was saved: correct the fields marked below and save again; what you typed is kept in the form.', 'card2crypto-checkout' )
		);
	}

	/** Whether a save changes which credentials or which service address are used. */
	private function connection_changed( Config $stored, Config $candidate ): bool {
		return $stored->credentials()->differ( $candidate->credentials() )
			|| $stored->environment() !== $candidate->environment() || $stored->base_url() !== $candidate->base_url();
	}

	/**
	 * Title and description for WooCommerce, which prints the title unescaped
	 * (the payment method list, the order-pay page) and copies it into each
	 * order. Saving sanitises both (Settings_Store::sanitize_saved()); they
	 * are sanitised again here for a value written some other way.
	 */
	private function load_texts(): void {
		$this->title       = sanitize_text_field( (string) $this->get_option( 'title' ) );
		$this->description = wp_kses_post( (string) $this->get_option( 'description' ) );
	}

	/**
	 * Offered at checkout only when enabled and set up (Config::offers_payment(),
	 * asked by Availability::problem() inside can_take_payment()), able to
	 * take this order, and while the service accepts the store (Service_Health:
	 * a cached state, refreshed by a background check when it is stale).
	 */
	public function is_available() {
		return parent::is_available() && $this->can_take_payment() && $this->health->available();
	}

	/**
	 * Whether payments go to the sandbox. WooCommerce's payments list asks
	 * gateways this and shows its own "Test mode" badge for true.
	 */
	public function is_test_mode(): bool {
		return 'sandbox' === $this->config->environment();
	}

	/**
	 * @param int $order_id
	 * @return array{result: string, redirect?: string}
	 */
	public function process_payment( $order_id ) {
		return $this->start_payment( (int) $order_id );
	}
}
