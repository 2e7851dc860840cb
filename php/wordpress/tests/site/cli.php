<?php
/**
 * php/wordpress/tests/site/cli.php DOCROOT QUERY - one of the test plugin's operations (site/table-test.php,
 * `?table-test=OP&token=T&...` given as QUERY) run in a CLI process of the site in DOCROOT, as WP-CLI runs
 * WordPress: wp-config.php loaded, no web server. run.sh runs it on the php-fpm masters' named segment, to
 * check that a CLI process and php-fpm share one table through it. Prints the operation's JSON.
 */
parse_str( $argv[2], $_GET );
$_SERVER['HTTP_HOST']   = '127.0.0.1';
$_SERVER['REQUEST_URI'] = '/';
require $argv[1] . '/wp-config.php';
