<?php
/**
 * A Settings API page (Settings → <title>) generated from the settings
 * schema: one section per group, one field per schema field, saved through
 * options.php (nonce and capability checked by WordPress) into one array
 * option, sanitised and validated by the schema's rules. A save with a
 * problem (a field's rule, or the service refusing new credentials: the
 * plugin's check) writes nothing: the page comes back with what was typed
 * (never a secret) and each error next to its field, as the checkout's
 * WooCommerce form does.
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

	/** @var callable|null The plugin's check of a save that passed the rules (see __construct()). */
	private $check;

	/** @var callable|null Prints what goes above the form (a status box). */
	private $intro;

	/** @var array{typed: array<string, string>, errors: array<string, string>}|null The refused save being shown again, read once. */
	private $refused;

	/**
	 * @param array{check?: callable, intro?: callable} $options check( array $values ): ?array{field: string, why: string}
	 *        is given what a save that passed the rules would write (stored form) and answers null, or
	 *        which field is at fault and why (the service refuses new credentials); intro() prints what
	 *        goes above the form.
	 */
	public function __construct( Field_View $view, string $page_slug, string $capability = 'manage_options', array $options = array() ) {
		$this->view       = $view;
		$this->page_slug  = $page_slug;
		$this->capability = $capability;
		$this->check      = $options['check'] ?? null;
		$this->intro      = $options['intro'] ?? null;
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
		foreach ( $this->view->groups() as $group ) {
			add_settings_section( 'c2c-' . $group['id'], $group['label'], '__return_false', $this->page_slug );
		}
		foreach ( $this->view->store()->fields() as $id => $field ) {
			$html_id = $this->option() . '-' . $id;
			add_settings_field(
				$id,
				esc_html( $this->view->label( $field ) ),
				function () use ( $field, $id, $html_id ): void {
					$refused = $this->refused();
					$error   = $refused['errors'][ $id ] ?? '';
					$typed   = null;
					if ( array() !== $refused['typed'] ) {
						// An unticked checkbox was not sent.
						$typed = 'boolean' === $field['rule']['kind'] ? ( isset( $refused['typed'][ $id ] ) && '' !== $refused['typed'][ $id ] ? 'yes' : 'no' ) : ( $refused['typed'][ $id ] ?? null );
					}
					echo Field_Renderer::control( $this->view, $field, $this->option() . '[' . $id . ']', $html_id, '' !== $error, $typed, $error ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped inside.
				},
				$this->page_slug,
				'c2c-' . $field['group'],
				array( 'label_for' => $html_id )
			);
		}
	}

	/**
	 * The sanitize_callback: validates the submission by the schema's rules,
	 * then asks the plugin's check. Anything wrong: nothing is written (the
	 * stored option is returned, so update_option() finds nothing changed).
	 *
	 * @param mixed $input
	 * @return array<string, mixed>
	 */
	public function sanitize( $input ): array {
		// WordPress runs this twice when the option is first created (update_option, then add_option).
		if ( null !== $this->last_saved && $input === $this->last_saved ) {
			return $this->last_saved;
		}
		// options.php has checked the nonce and the capability; code that updates the option is validated alike.
		$store     = $this->view->store();
		$submitted = is_array( $input ) ? $input : array();
		$prepared  = $store->prepare_save( $submitted ); // options.php has already unslashed it.
		$errors    = array();
		foreach ( $prepared['problems'] as $problem ) {
			$message                     = $this->view->problem_message( $problem );
			$errors[ $problem['field'] ] = isset( $errors[ $problem['field'] ] ) ? $errors[ $problem['field'] ] . ' ' . $message : $message;
		}
		$refused_by_service = false;
		if ( array() === $errors && null !== $this->check ) {
			$refusal = ( $this->check )( $prepared['values'] );
			if ( is_array( $refusal ) ) {
				$field                        = $store->fields()[ $refusal['field'] ] ?? null;
				$errors[ $refusal['field'] ] = null === $field ? $refusal['why'] : $this->view->label( $field ) . ': ' . $refusal['why'];
				$refused_by_service           = true;
			}
		}
		if ( array() !== $errors ) {
			$this->refuse( $errors, $submitted, $refused_by_service );
			$stored           = get_option( $this->option(), null );
			$this->last_saved = is_array( $stored ) ? $stored : $store->defaults();
			return $this->last_saved;
		}
		$this->last_saved = $prepared['values'];
		return $prepared['values'];
	}

	/**
	 * A refused save: one message above the form, and for the page that
	 * options.php redirects to, what was typed (never a secret) and each
	 * error, kept two minutes for this user.
	 *
	 * @param array<string, string> $errors    Why, by field id.
	 * @param array<string, mixed>  $submitted What was sent, by field id.
	 */
	private function refuse( array $errors, array $submitted, bool $refused_by_service ): void {
		$store = $this->view->store();
		foreach ( $store->secret_ids() as $id ) {
			if ( isset( $submitted[ $id ] ) && is_string( $submitted[ $id ] ) && '' !== trim( $submitted[ $id ] ) ) {
				$again         = $this->view->not_saved( $store->fields()[ $id ] );
				$errors[ $id ] = isset( $errors[ $id ] ) ? $errors[ $id ] . ' ' . $again : $again;
			}
		}
		$typed = array();
		foreach ( $store->fields() as $id => $field ) {
			if ( empty( $field['secret'] ) && isset( $submitted[ $id ] ) && is_scalar( $submitted[ $id ] ) ) {
				$typed[ $id ] = (string) $submitted[ $id ];
			}
		}
		set_transient( $this->refused_key(), array( 'typed' => $typed, 'errors' => $errors ), 2 * MINUTE_IN_SECONDS );
		add_settings_error(
			$this->option(),
			'c2c-nothing-saved',
			$refused_by_service
				? __( 'Nothing was saved: the service refuses these credentials. The reason is shown next to the field below; what you typed is kept in the form.', 'card2crypto-shared' )
				: __( 'Nothing was saved: correct the fields marked below and save again; what you typed is kept in the form.', 'card2crypto-shared' ),
			'error'
		);
	}

	/** Where a refused save waits for the page it is shown on: per user, so two admins never see each other's typing. */
	private function refused_key(): string {
		return 'c2c_refused_' . substr( md5( $this->option() ), 0, 8 ) . '_' . get_current_user_id();
	}

	/**
	 * The refused save to show again, read (and forgotten) once per page.
	 *
	 * @return array{typed: array<string, string>, errors: array<string, string>}
	 */
	private function refused(): array {
		if ( null === $this->refused ) {
			$kept          = get_transient( $this->refused_key() );
			$this->refused = is_array( $kept ) && is_array( $kept['typed'] ?? null ) && is_array( $kept['errors'] ?? null )
				? array( 'typed' => $kept['typed'], 'errors' => $kept['errors'] )
				: array( 'typed' => array(), 'errors' => array() );
			if ( false !== $kept ) {
				delete_transient( $this->refused_key() );
			}
		}
		return $this->refused;
	}

	public function render_page(): void {
		if ( ! current_user_can( $this->capability ) ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to manage these settings.', 'card2crypto-shared' ), 403 );
		}
		echo '<div class="wrap"><h1>' . esc_html( get_admin_page_title() ) . '</h1>';
		if ( null !== $this->intro ) {
			( $this->intro )();
		}
		echo '<form action="' . esc_url( admin_url( 'options.php' ) ) . '" method="post" novalidate="novalidate">';
		settings_fields( $this->option_group() );
		do_settings_sections( $this->page_slug );
		submit_button();
		echo '</form></div>';
	}
}
