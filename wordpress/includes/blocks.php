<?php
/**
 * A dynamic block per widget (`blocks/{tag}/block.json`), rendered on the server by the same code
 * as the shortcode. The blocks' attributes are the elements' (attributes.json), given here rather
 * than in block.json so there is one list.
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

/**
 * The block attributes of `$tag`: text for every attribute, a boolean for a flag. No defaults:
 * an attribute left empty is the site's default or the element's.
 *
 * @param string $tag The element.
 * @return array<string, array<string, mixed>>
 */
function price_board_block_attributes( $tag ) {
	$attributes = array();
	foreach ( price_board_author_attributes( $tag ) as $spec ) {
		$attributes[ $spec['attribute'] ] = 'flag' === $spec['kind']
			? array(
				'type'    => 'boolean',
				'default' => false,
			)
			: array( 'type' => 'string' );
	}
	return $attributes;
}

add_action(
	'init',
	static function () {
		wp_register_script(
			'price-board-blocks-editor',
			plugins_url( 'blocks/editor.js', PRICE_BOARD_FILE ),
			array( 'wp-blocks', 'wp-element', 'wp-block-editor', 'wp-components' ),
			PRICE_BOARD_VERSION,
			false
		);
		foreach ( PRICE_BOARD_WIDGETS as $tag ) {
			register_block_type_from_metadata(
				PRICE_BOARD_DIR . '/blocks/' . $tag,
				array(
					'attributes'      => price_board_block_attributes( $tag ),
					'render_callback' => static function ( $attributes ) use ( $tag ) {
						return price_board_render( $tag, price_board_element_attributes( $tag, $attributes ) );
					},
				)
			);
		}
	}
);

/**
 * The editor's side: each block's sidebar controls (from the attribute table) and a live preview
 * by the element itself, so its module is loaded in the editor too. The preview gets what the
 * server gives a published widget: the site's address and key, and its defaults for theme and
 * unit (an attribute the block leaves empty). With no address set, the editor says so in place
 * of the preview, as the published post shows nothing.
 */
add_action(
	'enqueue_block_editor_assets',
	static function () {
		$source  = price_board_source();
		$widgets = array();
		foreach ( PRICE_BOARD_WIDGETS as $tag ) {
			$widgets[ $tag ] = price_board_author_attributes( $tag );
			if ( '' !== $source['base_url'] ) {
				price_board_enqueue_widget( $tag );
			}
		}
		$config = array(
			'widgets'  => $widgets,
			'site'     => (object) array_filter(
				array(
					'base-url' => $source['base_url'],
					'api-key'  => $source['api_key'],
				)
			),
			'defaults' => (object) price_board_site_defaults(),
		);
		wp_add_inline_script( 'price-board-blocks-editor', 'window.priceBoardBlocks = ' . wp_json_encode( $config ) . ';', 'before' );
	}
);
