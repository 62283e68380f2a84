<?php
/**
 * The settings page's "test connection": tries the address typed in the form and says in Persian
 * what answered: a relay with its price count, a bad address, something that is not a relay (or
 * a service that refuses the key), or nothing in time.
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

/** Seconds the test waits for an answer. */
const PRICE_BOARD_TEST_TIMEOUT = 5;

/**
 * A number in Persian digits.
 *
 * @param int $number The number.
 * @return string
 */
function price_board_persian_digits( $number ) {
	return strtr( (string) $number, array_combine( str_split( '0123456789' ), array( '۰', '۱', '۲', '۳', '۴', '۵', '۶', '۷', '۸', '۹' ) ) );
}

/**
 * GET `$url` for the test: the answer, or the Persian words for why there is none.
 *
 * @param string               $url     The address.
 * @param array<string,string> $headers Request headers.
 * @return array|string The answer (wp_remote_get's), or the message.
 */
function price_board_test_get( $url, $headers = array() ) {
	$answer = wp_remote_get(
		$url,
		array(
			'timeout'     => PRICE_BOARD_TEST_TIMEOUT,
			'redirection' => 0,
			'headers'     => $headers,
		)
	);
	if ( ! is_wp_error( $answer ) ) {
		return $answer;
	}
	if ( false !== stripos( $answer->get_error_message(), 'timed out' ) ) {
		return sprintf( 'این نشانی در %s ثانیه پاسخی نداد (زمان انتظار گذشت).', price_board_persian_digits( PRICE_BOARD_TEST_TIMEOUT ) );
	}
	return 'نشانی نادرست است: به آن وصل نشد (سرور پیدا نشد یا اتصال را نپذیرفت).';
}

/**
 * The JSON body of an answer when it is JSON, else null.
 *
 * @param array $answer A wp_remote_get answer.
 * @return array|null
 */
function price_board_json_body( $answer ) {
	$json = json_decode( wp_remote_retrieve_body( $answer ), true );
	return is_array( $json ) ? $json : null;
}

/**
 * The test of a relay: `/healthz` says it is one, `/v1/symbols` and `/v1/prices` how many prices it gives.
 *
 * @param string $relay The relay's address (clean).
 * @return array{ok:bool,message:string}
 */
function price_board_test_relay( $relay ) {
	$health = price_board_test_get( $relay . '/healthz' );
	if ( is_string( $health ) ) {
		return array(
			'ok'      => false,
			'message' => $health,
		);
	}
	$status = price_board_json_body( $health );
	if ( ! $status || ! isset( $status['status'], $status['upstream'] ) ) {
		return array(
			'ok'      => false,
			'message' => 'این نشانی پاسخ داد، اما رلهٔ تابلوی قیمت نیست.',
		);
	}
	$symbols = price_board_test_get( $relay . '/v1/symbols' );
	$list    = is_string( $symbols ) ? null : ( price_board_json_body( $symbols )['data']['symbols'] ?? null );
	$ids     = is_array( $list ) ? array_filter( array_column( $list, 'symbol' ), 'is_string' ) : array();
	$prices  = array() === $ids ? '' : price_board_test_get( $relay . '/v1/prices?symbols=' . rawurlencode( implode( ',', $ids ) ) );
	$quotes  = is_array( $prices ) ? ( price_board_json_body( $prices )['data']['quotes'] ?? null ) : null;
	if ( 'ok' !== $status['status'] || ! is_array( $quotes ) || array() === $quotes ) {
		return array(
			'ok'      => false,
			'message' => 'رله پاسخ داد، اما اکنون قیمت تازه‌ای ندارد (سرویس قیمت پشت آن در دسترس نیست).',
		);
	}
	return array(
		'ok'      => true,
		'message' => sprintf( 'رله پاسخ داد: %s قیمت.', price_board_persian_digits( count( $quotes ) ) ),
	);
}

/**
 * The test of the service with a key: `/v1/symbols` with the key in its header.
 *
 * @param string $service The service's address (clean).
 * @param string $key     The key.
 * @return array{ok:bool,message:string}
 */
function price_board_test_service( $service, $key ) {
	$answer = price_board_test_get( $service . '/v1/symbols', array( 'X-API-Key' => $key ) );
	if ( is_string( $answer ) ) {
		return array(
			'ok'      => false,
			'message' => $answer,
		);
	}
	$code = wp_remote_retrieve_response_code( $answer );
	if ( 401 === $code || 403 === $code ) {
		return array(
			'ok'      => false,
			'message' => 'سرویس پاسخ داد، اما این کلید را نپذیرفت.',
		);
	}
	$list = price_board_json_body( $answer )['data']['symbols'] ?? null;
	if ( 200 !== $code || ! is_array( $list ) ) {
		return array(
			'ok'      => false,
			'message' => 'این نشانی پاسخ داد، اما سرویس قیمت نیست.',
		);
	}
	return array(
		'ok'      => true,
		'message' => sprintf( 'سرویس پاسخ داد: %s نماد.', price_board_persian_digits( count( $list ) ) ),
	);
}

add_action(
	'wp_ajax_price_board_test_connection',
	static function () {
		check_ajax_referer( 'price_board_test_connection' );
		if ( ! current_user_can( 'manage_options' ) ) {
			wp_send_json_error( array( 'message' => 'اجازهٔ این کار را ندارید.' ), 403 );
		}
		// phpcs:disable WordPress.Security.NonceVerification.Missing -- checked above.
		$key_mode = 'key' === ( $_POST['mode'] ?? '' );
		$typed    = wp_unslash( $_POST[ $key_mode ? 'service_url' : 'relay_url' ] ?? '' );
		$key      = sanitize_text_field( wp_unslash( $_POST['api_key'] ?? '' ) );
		// phpcs:enable
		$address = price_board_clean_base_url( $typed );
		if ( '' === $address ) {
			wp_send_json_error( array( 'message' => 'نشانی نادرست است: نشانی کامل با http:// یا https:// و بدون ? و # بنویسید.' ) );
		}
		$result = $key_mode ? price_board_test_service( $address, $key ) : price_board_test_relay( $address );
		if ( $result['ok'] ) {
			wp_send_json_success( array( 'message' => $result['message'] ) );
		}
		wp_send_json_error( array( 'message' => $result['message'] ) );
	}
);
