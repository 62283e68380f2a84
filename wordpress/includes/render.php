<?php
/**
 * One widget's HTML, for a shortcode and a block alike: the relay's rendered fragment (prices in
 * the page's HTML) or, without one, the bare element; either way with the site's address (and, in
 * key mode, its key) and the element's module enqueued. Before the site has an address, nothing
 * (a notice for whoever can set one).
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

/**
 * ` name="value"` for each attribute (a flag bare). Each value is escaped once, `&` included:
 * esc_attr() leaves what looks like an entity as it is, so a value that holds `&amp;` as text
 * would reach the element as `&`.
 *
 * @param array<string, string> $attributes Names to values (decoded text).
 * @return string
 */
function price_board_attribute_text( $attributes ) {
	$text = '';
	foreach ( $attributes as $name => $value ) {
		$text .= '' === $value ? ' ' . $name : sprintf( ' %s="%s"', $name, htmlspecialchars( $value, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8' ) );
	}
	return $text;
}

/**
 * What a visitor gets where a widget is placed before the site has said where its prices come
 * from (no relay or service address): nothing, rather than an element that asks WordPress itself
 * for prices and shows an error. Someone who can set the address sees a short notice that says
 * where.
 *
 * @return string
 */
function price_board_unconfigured() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return '';
	}
	return sprintf(
		'<p class="price-board-unconfigured" dir="rtl" lang="fa">تابلوی قیمت هنوز منبع قیمت ندارد: نشانی رله یا سرویس را در <a href="%s">تنظیمات ← تابلوی قیمت</a> بنویسید. (این پیام را فقط مدیران سایت می‌بینند.)</p>',
		esc_url( admin_url( 'options-general.php?page=price-board' ) )
	);
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
	$source = price_board_source();
	if ( '' === $source['base_url'] ) {
		return price_board_unconfigured();
	}
	price_board_enqueue_widget( $tag );
	// The element's address: the fragment does not carry it (the relay cannot know where the page loads the script from).
	$site = array( 'base-url' => $source['base_url'] );
	if ( '' !== $source['api_key'] ) {
		$site['api-key'] = $source['api_key'];
	}
	$fragment = $source['fragments'] ? price_board_fragment( $source['base_url'], $tag, $attributes ) : array(
		'html'     => '',
		'mistakes' => array(),
	);
	$notice   = price_board_mistakes_notice( $fragment['mistakes'] );
	if ( '' === $fragment['html'] ) {
		return '<' . $tag . price_board_attribute_text( array_merge( $site, $attributes ) ) . '></' . $tag . '>' . $notice;
	}
	return price_board_with_site_attributes( $fragment['html'], $tag, $site ) . $notice;
}

/**
 * The mistakes in a widget's attributes, shown under it to someone who can edit posts (the author
 * who placed it), never to visitors: the element tells only the browser's console.
 *
 * @param string[] $mistakes In Persian ({@see price_board_fragment_mistakes}).
 * @return string
 */
function price_board_mistakes_notice( $mistakes ) {
	if ( ! $mistakes || ! current_user_can( 'edit_posts' ) ) {
		return '';
	}
	$items = implode( '', array_map( fn( $m ) => '<li>' . htmlspecialchars( $m, ENT_QUOTES, 'UTF-8' ) . '</li>', $mistakes ) );
	return '<div class="price-board-mistakes" dir="rtl" lang="fa"><p>تنظیمات این ابزار قیمت اشتباه دارد (این پیام را فقط نویسندگان سایت می‌بینند):</p><ul>' . $items . '</ul></div>';
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
