<?php
/**
 * The settings schema exported by @card2crypto/core (schema/settings.json),
 * written into each plugin at build time as lib/settings-schema.php (a PHP
 * array, which the opcode cache keeps in memory across requests).
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Schema {

	/** @var array<string, mixed> */
	private $data;

	/** @var array<string, Schema> */
	private static $loaded = array();

	/** @param array<string, mixed> $data */
	public function __construct( array $data ) {
		if ( 1 !== ( $data['version'] ?? null ) || ! isset( $data['plugins'], $data['reference'] ) ) {
			throw new \UnexpectedValueException( 'Not a version 1 card2crypto settings schema.' );
		}
		$this->data = $data;
	}

	/** Reads (once per request) a schema file: the plugin's lib/settings-schema.php, or core's JSON (tests). */
	public static function from_file( string $path ): self {
		if ( ! isset( self::$loaded[ $path ] ) ) {
			if ( ! is_readable( $path ) ) {
				throw new \RuntimeException( 'The settings schema file is missing: ' . basename( $path ) . ' (run npm run build).' );
			}
			if ( '.php' === substr( $path, -4 ) ) {
				$data = include $path;
			} else {
				$data = json_decode( (string) file_get_contents( $path ), true ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local file.
			}
			if ( ! is_array( $data ) ) {
				throw new \UnexpectedValueException( 'The settings schema file holds no schema: ' . basename( $path ) );
			}
			self::$loaded[ $path ] = new self( $data );
		}
		return self::$loaded[ $path ];
	}

	/**
	 * The fields of one plugin, in order, keyed by id.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public function fields( string $plugin ): array {
		$fields = array();
		foreach ( $this->plugin( $plugin )['fields'] as $field ) {
			$fields[ $field['id'] ] = $field;
		}
		return $fields;
	}

	/**
	 * The capability a user needs to change a partnerOnly field (the
	 * service's environment and addresses): unfiltered_html, whoever may add
	 * unfiltered code. WordPress grants it on a multisite network to super
	 * admins only and to no one under DISALLOW_UNFILTERED_HTML.
	 */
	public function partner_only_capability(): string {
		return isset( $this->data['partnerOnlyCapability'] ) && is_string( $this->data['partnerOnlyCapability'] ) ? $this->data['partnerOnlyCapability'] : 'unfiltered_html';
	}

	/** @return array<int, array{id: string, label: string}> */
	public function groups( string $plugin ): array {
		return $this->plugin( $plugin )['groups'];
	}

	public function title( string $plugin ): string {
		return $this->plugin( $plugin )['title'];
	}

	/**
	 * The fiat currencies of core's reference data, in order.
	 *
	 * @return array<int, array{code: string, name: string, decimals: int, min: int, max: int, minMinor: int, maxMinor: int}>
	 */
	public function fiat_currencies(): array {
		return $this->data['reference']['fiat'];
	}

	/** @return array{code: string, name: string, decimals: int, min: int, max: int, minMinor: int, maxMinor: int}|null */
	public function fiat( string $code ): ?array {
		foreach ( $this->data['reference']['fiat'] as $currency ) {
			if ( $currency['code'] === $code ) {
				return $currency;
			}
		}
		return null;
	}

	public function is_crypto_symbol( string $symbol ): bool {
		foreach ( $this->data['reference']['crypto'] as $asset ) {
			if ( $asset['symbol'] === $symbol ) {
				return true;
			}
		}
		return false;
	}

	/** Whether $code is an ISO 639-1 code (lower case) of core's reference data: what the lang rule accepts. */
	public function is_language_code( string $code ): bool {
		foreach ( $this->data['reference']['languages'] ?? array() as $language ) {
			if ( $language['code'] === $code ) {
				return true;
			}
		}
		return false;
	}

	/** The English name of an ISO 639-1 code ("Japanese"), "" when it is not one. */
	public function language_name( string $code ): string {
		foreach ( $this->data['reference']['languages'] ?? array() as $language ) {
			if ( $language['code'] === $code ) {
				return (string) $language['name'];
			}
		}
		return '';
	}

	/**
	 * Whether the payment page is offered in $code (core's PAYMENT_PAGE_LANGUAGES);
	 * for any other code it shows English (docs/decisions.md, "Widget language").
	 */
	public function is_payment_page_language( string $code ): bool {
		return in_array( $code, $this->data['reference']['paymentPageLanguages'] ?? array(), true );
	}

	/** Every label, help text, placeholder and option label: what translators see. */
	public function strings(): array {
		$strings = array();
		foreach ( $this->data['plugins'] as $plugin ) {
			$strings[] = $plugin['title'];
			foreach ( $plugin['groups'] as $group ) {
				$strings[] = $group['label'];
			}
			foreach ( $plugin['fields'] as $field ) {
				$strings[] = $field['label'];
				$strings[] = $field['help'];
				foreach ( $field['options'] ?? array() as $option ) {
					$strings[] = $option['label'];
				}
				if ( isset( $field['rule']['patternMessage'] ) ) {
					$strings[] = $field['rule']['patternMessage'];
				}
			}
		}
		return array_values( array_unique( array_filter( $strings, 'strlen' ) ) );
	}

	/** @return array<string, mixed> */
	private function plugin( string $plugin ): array {
		if ( ! isset( $this->data['plugins'][ $plugin ] ) ) {
			throw new \InvalidArgumentException( 'Unknown plugin "' . $plugin . '" in the settings schema; expected checkout or widget.' );
		}
		return $this->data['plugins'][ $plugin ];
	}
}
