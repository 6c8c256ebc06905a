<?php
/**
 * The site's block references (Rules\Block_Reference), keyed by a salt
 * only this site knows: made when a block or route first asks (WordPress's
 * salts are read after the plugins load), then kept for the request.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Settings;

use Card2Crypto\Widget\Rules\Block_Reference;

defined( 'ABSPATH' ) || exit;

final class Site_Keys {

	/** @var Block_Reference|null */
	private $references;

	public function references(): Block_Reference {
		if ( null === $this->references ) {
			$this->references = new Block_Reference( wp_salt( 'nonce' ) );
		}
		return $this->references;
	}
}
