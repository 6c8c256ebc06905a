<?php
/**
 * Where card payments go was changed (plain text): to the site's
 * administration address, from Card2Crypto Checkout's Payout_Change_Email.
 *
 * A theme may override it by copying it to
 * yourtheme/woocommerce/emails/plain/card2crypto-payout-change.php. Every
 * text comes translated in $parts; this file only lays it out.
 *
 * @package card2crypto-checkout
 * @var string    $email_heading
 * @var array     $parts              intro, details, columns, changes, closing, settings_url, settings_link.
 * @var string    $additional_content
 * @var \WC_Email $email
 */

defined( 'ABSPATH' ) || exit;

echo "=\n" . esc_html( wp_strip_all_tags( $email_heading ) ) . "\n=\n\n";

echo esc_html( $parts['intro'] ) . "\n\n";

foreach ( $parts['details'] as $row ) {
	echo esc_html( $row[0] . ': ' . $row[1] ) . "\n";
}
echo "\n";

foreach ( $parts['changes'] as $row ) {
	echo esc_html( $row[0] ) . "\n";
	echo esc_html( '  ' . $parts['columns'][1] . ': ' . $row[1] ) . "\n";
	echo esc_html( '  ' . $parts['columns'][2] . ': ' . $row[2] ) . "\n";
}
echo "\n";

foreach ( $parts['closing'] as $line ) {
	echo esc_html( $line ) . "\n\n";
}

echo esc_html( $parts['settings_link'] ) . ': ' . esc_url_raw( $parts['settings_url'] ) . "\n\n";

if ( $additional_content ) {
	echo esc_html( wp_strip_all_tags( wptexturize( $additional_content ) ) ) . "\n\n";
}

echo wp_kses_post( apply_filters( 'woocommerce_email_footer_text', get_option( 'woocommerce_email_footer_text' ) ) );
