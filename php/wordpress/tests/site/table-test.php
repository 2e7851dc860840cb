<?php
/**
 * Plugin Name: table-test (php/wordpress/tests/run.sh)
 * Description: What run.sh checks a site with. Installed as a must-use plugin of the test sites only.
 *
 * Every response carries X-Table-Pid (the php-fpm worker that served it); an HTML page ends with a comment
 * `<!-- table-test ext=1 queries=N hits=N misses=N -->` (what the page cost). `?table-test=OP&token=T`,
 * T being TABLE_TEST_TOKEN of wp-config.php, answers JSON:
 *   info                 the cache in use: wp_using_ext_object_cache(), the namespace, wp_cache_supports()
 *                        for each feature, Site Health's persistent object cache test, the stats() line,
 *                        the pid of the table's Redis tier helper (null without the tier)
 *   read&id=N[&blog=B]   get_post(N)'s title, and whether wp_cache_get(N, 'posts') found it first (on blog B:
 *                        switch_to_blog(B) first)
 *   update&id=N&title=T  wp_update_post() as user 1
 *   set&key=K&value=V[&group=G]  wp_cache_set(K, V, G); get&key=K[&group=G]: wp_cache_get(K, G);
 *                        flush_group[&group=G]: wp_cache_flush_group(G). G: 'table-test' (default, per
 *                        blog) or 'table-test-global' (a global group, added by this plugin)
 *   flush                wp_cache_flush()
 *   blogs&n=N[&read=1]   for each blog id B of 1..N (blogs that need not exist): wp_cache_switch_to_blog(B),
 *                        then wp_cache_set('many', "blog B", G), or with read=1 count the blogs whose
 *                        wp_cache_get('many', G) finds "blog B"; and how many table namespaces that added
 *   log&line=L           error_log('table-test: L'), so that run.sh knows where PHP's log is written
 *   hold&pid=P           when served by worker P: creates TABLE_TEST_DIR/held, then waits (at most 120 s)
 *                        for TABLE_TEST_DIR/release, keeping worker P busy; any other worker answers at once
 *
 * It also turns the block editor off for posts, as the Classic Editor plugin does, so that
 * wp-admin/post.php?action=edit is the HTML form run.sh submits (the block editor is a JavaScript
 * application; its save is a REST API request, which run.sh makes too), and wp-admin's checks for updates
 * (wp-config.php blocks requests to other hosts: each would only log a warning).
 */

defined( 'ABSPATH' ) || exit;

if ( ! headers_sent() ) {
	header( 'X-Table-Pid: ' . getmypid() );
}
wp_cache_add_global_groups( array( 'table-test-global' ) );
add_filter( 'use_block_editor_for_post', '__return_false' );
remove_action( 'admin_init', '_maybe_update_core' );
remove_action( 'admin_init', '_maybe_update_plugins' );
remove_action( 'admin_init', '_maybe_update_themes' );

add_action(
	'shutdown',
	function () {
		if ( 'cli' === PHP_SAPI || isset( $_GET['table-test'] ) || ( defined( 'REST_REQUEST' ) && REST_REQUEST ) || wp_doing_ajax() ) {
			return;
		}
		global $wp_object_cache;
		printf(
			"\n<!-- table-test ext=%d queries=%d hits=%d misses=%d -->\n",
			wp_using_ext_object_cache() ? 1 : 0,
			get_num_queries(),
			$wp_object_cache->cache_hits,
			$wp_object_cache->cache_misses
		);
	},
	PHP_INT_MAX
);

add_action(
	'init',
	function () {
		if ( ! isset( $_GET['table-test'] ) ) {
			return;
		}
		if ( ! defined( 'TABLE_TEST_TOKEN' ) || ! hash_equals( TABLE_TEST_TOKEN, (string) ( $_GET['token'] ?? '' ) ) ) {
			status_header( 403 );
			exit;
		}
		global $wp_object_cache;
		$out   = array( 'pid' => getmypid(), 'blog' => get_current_blog_id() );
		$group = (string) ( $_GET['group'] ?? 'table-test' );   // table-test: per blog; table-test-global: global
		switch ( $_GET['table-test'] ) {
			case 'info':
				$out['ext']        = wp_using_ext_object_cache();
				$out['persistent'] = method_exists( $wp_object_cache, 'is_persistent' ) && $wp_object_cache->is_persistent();
				$out['namespace']  = method_exists( $wp_object_cache, 'table_namespace' ) ? $wp_object_cache->table_namespace() : null;
				$out['supports']   = array();
				foreach ( array( 'add_multiple', 'set_multiple', 'get_multiple', 'delete_multiple', 'flush_runtime', 'flush_group' ) as $f ) {
					$out['supports'][ $f ] = wp_cache_supports( $f );
				}
				require_once ABSPATH . 'wp-admin/includes/class-wp-site-health.php';
				$health = WP_Site_Health::get_instance();
				$out['health'] = method_exists( $health, 'get_test_persistent_object_cache' )
					? $health->get_test_persistent_object_cache()['status'] : 'n/a';
				$table             = class_exists( 'Shm\Table', false ) ? \Shm\Table::stats() : array();
				$out['helper_pid'] = $table['redis']['helper_pid'] ?? null;   // the Redis tier's helper
				ob_start();
				$wp_object_cache->stats();
				$out['stats'] = ob_get_clean();
				break;
			case 'read':
				$id           = (int) $_GET['id'];
				$blog         = isset( $_GET['blog'] ) ? (int) $_GET['blog'] : 0;
				if ( $blog ) {
					switch_to_blog( $blog );
				}
				wp_cache_get( $id, 'posts', false, $found );
				$post         = get_post( $id );
				$out['found'] = $found;
				$out['title'] = $post ? $post->post_title : null;
				$out['blog']  = get_current_blog_id();
				if ( $blog ) {
					restore_current_blog();
				}
				break;
			case 'update':
				wp_set_current_user( 1 );
				$out['ok'] = wp_update_post( array( 'ID' => (int) $_GET['id'], 'post_title' => (string) $_GET['title'] ) ) === (int) $_GET['id'];
				break;
			case 'set':
				$out['ok'] = wp_cache_set( (string) $_GET['key'], (string) $_GET['value'], $group );
				break;
			case 'get':
				$out['value'] = wp_cache_get( (string) $_GET['key'], $group, false, $found );
				$out['found'] = $found;
				break;
			case 'flush_group':
				$out['ok'] = wp_cache_flush_group( $group );
				break;
			case 'flush':
				$out['ok'] = wp_cache_flush();
				break;
			case 'blogs':
				$n          = min( (int) $_GET['n'], 100000 );
				$read       = ! empty( $_GET['read'] );
				$namespaces = count( \Shm\Table::stats()['namespaces'] ?? array() );
				$out['count'] = 0;
				for ( $b = 1; $b <= $n; $b++ ) {
					wp_cache_switch_to_blog( $b );
					if ( $read ) {
						$out['count'] += ( "blog $b" === wp_cache_get( 'many', $group, false, $found ) && $found ) ? 1 : 0;
					} else {
						$out['count'] += wp_cache_set( 'many', "blog $b", $group ) ? 1 : 0;
					}
				}
				wp_cache_switch_to_blog( get_current_blog_id() );
				$out['namespaces_added'] = count( \Shm\Table::stats()['namespaces'] ?? array() ) - $namespaces;
				break;
			case 'log':
				$out['ok'] = error_log( 'table-test: ' . (string) $_GET['line'] );
				break;
			case 'hold':
				$out['held'] = false;
				if ( (int) $_GET['pid'] === getmypid() ) {
					$out['held'] = true;
					touch( TABLE_TEST_DIR . '/held' );
					for ( $i = 0; $i < 1200 && ! file_exists( TABLE_TEST_DIR . '/release' ); $i++ ) {
						usleep( 100000 );
					}
				}
				break;
			default:
				status_header( 400 );
		}
		header( 'Content-Type: application/json' );
		echo wp_json_encode( $out );
		exit;
	},
	PHP_INT_MAX
);
