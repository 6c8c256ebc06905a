<?php
/**
 * A small declarative checker for what the service sends (API answers and
 * callback bodies), after the signature is verified; the same rules as
 * @card2crypto/core's api/shape.ts and api/shapes.ts (decisions.md,
 * "Required members of operation_data and of API answers").
 *
 * It names the first offending member by its dotted path and returns a copy
 * in which unknown members are kept, optional members that are null are
 * dropped, [] where an object is expected counts as {} (PHP's empty object),
 * and numbers (Json_Number) become PHP values: amounts exact (int, or a
 * digit string beyond PHP_INT_MAX), integers as int, other numbers as float,
 * digit strings of "numberish" members as int.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

use Card2Crypto\Shared\Json\Json_Number;
use Card2Crypto\Shared\Json\Lossless_Json;

final class Shape {

	const EXPIRED_AT_PATTERN = '/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,7})?Z$/D';

	// ---------------------------------------------------------------- builders

	public static function str( bool $non_empty = false, ?string $pattern = null, ?string $describe = null ): array {
		return array(
			'kind'      => 'string',
			'non_empty' => $non_empty,
			'pattern'   => $pattern,
			'describe'  => $describe,
		);
	}

	public static function num(): array {
		return array( 'kind' => 'number' );
	}

	/**
	 * A whole number >= 0 in minimum units, exact at any size (as core reads
	 * it): a PHP int when it fits one, else its decimal digits as a string.
	 */
	public static function amount(): array {
		return array( 'kind' => 'amount' );
	}

	/** A number, or a string of decimal digits turned into a number. */
	public static function numberish(): array {
		return array( 'kind' => 'numberish' );
	}

	/** @param array<string, array{shape: array, required: bool}> $members */
	public static function obj( array $members ): array {
		return array(
			'kind'    => 'object',
			'members' => $members,
		);
	}

	public static function arr( array $of ): array {
		return array(
			'kind' => 'array',
			'of'   => $of,
		);
	}

	public static function req( array $shape ): array {
		return array(
			'shape'    => $shape,
			'required' => true,
		);
	}

	public static function opt( array $shape ): array {
		return array(
			'shape'    => $shape,
			'required' => false,
		);
	}

	// ---------------------------------------------------------------- the shapes

	public static function operation_data(): array {
		$currency   = self::obj(
			array(
				'code'     => self::req( self::str( true ) ),
				'decimals' => self::opt( self::numberish() ),
			)
		);
		$country    = self::obj(
			array(
				'code' => self::opt( self::str() ),
				'name' => self::opt( self::str() ),
			)
		);
		$withdrawal = self::obj(
			array(
				'blockchain_address'      => self::opt( self::str() ),
				'blockchain_tx_id'        => self::opt( self::str() ),
				'blockchain_explorer_url' => self::opt( self::str() ),
			)
		);
		// The buyer's BTC ("to") and the partner's commission ("fee_info") are paid out alike.
		$payout     = self::obj(
			array(
				'withdrawal_method'      => self::opt( self::num() ),
				'withdrawal_method_info' => self::opt( $withdrawal ),
				'currency'               => self::opt( $currency ),
				'amount'                 => self::opt( self::amount() ),
			)
		);
		return self::obj(
			array(
				'status'         => self::req( self::str( true ) ),
				'status_code'    => self::req( self::num() ),
				'operation_info' => self::req(
					self::obj(
						array(
							'id'            => self::req( self::str( true ) ),
							'created_at'    => self::opt( self::str() ),
							'paid_at'       => self::opt( self::str() ),
							'from'          => self::opt(
								self::obj(
									array(
										'payment_method'      => self::opt( self::num() ),
										'payment_method_info' => self::opt(
											self::obj(
												array(
													'number' => self::opt( self::str() ),
													'type' => self::opt( self::str() ),
													'card_holder' => self::opt( self::str() ),
													'expiry_month' => self::opt( self::str() ),
													'expiry_year' => self::opt( self::str() ),
													'country' => self::opt( $country ),
												)
											)
										),
										'currency'            => self::opt( $currency ),
										'amount'              => self::opt( self::amount() ),
									)
								)
							),
							'to'            => self::opt( $payout ),
							'currency_rate' => self::opt( self::num() ),
							'status_url'    => self::opt( self::str() ),
						)
					)
				),
				'partner_info'   => self::opt(
					self::obj(
						array(
							'operation_id' => self::opt( self::str() ),
							'token'        => self::opt( self::str() ),
							'fee_info'     => self::opt( $payout ),
						)
					)
				),
				'customer_info'  => self::opt(
					self::obj(
						array(
							'id'      => self::opt( self::num() ),
							'account' => self::opt( self::str() ),
							'country' => self::opt( $country ),
						)
					)
				),
			)
		);
	}

	public static function countries_response(): array {
		return self::obj(
			array(
				'countries' => self::req(
					self::arr(
						self::obj(
							array(
								'code'   => self::req( self::num() ),
								'name'   => self::req( self::str() ),
								'alpha2' => self::req( self::str() ),
								'alpha3' => self::req( self::str() ),
							)
						)
					)
				),
			)
		);
	}

	public static function params_response(): array {
		return self::obj( array( 'service_fee' => self::req( self::num() ) ) );
	}

	public static function exchange_response(): array {
		$side = static function ( bool $from ): array {
			$members = array(
				'amount'     => self::req( self::num() ),
				'code'       => self::req( self::str( true ) ),
				'name'       => self::opt( self::str() ),
				'symbol'     => self::opt( self::str() ),
				'minor_unit' => self::req( self::numberish() ),
			);
			if ( $from ) {
				$members += array(
					'min_amount'     => self::req( self::num() ),
					'max_amount'     => self::req( self::num() ),
					'min_kyc_amount' => self::opt( self::num() ),
					'max_kyc_amount' => self::opt( self::num() ),
				);
			}
			return self::obj( $members );
		};
		return self::obj(
			array(
				'pairs' => self::req(
					self::arr(
						self::obj(
							array(
								'from' => self::req( $side( true ) ),
								'to'   => self::req( $side( false ) ),
							)
						)
					)
				),
			)
		);
	}

	public static function calculate_response(): array {
		return self::obj(
			array(
				'from_currency'  => self::req( self::str( true ) ),
				'to_currency'    => self::req( self::str( true ) ),
				'from_amount'    => self::req( self::amount() ),
				'to_amount'      => self::req( self::amount() ),
				'calculation_id' => self::req( self::str( true ) ),
				'expired_at'     => self::req( self::str( true, self::EXPIRED_AT_PATTERN, 'a UTC timestamp like 2024-05-01T12:00:00.1234567Z' ) ),
			)
		);
	}

	public static function operation_response(): array {
		return self::obj( array( 'operation_data' => self::req( self::operation_data() ) ) );
	}

	// ---------------------------------------------------------------- checking

	/**
	 * Checks a decoded value (Lossless_Json) against a shape. Never throws.
	 *
	 * @param mixed $value
	 * @return array{ok: bool, value?: mixed, field?: string, message?: string}
	 */
	public static function check( $value, array $shape, string $root = '' ): array {
		try {
			return array(
				'ok'    => true,
				'value' => self::walk( $value, $shape, $root ),
			);
		} catch ( Shape_Error $e ) {
			return array(
				'ok'      => false,
				'field'   => $e->field,
				'message' => $e->getMessage(),
			);
		}
	}

	/**
	 * @param mixed $value
	 * @return mixed
	 */
	private static function walk( $value, array $shape, string $path ) {
		$where = '' === $path ? 'body' : $path;
		switch ( $shape['kind'] ) {
			case 'string':
				if ( ! is_string( $value ) ) {
					throw new Shape_Error( $where, $where . ' must be a string, got ' . self::describe( $value ) );
				}
				if ( $shape['non_empty'] && '' === $value ) {
					throw new Shape_Error( $where, $where . ' must not be empty' );
				}
				if ( null !== $shape['pattern'] && 1 !== preg_match( $shape['pattern'], $value ) ) {
					throw new Shape_Error( $where, $where . ' must be ' . $shape['describe'] );
				}
				return $value;
			case 'number':
				if ( ! $value instanceof Json_Number || ! is_finite( $value->to_float() ) ) {
					throw new Shape_Error( $where, $where . ' must be a number, got ' . self::describe( $value ) );
				}
				$int = $value->to_int();
				return null !== $int && abs( $int ) <= 9007199254740991 ? $int : $value->to_float();
			case 'amount':
				$digits = $value instanceof Json_Number ? $value->to_whole_digits() : null;
				if ( null === $digits ) {
					throw new Shape_Error( $where, $where . ' must be a whole number of minimum units (an integer >= 0), got ' . self::describe( $value ) );
				}
				// PHP_INT_MAX has 19 digits: anything shorter fits, 19 digits fit up to it.
				$fits = strlen( $digits ) < 19 || ( 19 === strlen( $digits ) && strcmp( $digits, (string) PHP_INT_MAX ) <= 0 );
				return $fits ? (int) $digits : $digits;
			case 'numberish':
				if ( $value instanceof Json_Number && is_finite( $value->to_float() ) ) {
					$int = $value->to_int();
					return null !== $int ? $int : $value->to_float();
				}
				if ( is_string( $value ) && 1 === preg_match( '/^[0-9]{1,15}$/D', $value ) ) {
					return (int) $value;
				}
				throw new Shape_Error( $where, $where . ' must be a number, got ' . self::describe( $value ) );
			case 'array':
				if ( ! is_array( $value ) || ! Lossless_Json::is_list( $value ) ) {
					throw new Shape_Error( $where, $where . ' must be an array, got ' . self::describe( $value ) );
				}
				$out = array();
				foreach ( $value as $i => $item ) {
					$out[] = self::walk( $item, $shape['of'], $path . '[' . $i . ']' );
				}
				return $out;
			case 'object':
				if ( ! is_array( $value ) || ( array() !== $value && Lossless_Json::is_list( $value ) ) ) {
					throw new Shape_Error( $where, $where . ' must be an object, got ' . self::describe( $value ) );
				}
				$out = $value;
				foreach ( $shape['members'] as $name => $member ) {
					$child_path = '' === $path ? $name : $path . '.' . $name;
					$child      = array_key_exists( $name, $value ) ? $value[ $name ] : null;
					if ( null === $child ) {
						if ( $member['required'] ) {
							throw new Shape_Error( $child_path, $child_path . ' is required' );
						}
						unset( $out[ $name ] );
						continue;
					}
					$out[ $name ] = self::walk( $child, $member['shape'], $child_path );
				}
				return $out;
		}
		throw new \LogicException( 'Unknown shape kind ' . $shape['kind'] );
	}

	/** @param mixed $value */
	private static function describe( $value ): string {
		if ( null === $value ) {
			return 'null';
		}
		if ( is_array( $value ) ) {
			return array() !== $value && ! Lossless_Json::is_list( $value ) ? 'an object' : 'an array';
		}
		if ( is_string( $value ) ) {
			return 'a string';
		}
		if ( $value instanceof Json_Number ) {
			return 'the number ' . $value->text();
		}
		return 'a ' . gettype( $value );
	}
}
