<?php
/**
 * Every page: the loop, with the sidebar beside it but on the checkout (see footer.php).
 *
 * @package card2crypto-demo-store
 */

get_header();
if ( have_posts() ) {
	while ( have_posts() ) {
		the_post();
		?>
		<article id="post-<?php the_ID(); ?>" <?php post_class(); ?>>
			<?php
			if ( is_singular() ) {
				the_title( '<h1 class="entry-title">', '</h1>' );
			} else {
				the_title( sprintf( '<h2 class="entry-title"><a href="%s">', esc_url( get_permalink() ) ), '</a></h2>' );
			}
			is_singular() ? the_content() : the_excerpt();
			?>
		</article>
		<?php
	}
	the_posts_pagination();
} else {
	echo '<p>' . esc_html__( 'Nothing here yet.', 'card2crypto-demo-store' ) . '</p>';
}
get_footer();
