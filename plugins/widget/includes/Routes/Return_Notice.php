<?php
/**
 * What the "Buy crypto" button's landing page reports on the visitor's way
 * back: a short, dismissible message in the button's own block, saying
 * what happened.
 *
 * Only the visitor's own return shows it. When the button is clicked,
 * Go_Route gives this browser a random cookie and the landing page two
 * return addresses (the page the button was on, with ?card2crypto=success
 * or fail), each carrying the block's reference, an expiry and a keyed hash
 * of the outcome, the reference, the expiry and the cookie. A link copied
 * from the address bar or shared shows nothing anywhere else, nor does a
 * hand-written ?card2crypto=success, nor an old return (RETURN_TTL). The
 * query string itself is never printed.
 *
 * The message sits in the button's block when the page holds it; otherwise
 * (the block was removed, the page changed) at the end of the page, fixed
 * to the bottom of the window, never above the site's header. Both close
 * with their "Dismiss" button, without JavaScript (a <dialog> form).
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

use Card2Crypto\Widget\Base\Assets;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Return_Notice implements Hooks {

	/** The browser's half of the proof (HttpOnly; sent back to this site only). */
	const COOKIE = 'card2crypto_return';

	/** How long a return may come after the click: the landing page's session, with room. */
	const RETURN_TTL = 2 * HOUR_IN_SECONDS;

	/** @var array{outcome: string, ref: string}|false|null The proven return of this request; null until looked at. */
	private $proven;

	/** @var bool Whether the message was printed in a block already. */
	private $shown = false;

	public function register(): void {
		add_action( 'template_redirect', array( $this, 'no_cache' ) );
		add_action( 'wp_enqueue_scripts', array( $this, 'enqueue' ) );
		add_action( 'wp_footer', array( $this, 'in_footer' ) );
	}

	/**
	 * For Go_Route: the two return addresses of a click on a block's button,
	 * bound to this browser (the cookie is set here when it has none).
	 *
	 * @param string $page The same-site page to come back to.
	 * @param string $ref  The block's reference.
	 * @return array{success: string, fail: string}
	 */
	public function addresses( string $page, string $ref ): array {
		$browser = $this->browser_key();
		if ( null === $browser ) {
			$browser = wp_generate_password( 32, false );
			setcookie(
				self::COOKIE,
				$browser,
				array(
					'expires'  => time() + self::RETURN_TTL,
					'path'     => COOKIEPATH ? COOKIEPATH : '/',
					'domain'   => COOKIE_DOMAIN ? COOKIE_DOMAIN : '',
					'secure'   => is_ssl(),
					'httponly' => true,
					// Lax: the landing page's redirect back is a top-level GET navigation, which carries it.
					'samesite' => 'Lax',
				)
			);
		}
		$until = time() + self::RETURN_TTL;
		$short = substr( $ref, 0, 16 );
		$out   = array();
		foreach ( array( 'success', 'fail' ) as $outcome ) {
			$out[ $outcome ] = add_query_arg(
				array(
					'card2crypto' => $outcome,
					'c2c_ref'     => $short,
					'c2c_until'   => $until,
					'c2c_proof'   => $this->proof( $outcome, $short, $until, $browser ),
				),
				$page
			);
		}
		return $out;
	}

	/** The cookie this browser sent, when it is one of ours. */
	private function browser_key(): ?string {
		$value = isset( $_COOKIE[ self::COOKIE ] ) && is_string( $_COOKIE[ self::COOKIE ] ) ? sanitize_text_field( wp_unslash( $_COOKIE[ self::COOKIE ] ) ) : '';
		return 1 === preg_match( '/^[A-Za-z0-9]{32}$/', $value ) ? $value : null;
	}

	private function proof( string $outcome, string $ref, int $until, string $browser ): string {
		return substr( hash_hmac( 'sha256', $outcome . '|' . $ref . '|' . $until . '|' . $browser, wp_salt( 'nonce' ) ), 0, 32 );
	}

	/**
	 * The return this request proves, else null: ?card2crypto=success|fail
	 * with a reference, an expiry still ahead and a proof made for this
	 * browser's cookie.
	 *
	 * @return array{outcome: string, ref: string}|null
	 */
	public function proven(): ?array {
		if ( null === $this->proven ) {
			$this->proven = $this->look() ?? false;
		}
		return false === $this->proven ? null : $this->proven;
	}

	/** @return array{outcome: string, ref: string}|null */
	private function look(): ?array {
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- a read-only return address, proven by its own keyed hash; nothing is changed.
		$read = static function ( string $name ): string {
			return isset( $_GET[ $name ] ) && is_string( $_GET[ $name ] ) ? sanitize_text_field( wp_unslash( $_GET[ $name ] ) ) : '';
		};
		// phpcs:enable
		$outcome = $read( 'card2crypto' );
		$ref     = $read( 'c2c_ref' );
		$until   = $read( 'c2c_until' );
		$proof   = $read( 'c2c_proof' );
		$browser = $this->browser_key();
		if ( is_admin() || ! in_array( $outcome, array( 'success', 'fail' ), true ) || null === $browser
			|| 1 !== preg_match( '/^[0-9a-f]{16}$/', $ref ) || 1 !== preg_match( '/^[0-9]{1,12}$/', $until ) ) {
			return null;
		}
		$until = (int) $until;
		if ( $until < time() || $until > time() + self::RETURN_TTL || ! hash_equals( $this->proof( $outcome, $ref, $until, $browser ), $proof ) ) {
			return null;
		}
		return array(
			'outcome' => $outcome,
			'ref'     => $ref,
		);
	}

	/** On template_redirect: a page that shows a visitor's own return is never kept by a cache. */
	public function no_cache(): void {
		if ( null !== $this->proven() ) {
			nocache_headers();
		}
	}

	/** On wp_enqueue_scripts: the block's stylesheet holds the notice's few rules. */
	public function enqueue(): void {
		if ( null !== $this->proven() ) {
			wp_enqueue_style( Assets::VIEW_STYLE );
		}
	}

	/** For Buy_Button_Render: the message, when this block's own return is being shown ('' otherwise). */
	public function in_block( string $ref ): string {
		$proven = $this->proven();
		if ( null === $proven || $this->shown || 0 !== strpos( $ref, $proven['ref'] ) ) {
			return '';
		}
		$this->shown = true;
		return $this->html( $proven['outcome'], 'c2c-return' );
	}

	/** On wp_footer: the message, when no block on the page showed it. */
	public function in_footer(): void {
		$proven = $this->proven();
		if ( null !== $proven && ! $this->shown ) {
			$this->shown = true;
			echo $this->html( $proven['outcome'], 'c2c-return c2c-return--floating' ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped in html().
		}
	}

	private function html( string $outcome, string $class ): string {
		if ( 'success' === $outcome ) {
			$title   = __( 'The payment service reports that your purchase went through.', 'card2crypto-widget' );
			$message = __( 'Your crypto is on its way to your wallet; it may take a few minutes to arrive.', 'card2crypto-widget' );
		} else {
			$title   = __( 'The payment service reports that your purchase did not go through.', 'card2crypto-widget' );
			$message = __( 'No crypto was bought. Check the card details or try another card, then try again.', 'card2crypto-widget' );
		}
		return sprintf(
			'<dialog open class="%1$s c2c-return--%2$s" aria-labelledby="c2c-return-title"><div role="%3$s"><p id="c2c-return-title"><strong>%4$s</strong></p><p>%5$s</p></div><form method="dialog"><button type="submit" class="c2c-return__dismiss wp-element-button">%6$s</button></form></dialog>',
			esc_attr( $class ),
			esc_attr( $outcome ),
			esc_attr( 'fail' === $outcome ? 'alert' : 'status' ),
			esc_html( $title ),
			esc_html( $message ),
			esc_html__( 'Dismiss', 'card2crypto-widget' )
		);
	}
}
