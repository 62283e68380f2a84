<?php
/**
 * The first paint from the relay (DESIGN.md §13): `GET {relay}/render/{tag}?{attributes}&script=0`,
 * fetched with a 1 s timeout and kept a few seconds in a transient, so the prices are in the
 * post's HTML and the relay renders once per few seconds for all of the site's visitors.
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

/** Seconds a fragment (or a failure to get one) is kept: the relay's `max-age` plus a little. */
const PRICE_BOARD_FRAGMENT_SECONDS = 5;
/** Seconds a page waits for the relay before it shows the bare element. */
const PRICE_BOARD_FRAGMENT_TIMEOUT = 1;

/**
 * The fragment's address.
 *
 * @param string                $relay      The relay's address.
 * @param string                $tag        The element.
 * @param array<string, string> $attributes The element's attributes.
 * @return string
 */
function price_board_fragment_url( $relay, $tag, $attributes ) {
	// The page loads the element's module itself (from the plugin), so the fragment has no script.
	$query = http_build_query( array_merge( $attributes, array( 'script' => '0' ) ), '', '&', PHP_QUERY_RFC3986 );
	return $relay . '/render/' . $tag . '?' . $query;
}

/**
 * The relay's fragment of `$tag`, or '' when there is none (relay down, slow, or not a relay): the
 * caller then shows the bare element, which fetches as usual in the visitor's browser.
 *
 * @param string                $relay      The relay's address.
 * @param string                $tag        The element.
 * @param array<string, string> $attributes The element's attributes.
 * @return string
 */
function price_board_fragment( $relay, $tag, $attributes ) {
	$url       = price_board_fragment_url( $relay, $tag, $attributes );
	$transient = 'price_board_fragment_' . md5( $url );
	$kept      = get_transient( $transient );
	if ( is_array( $kept ) && isset( $kept['html'] ) ) {
		return (string) $kept['html'];
	}
	// A relay that did not answer a moment ago is not asked again: the page does not wait for it per widget.
	$away = 'price_board_relay_away_' . md5( $relay );
	if ( false !== get_transient( $away ) ) {
		return '';
	}
	$answer = wp_remote_get(
		$url,
		array(
			'timeout'     => PRICE_BOARD_FRAGMENT_TIMEOUT,
			'redirection' => 0,
			'headers'     => array( 'Accept' => 'text/html' ),
		)
	);
	$html = '';
	if ( ! is_wp_error( $answer ) && 200 === wp_remote_retrieve_response_code( $answer ) ) {
		$body = ltrim( wp_remote_retrieve_body( $answer ) );
		// A relay's fragment starts with its element; anything else (a login page, a proxy's error) is not shown.
		if ( 0 === strpos( $body, '<' . $tag . ' ' ) || 0 === strpos( $body, '<' . $tag . '>' ) ) {
			$html = $body;
		}
	}
	if ( '' === $html && defined( 'WP_DEBUG' ) && WP_DEBUG ) {
		// The developer's detail (the visitor sees the element, which then fetches by itself).
		$why = is_wp_error( $answer ) ? $answer->get_error_message() : 'HTTP ' . wp_remote_retrieve_response_code( $answer ) . ', not a fragment';
		error_log( sprintf( 'price-board: no fragment from %s (%s); the page shows the bare element.', $url, $why ) ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log
	}
	if ( is_wp_error( $answer ) ) {
		// No answer at all (refused, or nothing within the timeout): the relay's other widgets do not wait for it either.
		set_transient( $away, 1, PRICE_BOARD_FRAGMENT_SECONDS );
	} else {
		// An answer that is no fragment is kept too: each page view does not ask again for it.
		set_transient( $transient, array( 'html' => $html ), PRICE_BOARD_FRAGMENT_SECONDS );
	}
	return $html;
}
