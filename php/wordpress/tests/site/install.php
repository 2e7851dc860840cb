<?php
/**
 * php/wordpress/tests/site/install.php DOCROOT TITLE - installs WordPress into DOCROOT's database from the
 * CLI (as `wp core install` does: WP_INSTALLING, then wp_install()), user `admin` with a random password.
 * Runs without the table extension: the drop-in is loaded and must fall back.
 * Prints JSON: user id, the admin's password (run.sh logs in with it), and what
 * wp_using_ext_object_cache() said.
 */
define( 'WP_INSTALLING', true );
$docroot = $argv[1];
require $docroot . '/wp-config.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

$password = wp_generate_password( 24 );
$result   = wp_install( $argv[2], 'admin', 'admin@example.invalid', false, '', $password );
echo json_encode(
	array(
		'user_id'    => $result['user_id'],
		'password'   => $password,
		'ext'        => wp_using_ext_object_cache(),
		'dropin'     => class_exists( 'WP_Object_Cache' ) && method_exists( 'WP_Object_Cache', 'is_persistent' ),
		'persistent' => $GLOBALS['wp_object_cache']->is_persistent(),
	)
), "\n";
