/*
 * php_table_apcu.h - APCu's userland API on the table (table.apcu_compat=1), a binding of its own above
 * the methods' helpers: it calls down into php_table_internal.h's functions and the core exactly as
 * Shm\Table's methods do, and nothing below it knows APCu.
 *
 *   php_table_apcu_module.c     the "apcu" module: its registration from table.c's MINIT (or stepping
 *                               aside for the real APCu), the apc.* INI settings, constants, phpinfo()
 *   php_table_apcu_functions.c  apcu_fetch/store/add/delete/exists/inc/dec/cas/entry/clear_cache/enabled
 *   php_table_apcu_info.c       apcu_cache_info, apcu_sma_info, apcu_key_info
 *   php_table_apcu_iterator.c   APCUIterator, apcu_delete(APCUIterator)
 *
 * Every APCu key lives in the table namespace PHP_TABLE_APCU_NS, so apcu_clear_cache() clears only them
 * and Shm\Table::get($key, 'apcu') reads what apcu_store($key) wrote.
 */
#ifndef PHP_TABLE_APCU_H
#define PHP_TABLE_APCU_H

#include "php_table_internal.h"

#define PHP_TABLE_APCU_NS      "apcu"
/* The APCu release whose API and behaviour this layer reproduces: what phpversion('apcu') answers. */
#define PHP_TABLE_APCU_VERSION "5.1.22"

/* For table.c's MINIT, after everything of its own is registered: register the "apcu" module (functions,
 * apc.* INI, constants) when `compat` (table.apcu_compat) is on and the real APCu is not loaded; when it
 * is loaded, say so once at startup and leave APCu alone. */
PHP_TABLE_HIDDEN void php_table_apcu_startup(bool compat);

/* ---- shared by the php_table_apcu_*.c files ------------------------------------------------------- */

/* APCu's APC_LIST_* (apc_iterator.h). */
#define PHP_TABLE_APC_LIST_ACTIVE  0x1
#define PHP_TABLE_APC_LIST_DELETED 0x2

/* php_table_apcu_iterator.c: the class (registered by the module's MINIT from the stub's
 * register_class_APCUIterator), and apcu_delete() of an object: false after APCu's error for an object
 * that is not an APCUIterator, or a thrown Error for an uninitialized one; true once it deleted what the
 * iterator had left to hand out. */
extern PHP_TABLE_HIDDEN zend_class_entry *php_table_apcu_iterator_ce;
PHP_TABLE_HIDDEN void php_table_apcu_iterator_register(zend_class_entry *ce);
PHP_TABLE_HIDDEN bool php_table_apcu_iterator_delete(zval *obj);

/* The apc.* settings (APCu's names and defaults; most are accepted only: docs/apcu.md). */
typedef struct php_table_apcu_settings {
	bool enabled;            /* apc.enabled */
	bool enable_cli;         /* apc.enable_cli: off by default, as APCu's */
	bool use_request_time;   /* apc.use_request_time (PHP_INI_ALL) */
	bool slam_defense, coredump_unmap;
	zend_long shm_segments, entries_hint, gc_ttl, ttl, smart;
	char *shm_size, *mmap_file_mask, *preload_path, *serializer;
	/* Per request. */
	bool warned;             /* this request already warned that the table is unavailable */
	time_t request_time;     /* apc.use_request_time: the request's start, 0 until first needed */
} php_table_apcu_settings;

/* The settings are the apcu module's globals (per thread under ZTS: PHP_INI_ALL ones may differ). */
typedef php_table_apcu_settings zend_table_apcu_globals;
ZEND_EXTERN_MODULE_GLOBALS(table_apcu)
#define PHP_TABLE_APCU_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(table_apcu, v)
/* apc.enabled, and not the CLI unless apc.enable_cli (APCu's rule): the process's, set in MINIT. */
extern PHP_TABLE_HIDDEN bool php_table_apcu_active;
/* PHP_TABLE_APCU_NS as a persistent interned string, for the helpers that take a namespace name. */
extern PHP_TABLE_HIDDEN zend_string *php_table_apcu_ns;

/* The table for an apcu_* call, or NULL when APCu's answer is "disabled": apc.enabled=0, the CLI without
 * apc.enable_cli, or the table unavailable (then one E_WARNING per request names the reason, instead of
 * Shm\Table's exception: APCu applications expect false, and must still be told). Inline for the usual
 * case, an attached table; php_table_apcu_module.c has the rest. */
PHP_TABLE_HIDDEN tbl_t *php_table_apcu_table_slow(bool quiet);

static zend_always_inline tbl_t *php_table_apcu_table(bool quiet)
{
	if (EXPECTED(php_table_apcu_active) && EXPECTED(php_table_tbl != NULL)) {
		return php_table_tbl;
	}
	return php_table_apcu_table_slow(quiet);
}

/* The apcu namespace for a read (1 found, 0 never created, -1 thrown) or a write (false: thrown), looked
 * up by name: for the calls that scan or clear it (info, the iterator, apcu_clear_cache) and rare paths. */
static zend_always_inline int php_table_apcu_ns_read(tbl_t *t, tbl_ns_t *out)
{
	return php_table_ns_read(t, php_table_apcu_ns, out);
}

static zend_always_inline bool php_table_apcu_ns_write(tbl_t *t, tbl_ns_t *out)
{
	return php_table_ns_write(t, php_table_apcu_ns, out);
}

/* ---- the apcu namespace, resolved once per process -------------------------------------------------
 * Looking "apcu" up by name cost about 170 instructions of an apcu_fetch (tbl_ns_find) and 260 of an
 * apcu_inc (tbl_ns_get, which also reads the clock), as much as the key's own lookup. The per-key
 * functions keep the handle instead, as Shm\Table's default namespace needs no lookup: it stays valid
 * while the table is the same (`t`) and php_table_ns_epoch has not moved (php_table_default_ns_update: a
 * table attached again, a user view started or forgotten). A handle can still go stale when the
 * namespace, left empty, is recycled under another name: the core then answers a read through it with
 * a miss and a write with TBL_ESTALE. So a miss or "not found" through a kept handle asks the name again
 * (php_table_apcu_ns_recheck) and a write's TBL_ESTALE resolves it again (php_table_apcu_ns_refresh):
 * what was looked up per call is now looked up per miss. The cost: tbl_ns_get's touch of the record's
 * last_get (recycling prefers namespaces writers resolved least recently) happens on the first write
 * only; the namespace still cannot be recycled while it holds an entry. */
typedef struct php_table_apcu_ns_cache {
	tbl_t *t;          /* the table it was resolved in; NULL: nothing kept */
	uint32_t epoch;    /* php_table_ns_epoch then */
	tbl_ns_t ns;
} php_table_apcu_ns_cache;

/* Per thread under ZTS (each thread has a handle of its own, `t`); a plain global otherwise. */
extern PHP_TABLE_HIDDEN TSRM_TLS php_table_apcu_ns_cache php_table_apcu_nsc;

/* php_table_apcu_functions.c: look the name up (creating it when `create`) and keep what was found.
 * 1 found, 0 never created (only without `create`), -1 thrown. */
PHP_TABLE_HIDDEN int php_table_apcu_ns_resolve(tbl_t *t, tbl_ns_t *out, bool create);
/* After a miss (or TBL_ENOTFOUND / TBL_ESTALE) through *ns: 1 when the name resolves to another handle
 * now (in *ns: try once more), 0 when the answer stands, -1 thrown. */
PHP_TABLE_HIDDEN int php_table_apcu_ns_recheck(tbl_t *t, tbl_ns_t *ns);

static zend_always_inline bool php_table_apcu_ns_kept(const tbl_t *t)
{
	return EXPECTED(php_table_apcu_nsc.t == t) && EXPECTED(php_table_apcu_nsc.epoch == php_table_ns_epoch_now());
}

/* As php_table_apcu_ns_read / _write, through the kept handle. */
static zend_always_inline int php_table_apcu_ns_read_kept(tbl_t *t, tbl_ns_t *out)
{
	if (php_table_apcu_ns_kept(t)) {
		*out = php_table_apcu_nsc.ns;
		return 1;
	}
	return php_table_apcu_ns_resolve(t, out, false);
}

static zend_always_inline bool php_table_apcu_ns_write_kept(tbl_t *t, tbl_ns_t *out)
{
	if (php_table_apcu_ns_kept(t)) {
		*out = php_table_apcu_nsc.ns;
		return true;
	}
	return php_table_apcu_ns_resolve(t, out, true) > 0;
}

/* A write through *ns answered `st`: on TBL_ESTALE, resolve the name again (recreating it) and say to
 * retry once, as php_table_ns_refresh does. */
static zend_always_inline bool php_table_apcu_ns_refresh(tbl_t *t, tbl_status_t st, tbl_ns_t *out)
{
	return UNEXPECTED(st == TBL_ESTALE) && php_table_apcu_ns_resolve(t, out, true) > 0;
}

/* An entry's expiry in APCu's terms: the TTL it was last written with (0: never expires). */
static zend_always_inline zend_long php_table_apcu_entry_ttl(const tbl_view_t *v)
{
	return v->expire && v->expire > v->updated ? (zend_long)(v->expire - v->updated) : 0;
}

#endif
