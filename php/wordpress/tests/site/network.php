<?php
/**
 * php/wordpress/tests/site/network.php DOCROOT DOMAIN - turns the single site WordPress of DOCROOT, just
 * installed by install.php, into a subdirectory network on DOMAIN (what `wp core multisite-convert` does:
 * install_network() and populate_network()). The caller then adds the MULTISITE constants to its config and
 * runs `network.php DOCROOT DOMAIN blog PATH TITLE` to create a blog. Runs without the table. Prints JSON.
 */
$docroot = $argv[1];
$domain  = $argv[2];
$_SERVER['HTTP_HOST']   = $domain;
$_SERVER['REQUEST_URI'] = '/';
if ( 'blog' === ( $argv[3] ?? '' ) ) {
	require $docroot . '/wp-config.php';
	$id = wpmu_create_blog( $domain, $argv[4], $argv[5], 1 );
	echo json_encode( array( 'blog_id' => is_wp_error( $id ) ? null : $id, 'error' => is_wp_error( $id ) ? $id->get_error_message() : null ) ), "\n";
	exit;
}
define( 'WP_INSTALLING', true );
require $docroot . '/wp-config.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
update_option( 'siteurl', "http://$domain" );
update_option( 'home', "http://$domain" );
// the network's tables are not named on a single site's $wpdb yet (wp-cli's multisite-convert does the same)
foreach ( $wpdb->tables( 'ms_global' ) as $table => $prefixed ) {
	$wpdb->$table = $prefixed;
}
install_network();
$result = populate_network( 1, $domain, get_option( 'admin_email' ), 'Table test network', '/', false );
echo json_encode( array( 'ok' => true === $result, 'error' => is_wp_error( $result ) ? $result->get_error_message() : null ) ), "\n";
