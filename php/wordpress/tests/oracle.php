<?php
/**
 * php/wordpress/tests/oracle.php - the drop-in against WordPress's own WP_Object_Cache, operation by operation.
 *
 *   php -n -d extension=/path/to/table.so php/wordpress/tests/oracle.php [--seed=N] [--sequences=N] [--ops=N]
 *       [--wordpress=/usr/share/wordpress] [--dropin=FILE] [-v]
 *
 * Loads wp-includes/class-wp-object-cache.php of a WordPress tree (Debian's `wordpress` package by default),
 * renamed to WP_Core_Object_Cache as it is evaluated, with stubs for the few WordPress functions it calls,
 * and php/wordpress/object-cache.php (its WP_Object_Cache). Each sequence seeds mt_rand, builds one cache of
 * each, and runs the same random operations on both: add, replace, set, get (with $force, $found),
 * get_multiple, set_multiple, add_multiple, delete, delete_multiple, incr, decr, flush_group, flush,
 * add_global_groups, switch_to_blog, wp_suspend_cache_addition(), on keys that
 * collide (5 and "5"), invalid keys (_doing_it_wrong() is compared too), groups global, per-blog and
 * non-persistent, and values of every kind: scalars, false/null/0/"", nested arrays, objects (mutated after
 * set() and after get(), to check the clones), arrays of objects. After each operation it compares the
 * result (serialize()d, so types, float bits and order count), $found, the hit and miss counters, and the
 * _doing_it_wrong() calls. Sequences rotate over the drop-in's modes: on the table with its request-local
 * copies, on the table without them (every read from the table), and without the table (the fallback);
 * each single-site and multisite. flush_runtime() and reset() run in the fallback only: on the table they
 * rightly keep persistent values that WordPress's class, which has no persistence, drops. Non-persistent
 * groups are declared before the first operation (WordPress's and a plugin's own), as WordPress and plugins
 * declare them: a group that turns non-persistent after values were stored in the table would hide them.
 * Within one request only: what persists across requests is php/wordpress/tests/run.sh's business.
 * Prints the first mismatches and last `oracle: N passed, N failed` (sequences); exit 1 on any failure.
 */

$opts = getopt( 'v', array( 'seed:', 'sequences:', 'ops:', 'wordpress:', 'dropin:' ) );
$seed0     = (int) ( $opts['seed'] ?? 1 );
$sequences = (int) ( $opts['sequences'] ?? 300 );
$nops      = (int) ( $opts['ops'] ?? 250 );
$wp        = rtrim( $opts['wordpress'] ?? '/usr/share/wordpress', '/' );
$verbose   = isset( $opts['v'] );

$class_file = "$wp/wp-includes/class-wp-object-cache.php";
if ( ! is_file( $class_file ) ) {
	fwrite( STDERR, "oracle: no $class_file (apt-get install wordpress, or --wordpress=DIR)\n" );
	echo "oracle: 0 passed, 1 failed\n";
	exit( 1 );
}
if ( ! class_exists( 'Shm\Table' ) ) {
	fwrite( STDERR, "oracle: Shm\\Table is not loaded (php -d extension=.../table.so); only the fallback mode runs\n" );
}

// --- the WordPress functions the two classes call ---------------------------------------------------------
define( 'ABSPATH', $wp . '/' );
define( 'WPINC', 'wp-includes' );
define( 'KB_IN_BYTES', 1024 );
$GLOBALS['oracle_multisite'] = false;
$GLOBALS['oracle_wrong']     = array();
function is_multisite() { return $GLOBALS['oracle_multisite']; }
function get_current_blog_id() { return 1; }
function __( $text ) { return $text; }
function esc_html( $text ) { return htmlspecialchars( $text, ENT_QUOTES ); }
function wp_load_translations_early() {}
function _deprecated_function( $function, $version, $replacement = '' ) {}
function _doing_it_wrong( $function, $message, $version ) {
	// "WP_Core_Object_Cache::get" and "WP_Object_Cache::get" are the same method
	$GLOBALS['oracle_wrong'][] = preg_replace( '/^.*::/', '', $function ) . ': ' . $message;
}
function wp_suspend_cache_addition( $suspend = null ) {
	static $suspended = false;
	if ( is_bool( $suspend ) ) {
		$suspended = $suspend;
	}
	return $suspended;
}

// PHP's own notices and warnings inside an operation are part of its outcome: both sides must raise the same
set_error_handler(
	function ( $errno, $message ) {
		$GLOBALS['oracle_wrong'][] = "PHP error $errno: $message";
		return true;
	}
);

$source = file_get_contents( $class_file );
$source = preg_replace( '/^<\?php/', '', $source );
$source = preg_replace( '/\bclass\s+WP_Object_Cache\b/', 'class WP_Core_Object_Cache', $source, 1, $renamed );
if ( 1 !== $renamed ) {
	fwrite( STDERR, "oracle: no `class WP_Object_Cache` in $class_file\n" );
	echo "oracle: 0 passed, 1 failed\n";
	exit( 1 );
}
eval( $source );
require $opts['dropin'] ?? __DIR__ . '/../object-cache.php';

#[AllowDynamicProperties]
class OracleThing {
	public $id;
	protected $tags = array();
	private $secret;
	public function __construct( $id, $tags, $secret ) {
		$this->id     = $id;
		$this->tags   = $tags;
		$this->secret = $secret;
	}
}

// --- random material ----------------------------------------------------------------------------------------
function pick( array $a ) { return $a[ mt_rand( 0, count( $a ) - 1 ) ]; }
function chance( $percent ) { return mt_rand( 1, 1000 ) <= $percent * 10; }

function rnd_key() {
	if ( chance( 3 ) ) {
		return pick( array( '', ' ', "\t", null, true, 1.5, array() ) );   // invalid
	}
	return pick( array( 0, 1, 5, '5', '05', -3, 'a', 'b', 'c', 'post:1', 'k k', 'é', 'alloptions', 'notoptions', 'last_changed', 'x' . mt_rand( 0, 20 ) ) );
}

function rnd_multi_key() {
	if ( chance( 4 ) ) {
		return pick( array( '', ' ', null ) );   // invalid, but usable as an array key
	}
	return rnd_key_valid();
}

function rnd_key_valid() {
	do {
		$k = rnd_key();
	} while ( ! ( is_int( $k ) || ( is_string( $k ) && '' !== trim( $k ) ) ) );
	return $k;
}

function rnd_group() {
	return pick( array( '', 'default', 'default', 'posts', 'posts', 'options', 'users', 'site-options', 'counts', 'np', 0, '0', 'a:b', '3:x', 'grp with space', null ) );
}

function rnd_scalar() {
	return pick( array(
		0, 1, -1, 42, PHP_INT_MAX, PHP_INT_MIN, 0.0, -0.0, 1.5, -2.25, 1e100, '', '0', '5', ' 5', '5 ', '1e3', 'abc', "bin\0ary",
		true, false, null, str_repeat( 'long', mt_rand( 1, 300 ) ), mt_rand(), 'x' . mt_rand( 0, 99 ),
	) );
}

function rnd_value( $depth = 0 ) {
	$r = mt_rand( 1, 100 );
	if ( $r <= 45 || $depth > 2 ) {
		return rnd_scalar();
	}
	if ( $r <= 70 ) {
		$a = array();
		$n = mt_rand( 0, 5 );
		$assoc = chance( 50 );
		for ( $i = 0; $i < $n; $i++ ) {
			if ( $assoc ) {
				$a[ pick( array( 'id', 'name', 'k' . $i, 7, '8' ) ) ] = rnd_value( $depth + 1 );
			} else {
				$a[] = rnd_value( $depth + 1 );
			}
		}
		return $a;
	}
	if ( $r <= 85 ) {
		$o = new stdClass();
		$o->ID = mt_rand( 1, 100 );
		$o->post_title = 'title ' . mt_rand( 0, 9 );
		if ( chance( 50 ) ) {
			$o->meta = rnd_value( $depth + 1 );
		}
		return $o;
	}
	if ( $r <= 93 ) {
		return new OracleThing( mt_rand( 1, 9 ), array( rnd_scalar(), rnd_scalar() ), rnd_scalar() );
	}
	$o = new stdClass();
	$o->n = mt_rand();
	return array( 'obj' => $o, 'list' => array( new OracleThing( 1, array(), 'x' ), 2 ) );
}

function rnd_expire() {
	return pick( array( 0, 0, 0, 3600, 86400, -5, '60' ) );   // within one request nothing expires
}

function rnd_offset() {
	return pick( array( 1, 1, 2, 5, 0, -1, -10, '3', 100 ) );
}

// --- the comparison -----------------------------------------------------------------------------------------
function canon( $v ) {
	return serialize( $v );
}

/**
 * Runs one operation on both caches; returns null when they agree, else a description.
 * $op is [name, args...]; the same argument values (the same object instances) go to both.
 */
function run_op( array $caches, array $op ) {
	$out = array();
	foreach ( $caches as $side => $c ) {
		$GLOBALS['oracle_wrong'] = array();
		$found = 'unset';
		$error = null;
		try {
			$result = do_op( $c, $op, $found );
		} catch ( \Throwable $e ) {
			$result = null;
			$error  = get_class( $e ) . ': ' . $e->getMessage();
		}
		$out[ $side ] = array(
			'result' => canon( $result ),
			'found'  => canon( $found ),
			'error'  => $error,
			'wrong'  => $GLOBALS['oracle_wrong'],
			'hits'   => $c->cache_hits,
			'misses' => $c->cache_misses,
			'raw'    => $result,
		);
	}
	$a = $out['wp'];
	$b = $out['table'];
	// the objects each returned are the caller's now: mutating them must not reach either cache
	foreach ( array( $a['raw'], $b['raw'] ) as $r ) {
		if ( is_object( $r ) ) {
			$r->oracle_mutated = true;
		}
	}
	unset( $a['raw'], $b['raw'] );
	if ( $a === $b ) {
		return null;
	}
	$diff = array();
	foreach ( $a as $field => $v ) {
		if ( $v !== $b[ $field ] ) {
			$diff[] = "$field: WordPress " . short( $v ) . ' | drop-in ' . short( $b[ $field ] );
		}
	}
	return implode( '; ', $diff );
}

function short( $v ) {
	$s = is_string( $v ) ? $v : json_encode( $v );
	return strlen( $s ) > 200 ? substr( $s, 0, 200 ) . '...' : $s;
}

function do_op( $c, array $op, &$found ) {
	$args = array_slice( $op, 1 );
	switch ( $op[0] ) {
		case 'get':
			return $c->get( $args[0], $args[1], $args[2], $found );
		case 'get_nofound':
			return $c->get( $args[0], $args[1], $args[2] );
		case 'suspend':
			wp_suspend_cache_addition( $args[0] );
			return null;
		case 'flush_runtime':
			// what wp_cache_flush_runtime() does with each (WordPress's cache.php: wp_cache_flush())
			return $c instanceof WP_Core_Object_Cache ? $c->flush() : $c->flush_runtime();
		case 'reset':
			return $c->reset();
		case 'add_non_persistent_groups':
			// WordPress's class has none: its wp_cache_add_non_persistent_groups() does nothing
			return $c instanceof WP_Core_Object_Cache ? null : $c->add_non_persistent_groups( $args[0] );
		default:
			return $c->{$op[0]}( ...$args );
	}
}

function rnd_op( $fallback, $multisite ) {
	$r = mt_rand( 1, 1000 );
	$g = rnd_group();
	if ( $r <= 150 ) {
		$v = rnd_value();
		return array( 'set', rnd_key(), $v, $g, rnd_expire() );
	}
	if ( $r <= 230 ) {
		return array( 'add', rnd_key(), rnd_value(), $g, rnd_expire() );
	}
	if ( $r <= 290 ) {
		return array( 'replace', rnd_key(), rnd_value(), $g, rnd_expire() );
	}
	if ( $r <= 470 ) {
		return array( chance( 85 ) ? 'get' : 'get_nofound', rnd_key(), $g, chance( 20 ) );
	}
	if ( $r <= 530 ) {
		$keys = array();
		for ( $i = mt_rand( 0, 6 ); $i > 0; $i-- ) {
			$keys[] = rnd_multi_key();
		}
		return array( 'get_multiple', $keys, $g, chance( 20 ) );
	}
	if ( $r <= 580 || ( $r <= 620 ) ) {
		$data = array();
		for ( $i = mt_rand( 0, 5 ); $i > 0; $i-- ) {
			$data[ rnd_multi_key() ] = rnd_value();
		}
		return array( $r <= 580 ? 'set_multiple' : 'add_multiple', $data, $g, rnd_expire() );
	}
	if ( $r <= 680 ) {
		return array( 'delete', rnd_key(), $g );
	}
	if ( $r <= 710 ) {
		$keys = array();
		for ( $i = mt_rand( 0, 5 ); $i > 0; $i-- ) {
			$keys[] = rnd_multi_key();
		}
		return array( 'delete_multiple', $keys, $g );
	}
	if ( $r <= 800 ) {
		// counters: mostly on keys that hold numbers
		return array( chance( 50 ) ? 'incr' : 'decr', rnd_key(), rnd_offset(), $g );
	}
	if ( $r <= 830 ) {
		return array( 'flush_group', $g );
	}
	if ( $r <= 836 ) {
		return array( 'flush' );
	}
	if ( $r <= 842 ) {
		return array( 'add_global_groups', pick( array( 'posts', array( 'options', 'np' ), 'counts' ) ) );
	}
	if ( $r <= 870 ) {
		return array( 'suspend', chance( 30 ) );
	}
	if ( $r <= 900 && $multisite ) {
		return array( 'switch_to_blog', pick( array( 1, 2, 3, '2' ) ) );
	}
	if ( $r <= 910 && $fallback ) {
		return array( chance( 50 ) ? 'flush_runtime' : 'reset' );
	}
	if ( $r <= 960 ) {
		// a counter to count on
		return array( 'set', rnd_key_valid(), pick( array( 0, 1, 10, '7', 2.5, 'abc', array( 1 ) ) ), $g, 0 );
	}
	// an object mutated after it was stored: set, then mutate the original (both got the same instance)
	return array( 'set_then_mutate', rnd_key_valid(), $g );
}

// --- the run ------------------------------------------------------------------------------------------------
$modes = array(
	array( 'table, request-local copies', array( 'runtime' => true ), false ),
	array( 'table, no request-local copies', array( 'runtime' => false ), false ),
	array( 'no table (fallback)', array( 'table' => false ), true ),
);
if ( ! class_exists( 'Shm\Table' ) ) {
	$modes = array( $modes[2] );
}
$passed = 0;
$failed = 0;
$ops_run = 0;
$shown = 0;
$per_mode = array();
for ( $s = 0; $s < $sequences; $s++ ) {
	$seed = $seed0 + $s;
	mt_srand( $seed );
	list( $mode_name, $options, $fallback ) = $modes[ $s % count( $modes ) ];
	$multisite = ( intdiv( $s, count( $modes ) ) % 2 ) === 1;
	$GLOBALS['oracle_multisite'] = $multisite;
	wp_suspend_cache_addition( false );
	$ns = 'oracle:' . getmypid() . ':' . $seed;
	$caches = array(
		'wp'    => new WP_Core_Object_Cache(),
		'table' => new WP_Object_Cache( $options + array( 'namespace' => $ns ) ),
	);
	if ( ! $fallback && ! $caches['table']->is_persistent() ) {
		fwrite( STDERR, "oracle: the drop-in does not use the table: " . $caches['table']->info()['reason'] . "\n" );
		$failed++;
		break;
	}
	// what wp_start_object_cache() does first
	$setup = array(
		array( 'add_global_groups', array( 'users', 'site-options', 'site-transient' ) ),
		array( 'add_non_persistent_groups', array( 'counts', 'plugins' ) ),
	);
	if ( $s % 4 >= 2 ) {
		// a plugin's own non-persistent group, declared (as plugins do) before it is used
		$setup[] = array( 'add_non_persistent_groups', 'np' );
	}
	$label = sprintf( 'sequence seed=%d (%s, %s)', $seed, $mode_name, $multisite ? 'multisite' : 'single site' );
	$bad = null;
	for ( $i = 0; $i < count( $setup ) + $nops && null === $bad; $i++ ) {
		$op = $i < count( $setup ) ? $setup[ $i ] : rnd_op( $fallback, $multisite );
		if ( 'set_then_mutate' === $op[0] ) {
			$obj = new stdClass();
			$obj->v = mt_rand();
			$bad = run_op( $caches, array( 'set', $op[1], $obj, $op[2], 0 ) );
			$obj->v = 'mutated after set';
			$op = array( 'get', $op[1], $op[2], false );
		}
		$bad = $bad ?? run_op( $caches, $op );
		$ops_run++;
		if ( null !== $bad ) {
			$bad = sprintf( "op %d %s(%s): %s", $i, $op[0], short( array_slice( $op, 1 ) ), $bad );
		}
	}
	wp_suspend_cache_addition( false );
	if ( class_exists( 'Shm\Table' ) ) {
		try {
			\Shm\Table::clear( $ns );
		} catch ( \Throwable $e ) {
		}
	}
	$per_mode[ $mode_name ] = ( $per_mode[ $mode_name ] ?? 0 ) + 1;
	if ( null === $bad ) {
		$passed++;
		if ( $verbose ) {
			echo "ok     $label\n";
		}
	} else {
		$failed++;
		if ( $shown++ < 10 ) {
			echo "FAIL   $label\n       $bad\n";
		}
	}
}
$modes_run = array();
foreach ( $per_mode as $m => $n ) {
	$modes_run[] = "$n $m";
}
printf( "oracle: %d sequences of %d operations (%d operations compared; seeds %d..%d; %s)\n",
	$passed + $failed, $nops, $ops_run, $seed0, $seed0 + $sequences - 1, implode( ', ', $modes_run ) );
printf( "oracle: %d passed, %d failed\n", $passed, $failed );
exit( $failed > 0 ? 1 : 0 );
