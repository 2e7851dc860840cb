/*
 * php_table_internal.h - what the binding's files share: the process state set up in MINIT, the
 * argument checks, and the inline read path (get() is benchmarked, so its helpers live here to inline).
 * Everything declared here is defined in binding/ (php_table_state.c, php_table_errors.c,
 * php_table_values.c and the method files), none of it in table.c, which only calls down.
 *
 * Not installed; nothing outside this extension includes it.
 */
#ifndef PHP_TABLE_INTERNAL_H
#define PHP_TABLE_INTERNAL_H

#include "php.h"
#include "php_table.h"
#include "serializer/serializer.h"
#include "serializer/image.h"
#include "core/table_core.h"

#if defined(__GNUC__) || defined(__clang__)
# define PHP_TABLE_HIDDEN __attribute__((visibility("hidden")))
#else
# define PHP_TABLE_HIDDEN
#endif

#define PHP_TABLE_REMEMBER_WAIT_MS 10000u
#define PHP_TABLE_LOCK_TIMEOUT_MAX 3600000   /* table.lock_timeout's largest value, ms (an hour) */
#define PHP_TABLE_SCAN_CHUNK       1024u    /* buckets per read section in keys() and fullscan() */

/* Process state (php_table_state.c), set once in MINIT and inherited by forked children. */
#ifdef ZTS
/* Thread-safe PHP: the process's handle maps the segment, and each thread reads and writes through a
 * handle of its own (its reader slot, holds, claims, counters): php_table_tbl is the calling thread's. */
extern PHP_TABLE_HIDDEN tbl_t *php_table_proc;
# define php_table_tbl TABLE_G(tbl)                               /* NULL: disabled or unavailable */
/* GSHUTDOWN (table.c): close the thread's handle. */
PHP_TABLE_HIDDEN void php_table_thread_end(zend_table_globals *g);
#else
extern PHP_TABLE_HIDDEN tbl_t *php_table_tbl;                     /* NULL: disabled or unavailable */
# define php_table_proc php_table_tbl                             /* one handle per process */
#endif
extern PHP_TABLE_HIDDEN const php_table_serializer *php_table_ser;
extern PHP_TABLE_HIDDEN tbl_policy_t php_table_policy;
extern PHP_TABLE_HIDDEN const char *const php_table_policy_names[4];
extern PHP_TABLE_HIDDEN zend_class_entry *php_table_ce;
/* table.zero_copy as resolved for this process's SAPI, and the budget of bytes held by zero-copy readers
 * (all processes together) past which a read copies instead. */
extern PHP_TABLE_HIDDEN bool php_table_zero_copy;
/* This request holds zero-copy entries: get() looks among them first (tbl_lookup_held). */
#ifdef ZTS
# define php_table_holding TABLE_G(holding)
#else
extern PHP_TABLE_HIDDEN bool php_table_holding;
#endif
extern PHP_TABLE_HIDDEN uint64_t php_table_zero_copy_budget;
/* Unix seconds at which this process's MINIT created the segment (stats()['start_time']). */
extern PHP_TABLE_HIDDEN zend_long php_table_start_time;
/* table.segment: php_table_tbl is the named segment php_table_segment_path (attached on first use). */
#define PHP_TABLE_SEGMENT_NAME_MAX 64u
#define PHP_TABLE_SEGMENT_PATH_MAX 4096u
extern PHP_TABLE_HIDDEN bool php_table_named;
extern PHP_TABLE_HIDDEN char php_table_segment_name[PHP_TABLE_SEGMENT_NAME_MAX + 1];
extern PHP_TABLE_HIDDEN char php_table_segment_path[PHP_TABLE_SEGMENT_PATH_MAX];
/* Why the table is unavailable (phpinfo(), the exception), empty while it is available. */
#define PHP_TABLE_REASON_MAX 512u
extern PHP_TABLE_HIDDEN char php_table_reason[PHP_TABLE_REASON_MAX];

/* The Redis tier's switches (php_table_tier.c sets them when it resolves its settings; the namespaces'
 * fast path reads them): table.redis is set, and its namespaces include the default one (*). */
extern PHP_TABLE_HIDDEN bool php_table_tier_on;
extern PHP_TABLE_HIDDEN bool php_table_tier_default;

/* php_table_state.c: no table yet: attach the named segment (first use in this process), or throw. */
PHP_TABLE_HIDDEN tbl_t *php_table_handle_slow(void);
/* What the state needs of the files above it, handed down by table.c at MINIT so that nothing in the
 * state calls up (scripts/check-binding-layers.sh). */
typedef struct php_table_state_hooks {
	/* Validate the Redis tier's settings (php_table_tier_resolve), among the others: true when they are
	 * valid, else false with php_table_reason set (the table is then unavailable). Under NTS it runs again
	 * when a named segment is attached on first use (a php-fpm pool's php_admin_value); under ZTS only at
	 * MINIT, as threads read what it resolved without a lock. */
	bool (*resolve_tier)(void);
	/* A process's first request on the anonymous table: its user's view (php_table_user_view_start). */
	bool (*user_view_start)(tbl_t *t);
} php_table_state_hooks;
/* php_table_state.c, for table.c: MINIT (after the classes are registered) validates the INI values and
 * creates the anonymous segment, or leaves php_table_reason; MSHUTDOWN detaches. */
PHP_TABLE_HIDDEN void php_table_state_startup(const php_table_state_hooks *hooks);
#ifdef ZTS
/* The named segment's configuration as resolved at MINIT (its path, mode, version...), for a process
 * that attaches it on its own (the tier's launcher); NULL with no table.segment. */
PHP_TABLE_HIDDEN const tbl_config_t *php_table_state_named_config(void);
#endif
PHP_TABLE_HIDDEN void php_table_state_shutdown(void);
PHP_TABLE_HIDDEN void php_table_state_rinit(void);

/* php_table_state.c: throw "disabled" or "unavailable: <reason>". */
PHP_TABLE_HIDDEN ZEND_COLD void php_table_throw_unavailable(void);

/* php_table_errors.c. */
/* The one place a core status becomes a PHP outcome: true when it threw; false for the ordinary "no"
 * answers (missing, exists, mismatch, out of memory) that the caller returns as false/null. `key` is
 * named by the not-an-integer error; `size` is the encoded value size for the too-big error. */
PHP_TABLE_HIDDEN bool php_table_throw(tbl_t *t, tbl_status_t st, const zend_string *key, size_t size);

/* php_table_values.c: shared helpers. */
PHP_TABLE_HIDDEN zend_string *php_table_array_key(zend_ulong h, zend_string *skey, zval *val, bool from_value);
PHP_TABLE_HIDDEN bool php_table_check_key_list(HashTable *keys, uint32_t argnum);
/* `foreign`: how a value from outside this host's PHP is decoded (php_table_decode_ex; NULL: it is not one),
 * here and below. */
PHP_TABLE_HIDDEN zend_never_inline int php_table_fetch_serialized(tbl_t *t, const tbl_view_t *v, zval *rv,
                                                                  const php_table_foreign *foreign);
/* Strings up to this size are materialized without a bailout guard: hitting memory_limit while
 * allocating them is the rare case, and it only delays reclamation until the request ends. */
#define PHP_TABLE_UNGUARDED_BYTES 1024u
PHP_TABLE_HIDDEN int php_table_decode_guarded(tbl_t *t, const tbl_view_t *v, zval *rv);
/* An image (TBL_T_IMAGE): handed out as is, its entry held until the request ends, when zero-copy is
 * on and the budget allows; otherwise copied. Same results as php_table_fetch. */
PHP_TABLE_HIDDEN zend_never_inline int php_table_fetch_image(tbl_t *t, const tbl_view_t *v, zval *rv, int count);
/* A value stored in pieces (TBL_T_SPLIT in its type): copied together, the read section closed, then
 * materialized. Same results as php_table_fetch. */
PHP_TABLE_HIDDEN zend_never_inline int php_table_fetch_split(tbl_t *t, const tbl_view_t *v, zval *rv,
                                                             const php_table_foreign *foreign);
/* php_table_fetch for a process without a reader slot (every one is held by a live process): the value
 * is copied out under its stripe lock (tbl_lookup_copy) and materialized after. Not counted in stats. */
PHP_TABLE_HIDDEN zend_never_inline int php_table_fetch_slotless(tbl_t *t, tbl_ns_t ns, const zend_string *key,
                                                                zval *rv, tbl_view_t *meta,
                                                                const php_table_foreign *foreign);
PHP_TABLE_HIDDEN int php_table_peek(tbl_t *t, tbl_ns_t ns, const zend_string *key, tbl_view_t *meta);
PHP_TABLE_HIDDEN zend_long php_table_seconds_left(uint32_t expire);
PHP_TABLE_HIDDEN bool php_table_encode_arg(tbl_t *t, zval *value, uint32_t argnum, php_table_encoded *enc);
/* Encode `value` again, never as a zero-copy image (after TBL_ENOCONTIG: the table has no single block
 * for the image, but can store the compact encoding in pieces). false when it threw. */
PHP_TABLE_HIDDEN bool php_table_encode_compact_again(zval *value, uint32_t argnum, php_table_encoded *enc);
/* After TBL_ENOCONTIG: store the value again in its compact encoding. */
PHP_TABLE_HIDDEN zend_never_inline tbl_status_t php_table_store_compact(tbl_t *t, tbl_ns_t ns, const zend_string *key,
                                                                        zval *value, uint32_t argnum,
                                                                        php_table_encoded *enc, uint32_t ttl,
                                                                        tbl_store_mode_t mode);
/* tbl_store, and after TBL_ENOCONTIG the same value again in its compact encoding. */
static zend_always_inline tbl_status_t php_table_store_encoded(tbl_t *t, tbl_ns_t ns, const zend_string *key,
                                                               zval *value, uint32_t argnum, php_table_encoded *enc,
                                                               uint32_t ttl, tbl_store_mode_t mode)
{
	tbl_status_t st = tbl_store(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &enc->val, ttl, mode);

	return EXPECTED(st != TBL_ENOCONTIG) ? st : php_table_store_compact(t, ns, key, value, argnum, enc, ttl, mode);
}

/* php_table_tier.c: tiered namespaces (table.redis). PHP_TABLE_TIERED(ns) says whether a call on `ns`
 * goes through the tier; each php_table_tier_* does one method's work there and throws on failure, except
 * under table.redis_on_error=miss, where a failure is a miss or a false return without an exception
 * (the callers test EG(exception) where false alone cannot tell). */
/* For table.c, in every build: validate the settings (false with php_table_reason set; without hiredis,
 * table.redis set is refused), handed to php_table_state_startup; then, once the table is open, start
 * the tier (under ZTS: its helper launcher); MSHUTDOWN. */
PHP_TABLE_HIDDEN bool php_table_tier_resolve(void);
PHP_TABLE_HIDDEN void php_table_tier_startup(void);
PHP_TABLE_HIDDEN void php_table_tier_shutdown(void);
#ifdef HAVE_TABLE_HIREDIS
PHP_TABLE_HIDDEN bool php_table_tier_covers(const zend_string *ns);
# define PHP_TABLE_TIERED(ns) (UNEXPECTED(php_table_tier_on) && php_table_tier_covers(ns))
# ifdef ZTS
/* GSHUTDOWN (table.c): close the thread's Redis connection. */
PHP_TABLE_HIDDEN void php_table_tier_thread_end(zend_table_globals *g);
/* php_table_tier_launcher.c: the process that forks helpers for a threaded one. Start it (MINIT, while
 * the process is single-threaded; false when it could not be, and then no helper is started: reads go to
 * Redis); ask it for a helper of the anonymous segment or of the named one (never blocks; a request that
 * finds the pipe full is dropped, as one is pending); stop it (MSHUTDOWN). */
struct tbl_tier_config;
PHP_TABLE_HIDDEN bool php_table_tier_launcher_start(const struct tbl_tier_config *cfg);
PHP_TABLE_HIDDEN void php_table_tier_launcher_request(bool named);
PHP_TABLE_HIDDEN void php_table_tier_launcher_stop(void);
# endif
PHP_TABLE_HIDDEN void php_table_tier_stats(zval *out);
/* 1 hit, 0 miss, -1 thrown (as php_table_fetch). */
PHP_TABLE_HIDDEN int php_table_tier_fetch(tbl_t *t, zend_string *ns, zend_string *key, zval *rv);
PHP_TABLE_HIDDEN bool php_table_tier_get(tbl_t *t, zend_string *ns, zend_string *key, zval *rv);
PHP_TABLE_HIDDEN bool php_table_tier_fetch_many(tbl_t *t, zend_string *ns, HashTable *keys, zval *rv);
PHP_TABLE_HIDDEN bool php_table_tier_exists(tbl_t *t, zend_string *ns, zend_string *key, int *found);
PHP_TABLE_HIDDEN bool php_table_tier_ttl(tbl_t *t, zend_string *ns, zend_string *key, zend_long *secs, bool *found);
PHP_TABLE_HIDDEN int php_table_tier_store(tbl_t *t, zend_string *ns, zend_string *key, zval *value, uint32_t ttl,
                                          bool only_if_absent);
PHP_TABLE_HIDDEN bool php_table_tier_store_many(tbl_t *t, zend_string *ns, HashTable *values, uint32_t ttl);
PHP_TABLE_HIDDEN int php_table_tier_delete(tbl_t *t, zend_string *ns, zend_string *key);
PHP_TABLE_HIDDEN zend_long php_table_tier_delete_many(tbl_t *t, zend_string *ns, HashTable *keys);
PHP_TABLE_HIDDEN bool php_table_tier_incr(tbl_t *t, zend_string *ns, zend_string *key, int64_t by, uint32_t ttl,
                                          int64_t *result);
PHP_TABLE_HIDDEN int php_table_tier_touch(tbl_t *t, zend_string *ns, zend_string *key, uint32_t ttl);
PHP_TABLE_HIDDEN int php_table_tier_compare_and_swap(tbl_t *t, zend_string *ns, zend_string *key, zval *expected,
                                                     zval *value);
PHP_TABLE_HIDDEN bool php_table_tier_clear(tbl_t *t, zend_string *ns);
PHP_TABLE_HIDDEN bool php_table_tier_get_with_meta(tbl_t *t, zend_string *ns, zend_string *key, zval *rv);
PHP_TABLE_HIDDEN int php_table_tier_remember(tbl_t *t, zend_string *ns, zend_string *key, uint32_t ttl,
                                             zend_fcall_info *fci, zend_fcall_info_cache *fcc, zval *rv);
#else
# define PHP_TABLE_TIERED(ns) 0
#endif

/* Called by table.c, from above: */
/* php_table_testhooks.c: the test-only functions, when TABLE_TEST_HOOKS=1 (MINIT). */
PHP_TABLE_HIDDEN void php_table_testhooks_register(int module_number);
/* php_table_remember.c: release the claims a request still holds (RSHUTDOWN, after a bailout). */
PHP_TABLE_HIDDEN void php_table_claims_release_all(tbl_t *t);
/* php_table_remember.c: remember()'s work once its arguments are checked (a namespace not tiered): the
 * value of `key`, or $compute's (called with fci's own params) stored with `ttl`, computed at most once
 * across processes per miss. For remember() and, from above, apcu_entry(). */
PHP_TABLE_HIDDEN void php_table_remember_key(tbl_t *t, zend_string *ns, zend_string *key, uint32_t ttl,
                                             zend_fcall_info *fci, zend_fcall_info_cache *fcc, zval *return_value);
/* php_table_scan.c: drop the request's fullscan() generator closure (RSHUTDOWN). */
PHP_TABLE_HIDDEN void php_table_scan_rshutdown(void);

/* php_table_users.c: an anonymous table partitioned by user. php_table_user_tag_len is 0 in the processes
 * of the user that owns the table (and always for a named segment): they see it whole. (Defined in the
 * state, whose php_table_default_ns_update reads it; set by php_table_users.c.) */
extern PHP_TABLE_HIDDEN size_t php_table_user_tag_len;
/* The default namespace (null) is more than TBL_NS_DEFAULT here: it is tiered (table.redis_namespaces
 * has *), or this process sees its user's own. One flag, so that get()'s fast path tests one thing. */
extern PHP_TABLE_HIDDEN bool php_table_default_ns_slow;
/* php_table_state.c: set it again from what it derives from, after either changes. */
PHP_TABLE_HIDDEN void php_table_default_ns_update(void);
/* Moved on by every php_table_default_ns_update(): a table attached (again) or a user view started or
 * forgotten, the events after which a namespace name may resolve otherwise. A layer that keeps a
 * namespace it resolved by name (the APCu layer's "apcu") keeps it while this has not moved. */
extern PHP_TABLE_HIDDEN uint32_t php_table_ns_epoch;
static zend_always_inline uint32_t php_table_ns_epoch_now(void)
{
	return __atomic_load_n(&php_table_ns_epoch, __ATOMIC_RELAXED);   /* one plain load; a thread may move it */
}
/* A process's first request on the anonymous table: claim it for this user, or see its own namespaces.
 * false (php_table_reason set) when this process cannot use the table. */
PHP_TABLE_HIDDEN bool php_table_user_view_start(tbl_t *t);
/* Tests (php_table_testhooks.c): forget the view, so that the next php_table_user_view_start looks again. */
PHP_TABLE_HIDDEN void php_table_user_view_forget(void);
/* As php_table_ns_read and php_table_ns_write, for a process that sees its user's namespaces. */
PHP_TABLE_HIDDEN int php_table_user_ns_read(tbl_t *t, const zend_string *ns, tbl_ns_t *out);
PHP_TABLE_HIDDEN bool php_table_user_ns_write(tbl_t *t, const zend_string *ns, tbl_ns_t *out);
/* Whether a namespace (the default one, or one of that stored name) is this process's to list, and under
 * what name. */
#define PHP_TABLE_NS_HIDDEN 0
#define PHP_TABLE_NS_SHOWN 1           /* under *shown (*shown_len bytes) */
#define PHP_TABLE_NS_SHOWN_DEFAULT 2   /* this process's default namespace (null) */
PHP_TABLE_HIDDEN int php_table_user_ns_shown(bool is_default, const char *name, size_t len, const char **shown,
                                             size_t *shown_len);

/* ---- argument checks (inline: every call makes them) ------------------------------------------------ */

static zend_always_inline bool php_table_key_ok(const zend_string *key)
{
	/* 1 .. TBL_KEY_MAX bytes, in one unsigned comparison. */
	return ZSTR_LEN(key) - 1 < TBL_KEY_MAX;
}

static zend_always_inline bool php_table_check_key(const zend_string *key, uint32_t argnum)
{
	if (EXPECTED(php_table_key_ok(key))) {
		return true;
	}
	if (ZSTR_LEN(key) == 0) {
		zend_argument_value_error(argnum, "must not be empty");
	} else {
		zend_argument_value_error(argnum, "must be at most %u bytes long", TBL_KEY_MAX);
	}
	return false;
}

static zend_always_inline bool php_table_check_ns(const zend_string *ns, uint32_t argnum)
{
	if (EXPECTED(!ns) || EXPECTED(ZSTR_LEN(ns) - 1 < TBL_NS_NAME_MAX && ZSTR_VAL(ns)[0] != '\x01')) {
		return true;
	}
	if (ZSTR_LEN(ns) - 1 < TBL_NS_NAME_MAX) {
		/* php_table_users.c: the prefix of other users' namespaces. */
		zend_argument_value_error(argnum, "must not begin with the byte 0x01");
	} else {
		zend_argument_value_error(argnum, "must be between 1 and %u bytes long", TBL_NS_NAME_MAX);
	}
	return false;
}

static zend_always_inline bool php_table_check_expire(zend_long expire, bool is_null, uint32_t argnum,
                                                      uint32_t *ttl)
{
	if (is_null) {
		*ttl = 0;
		return true;
	}
	if (UNEXPECTED(expire < 0)) {
		zend_argument_value_error(argnum, "must be greater than or equal to 0");
		return false;
	}
	if (UNEXPECTED((zend_ulong)expire > TBL_EXPIRE_MAX)) {
		zend_argument_value_error(argnum, "must be less than or equal to %u", TBL_EXPIRE_MAX);
		return false;
	}
	*ttl = (uint32_t)expire;
	return true;
}

/* The table, or NULL with Shm\TableException thrown when it is disabled or unavailable. */
static zend_always_inline tbl_t *php_table_handle(void)
{
	if (EXPECTED(php_table_tbl != NULL)) {
		return php_table_tbl;
	}
	return php_table_handle_slow();
}

/* Namespace for a read: 1 found, 0 never created (a miss, nothing is created), -1 thrown. */
static zend_always_inline int php_table_ns_read(tbl_t *t, const zend_string *ns, tbl_ns_t *out)
{
	tbl_status_t st;

	if (UNEXPECTED(php_table_user_tag_len)) {
		return php_table_user_ns_read(t, ns, out);
	}
	if (EXPECTED(!ns)) {
		*out = TBL_NS_DEFAULT;
		return 1;
	}
	st = tbl_ns_find(t, ZSTR_VAL(ns), ZSTR_LEN(ns), out);
	if (EXPECTED(st == TBL_OK)) {
		return 1;
	}
	return php_table_throw(t, st, NULL, 0) ? -1 : 0;
}

/* Namespace for a write (created when new). false when it threw. */
static zend_always_inline bool php_table_ns_write(tbl_t *t, const zend_string *ns, tbl_ns_t *out);

/* A namespace that was empty can be recycled under another name between its lookup and a write; the
 * core then refuses the stale handle (TBL_ESTALE). Look the name up again (recreating it) so the caller
 * can retry once. */
static zend_always_inline bool php_table_ns_refresh(tbl_t *t, const zend_string *ns, tbl_status_t st,
                                                     tbl_ns_t *out)
{
	return UNEXPECTED(st == TBL_ESTALE) && php_table_ns_write(t, ns, out);
}

static zend_always_inline bool php_table_ns_write(tbl_t *t, const zend_string *ns, tbl_ns_t *out)
{
	tbl_status_t st;

	if (UNEXPECTED(php_table_user_tag_len)) {
		return php_table_user_ns_write(t, ns, out);
	}
	if (EXPECTED(!ns)) {
		*out = TBL_NS_DEFAULT;
		return true;
	}
	st = tbl_ns_get(t, ZSTR_VAL(ns), ZSTR_LEN(ns), out);
	if (EXPECTED(st == TBL_OK)) {
		return true;
	}
	php_table_throw(t, st, NULL, 0);
	return false;
}

/* ---- the read path ------------------------------------------------------------------------------- */

/* Look `key` up and materialize its value into `rv`. 1 hit, 0 miss (rv untouched), -1 thrown.
 * `meta` (optional) receives the entry's metadata. `count` says whether the lookup counts in stats.
 * `foreign` (php_table_decode_ex): NULL but for the copy of a Redis value in a tiered namespace
 * (php_table_tier.c); php_table_fetch passes NULL. */
static zend_always_inline int php_table_fetch_ex(tbl_t *t, tbl_ns_t ns, const zend_string *key, zval *rv,
                                                 tbl_view_t *meta, int count, const php_table_foreign *foreign)
{
	tbl_view_t v;
	tbl_status_t st;
	zend_result r;

	/* An array this request already holds is handed out again without a read section. The key is
	 * hashed once for both lookups. */
	if (php_table_holding) {
		uint64_t hash = tbl_hash_of(t, ns, ZSTR_VAL(key), ZSTR_LEN(key));

		if (tbl_lookup_held(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), hash, &v, count) == TBL_OK) {
			if (meta) {
				*meta = v;
			}
			if (count) {
				tbl_count_zero_copy_read(t);
			}
			php_table_image_zval(v.data, rv);
			return 1;
		}
		st = tbl_read_lookup_hashed(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), hash, &v, count);
	} else {
		st = tbl_read_lookup(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &v, count);
	}
	if (UNEXPECTED(st != TBL_OK && st != TBL_ENOTFOUND)) {
		if (st == TBL_ENOSLOT) {
			return php_table_fetch_slotless(t, ns, key, rv, meta, foreign);   /* every slot is taken: copy under a lock */
		}
		return php_table_throw(t, st, key, 0) ? -1 : 0;   /* no read section was opened */
	}
	if (st != TBL_OK) {
		tbl_read_end(t);
		return php_table_throw(t, st, key, 0) ? -1 : 0;
	}
	if (meta) {
		*meta = v;
	}
	if (EXPECTED(v.type == TBL_T_STRING) && EXPECTED(v.len <= PHP_TABLE_UNGUARDED_BYTES)) {
		/* The most common value, decoded right here (ZVAL_STRINGL_FAST interns 0/1-byte strings). */
		ZVAL_STRINGL_FAST(rv, (const char *)v.data, v.len);
		tbl_read_end(t);
		return 1;
	}
	if (v.type < TBL_T_STRING) {
		r = php_table_decode(v.type, v.data, v.len, rv);   /* inline scalars: nothing is allocated */
		tbl_read_end(t);
		return r == SUCCESS ? 1 : -1;
	}
	if (v.type == TBL_T_IMAGE) {
		return php_table_fetch_image(t, &v, rv, count);
	}
	if (UNEXPECTED(v.type & TBL_T_SPLIT)) {
		return php_table_fetch_split(t, &v, rv, foreign);
	}
	if (UNEXPECTED(php_table_decode_runs_user_code(v.type))) {
		return php_table_fetch_serialized(t, &v, rv, foreign);
	}
	return php_table_decode_guarded(t, &v, rv);
}

static zend_always_inline int php_table_fetch(tbl_t *t, tbl_ns_t ns, const zend_string *key, zval *rv,
                                              tbl_view_t *meta, int count)
{
	return php_table_fetch_ex(t, ns, key, rv, meta, count, NULL);
}

#endif
