<?php
/**
 * The site's settings (one option): where the widgets get their prices and the defaults an author
 * does not have to repeat.
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

const PRICE_BOARD_OPTION = 'price_board_settings';

/**
 * The settings, with their defaults.
 *
 * `mode` is `relay` (the recommended one: the relay holds the key, the page has none) or `key`
 * (the service's address and a key that every visitor's browser sees).
 *
 * @return array{mode:string,relay_url:string,service_url:string,api_key:string,theme:string,unit:string}
 */
function price_board_settings() {
	$saved = get_option( PRICE_BOARD_OPTION, array() );
	return array_merge(
		array(
			'mode'        => 'relay',
			'relay_url'   => '',
			'service_url' => '',
			'api_key'     => '',
			'theme'       => '',
			'unit'        => '',
		),
		is_array( $saved ) ? $saved : array()
	);
}

/**
 * An http(s) address without query, fragment, credentials or trailing slash; '' when it is not one.
 *
 * @param string $url The address as typed.
 * @return string
 */
function price_board_clean_base_url( $url ) {
	$url   = trim( (string) $url );
	$parts = wp_parse_url( $url );
	if ( ! is_array( $parts ) || empty( $parts['host'] ) || ! in_array( $parts['scheme'] ?? '', array( 'http', 'https' ), true ) ) {
		return '';
	}
	if ( isset( $parts['user'] ) || isset( $parts['pass'] ) || isset( $parts['query'] ) || isset( $parts['fragment'] ) ) {
		return '';
	}
	return untrailingslashit( esc_url_raw( $url ) );
}

/**
 * Where the widgets on this site get their prices: the element's `base-url` and, in key mode, its
 * `api-key`. `fragments` says whether first paints come from the relay's fragments (relay mode).
 *
 * @return array{base_url:string,api_key:string,fragments:bool}
 */
function price_board_source() {
	$settings = price_board_settings();
	if ( 'key' === $settings['mode'] ) {
		return array(
			'base_url'  => $settings['service_url'],
			'api_key'   => $settings['api_key'],
			'fragments' => false,
		);
	}
	return array(
		'base_url'  => $settings['relay_url'],
		'api_key'   => '',
		'fragments' => '' !== $settings['relay_url'],
	);
}
