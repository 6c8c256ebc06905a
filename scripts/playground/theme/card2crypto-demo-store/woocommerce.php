<?php
/**
 * WooCommerce pages (shop, product, category) in the theme's layout.
 *
 * @package card2crypto-demo-store
 */

get_header();
woocommerce_content();
get_footer();
