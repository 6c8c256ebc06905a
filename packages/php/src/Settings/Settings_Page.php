<?php
/**
 * A Settings API page (Settings → <title>) generated from the settings
 * schema: one section per group, one field per schema field, saved through
 * options.php (nonce and capability checked by WordPress) into one array
 * option, sanitised and validated by the schema's rules. A field with a
 * problem keeps its stored value and gets an error naming it; the others
 * are saved.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Settings_Page {

	/** @var Field_View */
	private $view;

	/** @var string */
	private $page_slug;

	/** @var string */
	private $capability;

	/** @var array<string, string>|null What the last sanitize() returned, to spot WordPress sanitising it twice. */
	private $last_saved;

	public function __construct( Field_View $view, string $page_slug, string $capability = 'manage_options' ) {
		$this->view       = $view;
		$this->page_slug  = $page_slug;
		$this->capability = $capability;
	}

	private function option(): string {
		return $this->view->store()->option_name();
	}

	/** The option group used by settings_fields() and options.php. */
	public function option_group(): string {
		return $this->page_slug;
	}

	/**
	 * Adds the page under Settings; call on admin_menu. The plugin builds
	 * this object there and on admin_init only, so front-end requests never
	 * read the schema or translate its labels.
	 */
	public function add_to_menu( string $menu_title, string $page_title ): void {
		add_options_page( $page_title, $menu_title, $this->capability, $this->page_slug, array( $this, 'render_page' ) );
	}

	/** The setting, its sections and fields, and who may save it; call on admin_init (options.php saves through them). */
	public function register(): void {
		add_filter(
			'option_page_capability_' . $this->option_group(),
			function (): string {
				return $this->capability;
			}
		);
		register_setting(
			$this->option_group(),
			$this->option(),
			array(
				'type'              => 'array',
				'sanitize_callback' => array( $this, 'sanitize' ),
				'default'           => $this->view->store()->defaults(),
				'show_in_rest'      => false,
			)
		);
		$invalid = $this->invalid_fields();
		foreach ( $this->view->groups() as $group ) {
			add_settings_section( 'c2c-' . $group['id'], $group['label'], '__return_false', $this->page_slug );
		}
		foreach ( $this->view->store()->fields() as $id => $field ) {
			$html_id = $this->option() . '-' . $id;
			add_settings_field(
				$id,
				esc_html( $this->view->label( $field ) ),
				function () use ( $field, $id, $html_id, $invalid ): void {
					echo Field_Renderer::control( $this->view, $field, $this->option() . '[' . $id . ']', $html_id, isset( $invalid[ $id ] ) ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped inside.
				},
				$this->page_slug,
				'c2c-' . $field['group'],
				array( 'label_for' => $html_id )
			);
		}
	}

	/**
	 * The sanitize_callback: validates the submission by the schema's rules.
	 *
	 * @param mixed $input
	 * @return array<string, string>
	 */
	public function sanitize( $input ): array {
		// WordPress runs this twice when the option is first created (update_option, then add_option).
		if ( null !== $this->last_saved && $input === $this->last_saved ) {
			return $this->last_saved;
		}
		// options.php has checked the nonce and the capability; code that updates the option is validated alike.
		$store    = $this->view->store();
		$prepared = $store->prepare_save( is_array( $input ) ? $input : array() ); // options.php has already unslashed it.
		foreach ( $prepared['problems'] as $problem ) {
			add_settings_error( $this->option(), 'c2c-' . $problem['field'], $this->view->problem_message( $problem ), 'error' );
		}
		if ( array() !== $prepared['problems'] ) {
			add_settings_error( $this->option(), 'c2c-others-saved', __( 'The other settings were saved; the fields listed above kept their previous values.', 'card2crypto-shared' ), 'info' );
		}
		$this->last_saved = $prepared['values'];
		return $prepared['values'];
	}

	public function render_page(): void {
		if ( ! current_user_can( $this->capability ) ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to manage these settings.', 'card2crypto-shared' ), 403 );
		}
		echo '<div class="wrap"><h1>' . esc_html( get_admin_page_title() ) . '</h1>';
		echo '<form action="' . esc_url( admin_url( 'options.php' ) ) . '" method="post" novalidate="novalidate">';
		settings_fields( $this->option_group() );
		do_settings_sections( $this->page_slug );
		submit_button();
		echo '</form></div>';
	}

	/** @return array<string, true> Fields refused by the last save (from its settings errors). */
	private function invalid_fields(): array {
		$invalid = array();
		if ( ! function_exists( 'get_settings_errors' ) ) {
			return $invalid;
		}
		foreach ( get_settings_errors( $this->option() ) as $error ) {
			if ( 'error' === $error['type'] && 0 === strpos( $error['code'], 'c2c-' ) ) {
				$invalid[ substr( $error['code'], 4 ) ] = true;
			}
		}
		return $invalid;
	}
}
