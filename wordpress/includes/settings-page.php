<?php
/**
 * Settings → تابلوی قیمت: where the prices come from (a relay, recommended; or the service with a
 * public key), the defaults for theme and unit, and a button that tests the address.
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

/**
 * The values a choice attribute of the board takes (theme, unit), from the attribute table.
 *
 * @param string $name The attribute.
 * @return array<int, string>
 */
function price_board_choice_values( $name ) {
	foreach ( price_board_attribute_table()['price-board'] ?? array() as $spec ) {
		if ( $spec['attribute'] === $name ) {
			return array_map( 'strval', $spec['values'] ?? array() );
		}
	}
	return array();
}

/**
 * The saved settings, each checked: an address that is not one is dropped (with a notice).
 *
 * @param mixed $input What the form sent.
 * @return array<string, string>
 */
function price_board_sanitize_settings( $input ) {
	$input = is_array( $input ) ? $input : array();
	$clean = array(
		'mode'        => ( $input['mode'] ?? '' ) === 'key' ? 'key' : 'relay',
		'relay_url'   => price_board_clean_base_url( $input['relay_url'] ?? '' ),
		'service_url' => price_board_clean_base_url( $input['service_url'] ?? '' ),
		'api_key'     => sanitize_text_field( $input['api_key'] ?? '' ),
		'theme'       => '',
		'unit'        => '',
	);
	foreach ( array( 'theme', 'unit' ) as $name ) {
		$value = (string) ( $input[ $name ] ?? '' );
		if ( in_array( $value, price_board_choice_values( $name ), true ) ) {
			$clean[ $name ] = $value;
		}
	}
	foreach ( array( 'relay_url', 'service_url' ) as $name ) {
		if ( '' !== trim( (string) ( $input[ $name ] ?? '' ) ) && '' === $clean[ $name ] ) {
			add_settings_error( PRICE_BOARD_OPTION, $name, 'نشانی واردشده پذیرفته نشد: نشانی کامل با http:// یا https:// و بدون ? و # بنویسید.' );
		}
	}
	return $clean;
}

add_action(
	'admin_init',
	static function () {
		register_setting(
			'price_board',
			PRICE_BOARD_OPTION,
			array(
				'type'              => 'array',
				'sanitize_callback' => 'price_board_sanitize_settings',
			)
		);
	}
);

add_action(
	'admin_menu',
	static function () {
		$page = add_options_page( 'تابلوی قیمت', 'تابلوی قیمت', 'manage_options', 'price-board', 'price_board_settings_page' );
		add_action(
			'admin_print_scripts-' . $page,
			static function () {
				wp_enqueue_script( 'price-board-settings', plugins_url( 'admin/settings.js', PRICE_BOARD_FILE ), array(), PRICE_BOARD_VERSION, true );
			}
		);
	}
);

/**
 * A `<select>` of a choice attribute's values, with "the element's default" first.
 *
 * @param string $name  The attribute (theme or unit).
 * @param string $value The saved value.
 */
function price_board_choice_field( $name, $value ) {
	printf( '<select id="price-board-%1$s" name="%2$s[%1$s]">', esc_attr( $name ), esc_attr( PRICE_BOARD_OPTION ) );
	printf( '<option value="">%s</option>', esc_html( 'پیش‌فرض ابزارک' ) );
	foreach ( price_board_choice_values( $name ) as $choice ) {
		printf( '<option value="%1$s"%2$s>%1$s</option>', esc_attr( $choice ), selected( $value, $choice, false ) );
	}
	echo '</select>';
}

/** The page. */
function price_board_settings_page() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	$settings = price_board_settings();
	$option   = PRICE_BOARD_OPTION;
	?>
	<div class="wrap" dir="rtl" lang="fa">
		<h1>تابلوی قیمت</h1>
		<form method="post" action="options.php" id="price-board-settings">
			<?php settings_fields( 'price_board' ); ?>
			<h2>منبع قیمت‌ها</h2>
			<p><label><input type="radio" name="<?php echo esc_attr( $option ); ?>[mode]" value="relay" <?php checked( $settings['mode'], 'relay' ); ?>>
				رله (پیشنهادی): کلید روی رله می‌ماند و در برگه‌ها هیچ کلیدی نیست؛ قیمت‌ها در HTML برگه می‌آیند.</label></p>
			<table class="form-table" role="presentation">
				<tr>
					<th scope="row"><label for="price-board-relay_url">نشانی رله</label></th>
					<td><input type="url" class="regular-text code" dir="ltr" id="price-board-relay_url" name="<?php echo esc_attr( $option ); ?>[relay_url]" value="<?php echo esc_attr( $settings['relay_url'] ); ?>" placeholder="https://prices.example.com"></td>
				</tr>
			</table>
			<p><label><input type="radio" name="<?php echo esc_attr( $option ); ?>[mode]" value="key" <?php checked( $settings['mode'], 'key' ); ?>>
				سرویس قیمت با کلید</label></p>
			<div class="notice notice-warning inline"><p>
				هشدار: در این حالت کلید در HTML هر برگه دیده می‌شود و عمومی است. آن را در پنل سرویس فقط به دامنهٔ همین سایت محدود کنید. قیمت‌ها با اسکریپت در مرورگر بار می‌شوند، نه در HTML برگه.
			</p></div>
			<table class="form-table" role="presentation">
				<tr>
					<th scope="row"><label for="price-board-service_url">نشانی سرویس</label></th>
					<td><input type="url" class="regular-text code" dir="ltr" id="price-board-service_url" name="<?php echo esc_attr( $option ); ?>[service_url]" value="<?php echo esc_attr( $settings['service_url'] ); ?>"></td>
				</tr>
				<tr>
					<th scope="row"><label for="price-board-api_key">کلید (عمومی)</label></th>
					<td><input type="text" class="regular-text code" dir="ltr" autocomplete="off" id="price-board-api_key" name="<?php echo esc_attr( $option ); ?>[api_key]" value="<?php echo esc_attr( $settings['api_key'] ); ?>"></td>
				</tr>
			</table>
			<p>
				<button type="button" class="button" id="price-board-test" data-nonce="<?php echo esc_attr( wp_create_nonce( 'price_board_test_connection' ) ); ?>">آزمایش اتصال</button>
				<span id="price-board-test-result" role="status" aria-live="polite"></span>
			</p>
			<h2>پیش‌فرض‌ها</h2>
			<table class="form-table" role="presentation">
				<tr>
					<th scope="row"><label for="price-board-theme">پوسته</label></th>
					<td><?php price_board_choice_field( 'theme', $settings['theme'] ); ?></td>
				</tr>
				<tr>
					<th scope="row"><label for="price-board-unit">واحد</label></th>
					<td><?php price_board_choice_field( 'unit', $settings['unit'] ); ?></td>
				</tr>
			</table>
			<?php submit_button( 'ذخیرهٔ تنظیمات' ); ?>
		</form>
	</div>
	<?php
}
