<?php
/**
 * Facts about this copy of the shared library.
 *
 * Each plugin ships its own copy under its own namespace
 * (Card2Crypto\Checkout\Shared, Card2Crypto\Widget\Shared), written by
 * packages/php/scripts/prefix.mjs at build time, so two plugins carrying
 * different versions of this code never load each other's classes.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared;

final class Library {

	/** Replaced by the build with the version it copied (packages/php/package.json). */
	const VERSION = '0.0.0-source';

	/** The namespace of this copy, e.g. Card2Crypto\Checkout\Shared. */
	public static function namespace_name(): string {
		return __NAMESPACE__;
	}
}
