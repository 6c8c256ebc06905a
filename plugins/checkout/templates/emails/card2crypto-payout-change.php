<?php
/**
 * Where card payments go was changed (HTML): to the site's administration
 * address, from Card2Crypto Checkout's Payout_Change_Email.
 *
 * A theme may override it by copying it to
 * yourtheme/woocommerce/emails/card2crypto-payout-change.php. Every text
 * comes translated in $parts; this file only lays it out and escapes it.
 *
 * @package card2crypto-checkout
 * @var string    $email_heading
 * @var array     $parts              intro, details, columns, changes, closing, settings_url, settings_link.
 * @var string    $additional_content
 * @var \WC_Email $email
 */

defined( 'ABSPATH' ) || exit;

do_action( 'woocommerce_email_header', $email_heading, $email ); ?>

<p><?php echo esc_html( $parts['intro'] ); ?></p>

<table class="td" cellspacing="0" cellpadding="6" border="1" style="width: 100%; margin-bottom: 24px;" role="presentation">
	<tbody>
	<?php foreach ( $parts['details'] as $row ) : ?>
		<tr>
			<th class="td" scope="row" style="text-align: left;"><?php echo esc_html( $row[0] ); ?></th>
			<td class="td" style="text-align: left;"><?php echo esc_html( $row[1] ); ?></td>
		</tr>
	<?php endforeach; ?>
	</tbody>
</table>

<table class="td" cellspacing="0" cellpadding="6" border="1" style="width: 100%; margin-bottom: 24px;">
	<thead>
		<tr>
		<?php foreach ( $parts['columns'] as $column ) : ?>
			<th class="td" scope="col" style="text-align: left;"><?php echo esc_html( $column ); ?></th>
		<?php endforeach; ?>
		</tr>
	</thead>
	<tbody>
	<?php foreach ( $parts['changes'] as $row ) : ?>
		<tr>
			<th class="td" scope="row" style="text-align: left;"><?php echo esc_html( $row[0] ); ?></th>
			<td class="td" style="text-align: left; word-break: break-all;"><?php echo esc_html( $row[1] ); ?></td>
			<td class="td" style="text-align: left; word-break: break-all;"><?php echo esc_html( $row[2] ); ?></td>
		</tr>
	<?php endforeach; ?>
	</tbody>
</table>

<?php foreach ( $parts['closing'] as $line ) : ?>
<p><?php echo esc_html( $line ); ?></p>
<?php endforeach; ?>

<p><a href="<?php echo esc_url( $parts['settings_url'] ); ?>"><?php echo esc_html( $parts['settings_link'] ); ?></a></p>

<?php
if ( $additional_content ) {
	echo wp_kses_post( wpautop( wptexturize( $additional_content ) ) );
}

do_action( 'woocommerce_email_footer', $email );
