<?php
/**
 * Plugin Name: wpbench (benchmarks/wordpress/run.sh)
 * Description: What the WordPress benchmark reads a page's cost from. A must-use plugin of the benchmark's sites only.
 *
 * An HTML page ends with `<!-- wpbench ext=E queries=Q hits=H misses=M php_ns=P cache_ns=C calls=K floor_ns=F -->`:
 * wp_using_ext_object_cache(), $wpdb->num_queries, the object cache's hits and misses, the nanoseconds
 * from the top of the site's index.php (WPBENCH_T0) to the end of the last shutdown action, and, on the
 * profiling sites only (whose object-cache.php is the timing wrapper that site/profile.php generates), the
 * nanoseconds spent inside wp_cache_*(), the number of those calls, and the timer's own cost per call
 * (WPBench_Clock::floor_ns(), measured after the page's time is taken); -1 elsewhere.
 * `?wpbench=info` answers JSON: the cache in use, its namespace and info() (entries, tiered or not), whether
 * opcache is on, and the table's Redis tier state (stats()['redis']: the helper's pid among it).
 */

defined( 'ABSPATH' ) || exit;

add_action(
	'shutdown',
	function () {
		if ( 'cli' === PHP_SAPI || isset( $_GET['wpbench'] ) || ( defined( 'REST_REQUEST' ) && REST_REQUEST ) || wp_doing_ajax() ) {
			return;
		}
		global $wp_object_cache;
		$php_ns   = defined( 'WPBENCH_T0' ) ? hrtime( true ) - WPBENCH_T0 : -1;
		$profiled = class_exists( 'WPBench_Clock', false );
		printf(
			"\n<!-- wpbench ext=%d queries=%d hits=%d misses=%d php_ns=%d cache_ns=%d calls=%d floor_ns=%d -->\n",
			wp_using_ext_object_cache() ? 1 : 0,
			get_num_queries(),
			(int) $wp_object_cache->cache_hits,
			(int) $wp_object_cache->cache_misses,
			$php_ns,
			$profiled ? WPBench_Clock::$ns : -1,
			$profiled ? WPBench_Clock::$calls : -1,
			$profiled ? WPBench_Clock::floor_ns() : -1   // after php_ns: not part of the page
		);
	},
	PHP_INT_MAX
);

add_action(
	'init',
	function () {
		if ( ! isset( $_GET['wpbench'] ) || 'info' !== $_GET['wpbench'] ) {
			return;
		}
		global $wp_object_cache;
		$stats = class_exists( 'Shm\Table', false ) ? \Shm\Table::stats() : array();
		header( 'Content-Type: application/json' );
		echo wp_json_encode(
			array(
				'pid'        => getmypid(),
				'ext'        => wp_using_ext_object_cache(),
				'persistent' => method_exists( $wp_object_cache, 'is_persistent' ) && $wp_object_cache->is_persistent(),
				'namespace'  => method_exists( $wp_object_cache, 'table_namespace' ) ? $wp_object_cache->table_namespace() : null,
				'info'       => method_exists( $wp_object_cache, 'info' ) ? $wp_object_cache->info() : null,
				'profiled'   => class_exists( 'WPBench_Clock', false ),
				'opcache'    => function_exists( 'opcache_get_status' ) && is_array( opcache_get_status( false ) ) && opcache_get_status( false )['opcache_enabled'],
				'redis'      => $stats['redis'] ?? null,
			)
		);
		exit;
	},
	PHP_INT_MAX
);
