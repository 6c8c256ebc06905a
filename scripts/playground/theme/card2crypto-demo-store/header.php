<?php
/**
 * Header.
 *
 * @package card2crypto-demo-store
 */

?><!DOCTYPE html>
<html <?php language_attributes(); ?>>
<head>
<meta charset="<?php bloginfo( 'charset' ); ?>">
<meta name="viewport" content="width=device-width, initial-scale=1">
<?php wp_head(); ?>
</head>
<body <?php body_class(); ?>>
<?php wp_body_open(); ?>
<header class="site-header">
	<div class="inner">
		<div>
			<p class="site-title"><a href="<?php echo esc_url( home_url( '/' ) ); ?>"><?php bloginfo( 'name' ); ?></a></p>
			<p class="site-description"><?php bloginfo( 'description' ); ?></p>
		</div>
		<nav class="site-nav" aria-label="<?php esc_attr_e( 'Primary', 'card2crypto-demo-store' ); ?>">
			<?php
			wp_nav_menu(
				array(
					'theme_location' => 'primary',
					'container'      => false,
					'fallback_cb'    => 'card2crypto_demo_store_menu',
				)
			);
			?>
		</nav>
	</div>
</header>
<div class="site-main">
	<main class="content-area" id="main">
