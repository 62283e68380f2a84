<?php
/**
 * The widgets' built modules, shipped in the plugin (`widgets/`, from the project's dist/): no
 * outside CDN. Each is enqueued only when a page shows its widget, as a module (WordPress 6.1 has
 * no script-module API, so the script tag is made one here).
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

/**
 * The script handle of an element's module.
 *
 * @param string $tag The element.
 * @return string
 */
function price_board_script_handle( $tag ) {
	return 'price-board-' . $tag;
}

/** The handles of the widgets' modules. */
function price_board_script_handles() {
	return array_map( 'price_board_script_handle', array_values( PRICE_BOARD_WIDGETS ) );
}

/** The folder address of the widgets' files. */
function price_board_widgets_url() {
	return plugins_url( 'widgets/', PRICE_BOARD_FILE );
}

add_action(
	'init',
	static function () {
		foreach ( PRICE_BOARD_WIDGETS as $tag ) {
			// In the footer: a shortcode is rendered after the head is printed. No `?ver=`: the ticker's
			// and converter's modules import `./price-board.js`, and another address of the same file
			// would run it twice (the element defined twice).
			wp_register_script( price_board_script_handle( $tag ), price_board_widgets_url() . $tag . '.js', array(), null, true ); // phpcs:ignore WordPress.WP.EnqueuedResourceParameters.MissingVersion
		}
	}
);

/**
 * Enqueues the module of `$tag` (once, whatever the number of widgets on the page).
 *
 * @param string $tag The element.
 */
function price_board_enqueue_widget( $tag ) {
	wp_enqueue_script( price_board_script_handle( $tag ) );
}

/**
 * The widgets' script tags as modules, kept out of "delay JS", defer and combine/minify
 * optimizers: Cloudflare Rocket Loader reads `data-cfasync="false"`, WP Rocket `nowprocket`,
 * LiteSpeed Cache `data-no-optimize` and `data-no-defer` (the plugins' own filters are in
 * optimizers.php).
 */
add_filter(
	'script_loader_tag',
	static function ( $html, $handle ) {
		if ( ! in_array( $handle, price_board_script_handles(), true ) ) {
			return $html;
		}
		$html = preg_replace( '/\stype=(["\'])[^"\']*\1/', '', $html );
		return preg_replace( '/<script(?=[\s>])/', '<script type="module" data-cfasync="false" data-no-optimize="1" data-no-defer="1" data-no-minify="1" nowprocket', $html, 1 );
	},
	10,
	2
);
