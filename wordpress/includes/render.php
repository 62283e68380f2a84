<?php
/**
 * One widget's HTML, for a shortcode and a block alike: the relay's rendered fragment (prices in
 * the page's HTML) or, without one, the bare element; either way with the site's address (and, in
 * key mode, its key) and the element's module enqueued.
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

/**
 * ` name="value"` for each attribute (a flag bare).
 *
 * @param array<string, string> $attributes Names to values.
 * @return string
 */
function price_board_attribute_text( $attributes ) {
	$text = '';
	foreach ( $attributes as $name => $value ) {
		$text .= '' === $value ? ' ' . $name : sprintf( ' %s="%s"', $name, esc_attr( $value ) );
	}
	return $text;
}

/**
 * The widget `$tag` with the element attributes `$attributes` (already read: render's callers use
 * {@see price_board_element_attributes}).
 *
 * @param string                $tag        The element.
 * @param array<string, string> $attributes The element's attributes.
 * @return string
 */
function price_board_render( $tag, $attributes ) {
	price_board_enqueue_widget( $tag );
	$source = price_board_source();
	// The element's address: the fragment does not carry it (the relay cannot know where the page loads the script from).
	$site = array();
	if ( '' !== $source['base_url'] ) {
		$site['base-url'] = $source['base_url'];
	}
	if ( '' !== $source['api_key'] ) {
		$site['api-key'] = $source['api_key'];
	}
	$fragment = $source['fragments'] ? price_board_fragment( $source['base_url'], $tag, $attributes ) : '';
	if ( '' === $fragment ) {
		return '<' . $tag . price_board_attribute_text( array_merge( $site, $attributes ) ) . '></' . $tag . '>';
	}
	return price_board_with_site_attributes( $fragment, $tag, $site );
}

/**
 * The fragment with the site's address (and key) in its element's opening tag, in place of the
 * empty `base-url` the relay writes: the relay cannot know where this page loads the script from.
 *
 * @param string                $fragment The relay's fragment (starts with the element).
 * @param string                $tag      The element.
 * @param array<string, string> $site     `base-url` and `api-key`, when set.
 * @return string
 */
function price_board_with_site_attributes( $fragment, $tag, $site ) {
	if ( ! preg_match( '/^<' . preg_quote( $tag, '/' ) . '((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*>/', $fragment, $open ) ) {
		return $fragment;
	}
	$kept = preg_replace( '/\s+(?:base-url|api-key)(?:="[^"]*")?(?=\s|$)/', '', $open[1] );
	return '<' . $tag . price_board_attribute_text( $site ) . $kept . '>' . substr( $fragment, strlen( $open[0] ) );
}
