<?php
/**
 * php/wordpress/tests/site/install.php DOCROOT TITLE - installs WordPress into DOCROOT's database from the
 * CLI (as `wp core install` does: WP_INSTALLING, then wp_install()), and creates an application password
 * for the REST API. Runs without the table extension: the drop-in is loaded and must fall back.
 * Prints JSON: user id, the application password, and what wp_using_ext_object_cache() said.
 */
define( 'WP_INSTALLING', true );
$docroot = $argv[1];
require $docroot . '/wp-config.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

$result = wp_install( $argv[2], 'admin', 'admin@example.invalid', false, '', wp_generate_password( 24 ) );
$app    = WP_Application_Passwords::create_new_application_password( $result['user_id'], array( 'name' => 'table-test' ) );
echo json_encode(
	array(
		'user_id'    => $result['user_id'],
		'app'        => is_wp_error( $app ) ? null : $app[0],
		'app_error'  => is_wp_error( $app ) ? $app->get_error_message() : null,
		'ext'        => wp_using_ext_object_cache(),
		'dropin'     => class_exists( 'WP_Object_Cache' ) && method_exists( 'WP_Object_Cache', 'is_persistent' ),
		'persistent' => $GLOBALS['wp_object_cache']->is_persistent(),
	)
), "\n";
