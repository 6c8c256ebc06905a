<?php
/**
 * The one widget area.
 *
 * @package card2crypto-demo-store
 */

if ( ! is_active_sidebar( 'sidebar-1' ) ) {
	return;
}
?>
<aside class="widget-area" aria-label="<?php esc_attr_e( 'Sidebar', 'card2crypto-demo-store' ); ?>">
	<?php dynamic_sidebar( 'sidebar-1' ); ?>
</aside>
