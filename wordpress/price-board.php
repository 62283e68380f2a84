<?php
/**
 * Plugin Name:       Price Board
 * Description:       قیمت‌های زندهٔ بازار ایران (ارز، طلا، سکه) در نوشته‌ها و برگه‌ها: تابلوی قیمت، نوار قیمت و مبدل، با قیمت‌ها در HTML خود برگه.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            price-board
 * License:           MIT
 * License URI:       https://opensource.org/licenses/MIT
 * Text Domain:       price-board
 *
 * @package PriceBoard
 */

defined( 'ABSPATH' ) || exit;

define( 'PRICE_BOARD_VERSION', '0.1.0' );
define( 'PRICE_BOARD_DIR', __DIR__ );
define( 'PRICE_BOARD_FILE', __FILE__ );

require_once __DIR__ . '/includes/options.php';
require_once __DIR__ . '/includes/attributes.php';
require_once __DIR__ . '/includes/fragment.php';
require_once __DIR__ . '/includes/assets.php';
require_once __DIR__ . '/includes/optimizers.php';
require_once __DIR__ . '/includes/render.php';
require_once __DIR__ . '/includes/shortcodes.php';
require_once __DIR__ . '/includes/blocks.php';
require_once __DIR__ . '/includes/settings-page.php';
require_once __DIR__ . '/includes/test-connection.php';
