<?php
/**
 * A buyer whose payment could not start because the service refused the
 * store (Service_Health) is not left at a dead end: the order is kept and
 * marked as waiting for card payment, the buyer is told "we will e-mail you
 * a link", and once card payment is back every such order still unpaid gets
 * WooCommerce's own "pay for this order" e-mail (the customer invoice:
 * WooCommerce's mailer, sender and template, with the pay link), exactly
 * once.
 *
 * - The promise is kept by one Action Scheduler job (HOOK) that looks for
 *   itself: queued when an order is kept (in a minute) and at once when the
 *   health check sees the service accept the store again. It never decides
 *   from a state loaded earlier: it asks Service_Health for a fresh verdict
 *   (the stored state, asked again through the health check's own
 *   once-a-minute rule and lock when stale).
 * - While card payment is not back (still refused, or the service cannot be
 *   asked now) and an order still waits, the job queues itself again after
 *   1, 2, 5, 10, then every 15 minutes (RETRY); when no order waits any more
 *   it stops. An order paid or cancelled meanwhile leaves the promise
 *   without mail.
 * - Each order is claimed before its mail by a compare-and-swap of its mark
 *   in the database (UPDATE ... WHERE the value is still the one read), so
 *   two runs at once, on one web server or two, never mail it twice. A
 *   claim left by a run that died is taken again after CLAIM_TTL.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Outage_Pay_Links implements Hooks {

	/** Order meta: when the order began waiting for card payment to come back (Unix time), or CLAIM and the time a run took it. */
	const META = '_card2crypto_waits_for_service';

	/** The Action Scheduler hook that mails the waiting orders (its one argument: the runs so far without card payment back), and its group. */
	const HOOK  = 'card2crypto_checkout_service_back';
	const GROUP = 'card2crypto-checkout';

	/** Orders mailed per run; a longer list queues another run. */
	const BATCH = 50;

	/** Seconds before the next run while card payment is not back: 1, 2, 5, 10, then every 15 minutes. */
	const RETRY = array( 60, 120, 300, 600, 900 );

	/** The mark's value while a run mails the order: this prefix and the time it was claimed. */
	const CLAIM = 'mailing:';

	/** Seconds after which a claim is taken to be left by a run that died (a run mails an order in well under a second). */
	const CLAIM_TTL = 600;

	/** The database lock under which the job is queued (one waiting run, whatever the number of web servers). */
	const LOCK = 'card2crypto_checkout_service_back';

	/** Whether this request runs the job now (its own health check seeing the service back queues nothing more). */
	private $running = false;

	/** @var Service_Health */
	private $health;

	/** @var Shared_Store */
	private $shared;

	public function __construct( Service_Health $health, Shared_Store $shared ) {
		$this->health = $health;
		$this->shared = $shared;
	}

	public function register(): void {
		add_action( self::HOOK, array( $this, 'mail_waiting' ) );
		add_action( Service_Health::CAME_BACK, array( $this, 'came_back' ) );
	}

	/**
	 * The order waits for card payment to come back (noted once; the job
	 * looks in a minute, whatever the health check sees meanwhile); answers
	 * what the buyer is told.
	 */
	public function keep( \WC_Order $order ): string {
		if ( ! $order->is_paid() && '' === (string) $order->get_meta( self::META ) ) {
			$order->update_meta_data( self::META, (string) time() );
			$order->add_order_note( __( 'Card2Crypto: card payment was unavailable when the buyer tried to pay (the service refuses the store). The order is kept; the buyer is e-mailed a link to pay it as soon as card payment is back.', 'card2crypto-checkout' ) );
			$order->save();
			$this->queue( self::RETRY[0], 1, false );
		}
		return $this->message( Other_Methods::exist() );
	}

	/** What the buyer is told: the order is kept, and how they will hear. */
	public function message( bool $other_methods = false ): string {
		$message = __( 'Card payment is unavailable right now. Your order is kept: we will e-mail you a link to pay it as soon as card payment is back.', 'card2crypto-checkout' );
		if ( $other_methods ) {
			$message .= ' ' . __( 'You can also pay it now with another payment method.', 'card2crypto-checkout' );
		}
		return $message;
	}

	/**
	 * The service accepts the store again: the job runs now, in place of a
	 * later run waiting (its back-off starts again). Nothing when the job
	 * itself saw it (it mails in the same run).
	 */
	public function came_back(): void {
		if ( $this->running ) {
			return;
		}
		$this->queue( 0, 0, true );
	}

	/**
	 * Queues the job (under LOCK, so that one run waits): with $now, one
	 * async run in place of any waiting one; else a run in $delay seconds
	 * unless one already waits. Nothing without Action Scheduler.
	 */
	private function queue( int $delay, int $runs, bool $now ): void {
		if ( ! function_exists( 'as_enqueue_async_action' ) || ! function_exists( 'as_schedule_single_action' ) || ! function_exists( 'as_get_scheduled_actions' ) ) {
			return;
		}
		try {
			$this->shared->locked(
				self::LOCK,
				static function () use ( $delay, $runs, $now ): void {
					if ( $now ) {
						as_unschedule_all_actions( self::HOOK );
						as_enqueue_async_action( self::HOOK, array( $runs ), self::GROUP );
						return;
					}
					if ( array() === as_get_scheduled_actions(
						array(
							'hook'     => self::HOOK,
							'status'   => 'pending', // ActionScheduler_Store::STATUS_PENDING: not the one running now.
							'per_page' => 1,
						),
						'ids'
					) ) {
						as_schedule_single_action( time() + $delay, self::HOOK, array( $runs ), self::GROUP );
					}
				},
				'another request holds the lock'
			);
		} catch ( \Throwable $e ) {
			Log::error( 'The e-mail to buyers waiting for card payment could not be queued: ' . $e->getMessage() );
		}
	}

	/** Seconds before the run after $runs runs without card payment back. */
	public function retry_after( int $runs ): int {
		return self::RETRY[ max( 0, min( $runs, count( self::RETRY ) - 1 ) ) ];
	}

	/**
	 * The job (Action Scheduler). Orders paid or cancelled leave the promise;
	 * when card payment is back (a fresh verdict) each order still waiting is
	 * claimed and mailed once; while it is not, or some order is left, the job
	 * queues itself again. Older versions queued it without an argument.
	 *
	 * @param mixed $runs The runs so far that did not find card payment back.
	 */
	public function mail_waiting( $runs = 0 ): void {
		$runs          = max( 0, (int) $runs );
		$outer         = $this->running;
		$this->running = true;
		try {
			$next = $this->run( $runs );
		} finally {
			$this->running = $outer;
		}
		if ( null !== $next ) {
			$this->queue( $next[0], $next[1], false );
		}
	}

	/**
	 * One run; answers the next run to queue ([delay, runs]) or null when no
	 * order waits any more.
	 *
	 * @return array{0: int, 1: int}|null
	 */
	private function run( int $runs ): ?array {
		$marks   = $this->marks( self::BATCH );
		$waiting = array();
		foreach ( $marks as $id => $mark ) {
			$order = wc_get_order( $id );
			if ( ! $order instanceof \WC_Order ) {
				$this->release( $id, $mark ); // The order is gone: so is the promise.
				continue;
			}
			if ( $order->is_paid() || ! $order->needs_payment() ) {
				// Paid (with any method), cancelled or trashed meanwhile: the promise has nothing left to keep.
				$claim = $this->claim( $id, $mark );
				if ( null !== $claim ) {
					$this->done( $order, $claim );
				}
				continue;
			}
			$waiting[ $id ] = $mark;
		}
		if ( array() !== $waiting ) {
			if ( Service_Health::OK !== $this->health->fresh_verdict() ) {
				// Still refused, or not to be asked now: the buyers wait for a later run.
				return array( $this->retry_after( $runs ), $runs + 1 );
			}
			$emails  = function_exists( 'WC' ) && WC()->mailer() ? WC()->mailer()->get_emails() : array();
			$invoice = $emails['WC_Email_Customer_Invoice'] ?? null;
			foreach ( $waiting as $id => $mark ) {
				$claim = $this->claim( $id, $mark );
				if ( null === $claim ) {
					continue; // Another run took it first.
				}
				// As stored now: paid since it was read (a callback), it gets no pay link.
				$order = wc_get_order( $id );
				if ( ! $order instanceof \WC_Order ) {
					$this->release( $id, $claim );
					continue;
				}
				if ( ! $order->is_paid() && $order->needs_payment() ) {
					$this->mail( $order, $invoice );
				}
				$this->done( $order, $claim );
			}
		}
		if ( array() === $this->marks( 1 ) ) {
			return null;
		}
		// Orders beyond this batch: the next run at once. Orders another run holds (taken again should it die): later.
		return count( $marks ) >= self::BATCH ? array( 0, $runs ) : array( $this->retry_after( $runs ), $runs + 1 );
	}

	/**
	 * The buyer's pay link, once: WooCommerce's customer invoice.
	 *
	 * @param \WC_Email|null $invoice
	 */
	private function mail( \WC_Order $order, $invoice ): void {
		if ( null === $invoice || '' === (string) $order->get_billing_email() ) {
			$order->add_order_note( __( 'Card2Crypto: card payment is back, but the buyer could not be e-mailed (no customer invoice e-mail or no address): send them the payment link yourself.', 'card2crypto-checkout' ) );
			return;
		}
		try {
			$invoice->trigger( $order->get_id(), $order );
		} catch ( \Throwable $e ) {
			Log::error( sprintf( 'Order %d: the e-mail with its payment link failed: %s', $order->get_id(), $e->getMessage() ) );
			$order->add_order_note( __( 'Card2Crypto: card payment is back, but the e-mail with the payment link could not be sent: send the buyer the payment link yourself.', 'card2crypto-checkout' ) );
			return;
		}
		$order->add_order_note( __( 'Card2Crypto: card payment is back; the buyer was e-mailed a link to pay this order.', 'card2crypto-checkout' ) );
	}

	/**
	 * The orders that carry the mark, and its value, oldest first, read from
	 * the order meta table WooCommerce reads orders from (its order tables,
	 * or the posts tables), whatever their payment method now (one paid
	 * another way leaves the promise here). Not wc_get_orders(): with the
	 * posts tables it ignores a meta query and answers every order.
	 *
	 * @return array<int, string>
	 */
	private function marks( int $limit ): array {
		global $wpdb;
		list( $table, $column ) = $this->meta_table();
		$rows                   = $wpdb->get_results( // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the marks as stored now, no cache.
			$wpdb->prepare( 'SELECT %i AS id, meta_value AS mark FROM %i WHERE meta_key = %s ORDER BY %i ASC LIMIT %d', $column, $table, self::META, $column, $limit ),
			ARRAY_A
		);
		$marks = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$marks[ (int) $row['id'] ] = (string) $row['mark'];
		}
		return $marks;
	}

	/** The order meta table WooCommerce reads orders from, and its order id column. */
	private function meta_table(): array {
		global $wpdb;
		$hpos = class_exists( '\Automattic\WooCommerce\Utilities\OrderUtil' ) && \Automattic\WooCommerce\Utilities\OrderUtil::custom_orders_table_usage_is_enabled();
		return $hpos ? array( $wpdb->prefix . 'wc_orders_meta', 'order_id' ) : array( $wpdb->postmeta, 'post_id' );
	}

	/**
	 * Takes the order for this run: its mark, still $mark in the database
	 * (a compare-and-swap: of two runs at once exactly one changes the row),
	 * becomes CLAIM and the time; answers that value, or null when another
	 * run changed it first. Another run's claim is taken only once it is
	 * older than CLAIM_TTL (that run died).
	 */
	private function claim( int $id, string $mark ): ?string {
		global $wpdb;
		if ( '' === $mark || ( 0 === strpos( $mark, self::CLAIM ) && (int) substr( $mark, strlen( self::CLAIM ) ) > time() - self::CLAIM_TTL ) ) {
			return null;
		}
		list( $table, $column ) = $this->meta_table();
		$claim                  = self::CLAIM . time();
		$changed                = $wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- the compare-and-swap no cache may answer.
			$wpdb->prepare( 'UPDATE %i SET meta_value = %s WHERE %i = %d AND meta_key = %s AND meta_value = %s', $table, $claim, $column, $id, self::META, $mark )
		);
		return is_int( $changed ) && $changed > 0 ? $claim : null;
	}

	/**
	 * The promise is kept (or has nothing left to keep): the mark goes,
	 * through WooCommerce (both order stores while they sync), and from the
	 * table itself should the order have been loaded before it was set.
	 */
	private function done( \WC_Order $order, string $claim ): void {
		$order->delete_meta_data( self::META );
		$order->save();
		$this->release( $order->get_id(), $claim );
	}

	/** Removes the mark of order $id when it still reads $mark. */
	private function release( int $id, string $mark ): void {
		global $wpdb;
		list( $table, $column ) = $this->meta_table();
		$wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE %i = %d AND meta_key = %s AND meta_value = %s', $table, $column, $id, self::META, $mark ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- as claim().
	}
}
