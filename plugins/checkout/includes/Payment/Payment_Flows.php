<?php
/**
 * The payment flows of an order, each from the request to what its route
 * sends, so that the gateway and the REST routes are adapters of a few lines:
 *
 * - place(): "Place order" or "Pay" (the gateway's process_payment()): the
 *   gate passed, an attempt started (redirect flow) and the buyer sent to
 *   the landing link, or to the order's payment page (embedded flow).
 * - landing(): the landing link followed (redirect flow): the attempt placing
 *   the order started, signed now, or a new one, and the landing page's URL;
 *   else the order's page that says why.
 * - widget(): the embedded widget asks for settings: a new attempt, signed now.
 *
 * Each passes the gate (Start_Gate) once. The attempt "Place order" starts
 * is carried to the landing request by the order (its current, unsigned
 * attempt): that request asks the service nothing about it, only what can
 * have changed (the budget, the store's acceptance, the rate).
 *
 * An attempt is a fresh, unguessable partner_operation_id bound to the order
 * and to what it asks for; the widget settings and landing URL that send the
 * buyer to the service are signed at that moment with values the server decides.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Payment;

use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Attempts\Payment_Held;
use Card2Crypto\Checkout\Attempts\Payment_Refused;
use Card2Crypto\Checkout\Attempts\Service_Refused;
use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Rules\Currencies;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Callback\Client_Address;
use Card2Crypto\Checkout\Rules\Attempt_Policy;
use Card2Crypto\Checkout\Rules\Buyer_Words;
use Card2Crypto\Checkout\Rules\Page_Language;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Rules\Service_Times;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Settings\Test_Mode;
use Card2Crypto\Checkout\Shared\Landing\Landing_Url;
use Card2Crypto\Checkout\Shared\Signing\Signer;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

defined( 'ABSPATH' ) || exit;

final class Payment_Flows {

	/** @var Config */
	private $config;

	/** @var Start_Gate */
	private $gate;

	/** @var Order_Address */
	private $addresses;

	/** @var Service_Door */
	private $gateway;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Operation_Store */
	private $operations;

	/** @var Reconciler */
	private $reconciler;

	/** @var Return_Pages */
	private $pages;

	/** @var Service_Health */
	private $health;

	/** @var Order_Attempts */
	private $order_attempts;

	/** @var Start_Budget */
	private $budget;

	/** @var Test_Mode */
	private $test_mode;

	/** @var Client_Address */
	private $client_address;

	public function __construct( Config $config, Start_Gate $gate, Order_Address $addresses, Service_Door $gateway, Attempt_Store $attempts, Operation_Store $operations, Reconciler $reconciler, Return_Pages $pages, Service_Health $health, Order_Attempts $order_attempts, Start_Budget $budget, Test_Mode $test_mode, Client_Address $client_address ) {
		$this->config         = $config;
		$this->gate           = $gate;
		$this->addresses      = $addresses;
		$this->gateway        = $gateway;
		$this->attempts       = $attempts;
		$this->operations     = $operations;
		$this->reconciler     = $reconciler;
		$this->pages          = $pages;
		$this->health         = $health;
		$this->order_attempts = $order_attempts;
		$this->budget         = $budget;
		$this->test_mode      = $test_mode;
		$this->client_address = $client_address;
	}

	/**
	 * "Place order" or "Pay": keeps the order pending and sends the buyer to
	 * pay, to the landing link (redirect flow: the attempt starts now, the
	 * landing URL is signed when the browser follows the link) or to the
	 * order's payment page with the widget (embedded flow: the gate is passed
	 * here, so the buyer is told on this page; the attempt starts when the
	 * widget does, signed at that moment). Otherwise the buyer stays, told.
	 */
	public function place( \WC_Order $order ): Payment_Step {
		try {
			$client = $this->client_address->of( $this->config->trust_proxy_header() );
			if ( 'embedded' === $this->config->flow() ) {
				$this->gate->pass( $order, $client, Start_Gate::AT_CHECKOUT );
				return Payment_Step::go( $order->get_checkout_payment_url( true ) );
			}
			$this->start( $order, $client, Start_Gate::AT_CHECKOUT );
			$url = $this->landing_link( $order );
		} catch ( Payment_Held $e ) {
			// The service had taken the payment already: the order is recorded paid, and its page says so.
			return $e->paid()
				? Payment_Step::go( $order->get_checkout_order_received_url() )
				: Payment_Step::told( 'card2crypto_held', $e->getMessage(), 409, array( 'kind' => $e->outcome['kind'] ), Buyer_Words::notice_html( $e->outcome ) );
		} catch ( Payment_Refused $e ) {
			return Payment_Step::told( 'card2crypto_refused', $e->getMessage(), 409 );
		} catch ( \Throwable $e ) {
			Log::error( sprintf( 'Order %d: the payment could not start: %s', $order->get_id(), $e->getMessage() ) );
			return Payment_Step::told(
				'card2crypto_unavailable',
				Other_Methods::exist()
					? __( 'The card payment could not start. Please try again in a moment or choose another payment method.', 'card2crypto-checkout' )
					: __( 'The card payment could not start. Please try again in a moment.', 'card2crypto-checkout' ),
				503
			);
		}
		$order->add_order_note( __( 'Card2Crypto: the buyer was sent to the payment page.', 'card2crypto-checkout' ) );
		return Payment_Step::go( $url );
	}

	/** Where placing the order sends the buyer (redirect flow): the landing route signs the landing URL on arrival (landing()). */
	public function landing_link( \WC_Order $order ): string {
		return add_query_arg( 'key', rawurlencode( $order->get_order_key() ), rest_url( Keys::REST_NAMESPACE . '/orders/' . $order->get_id() . '/landing' ) );
	}

	/**
	 * The landing link followed (redirect flow): where the browser goes. The
	 * landing page with settings signed now (the service allows 5 s behind),
	 * for the attempt placing the order started, or a new one if that one
	 * already has news (the buyer came back) or no longer asks for the
	 * order's total, currency and wallet (the order was edited). Never the
	 * service's dead end: the order's page, told why, when no payment starts;
	 * the order-received page when there is nothing to pay.
	 */
	public function landing( \WC_Order $order ): string {
		if ( Keys::GATEWAY_ID !== $order->get_payment_method() || ! $order->needs_payment() ) {
			return $order->get_checkout_order_received_url();
		}
		try {
			// One pass through the gate, then the current attempt signed again or a new one.
			$attempt = $this->fitting( $order, $this->client_address->of( $this->config->trust_proxy_header() ) );
			return $this->landing_url( $order, $attempt, $this->pages->fail_url( $order ) );
		} catch ( Service_Refused $e ) {
			// Back to the order, told in plain words (Buyer_Return).
			return $this->pages->unavailable_url( $order );
		} catch ( Payment_Held $e ) {
			// An earlier payment is paid (the order-received page says so) or may still be (told on the order's payment page).
			return $e->paid() ? $order->get_checkout_order_received_url() : $this->pages->told_url( $order, $e->getMessage(), 'notice', $e->outcome['link'] ?? null );
		} catch ( Payment_Refused $e ) {
			// No payment starts (the rate could not be fixed, too many attempts, ...): the buyer reads why on the order's payment page.
			return $this->pages->told_url( $order, $e->getMessage(), 'error' );
		} catch ( \Throwable $e ) {
			Log::error( sprintf( 'Order %d: the landing URL could not be built: %s', $order->get_id(), $e->getMessage() ) );
			return $order->get_checkout_payment_url();
		}
	}

	/**
	 * The embedded widget asks for settings: one pass through the gate
	 * (budget, the service's acceptance, the cap, earlier attempts), a new
	 * attempt, its rate fixed, signed now. Otherwise what the page's script
	 * needs to tell the buyer (and where to send them).
	 */
	public function widget( \WC_Order $order ): Payment_Step {
		try {
			$attempt  = $this->start( $order, $this->client_address->of( $this->config->trust_proxy_header() ), Start_Gate::SIGNING );
			$rate     = $this->fixed_rate( $attempt );
			$settings = $this->signed_settings( $order, $attempt, $rate['calculation_id'] ?? null );
			$this->mark_widget( $order, $attempt, true );
		} catch ( Service_Refused $e ) {
			// The page's script follows redirect: the order-pay page, told in plain words, without the method (Buyer_Return).
			return Payment_Step::told( 'card2crypto_service_refused', $e->getMessage(), 503, array( 'redirect' => $this->pages->unavailable_url( $order ) ) );
		} catch ( Payment_Held $e ) {
			// An earlier payment is paid (the page's script follows redirect to the order-received page) or may still be.
			return Payment_Step::told(
				'card2crypto_held',
				$e->getMessage(),
				409,
				array( 'kind' => $e->outcome['kind'] )
				+ ( $e->paid() ? array( 'redirect' => $order->get_checkout_order_received_url() ) : array() )
				+ ( isset( $e->outcome['link'] ) ? array( 'link' => $e->outcome['link'] ) : array() )
			);
		} catch ( Payment_Refused $e ) {
			return Payment_Step::told( 'card2crypto_refused', $e->getMessage(), 409, array(), '', true );
		} catch ( \Throwable $e ) {
			Log::error( sprintf( 'Order %d: widget settings could not be signed: %s', $order->get_id(), $e->getMessage() ) );
			return Payment_Step::told( 'card2crypto_unavailable', __( 'The card payment could not start. Please try again in a moment.', 'card2crypto-checkout' ), 503, array(), '', true );
		}
		return Payment_Step::settings( $settings, $rate['expired_at'] ?? null );
	}

	/**
	 * Starts a new payment attempt for an order, once it passed the gate
	 * (Start_Gate::pass(): budget, the service's acceptance, the cap, the
	 * order's earlier attempts asked about).
	 *
	 * @param string $address The visitor's address (Client_Address::of()).
	 * @param string $where   Start_Gate::AT_CHECKOUT or Start_Gate::SIGNING.
	 * @throws Payment_Refused With a message for the buyer (Payment_Held: an earlier payment stands in the way).
	 * @throws Service_Refused The service refuses the store.
	 */
	public function start( \WC_Order $order, string $address, string $where ): Attempt {
		$seen    = $this->attempts->newest_attempt_id( $order->get_id() );
		$order   = $this->gate->pass( $order, $address, $where, null );
		$attempt = $this->new_attempt( $order, $seen );
		return Start_Gate::SIGNING === $where ? $this->addressed( $order, $attempt, $address ) : $attempt;
	}

	/**
	 * The current attempt when it may be signed again for the order as it is
	 * now (Attempt_Policy::reusable()), else a new one; either way after one
	 * pass through the gate (a reuse asks the service about the current
	 * attempt only).
	 *
	 * @param string $address The visitor's address (Client_Address::of()).
	 * @throws Payment_Refused With a message for the buyer (Payment_Held: an earlier payment stands in the way).
	 * @throws Service_Refused The service refuses the store.
	 */
	public function fitting( \WC_Order $order, string $address ): Attempt {
		$seen    = $this->attempts->newest_attempt_id( $order->get_id() );
		$current = $this->attempts->current_attempt( $order );
		if ( ! $order->is_paid() && $this->fits( $order, $current ) ) {
			$order   = $this->gate->pass( $order, $address, Start_Gate::SIGNING, $current->id() );
			$current = $this->attempts->current_attempt( $order );
			if ( $this->fits( $order, $current ) ) {
				return $this->addressed( $order, $current, $address );
			}
			// The answer changed the attempt: a new one, within the order's hourly cap (the pass above did not count it).
			$this->gate->refuse_over_cap( $order );
			return $this->addressed( $order, $this->new_attempt( $order, $seen ), $address );
		}
		return $this->start( $order, $address, Start_Gate::SIGNING );
	}

	/** Whether $attempt may be signed again for the order as it is now (Attempt_Policy::reusable()). */
	private function fits( \WC_Order $order, ?Attempt $attempt ): bool {
		try {
			$amount = $this->order_attempts->order_amount( $order );
		} catch ( Payment_Refused $e ) {
			$amount = null;
		}
		// With a new address per order, the attempt's own address while the order holds it ('' before it has one).
		$wallet = $this->addresses->active() ? $this->addresses->wallet_of( $order, $attempt ) : $this->config->wallet();
		return null !== $wallet && Attempt_Policy::reusable( null === $attempt ? null : $attempt->reuse_facts(), $amount, (string) $order->get_currency(), $wallet );
	}

	/**
	 * The attempt about to be signed for the buyer, with its address: with a
	 * new address per order, the one the order holds, else one taken now
	 * (Order_Address::for_signing()); never an address the order does not hold.
	 *
	 * @param string $address The visitor's address (Client_Address::of()).
	 * @throws Payment_Refused When no address can be given.
	 */
	private function addressed( \WC_Order $order, Attempt $attempt, string $address ): Attempt {
		if ( ! $this->addresses->active() ) {
			return $attempt;
		}
		$addressed = $this->addresses->for_signing( $order, $attempt, $address );
		if ( null === $addressed ) {
			// Another request freed the order's address since this one looked: the buyer starts again.
			throw new Payment_Refused( __( 'This payment can no longer be used. Please try again.', 'card2crypto-checkout' ) );
		}
		return $addressed;
	}

	/**
	 * A new attempt, once the order passed the gate (start(), fitting()),
	 * taken under the order's start lock in the shared database: two requests
	 * that passed the gate at the same moment (two presses of "Pay", on one
	 * web server or two) would each start one, and the buyer could pay both.
	 * An attempt started since this request looked ($seen: the newest
	 * attempt's id then) that still fits the order is that same payment: it
	 * is joined, not doubled.
	 *
	 * @param int $seen The order's newest attempt id before the gate (Attempt_Store::newest_attempt_id()).
	 * @throws Payment_Refused With a message for the buyer.
	 */
	private function new_attempt( \WC_Order $order, int $seen ): Attempt {
		return $this->operations->with_start_lock(
			$order->get_id(),
			function () use ( $order, $seen ): Attempt {
				$newest = $this->attempts->newest_attempt_id( $order->get_id() );
				if ( $newest > $seen ) {
					$order  = $this->order_attempts->reloaded( $order );
					$joined = $this->attempts->attempt( $newest );
					if ( null !== $joined && ! $order->is_paid() && $this->fits( $order, $joined ) ) {
						return $joined;
					}
				}
				return $this->create_attempt( $order );
			}
		);
	}

	/**
	 * Records the attempt and makes it the order's current one (new_attempt(), under the start lock).
	 *
	 * @throws Payment_Refused With a message for the buyer.
	 */
	private function create_attempt( \WC_Order $order ): Attempt {
		$config = $this->config;
		if ( $order->is_paid() ) {
			throw new Payment_Refused( __( 'This order is already paid.', 'card2crypto-checkout' ) );
		}
		// What the store already knows, whatever the service said: never a second payment while money moves.
		if ( $this->attempts->money_moving( $order ) ) {
			throw new Payment_Held( Buyer_Words::before_new_payment( array( 'verdict' => Attempt_Policy::UNDER_WAY ) ) );
		}
		$currency = $order->get_currency();
		if ( $currency !== $config->currency() || ! Currencies::is_supported( $currency ) ) {
			/* translators: %s: currency code */
			throw new Payment_Refused( sprintf( __( 'Card payments are not available for orders in %s.', 'card2crypto-checkout' ), $currency ) );
		}
		$amount = $this->order_attempts->order_amount( $order );
		if ( null !== Currencies::limit_problem( $amount, $currency ) ) {
			throw new Payment_Refused( __( 'The order total is outside the range card payments accept.', 'card2crypto-checkout' ) );
		}
		$partner_operation_id = 'wc-' . $order->get_id() . '-' . bin2hex( random_bytes( 12 ) );
		// The wallet of this attempt: the one address, or the order's own address of the owner's wallet ('' until its first
		// payment is signed: Order_Address::for_signing() takes the index then).
		$wallet  = $this->addresses->active() ? $this->addresses->held_address( $order ) : $config->wallet();
		$attempt = $this->attempts->create_attempt( $order->get_id(), $partner_operation_id, $amount, $currency, $wallet );
		$order->update_meta_data( Keys::META_ATTEMPT, $partner_operation_id );
		// Not signed for the buyer yet: until it is, the service cannot have an operation for it (Start_Gate does not ask).
		$order->update_meta_data( Keys::META_UNSIGNED, $partner_operation_id );
		$this->test_mode->mark( $order, $config->environment() );
		$order->save();
		$this->reconciler->schedule( $order->get_id() );
		return $attempt;
	}

	/**
	 * Widget settings for an attempt, stamped and signed now (simple form).
	 * Only server-decided values: nothing comes from the browser.
	 *
	 * @return array<string, mixed>
	 */
	private function signed_settings( \WC_Order $order, Attempt $attempt, ?string $calculation_id = null ): array {
		$config   = $this->config;
		$settings = array(
			'target_element'       => Keys::WIDGET_ELEMENT,
			'partner_token'        => $config->credentials()->token(),
			'from_currency'        => $attempt->currency(),
			'from_amount'          => $attempt->amount(),
			'to_currency'          => $attempt->asset(),
			'to_account'           => $attempt->wallet(),
			'partner_operation_id' => $attempt->partner_operation_id(),
		);
		$email = (string) $order->get_billing_email();
		if ( '' !== $email && is_email( $email ) ) {
			$settings['user_login'] = $email;
		}
		$lang = Page_Language::of( (string) get_locale() );
		if ( '' !== $lang ) {
			$settings['lang'] = $lang;
		}
		if ( null !== $calculation_id && '' !== $calculation_id ) {
			$settings['calculation_id'] = $calculation_id;
		}
		if ( '' === $attempt->wallet() ) {
			// Never a payment without the address it pays (with a new address per order, Order_Address::for_signing() gives it).
			throw new \RuntimeException( sprintf( 'Order %d: the payment has no address to send the bitcoin to.', $order->get_id() ) );
		}
		$settings['timestamp'] = (int) floor( microtime( true ) * 1000 );
		$signed                = Signer::with_signature( $settings, $config->credentials()->secret(), 'simple' );
		// Signed for the buyer: its address is never freed while this payment could still be paid (Order_Address::release_dead()).
		$this->attempts->mark_signed( $attempt->id() );
		// From now on the buyer may reach the service with it: the next start asks about it. Read from the order as
		// stored: the caller's copy may predate the attempt (the widget-settings route loaded the order before starting
		// it), and a mark left behind would keep the next start from asking about a payment the buyer can be paying.
		$stored = $this->order_attempts->reloaded( $order );
		if ( $attempt->partner_operation_id() === $stored->get_meta( Keys::META_UNSIGNED ) ) {
			$stored->delete_meta_data( Keys::META_UNSIGNED );
			$stored->save_meta_data();
			$order->delete_meta_data( Keys::META_UNSIGNED );
		}
		return $signed;
	}

	/**
	 * Records whether the attempt was signed for the embedded widget, where
	 * the buyer may try again after a decline under the same attempt
	 * (Order_Decision then waits for that outcome), or for the landing page.
	 */
	private function mark_widget( \WC_Order $order, Attempt $attempt, bool $widget ): void {
		$stored = $this->order_attempts->reloaded( $order );
		$marked = (string) $stored->get_meta( Keys::META_WIDGET_ATTEMPT );
		if ( $widget && $marked !== $attempt->partner_operation_id() ) {
			$stored->update_meta_data( Keys::META_WIDGET_ATTEMPT, $attempt->partner_operation_id() );
			$stored->save_meta_data();
		} elseif ( ! $widget && $marked === $attempt->partner_operation_id() ) {
			$stored->delete_meta_data( Keys::META_WIDGET_ATTEMPT );
			$stored->save_meta_data();
		}
	}

	/**
	 * What the buyer is told when fixed rates are on and the rate could not
	 * be fixed (other than the service refusing the store): no payment starts
	 * at an unfixed, editable rate. Plain words, never the service's.
	 */
	private function rate_refused_message(): string {
		return __( 'Card payment could not be prepared. Please try again in a minute.', 'card2crypto-checkout' );
	}

	/**
	 * A fixed rate for the attempt when the owner asked for one (the default),
	 * else null. With the rate fixed, the widget locks the amount and the
	 * currencies. When the rate cannot be fixed, no payment starts at the
	 * current rate (the buyer could change the amount): the failure is logged
	 * and the buyer is asked to try again; when the service refuses the store
	 * itself, Service_Health takes over. The rate is asked in the buyer's
	 * lane of the service gateway: with the store's budget spent the buyer
	 * is told at once to try again in a minute.
	 *
	 * @throws Service_Refused When the service refuses the store.
	 * @throws Payment_Refused When the rate could not be fixed (rate_refused_message()).
	 */
	public function fixed_rate( Attempt $attempt ): ?array {
		$config = $this->config;
		if ( ! $config->fix_rate() ) {
			return null;
		}
		// Signing the same attempt again while its rate still lives needs no new rate (Start_Budget).
		$kept = $this->budget->kept_rate( $attempt, time() );
		if ( null !== $kept && (string) $kept['from_amount'] === (string) $attempt->amount() ) {
			return $kept;
		}
		try {
			$rate = $this->gateway->client( Service_Lanes::START )->calculate( $attempt->currency(), $attempt->asset(), $attempt->amount(), null );
		} catch ( \Throwable $e ) {
			if ( $this->health->saw( $e ) ) {
				throw new Service_Refused( $this->health->buyer_message() );
			}
			Log::error( sprintf( 'Order %d: the rate could not be fixed (%s); no payment was started at an unfixed rate and the buyer was asked to try again.', $attempt->order_id(), $e->getMessage() ) );
			$this->unfixed( $attempt );
			throw new Payment_Refused( $this->rate_refused_message() );
		}
		// A signed answer: the service accepts the store (Service_Health needs no check of its own for the next order).
		$this->health->answered();
		// The widget locks what the rate fixed: a rate for another amount would make the buyer pay that amount.
		if ( (string) $rate['from_amount'] !== (string) $attempt->amount() || '' === (string) $rate['calculation_id'] ) {
			Log::error( sprintf( 'Order %d: the service fixed a rate for %s minor units, not the %d the order asks; no payment was started.', $attempt->order_id(), (string) $rate['from_amount'], $attempt->amount() ) );
			$this->unfixed( $attempt );
			throw new Payment_Refused( $this->rate_refused_message() );
		}
		// A rate that has already expired would send the buyer to pay at a rate the service no longer holds (declined 105).
		if ( ! Service_Times::still_valid( (string) $rate['expired_at'], time() ) ) {
			Log::error( sprintf( 'Order %d: the service fixed a rate that expired at %s, before it could be used; no payment was started.', $attempt->order_id(), (string) $rate['expired_at'] ) );
			$this->unfixed( $attempt );
			throw new Payment_Refused( $this->rate_refused_message() );
		}
		// Sent now: it counts toward the cap again (an earlier try may have failed to fix its rate).
		$this->attempts->mark_sent( $attempt, true );
		$this->budget->keep_rate( $attempt, $rate, time() );
		return $rate;
	}

	/**
	 * An attempt whose rate could not be fixed was never sent to the buyer:
	 * it does not count toward the order's hourly cap (Attempt_Policy), so a
	 * service that cannot fix rates for a while does not lock the buyer out.
	 */
	private function unfixed( Attempt $attempt ): void {
		if ( Operation_Store::NO_CODE === $attempt->status_code() ) {
			$this->attempts->mark_sent( $attempt, false );
		}
	}

	/**
	 * The landing page address for an attempt, signed now.
	 *
	 * @throws Service_Refused When the service refuses the store.
	 * @throws Payment_Refused When fixed rates are on and the rate could not be fixed (never an unlocked payment).
	 */
	public function landing_url( \WC_Order $order, Attempt $attempt, string $fail_url ): string {
		$config   = $this->config;
		$rate     = $this->fixed_rate( $attempt );
		$settings = $this->signed_settings( $order, $attempt, $rate['calculation_id'] ?? null );
		$this->mark_widget( $order, $attempt, false );
		// A failure comes back to the store, which asks the service at once and tells the buyer (Buyer_Return).
		return Landing_Url::build( $config->landing_url(), $settings, $order->get_checkout_order_received_url(), $fail_url );
	}
}
