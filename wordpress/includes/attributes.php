<?php
/**
 * The elements' attributes, as the widgets declare them: `attributes.json` is written at build time
 * from the project's attribute table (src/shared/attribute-table.ts), never kept by hand.
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

/** The widgets, by shortcode name. */
const PRICE_BOARD_WIDGETS = array(
	'price_board'     => 'price-board',
	'price_ticker'    => 'price-ticker',
	'price_converter' => 'price-converter',
);

/**
 * Kinds the site sets for every widget (settings page), never an author: the key, the service's
 * address and the stream's address.
 */
const PRICE_BOARD_SITE_KINDS = array( 'key', 'base-url', 'url' );

/**
 * The attribute table of each element, read once.
 *
 * @return array<string, array<int, array<string, mixed>>> By tag: `{ attribute, kind, values?, default? }` in order.
 */
function price_board_attribute_table() {
	static $table = null;
	if ( null === $table ) {
		$json  = file_get_contents( PRICE_BOARD_DIR . '/attributes.json' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a file of the plugin.
		$table = json_decode( (string) $json, true );
		if ( ! is_array( $table ) ) {
			$table = array();
		}
	}
	return $table;
}

/**
 * The attributes an author may give `$tag` (a shortcode's or block's), in the table's order.
 *
 * @param string $tag The element.
 * @return array<int, array<string, mixed>>
 */
function price_board_author_attributes( $tag ) {
	$specs = price_board_attribute_table()[ $tag ] ?? array();
	return array_values(
		array_filter(
			$specs,
			static function ( $spec ) {
				return ! in_array( $spec['kind'], PRICE_BOARD_SITE_KINDS, true );
			}
		)
	);
}

/**
 * Whether a flag's value means "on": present, and not a word for off.
 *
 * @param mixed $value The shortcode's text or the block's boolean.
 * @return bool
 */
function price_board_flag_on( $value ) {
	if ( is_bool( $value ) ) {
		return $value;
	}
	return ! in_array( strtolower( trim( (string) $value ) ), array( '0', 'false', 'no', 'off' ), true );
}

/**
 * The site's defaults (settings page) for what a widget leaves empty: theme and unit, those set.
 * The server's rendering and the editor's preview both take them from here.
 *
 * @return array<string, string>
 */
function price_board_site_defaults() {
	$settings = price_board_settings();
	return array_filter(
		array(
			'theme' => (string) $settings['theme'],
			'unit'  => (string) $settings['unit'],
		)
	);
}

/**
 * A value as the author wrote it. WordPress keeps a post as HTML, so what an author types as `&`
 * is stored as `&amp;` by the block editor's Paragraph, the classic editor and kses (an author
 * without `unfiltered_html`, for a shortcode's text and a block's attributes alike): the value is
 * decoded here, once, and escaped once where it is written out ({@see price_board_attribute_text},
 * and the relay's own escaping for a fragment).
 *
 * @param mixed $value A shortcode's or block's value.
 * @return string
 */
function price_board_author_value( $value ) {
	return trim( html_entity_decode( (string) $value, ENT_QUOTES | ENT_HTML5, 'UTF-8' ) );
}

/**
 * The element's attributes from what an author gave (shortcode attributes or block attributes),
 * with the site's defaults for theme and unit: `[ name => value ]`, a flag's value ''. Values are
 * text (decoded: {@see price_board_author_value}), validated by the element itself (and by the
 * relay for a fragment); unknown names dropped.
 *
 * @param string              $tag   The element.
 * @param array<mixed, mixed> $given Names to values; a shortcode's bare word (`reverse`) is a value under a number.
 * @return array<string, string>
 */
function price_board_element_attributes( $tag, $given ) {
	$defaults = price_board_site_defaults();
	$given    = is_array( $given ) ? $given : array();
	foreach ( $given as $name => $value ) {
		// `[price_converter reverse]`: WordPress hands a bare word over as a positional value.
		if ( is_int( $name ) && is_string( $value ) ) {
			$given[ strtolower( $value ) ] = '';
		}
	}
	$attributes = array();
	foreach ( price_board_author_attributes( $tag ) as $spec ) {
		$name = $spec['attribute'];
		if ( 'flag' === $spec['kind'] ) {
			$given_value = $given[ $name ] ?? null;
			if ( null !== $given_value && price_board_flag_on( is_bool( $given_value ) ? $given_value : price_board_author_value( $given_value ) ) ) {
				$attributes[ $name ] = '';
			}
			continue;
		}
		$value = isset( $given[ $name ] ) && ! is_array( $given[ $name ] ) ? price_board_author_value( $given[ $name ] ) : '';
		if ( '' === $value && isset( $defaults[ $name ] ) ) {
			$value = $defaults[ $name ];
		}
		if ( '' !== $value ) {
			$attributes[ $name ] = $value;
		}
	}
	return $attributes;
}
