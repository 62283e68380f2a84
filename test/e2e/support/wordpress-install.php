<?php
/**
 * Installs the test's WordPress (no wp-cli): creates its database, runs wp_install(), installs the
 * plugin from the built zip with WordPress's own unzip, activates it, saves its settings, adds an
 * author with an application password, and writes the posts asked. Prints what it made as JSON.
 *
 * Usage: php wordpress-install.php {site dir} {JSON of { socket, zip, adminPassword, settings, posts }}
 */

$site = $argv[1];
$job  = json_decode( $argv[2], true );

// The database first: WordPress cannot load without it.
$db = new mysqli( null, 'root', '', '', 0, $job['socket'] );
$db->query( 'CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4' );
$db->close();

// No mail from a test site (wp_install() tells the admin): WordPress takes this one over its own.
function wp_mail() {
	return true;
}

define( 'WP_INSTALLING', true );
$_SERVER['HTTP_HOST']   = parse_url( $job['url'], PHP_URL_HOST ) . ':' . parse_url( $job['url'], PHP_URL_PORT );
$_SERVER['REQUEST_URI'] = '/';
require $site . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/file.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';

$installed = wp_install( 'Price board test', 'admin', 'admin@example.com', false, '', $job['adminPassword'], 'fa_IR' );
if ( is_wp_error( $installed ) ) {
	fwrite( STDERR, $installed->get_error_message() . "\n" );
	exit( 1 );
}
wp_set_current_user( 1 );

WP_Filesystem();
$unzipped = unzip_file( $job['zip'], WP_PLUGIN_DIR );
if ( is_wp_error( $unzipped ) ) {
	fwrite( STDERR, 'unzip: ' . $unzipped->get_error_message() . "\n" );
	exit( 1 );
}
$activated = activate_plugin( 'price-board/price-board.php' );
if ( is_wp_error( $activated ) ) {
	fwrite( STDERR, 'activate: ' . $activated->get_error_message() . "\n" );
	exit( 1 );
}
update_option( 'price_board_settings', $job['settings'] );

$author = wp_insert_user(
	array(
		'user_login' => 'author',
		'user_pass'  => $job['adminPassword'],
		'user_email' => 'author@example.com',
		'role'       => 'author',
	)
);
list( $author_password ) = WP_Application_Passwords::create_new_application_password( $author, array( 'name' => 'test' ) );

$posts = array();
foreach ( $job['posts'] as $name => $post ) {
	$posts[ $name ] = wp_insert_post(
		array(
			'post_type'    => $post['type'],
			'post_title'   => $post['title'],
			'post_content' => $post['content'],
			'post_status'  => 'publish',
			'post_author'  => 1,
		),
		true
	);
	if ( is_wp_error( $posts[ $name ] ) ) {
		fwrite( STDERR, "post $name: " . $posts[ $name ]->get_error_message() . "\n" );
		exit( 1 );
	}
}

echo wp_json_encode(
	array(
		'posts'          => $posts,
		'authorPassword' => $author_password,
	)
);
