<?php
/**
 * Footer.
 *
 * @package card2crypto-demo-store
 */

?>
	</main>
	<?php
	if ( card2crypto_demo_store_has_sidebar() ) {
		get_sidebar();
	}
	?>
</div>
<footer class="site-footer">
	<div class="inner"><?php esc_html_e( 'card2crypto demo store: a local WordPress for trying the card2crypto plugins against the sandbox.', 'card2crypto-demo-store' ); ?></div>
</footer>
<?php wp_footer(); ?>
</body>
</html>
