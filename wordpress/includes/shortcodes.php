<?php
/**
 * `[price_board ...]`, `[price_ticker ...]`, `[price_converter ...]`: the elements' attribute
 * names as the shortcode's (`[price_board symbols="usd,eur" chart="none"]`).
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

add_action(
	'init',
	static function () {
		foreach ( PRICE_BOARD_WIDGETS as $shortcode => $tag ) {
			add_shortcode(
				$shortcode,
				static function ( $given ) use ( $tag ) {
					return price_board_render( $tag, price_board_element_attributes( $tag, $given ) );
				}
			);
		}
	}
);
