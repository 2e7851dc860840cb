/*
 * php_table.h - the Zend binding of the table extension: module entry, INI globals and the few symbols
 * the serializer layer shares with table.c.
 */
#ifndef PHP_TABLE_H
#define PHP_TABLE_H

#include "php.h"
#include "php_table_compat.h"

#define PHP_TABLE_VERSION "0.1.0"
#define PHP_TABLE_EXTNAME "table"

extern zend_module_entry table_module_entry;
#define phpext_table_ptr &table_module_entry

/* A remember() claim this request holds: released on every path, and at RSHUTDOWN after a bailout. */
typedef struct php_table_claim {
	struct php_table_claim *next;
	uint16_t ns;
	pid_t pid;             /* the claimant: a forked child inherits the list but not the claims */
	zend_string *key;
} php_table_claim;

ZEND_BEGIN_MODULE_GLOBALS(table)
	/* INI values, as set at startup (all PHP_INI_SYSTEM). */
	bool enabled;
	bool relay_alias;
	bool apcu_compat;          /* provide APCu's functions on the table when APCu is not loaded */
	char *memory;
	char *eviction_policy;
	char *serializer;
	char *compression;
	char *compression_threshold;
	char *zero_copy;           /* auto, 0 or 1 (also off/on) */
	char *zero_copy_budget;    /* a size; empty: an eighth of table.memory */
	char *segment;             /* a named segment's name; empty: the anonymous one (may be set per pool) */
	char *segment_dir;         /* where named segments live (/dev/shm) */
	char *segment_mode;        /* octal permission bits of a new segment file (0600) */
	bool segment_recreate;     /* replace a segment of another version or size */
	zend_long lock_timeout;    /* ms: the longest wait for a lock another process holds; 0 = by table.memory */
	char *redis;               /* the Redis tier's server (tcp://host:port or unix:///path); empty: no tier */
	char *redis_namespaces;    /* the namespaces Redis backs, comma-separated, or * */
	char *redis_prefix;        /* what every tiered key's Redis name starts with */
	zend_long redis_timeout;   /* ms: the bound of every Redis call */
	zend_long redis_max_stale; /* ms: the L1 is trusted while the helper's freshness is this recent */
	char *redis_allowed_classes; /* the classes objects read from Redis may be of: *, none, or a list */
	char *redis_on_error;      /* a failed Redis call: throw, or miss (reads miss, writes return false) */
	/* Per request. */
	php_table_claim *claims;   /* remember() claims held right now */
	zval fullscan_fn;          /* the generator closure fullscan() calls; UNDEF until first use */
#ifdef ZTS
	/* Per thread (binding/php_table_state.c). */
	struct tbl *tbl;           /* php_table_tbl: this thread's handle, NULL while the table is unavailable */
	struct tbl *thread_tbl;    /* the handle itself (tbl_thread_open), for the thread's life */
	struct tbl *thread_of;     /* the process handle it was made from */
	bool holding;              /* php_table_holding */
	/* The Redis tier's, per thread (binding/php_table_tier.c): closed at the thread's end (GSHUTDOWN). */
	struct tbl_redis *tier_conn;   /* this thread's connection, opened on its first tiered call */
	pid_t tier_conn_pid;           /* the process it was opened in: a pcntl_fork child never writes to it */
	uint64_t tier_next_ensure;     /* when this thread may next ask for a helper (ms, monotonic) */
#endif
ZEND_END_MODULE_GLOBALS(table)

ZEND_EXTERN_MODULE_GLOBALS(table)
#define TABLE_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(table, v)

#if defined(ZTS) && defined(COMPILE_DL_TABLE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* Shm\TableException, for the serializer layer's "corrupt value" errors. */
extern zend_class_entry *php_table_exception_ce;

#endif
