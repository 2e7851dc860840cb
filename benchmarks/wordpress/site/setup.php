<?php
/**
 * benchmarks/wordpress/site/setup.php DOCROOT POSTS - installs WordPress into DOCROOT's database from the CLI
 * (as `wp core install` does: WP_INSTALLING, then wp_install()), turns on pretty permalinks, and seeds
 * content that makes pages do real work: 8 categories, 30 tags, POSTS posts (block-markup paragraphs, 2
 * categories and 4 tags each, dates a day apart) and 6 approved comments on each (every third one a reply).
 * Deterministic (mt_srand). Run with a DOCROOT that has no object-cache.php: WordPress's own cache.
 * Prints JSON: the single post's path (a seeded post with comments, in the middle of the list) and its title,
 * the number of posts, comments and terms made.
 */
define( 'WP_INSTALLING', true );
$docroot = $argv[1];
$posts   = max( 1, (int) ( $argv[2] ?? 50 ) );
require $docroot . '/wp-config.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

mt_srand( 35 );
$words = explode(
	' ',
	'table shared memory worker process request cache option post term comment query database page '
	. 'theme block paragraph lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor '
	. 'incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco '
	. 'laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse '
	. 'cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia'
);
$sentence = function ( $min, $max ) use ( $words ) {
	$n   = mt_rand( $min, $max );
	$out = array();
	for ( $i = 0; $i < $n; $i++ ) {
		$out[] = $words[ mt_rand( 0, count( $words ) - 1 ) ];
	}
	return ucfirst( implode( ' ', $out ) ) . '.';
};

$result = wp_install( 'Table benchmark', 'admin', 'admin@example.invalid', true, '', wp_generate_password( 24 ) );
update_option( 'permalink_structure', '/%postname%/' );
$GLOBALS['wp_rewrite']->init();
flush_rewrite_rules( false );

wp_defer_term_counting( true );
wp_defer_comment_counting( true );
$cats = array();
for ( $i = 1; $i <= 8; $i++ ) {
	$t      = wp_insert_term( "Category $i", 'category', array( 'description' => $sentence( 8, 16 ) ) );
	$cats[] = $t['term_id'];
}
$tags = array();
for ( $i = 1; $i <= 30; $i++ ) {
	$tags[] = "tag-$i";
}
$ids   = array();
$start = time() - $posts * 86400;
for ( $p = 1; $p <= $posts; $p++ ) {
	$content = '';
	for ( $k = 0, $n = mt_rand( 5, 9 ); $k < $n; $k++ ) {
		$para = '';
		for ( $s = 0, $m = mt_rand( 3, 6 ); $s < $m; $s++ ) {
			$para .= $sentence( 8, 18 ) . ' ';
		}
		$content .= "<!-- wp:paragraph -->\n<p>" . trim( $para ) . "</p>\n<!-- /wp:paragraph -->\n\n";
	}
	$pick_cats = array( $cats[ mt_rand( 0, 7 ) ], $cats[ mt_rand( 0, 7 ) ] );
	$pick_tags = array();
	for ( $k = 0; $k < 4; $k++ ) {
		$pick_tags[] = $tags[ mt_rand( 0, 29 ) ];
	}
	$id = wp_insert_post(
		array(
			'post_title'    => "Benchmark post $p: " . rtrim( $sentence( 3, 6 ), '.' ),
			'post_content'  => $content,
			'post_excerpt'  => '',
			'post_status'   => 'publish',
			'post_author'   => $result['user_id'],
			'post_date'     => gmdate( 'Y-m-d H:i:s', $start + $p * 86400 ),
			'post_category' => array_unique( $pick_cats ),
			'tags_input'    => array_unique( $pick_tags ),
		),
		true
	);
	if ( is_wp_error( $id ) ) {
		fwrite( STDERR, $id->get_error_message() . "\n" );
		exit( 1 );
	}
	$ids[]   = $id;
	$parents = array();
	for ( $c = 1; $c <= 6; $c++ ) {
		$parent    = ( 0 === $c % 3 && $parents ) ? $parents[ count( $parents ) - 1 ] : 0;
		$parents[] = wp_insert_comment(
			array(
				'comment_post_ID'      => $id,
				'comment_author'       => "Reader $c",
				'comment_author_email' => "reader$c@example.invalid",
				'comment_content'      => $sentence( 10, 30 ) . ' ' . $sentence( 6, 20 ),
				'comment_approved'     => 1,
				'comment_parent'       => $parent,
				'comment_date'         => gmdate( 'Y-m-d H:i:s', $start + $p * 86400 + $c * 600 ),
			)
		);
	}
}
wp_defer_term_counting( false );
wp_defer_comment_counting( false );
foreach ( $ids as $id ) {
	wp_update_comment_count_now( $id );
}

$single = get_post( $ids[ intdiv( count( $ids ), 2 ) ] );
echo json_encode(
	array(
		'posts'    => count( $ids ),
		'comments' => (int) get_comments( array( 'count' => true ) ),
		'terms'    => (int) wp_count_terms( array( 'taxonomy' => array( 'category', 'post_tag' ), 'hide_empty' => false ) ),
		'single'   => '/' . $single->post_name . '/',
		'title'    => $single->post_title,
		'comments_on_single' => (int) get_comments_number( $single ),
	)
), "\n";
