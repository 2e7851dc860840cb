<?php
/**
 * Plugin Name: Shm\Table object cache
 * Description: A persistent object cache on the table extension's shared memory (Shm\Table): every PHP worker of the host shares it; with the table's Redis tier, every host.
 * Version: 0.1.0
 * License: same as the table extension
 *
 * WordPress's persistent object-cache drop-in on Shm\Table. Copy or symlink this file to
 * wp-content/object-cache.php. It implements the whole wp_cache_*() API and the WP_Object_Cache class with
 * the semantics of WordPress's own class (wp-includes/class-wp-object-cache.php), which
 * php/wordpress/tests/oracle.php checks operation by operation.
 *
 * Key layout
 * ----------
 * One table namespace per site (per WordPress install; a multisite network is one site):
 *
 *     WP_CACHE_TABLE_NAMESPACE                when defined, as is;
 *     "wp:" . WP_CACHE_KEY_SALT               else, when the salt is defined and not empty (hashed past 250 bytes);
 *     "wp:" . DB_NAME . ":" . $table_prefix . ":" . 8 hex digits of md5(DB_HOST, ABSPATH)   else.
 *
 * Two installs on one table (one php-fpm master, or one named segment) therefore never share a key, and
 * `flush()` is one `Shm\Table::clear()` of this site's namespace: other sites are untouched. A site uses
 * exactly one namespace however many blogs or groups it has, so thousands of blogs and plugins that make
 * up group names never approach the table's namespace ceiling (65,533), and the Redis tier needs one name
 * in `table.redis_namespaces`.
 *
 * Inside the namespace, an entry's key is
 *
 *     strlen(group) ":" group ":" version ":" [blog_id ":"] key          (hashed when over 65,535 bytes)
 *
 * where blog_id is there for per-blog groups of a multisite (as in WordPress's own class: global groups
 * are shared by every blog), and version is the group's current version: a random 63-bit integer kept
 * in the same namespace under "v:" . group, read once per request per group (and created with add() by the
 * first request that needs it). `flush_group()` stores a fresh random version: from the next request on,
 * every worker builds keys with the new version, so the group is empty for every blog in O(1), and the
 * old entries, unreachable, go with the table's eviction (or the next flush()). A version
 * is random rather than a counter so that a version key that was evicted and created again can never
 * bring back the entries of an earlier generation.
 *
 * The request
 * -----------
 * Non-persistent groups ("counts", "plugins", and those a plugin adds) live in an array of this request
 * only. Persistent groups are written through to the table and, unless WP_CACHE_TABLE_RUNTIME is false,
 * what this request has read or written is kept in the same array, so that WordPress's hundreds of
 * get_option() -> wp_cache_get('alloptions') calls cost an array lookup; `$force` bypasses that copy, and
 * `flush_runtime()` drops it (and the non-persistent groups). A miss is remembered the same way: a key this
 * request found absent from the table (or deleted) is a miss again without asking the table, until this
 * request stores it (set(), add(), replace(), the multi calls), an add() of it fails (another worker stored
 * it), `$force` asks, or flush_runtime(), flush() or flush_group() forgets it. So, as for a hit, another
 * worker's write after this request's miss is seen by the next request, not by this one. get() and
 * get_multiple() answer from these arrays without calling the helpers the other methods use: most of a
 * page's calls end there. Objects are cloned in and out, as WordPress does; `false` (and `null`) are
 * values like any other, told apart from a miss by `$found`.
 * `incr()`/`decr()` are a read and a `cas()` (retried), so concurrent increments from several workers are
 * exact; `add()` is the table's atomic add; `replace()` is exists() then set().
 *
 * Without the table (extension not loaded, table.enabled=0, or WP_CACHE_TABLE_DISABLED true) every group
 * is non-persistent: the site works as with WordPress's own cache, and the drop-in tells WordPress so
 * (wp_using_ext_object_cache(false), from muplugins_loaded on), so that transients go to the database. A table error during a call
 * (memory full, the Redis tier down) is a miss or a failed write, never a fatal error.
 *
 * Settings (constants in wp-config.php): WP_CACHE_KEY_SALT, WP_CACHE_TABLE_NAMESPACE,
 * WP_CACHE_TABLE_RUNTIME (default true), WP_CACHE_TABLE_DISABLED (default false).
 * Documentation: php/wordpress/README.md of the table extension's repository.
 */

defined( 'ABSPATH' ) || exit;

function wp_cache_init() {
	$GLOBALS['wp_object_cache'] = new WP_Object_Cache();
	if ( ! $GLOBALS['wp_object_cache']->is_persistent() && function_exists( 'add_action' ) ) {
		// Without the table, tell WordPress the cache is not persistent (transients then go to the database),
		// but only once wp_start_object_cache() has run for the last time: a multisite runs it again from
		// ms-settings.php, and it would then load wp-includes/cache.php over this file's functions.
		add_action(
			'muplugins_loaded',
			function () {
				wp_using_ext_object_cache( false );
			},
			PHP_INT_MIN
		);
	}
}

function wp_cache_add( $key, $data, $group = '', $expire = 0 ) {
	global $wp_object_cache;
	return $wp_object_cache->add( $key, $data, $group, (int) $expire );
}

function wp_cache_add_multiple( array $data, $group = '', $expire = 0 ) {
	global $wp_object_cache;
	return $wp_object_cache->add_multiple( $data, $group, $expire );
}

function wp_cache_replace( $key, $data, $group = '', $expire = 0 ) {
	global $wp_object_cache;
	return $wp_object_cache->replace( $key, $data, $group, (int) $expire );
}

function wp_cache_set( $key, $data, $group = '', $expire = 0 ) {
	global $wp_object_cache;
	return $wp_object_cache->set( $key, $data, $group, (int) $expire );
}

function wp_cache_set_multiple( array $data, $group = '', $expire = 0 ) {
	global $wp_object_cache;
	return $wp_object_cache->set_multiple( $data, $group, $expire );
}

function wp_cache_get( $key, $group = '', $force = false, &$found = null ) {
	global $wp_object_cache;
	return $wp_object_cache->get( $key, $group, $force, $found );
}

function wp_cache_get_multiple( $keys, $group = '', $force = false ) {
	global $wp_object_cache;
	return $wp_object_cache->get_multiple( $keys, $group, $force );
}

function wp_cache_delete( $key, $group = '' ) {
	global $wp_object_cache;
	return $wp_object_cache->delete( $key, $group );
}

function wp_cache_delete_multiple( array $keys, $group = '' ) {
	global $wp_object_cache;
	return $wp_object_cache->delete_multiple( $keys, $group );
}

function wp_cache_incr( $key, $offset = 1, $group = '' ) {
	global $wp_object_cache;
	return $wp_object_cache->incr( $key, $offset, $group );
}

function wp_cache_decr( $key, $offset = 1, $group = '' ) {
	global $wp_object_cache;
	return $wp_object_cache->decr( $key, $offset, $group );
}

function wp_cache_flush() {
	global $wp_object_cache;
	return $wp_object_cache->flush();
}

function wp_cache_flush_runtime() {
	global $wp_object_cache;
	return $wp_object_cache->flush_runtime();
}

function wp_cache_flush_group( $group ) {
	global $wp_object_cache;
	return $wp_object_cache->flush_group( $group );
}

function wp_cache_supports( $feature ) {
	switch ( $feature ) {
		case 'add_multiple':
		case 'set_multiple':
		case 'get_multiple':
		case 'delete_multiple':
		case 'flush_runtime':
		case 'flush_group':
			return true;
		default:
			return false;
	}
}

function wp_cache_close() {
	return true;
}

function wp_cache_add_global_groups( $groups ) {
	global $wp_object_cache;
	$wp_object_cache->add_global_groups( $groups );
}

function wp_cache_add_non_persistent_groups( $groups ) {
	global $wp_object_cache;
	$wp_object_cache->add_non_persistent_groups( $groups );
}

function wp_cache_switch_to_blog( $blog_id ) {
	global $wp_object_cache;
	$wp_object_cache->switch_to_blog( $blog_id );
}

function wp_cache_reset() {
	if ( function_exists( '_deprecated_function' ) ) {
		_deprecated_function( __FUNCTION__, '3.5.0', 'wp_cache_switch_to_blog()' );
	}
	global $wp_object_cache;
	$wp_object_cache->reset();
}

#[AllowDynamicProperties]
class WP_Object_Cache {
	/** Hits and misses of get() and get_multiple() in this request, as WordPress's class counts them. */
	public $cache_hits   = 0;
	public $cache_misses = 0;

	protected $global_groups         = array();
	protected $non_persistent_groups = array();

	/**
	 * This request's values: [group][id] => value. Authoritative for non-persistent groups (and for every
	 * group without the table); a copy of what was read or written for persistent ones.
	 */
	private $cache = array();
	private $blog_prefix;
	private $multisite;
	/** The site's table namespace; null when the table is not used. */
	private $ns = null;
	/** Why the table is not used, for stats(). */
	private $unavailable = '';
	/** Keep copies of persistent values in $cache. */
	private $runtime = true;
	/** group => its version, as read from the table this request. */
	private $versions = array();
	/**
	 * [group][id] => true: persistent entries this request found absent from the table (with $runtime
	 * only), so that asking again does not go back to the table. Dropped by this request's own writes to
	 * the key; another worker's later write is seen by the next request, as for $cache's copies.
	 */
	private $missing = array();

	/**
	 * @param array $options for tests and tools: 'namespace' (string), 'runtime' (bool), 'table' (false: don't
	 *                       use the table). WordPress calls it without arguments; the constants decide then.
	 */
	public function __construct( array $options = array() ) {
		$this->multisite   = function_exists( 'is_multisite' ) && is_multisite();
		$this->blog_prefix = $this->multisite ? get_current_blog_id() . ':' : '';
		$this->runtime     = (bool) ( $options['runtime'] ?? ( defined( 'WP_CACHE_TABLE_RUNTIME' ) ? WP_CACHE_TABLE_RUNTIME : true ) );

		$use = $options['table'] ?? ! ( defined( 'WP_CACHE_TABLE_DISABLED' ) && WP_CACHE_TABLE_DISABLED );
		if ( ! $use ) {
			$this->unavailable = 'disabled by WP_CACHE_TABLE_DISABLED';
		} elseif ( ! class_exists( 'Shm\Table', false ) ) {
			$this->unavailable = 'the table extension is not loaded';
		} else {
			$ns = $options['namespace'] ?? self::site_namespace();
			try {
				\Shm\Table::exists( 'v:default', $ns );
				$this->ns = $ns;
			} catch ( \Throwable $e ) {
				$this->unavailable = $e->getMessage();
			}
		}
	}

	/** The namespace of this site (see the header comment). */
	public static function site_namespace() {
		if ( defined( 'WP_CACHE_TABLE_NAMESPACE' ) && '' !== (string) WP_CACHE_TABLE_NAMESPACE ) {
			$ns = (string) WP_CACHE_TABLE_NAMESPACE;
			return strlen( $ns ) <= 255 ? $ns : 'wp:' . md5( $ns );
		}
		if ( defined( 'WP_CACHE_KEY_SALT' ) && '' !== (string) WP_CACHE_KEY_SALT ) {
			$salt = (string) WP_CACHE_KEY_SALT;
			return strlen( $salt ) <= 250 ? 'wp:' . $salt : 'wp:' . md5( $salt );
		}
		$db     = defined( 'DB_NAME' ) ? (string) DB_NAME : '';
		$prefix = isset( $GLOBALS['table_prefix'] ) ? (string) $GLOBALS['table_prefix'] : '';
		$where  = substr( md5( ( defined( 'DB_HOST' ) ? DB_HOST : '' ) . "\0" . ( defined( 'ABSPATH' ) ? ABSPATH : '' ) ), 0, 8 );
		$ns     = 'wp:' . $db . ':' . $prefix . ':' . $where;
		return strlen( $ns ) <= 255 ? $ns : 'wp:' . md5( $ns );
	}

	/** Whether values outlive the request (the table is in use). */
	public function is_persistent() {
		return null !== $this->ns;
	}

	/** The table namespace in use, or null. */
	public function table_namespace() {
		return $this->ns;
	}

	public function __get( $name ) {
		return $this->$name;
	}

	public function __set( $name, $value ) {
		return $this->$name = $value;
	}

	public function __isset( $name ) {
		return isset( $this->$name );
	}

	public function __unset( $name ) {
		unset( $this->$name );
	}

	public function add( $key, $data, $group = 'default', $expire = 0 ) {
		if ( function_exists( 'wp_suspend_cache_addition' ) && wp_suspend_cache_addition() ) {
			return false;
		}
		if ( ! $this->valid_key( $key, 'add' ) ) {
			return false;
		}
		$group = $this->group( $group );
		$id    = $this->id( $key, $group );
		if ( ! $this->persists( $group ) ) {
			if ( $this->local_exists( $id, $group ) ) {
				return false;
			}
			$this->cache[ $group ][ $id ] = is_object( $data ) ? clone $data : $data;
			return true;
		}
		try {
			$added = \Shm\Table::add( $this->table_key( $id, $group ), $data, self::ttl( $expire ), $this->ns );
		} catch ( \Exception $e ) {
			$added = false;
		}
		if ( $added ) {
			$this->remember( $id, $group, $data );
		} else {
			unset( $this->missing[ $group ][ $id ] );   // there after all (or the table failed): ask it next time
		}
		return $added;
	}

	public function add_multiple( array $data, $group = '', $expire = 0 ) {
		$values = array();
		foreach ( $data as $key => $value ) {
			$values[ $key ] = $this->add( $key, $value, $group, $expire );
		}
		return $values;
	}

	public function replace( $key, $data, $group = 'default', $expire = 0 ) {
		if ( ! $this->valid_key( $key, 'replace' ) ) {
			return false;
		}
		$group = $this->group( $group );
		$id    = $this->id( $key, $group );
		if ( ! $this->persists( $group ) ) {
			if ( ! $this->local_exists( $id, $group ) ) {
				return false;
			}
			$this->cache[ $group ][ $id ] = is_object( $data ) ? clone $data : $data;
			return true;
		}
		try {
			if ( ! \Shm\Table::exists( $this->table_key( $id, $group ), $this->ns ) ) {
				unset( $this->cache[ $group ][ $id ] );
				if ( $this->runtime ) {
					$this->missing[ $group ][ $id ] = true;
				}
				return false;
			}
		} catch ( \Exception $e ) {
			return false;
		}
		return $this->set( $key, $data, $group, $expire );
	}

	public function set( $key, $data, $group = 'default', $expire = 0 ) {
		if ( ! $this->valid_key( $key, 'set' ) ) {
			return false;
		}
		$group = $this->group( $group );
		$id    = $this->id( $key, $group );
		if ( ! $this->persists( $group ) ) {
			$this->cache[ $group ][ $id ] = is_object( $data ) ? clone $data : $data;
			return true;
		}
		try {
			$stored = \Shm\Table::set( $this->table_key( $id, $group ), $data, self::ttl( $expire ), $this->ns );
		} catch ( \Exception $e ) {
			$stored = false;   // not serializable, no memory left, the Redis tier down
		}
		if ( $stored ) {
			$this->remember( $id, $group, $data );
		} else {
			unset( $this->cache[ $group ][ $id ], $this->missing[ $group ][ $id ] );
		}
		return $stored;
	}

	public function set_multiple( array $data, $group = '', $expire = 0 ) {
		$group = $this->group( $group );
		if ( ! $this->persists( $group ) ) {
			$values = array();
			foreach ( $data as $key => $value ) {
				$values[ $key ] = $this->set( $key, $value, $group, $expire );
			}
			return $values;
		}
		$values = array();
		$batch  = array();
		$ids    = array();
		foreach ( $data as $key => $value ) {
			if ( ! $this->valid_key( $key, 'set' ) ) {
				$values[ $key ] = false;
				continue;
			}
			$id                   = $this->id( $key, $group );
			$tk                   = $this->table_key( $id, $group );
			$batch[ $tk ]         = $value;
			$ids[ $tk ]           = array( $key, $id );
			$values[ $key ]       = true;
		}
		if ( $batch ) {
			$failed = array();
			try {
				\Shm\Table::setMany( $batch, self::ttl( $expire ), $this->ns, $failed );
			} catch ( \Exception $e ) {
				$failed = array_keys( $batch );
			}
			$failed = array_fill_keys( array_map( 'strval', (array) $failed ), true );
			foreach ( $ids as $tk => list( $key, $id ) ) {
				if ( isset( $failed[ (string) $tk ] ) ) {
					$values[ $key ] = false;
					unset( $this->cache[ $group ][ $id ], $this->missing[ $group ][ $id ] );
				} else {
					$this->remember( $id, $group, $batch[ $tk ] );
				}
			}
		}
		return $values;
	}

	public function get( $key, $group = 'default', $force = false, &$found = null ) {
		// The hot path (get_option() alone calls this some 1,700 times a page) is written out here rather
		// than through the helpers below: valid_key(), group() and id() inline, then this request's copy.
		if ( ! ( is_int( $key ) || ( is_string( $key ) && '' !== trim( $key ) ) ) ) {
			$this->valid_key( $key, 'get' );   // the notice
			return false;
		}
		if ( empty( $group ) ) {
			$group = 'default';
		}
		$id = ( $this->multisite && ! isset( $this->global_groups[ $group ] ) ) ? $this->blog_prefix . $key : $key;
		if ( ! $force ) {
			if ( isset( $this->cache[ $group ][ $id ] ) || ( isset( $this->cache[ $group ] ) && array_key_exists( $id, $this->cache[ $group ] ) ) ) {
				$found = true;
				++$this->cache_hits;
				$value = $this->cache[ $group ][ $id ];
				return is_object( $value ) ? clone $value : $value;
			}
			if ( isset( $this->missing[ $group ][ $id ] ) ) {
				$found = false;
				++$this->cache_misses;
				return false;
			}
		}
		$persist = null !== $this->ns && ! isset( $this->non_persistent_groups[ $group ] );
		if ( $force && ! $persist && $this->local_exists( $id, $group ) ) {
			$found = true;
			++$this->cache_hits;
			$value = $this->cache[ $group ][ $id ];
			return is_object( $value ) ? clone $value : $value;
		}
		if ( $persist ) {
			$tk = $this->table_key( $id, $group );
			try {
				$value = \Shm\Table::get( $tk, $this->ns );
				$hit   = null !== $value || array_key_exists( $tk, \Shm\Table::getMany( array( $tk ), $this->ns ) );
			} catch ( \Exception $e ) {
				$hit = null;   // neither: not remembered as a miss
			}
			if ( $hit ) {
				$found = true;
				++$this->cache_hits;
				unset( $this->missing[ $group ][ $id ] );
				if ( $this->runtime ) {
					$this->cache[ $group ][ $id ] = $value;
					return is_object( $value ) ? clone $value : $value;
				}
				return $value;   // a fresh copy already
			}
			unset( $this->cache[ $group ][ $id ] );
			if ( false === $hit && $this->runtime ) {
				$this->missing[ $group ][ $id ] = true;
			}
		}
		$found = false;
		++$this->cache_misses;
		return false;
	}

	public function get_multiple( $keys, $group = 'default', $force = false ) {
		if ( empty( $group ) ) {
			$group = 'default';
		}
		$persist = null !== $this->ns && ! isset( $this->non_persistent_groups[ $group ] );
		$prefix  = ( $this->multisite && ! isset( $this->global_groups[ $group ] ) ) ? $this->blog_prefix : null;
		$values  = array();
		$want    = array();   // table key => list of [key, id] this request does not hold, for one getMany()
		foreach ( $keys as $key ) {
			if ( is_int( $key ) || is_string( $key ) ) {
				$id = null === $prefix ? $key : $prefix . $key;
				if ( ! $force || ! $persist ) {
					if ( isset( $this->cache[ $group ][ $id ] ) || ( isset( $this->cache[ $group ] ) && array_key_exists( $id, $this->cache[ $group ] ) ) ) {
						++$this->cache_hits;
						$value          = $this->cache[ $group ][ $id ];
						$values[ $key ] = is_object( $value ) ? clone $value : $value;
						continue;
					}
					if ( ! $force && isset( $this->missing[ $group ][ $id ] ) ) {
						++$this->cache_misses;
						$values[ $key ] = false;
						continue;
					}
				}
			}
			// A key WordPress's class rejects (its notice, in the same order), or one to look up.
			if ( ! $this->valid_key( $key, 'get' ) ) {
				$values[ $key ] = false;
				continue;
			}
			$values[ $key ] = false;   // its place in the answer, as WordPress's class orders it
			if ( ! $persist ) {
				++$this->cache_misses;
				continue;
			}
			$want[ $this->table_key( $id, $group ) ][] = array( $key, $id );
		}
		if ( ! $want ) {
			return $values;
		}
		try {
			$got = \Shm\Table::getMany( array_map( 'strval', array_keys( $want ) ), $this->ns );
			$ok  = true;
		} catch ( \Exception $e ) {
			$got = array();
			$ok  = false;
		}
		foreach ( $want as $tk => $asked ) {
			if ( array_key_exists( $tk, $got ) ) {
				$value = $got[ $tk ];
				unset( $this->missing[ $group ][ $asked[0][1] ] );
				if ( $this->runtime ) {
					$this->cache[ $group ][ $asked[0][1] ] = $value;
				}
				foreach ( $asked as list( $key ) ) {
					++$this->cache_hits;
					// a fresh copy each time it is asked: what the cache keeps, and each answer, are apart
					$values[ $key ] = is_object( $value ) && ( $this->runtime || count( $asked ) > 1 ) ? clone $value : $value;
				}
			} else {
				unset( $this->cache[ $group ][ $asked[0][1] ] );
				if ( $ok && $this->runtime ) {
					$this->missing[ $group ][ $asked[0][1] ] = true;
				}
				$this->cache_misses += count( $asked );
			}
		}
		return $values;
	}

	public function delete( $key, $group = 'default', $deprecated = false ) {
		if ( ! $this->valid_key( $key, 'delete' ) ) {
			return false;
		}
		$group = $this->group( $group );
		$id    = $this->id( $key, $group );
		if ( ! $this->persists( $group ) ) {
			if ( ! $this->local_exists( $id, $group ) ) {
				return false;
			}
			unset( $this->cache[ $group ][ $id ] );
			return true;
		}
		unset( $this->cache[ $group ][ $id ] );
		try {
			$deleted = \Shm\Table::delete( $this->table_key( $id, $group ), $this->ns );
		} catch ( \Exception $e ) {
			unset( $this->missing[ $group ][ $id ] );
			return false;
		}
		if ( $this->runtime ) {
			$this->missing[ $group ][ $id ] = true;   // deleted now, or not there
		}
		return $deleted;
	}

	public function delete_multiple( array $keys, $group = '' ) {
		$values = array();
		foreach ( $keys as $key ) {
			$values[ $key ] = $this->delete( $key, $group );
		}
		return $values;
	}

	public function incr( $key, $offset = 1, $group = 'default' ) {
		return $this->add_to( $key, (int) $offset, $group, 'incr' );
	}

	public function decr( $key, $offset = 1, $group = 'default' ) {
		return $this->add_to( $key, (int) $offset, $group, 'decr' );
	}

	/** Empties this site's cache (every blog of a multisite), and nothing of other sites on the table. */
	public function flush() {
		$this->cache    = array();
		$this->missing  = array();
		$this->versions = array();
		if ( null === $this->ns ) {
			return true;
		}
		try {
			return \Shm\Table::clear( $this->ns );
		} catch ( \Exception $e ) {
			return false;
		}
	}

	/** Forgets what this request holds: its copies of persistent values and the non-persistent groups. */
	public function flush_runtime() {
		$this->cache    = array();
		$this->missing  = array();
		$this->versions = array();
		return true;
	}

	/** Empties one group, for every blog (the blog is part of the key, not of the group). */
	public function flush_group( $group ) {
		unset( $this->cache[ $group ], $this->missing[ $group ] );
		if ( null === $this->ns || isset( $this->non_persistent_groups[ $group ] ) ) {
			return true;
		}
		$version = random_int( 1, PHP_INT_MAX );
		try {
			if ( ! \Shm\Table::set( $this->version_key( (string) $group ), $version, null, $this->ns ) ) {
				return false;
			}
		} catch ( \Exception $e ) {
			return false;
		}
		$this->versions[ (string) $group ] = $version;
		return true;
	}

	public function add_global_groups( $groups ) {
		$this->global_groups = array_merge( $this->global_groups, array_fill_keys( (array) $groups, true ) );
	}

	public function add_non_persistent_groups( $groups ) {
		$this->non_persistent_groups = array_merge( $this->non_persistent_groups, array_fill_keys( (array) $groups, true ) );
		foreach ( (array) $groups as $group ) {
			unset( $this->missing[ $group ] );   // get() consults $missing before it asks whether a group persists
		}
	}

	public function switch_to_blog( $blog_id ) {
		$this->blog_prefix = $this->multisite ? (int) $blog_id . ':' : '';
	}

	/** Deprecated since WordPress 3.5 (switch_to_blog() replaces it): forgets this request's per-blog values. */
	public function reset() {
		if ( function_exists( '_deprecated_function' ) ) {
			_deprecated_function( __FUNCTION__, '3.5.0', 'WP_Object_Cache::switch_to_blog()' );
		}
		foreach ( array_keys( $this->cache ) as $group ) {
			if ( ! isset( $this->global_groups[ $group ] ) ) {
				unset( $this->cache[ $group ] );
			}
		}
		foreach ( array_keys( $this->missing ) as $group ) {
			if ( ! isset( $this->global_groups[ $group ] ) ) {
				unset( $this->missing[ $group ] );
			}
		}
	}

	public function close() {
		return true;
	}

	/** What the status line says, as an array (tests and tools). */
	public function info() {
		$info = array(
			'backend'    => null === $this->ns ? 'none' : 'Shm\Table',
			'namespace'  => $this->ns,
			'persistent' => null !== $this->ns,
			'reason'     => $this->unavailable,
			'hits'       => $this->cache_hits,
			'misses'     => $this->cache_misses,
			'entries'    => null,
			'bytes'      => null,
			'tiered'     => false,
		);
		if ( null !== $this->ns ) {
			try {
				$info['entries'] = \Shm\Table::count( $this->ns );
				$info['bytes']   = \Shm\Table::memory( $this->ns );
				$tiered          = (string) ini_get( 'table.redis_namespaces' );
				$info['tiered']  = '' !== (string) ini_get( 'table.redis' ) && ( '*' === trim( $tiered )
					|| in_array( $this->ns, array_map( 'trim', explode( ',', $tiered ) ), true ) );
			} catch ( \Exception $e ) {
				$info['reason'] = $e->getMessage();
			}
		}
		return $info;
	}

	/** WordPress's block of hits, misses and groups of this request, after one status line of the table. */
	public function stats() {
		$i = $this->info();
		echo '<p><strong>Object cache:</strong> ';
		if ( $i['persistent'] ) {
			printf(
				'Shm\Table, namespace %s%s, %s entries, %s KiB in the table',
				htmlspecialchars( $i['namespace'], ENT_QUOTES ),
				$i['tiered'] ? ' (tiered to Redis)' : '',
				number_format( (int) $i['entries'] ),
				number_format( (int) $i['bytes'] / 1024, 1 )
			);
		} else {
			echo 'not persistent (' . htmlspecialchars( $i['reason'], ENT_QUOTES ) . ')';
		}
		echo '<br />';
		echo "<strong>Cache Hits:</strong> {$this->cache_hits}<br />";
		echo "<strong>Cache Misses:</strong> {$this->cache_misses}<br />";
		echo '</p>';
		echo '<ul>';
		foreach ( $this->cache as $group => $cache ) {
			echo '<li><strong>Group:</strong> ' . htmlspecialchars( (string) $group, ENT_QUOTES ) . ' - ( '
				. number_format( strlen( serialize( $cache ) ) / 1024, 2 ) . 'k )</li>';
		}
		echo '</ul>';
	}

	// --- internals ----------------------------------------------------------------------------------------

	/** WordPress's key rule: an int, or a string that is not only white space; else _doing_it_wrong(). */
	private function valid_key( $key, $method ) {
		if ( is_int( $key ) || ( is_string( $key ) && '' !== trim( $key ) ) ) {
			return true;
		}
		if ( function_exists( '_doing_it_wrong' ) ) {
			$message = is_string( $key )
				? 'Cache key must not be an empty string.'
				: sprintf( self::key_type_message(), gettype( $key ) );
			if ( function_exists( '__' ) ) {
				$message = __( $message );   // phpcs:ignore -- WordPress's own strings
			}
			_doing_it_wrong( __CLASS__ . '::' . $method, $message, '6.1.0' );
		}
		return false;
	}

	/**
	 * WordPress's own wording of the bad key type message, which changed after 6.1 ("must be integer or
	 * non-empty string" became "must be an integer or a non-empty string"): whichever its
	 * class-wp-object-cache.php has, read once a request, on this error path only; the newer one when unknown.
	 */
	private static function key_type_message() {
		static $message = null;
		if ( null === $message ) {
			$old     = 'Cache key must be integer or non-empty string, %s given.';
			$core    = defined( 'ABSPATH' ) && defined( 'WPINC' ) && is_readable( ABSPATH . WPINC . '/class-wp-object-cache.php' )
				? (string) file_get_contents( ABSPATH . WPINC . '/class-wp-object-cache.php' ) : '';
			$message = false !== strpos( $core, $old ) ? $old : 'Cache key must be an integer or a non-empty string, %s given.';
		}
		return $message;
	}

	private function group( $group ) {
		return empty( $group ) ? 'default' : $group;
	}

	private function id( $key, $group ) {
		return ( $this->multisite && ! isset( $this->global_groups[ $group ] ) ) ? $this->blog_prefix . $key : $key;
	}

	private function persists( $group ) {
		return null !== $this->ns && ! isset( $this->non_persistent_groups[ $group ] );
	}

	private function local_exists( $id, $group ) {
		return isset( $this->cache[ $group ] ) && ( isset( $this->cache[ $group ][ $id ] ) || array_key_exists( $id, $this->cache[ $group ] ) );
	}

	private function remember( $id, $group, $data ) {
		unset( $this->missing[ $group ][ $id ] );
		if ( $this->runtime ) {
			$this->cache[ $group ][ $id ] = is_object( $data ) ? clone $data : $data;
		}
	}

	private function version_key( $group ) {
		$vk = 'v:' . $group;
		return strlen( $vk ) <= 65535 ? $vk : 'v#' . hash( 'sha256', $group );
	}

	/** The group's current version: from this request's memory, else the table (created when missing). */
	private function version( $group ) {
		if ( isset( $this->versions[ $group ] ) ) {
			return $this->versions[ $group ];
		}
		$vk = $this->version_key( $group );
		try {
			$v = \Shm\Table::get( $vk, $this->ns );
			if ( ! is_int( $v ) ) {
				$new = random_int( 1, PHP_INT_MAX );
				$v   = \Shm\Table::add( $vk, $new, null, $this->ns ) ? $new : \Shm\Table::get( $vk, $this->ns );
			}
		} catch ( \Exception $e ) {
			$v = null;
		}
		if ( ! is_int( $v ) ) {
			// The table could not keep a version (full, or failing): a throw-away one for this request, so
			// that nothing written now can be read by a later request under a version it did not choose.
			$v = random_int( 1, PHP_INT_MAX );
		}
		return $this->versions[ $group ] = $v;
	}

	private function table_key( $id, $group ) {
		$group = (string) $group;
		$tk    = strlen( $group ) . ':' . $group . ':' . $this->version( $group ) . ':' . $id;
		return strlen( $tk ) <= 65535 ? $tk : '#' . hash( 'sha256', $tk );
	}

	/** The table's $expire from WordPress's: seconds, 0 = never; negative counts as never, as WordPress ignores it. */
	private static function ttl( $expire ) {
		$expire = (int) $expire;
		return $expire > 0 ? min( $expire, 2147483647 ) : 0;
	}

	/**
	 * WordPress's incr/decr arithmetic: a non-numeric value counts as 0, the result floors at 0. decr
	 * subtracts rather than adds the negated offset, as WordPress does (-0.0 - 0 is -0.0, -0.0 + 0 is 0.0).
	 */
	private static function offset_value( $value, $offset, $method ) {
		if ( ! is_numeric( $value ) ) {
			$value = 0;
		}
		if ( 'decr' === $method ) {
			$value -= $offset;
		} else {
			$value += $offset;
		}
		return $value < 0 ? 0 : $value;
	}

	private function add_to( $key, $offset, $group, $method ) {
		if ( ! $this->valid_key( $key, $method ) ) {
			return false;
		}
		$group = $this->group( $group );
		$id    = $this->id( $key, $group );
		if ( ! $this->persists( $group ) ) {
			if ( ! $this->local_exists( $id, $group ) ) {
				return false;
			}
			return $this->cache[ $group ][ $id ] = self::offset_value( $this->cache[ $group ][ $id ], $offset, $method );
		}
		$tk = $this->table_key( $id, $group );
		try {
			// Read, compute, cas(): another worker's change in between makes cas() fail, and we go again.
			for ( $try = 0; $try < 100; $try++ ) {
				$got = \Shm\Table::getMany( array( $tk ), $this->ns );
				if ( ! array_key_exists( $tk, $got ) ) {
					unset( $this->cache[ $group ][ $id ] );
					if ( $this->runtime ) {
						$this->missing[ $group ][ $id ] = true;
					}
					return false;
				}
				$new = self::offset_value( $got[ $tk ], $offset, $method );
				if ( \Shm\Table::cas( $tk, $got[ $tk ], $new, $this->ns ) ) {
					$this->remember( $id, $group, $new );
					return $new;
				}
			}
		} catch ( \Exception $e ) {
			// below
		}
		unset( $this->cache[ $group ][ $id ], $this->missing[ $group ][ $id ] );
		return false;
	}
}
