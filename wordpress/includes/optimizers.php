<?php
/**
 * Keeps the widgets' modules out of the common cache plugins' "delay JS", defer, combine and
 * minify features: a delayed module paints nothing until the visitor moves, and a module combined
 * into a classic script breaks. Each filter is the plugin's own, and does nothing where that
 * plugin is absent. (The script tag's own markers are in assets.php.)
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

/** The path of the widgets' folder (`/wp-content/plugins/price-board/widgets/`), as the optimizers match files. */
function price_board_widgets_path() {
	return (string) wp_parse_url( price_board_widgets_url(), PHP_URL_PATH );
}

/**
 * Adds the widgets' folder to a list of excluded paths (an array, or Autoptimize's comma-separated text).
 *
 * @param array<int, string>|string $excluded The list so far.
 * @return array<int, string>|string
 */
function price_board_exclude_widgets_path( $excluded ) {
	if ( is_string( $excluded ) ) {
		return ( '' === trim( $excluded ) ? '' : $excluded . ', ' ) . price_board_widgets_path();
	}
	$excluded   = is_array( $excluded ) ? $excluded : array();
	$excluded[] = price_board_widgets_path();
	return $excluded;
}

/**
 * Adds the widgets' script handles to a list of excluded handles (SiteGround Optimizer's lists are of handles).
 *
 * @param array<int, string> $excluded The list so far.
 * @return array<int, string>
 */
function price_board_exclude_widget_handles( $excluded ) {
	return array_merge( is_array( $excluded ) ? $excluded : array(), price_board_script_handles() );
}

// WP Rocket: delay JS, defer, minify/combine (paths, read as patterns).
// LiteSpeed Cache: minify/combine, defer/delay, guest mode. Autoptimize: its JS optimisation.
foreach (
	array(
		'rocket_delay_js_exclusions',
		'rocket_exclude_defer_js',
		'rocket_exclude_js',
		'litespeed_optimize_js_excludes',
		'litespeed_optm_js_defer_exc',
		'litespeed_optm_gm_js_exc',
		'autoptimize_filter_js_exclude',
	) as $price_board_filter
) {
	add_filter( $price_board_filter, 'price_board_exclude_widgets_path' );
}
unset( $price_board_filter );

// SiteGround Optimizer: minify, combine, async (by handle).
foreach ( array( 'sgo_js_minify_exclude', 'sgo_javascript_combine_exclude', 'sgo_js_async_exclude' ) as $price_board_filter ) {
	add_filter( $price_board_filter, 'price_board_exclude_widget_handles' );
}
unset( $price_board_filter );

// W3 Total Cache: no minification of the widgets' script tags.
add_filter(
	'w3tc_minify_js_do_tag_minification',
	static function ( $minify, $script_tag ) {
		return false !== strpos( (string) $script_tag, price_board_widgets_path() ) ? false : $minify;
	},
	10,
	2
);
