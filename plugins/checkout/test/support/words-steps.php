<?php
/**
 * Steps of test/wordpress/words.test.ts inside a real store (run by the
 * harness's runPhp with WordPress loaded; test/support/reconcile-store.ts's
 * phpStep() writes $c2c_step = array( action, input, out ) before requiring
 * this file): what the owner reads, rendered as the admin screens render it.
 *
 * - "paid_twice": a new card order of 79.00 in the store's currency, one
 *   attempt, and two of its operations succeeding (the buyer paid in two
 *   windows), applied as reconciliation applies them; its id, notes and
 *   the owner's order panel as HTML.
 *
 * @package card2crypto-checkout
 */

use Card2Crypto\Checkout\Admin\Admin_Order_Panel;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Order\Operation_Events;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Shared\Api\Operation;
use Card2Crypto\Checkout\Shared\Json\Lossless_Json;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

/** operation_data of a success of `$id` for the attempt `$poid`, as the service writes it. */
function c2c_words_success( string $id, string $poid, int $amount, string $currency, string $wallet, string $explorer = '' ): Operation {
	$data = array(
		'status'         => 'success',
		'status_code'    => 0,
		'operation_info' => array(
			'id'   => $id,
			'from' => array(
				'amount'   => $amount,
				'currency' => array(
					'code'     => $currency,
					'decimals' => 2,
				),
			),
			'to'   => array(
				'amount'                 => 120000,
				'currency'               => array(
					'code'     => 'BTC',
					'decimals' => 8,
				),
				'withdrawal_method_info' => array(
					'blockchain_address' => $wallet,
					'blockchain_tx_id'   => 'tx-' . $id,
				),
			),
		),
		'partner_info'   => array( 'operation_id' => $poid ),
	);
	if ( '' !== $explorer ) {
		$data['operation_info']['to']['withdrawal_method_info']['blockchain_explorer_url'] = $explorer;
	}
	return Operation::from_decoded( Lossless_Json::decode_object( wp_json_encode( $data ) ) )['operation'];
}

function c2c_words_step( string $action, array $input ) {
	$config = Plugin::service( Config::class );
	switch ( $action ) {
		case 'paid_once':
			// One address for every order (input: wallet), the service linking its transaction (input: explorer); test: placed on the sandbox.
			$currency = $config->currency();
			$order    = wc_create_order();
			$order->set_currency( $currency );
			$order->set_payment_method( Keys::GATEWAY_ID );
			$order->set_payment_method_title( 'Card' );
			$order->set_total( '79.00' );
			$order->set_status( 'pending' );
			$order->update_meta_data( Keys::META_TEST_MODE, $input['test'] ? 'yes' : 'no' );
			$order->save();
			$poid = 'wc-' . $order->get_id() . '-once';
			Plugin::service( Attempt_Store::class )->create_attempt( $order->get_id(), $poid, 7900, $currency, $input['wallet'] );
			$order->update_meta_data( Keys::META_ATTEMPT, $poid );
			$order->save();
			$outcome = Plugin::service( Operation_Events::class )->process( c2c_words_success( 'op-once-' . $order->get_id(), $poid, 7900, $currency, $input['wallet'], $input['explorer'] ), 'reconcile' );
			$order   = wc_get_order( $order->get_id() );
			ob_start();
			Plugin::service( Admin_Order_Panel::class )->render( $order );
			return array(
				'id'       => $order->get_id(),
				'status'   => $order->get_status(),
				'outcomes' => array( $outcome ),
				'notes'    => array_map(
					static function ( $note ) {
						return $note->content;
					},
					wc_get_order_notes( array( 'order_id' => $order->get_id() ) )
				),
				'panel'    => ob_get_clean(),
			);
		case 'paid_twice':
			$currency = $config->currency();
			$wallet   = $config->wallet();
			$order    = wc_create_order();
			$order->set_currency( $currency );
			$order->set_payment_method( Keys::GATEWAY_ID );
			$order->set_payment_method_title( 'Card' );
			$order->set_billing_email( 'buyer@example.com' );
			$order->set_total( '79.00' );
			$order->set_status( 'pending' );
			$order->save();
			$poid = 'wc-' . $order->get_id() . '-twice';
			Plugin::service( Attempt_Store::class )->create_attempt( $order->get_id(), $poid, 7900, $currency, $wallet );
			$order->update_meta_data( Keys::META_ATTEMPT, $poid );
			$order->save();
			$events   = Plugin::service( Operation_Events::class );
			$outcomes = array();
			foreach ( array( 'op-first-' . $order->get_id(), 'op-second-' . $order->get_id() ) as $id ) {
				$outcomes[] = $events->process( c2c_words_success( $id, $poid, 7900, $currency, $wallet ), 'reconcile' );
			}
			$order = wc_get_order( $order->get_id() );
			ob_start();
			Plugin::service( Admin_Order_Panel::class )->render( $order );
			return array(
				'id'       => $order->get_id(),
				'status'   => $order->get_status(),
				'outcomes' => $outcomes,
				'notes'    => array_map(
					static function ( $note ) {
						return $note->content;
					},
					wc_get_order_notes( array( 'order_id' => $order->get_id() ) )
				),
				'panel'    => ob_get_clean(),
			);
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_words_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );
