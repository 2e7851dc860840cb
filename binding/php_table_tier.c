/*
 * php_table_tier.c - tiered namespaces: Redis is the store every host sees, this host's table is a
 * shared L1 in front of it (table.redis, table.redis_namespaces; docs/redis-tier.md).
 *
 * Reads: an L1 hit, while the helper process's freshness is younger than table.redis_max_stale, costs
 * no network. A miss (or a stale L1) reads Redis and, when the L1 is fresh, fills it with the key's
 * stamp taken before the read (core/tier.c): an invalidation that raced the read wins.
 * Writes: Redis first, atomically there (SET NX, a script for increments, cas and deleteIf), then the
 * key's copy on this host is invalidated, so that this process reads its own write at once. Nothing is
 * ever written only locally: when Redis fails, the call throws and the L1 is left as it was; or, with
 * table.redis_on_error=miss, a read misses (the L1 is consulted only while it is fresh, as always) and a
 * write returns false after dropping this host's copy, since the write may still land in Redis.
 *
 * Counters (stats()['redis'], core/tier.h): shared atomics in the segment, so exact across processes.
 * A call counts where it is answered: an L1 hit, or a read of Redis (and then a miss or a fill); a read
 * that skipped a stale L1 is a bypass; every failed call of Redis an error.
 *
 * Values are stored in Redis in the table's own compact encoding behind a marker, so every host with the
 * same settings reads them back identical: an integer as its decimal text (what INCRBY works on), any
 * other value as a NUL byte, the table's type byte, then the encoded bytes. Reading, only those forms
 * of the types written are accepted (tbl_frame_tier, core/frame.c): anything else in Redis is corrupt.
 * Objects in them are built only of the classes table.redis_allowed_classes lets through, checked each
 * time such a value is decoded, from Redis or from its copy in the L1 (which another process, with
 * another setting, may have filled).
 *
 * Settings: resolved once, at module start-up (table.c hands php_table_tier_resolve to the state's
 * validation, php_table_state_startup), and read-only afterwards, so that threads share them. Under NTS a
 * process that attaches a named segment on first use resolves them again then, before any call of its
 * could read them: a php-fpm pool's php_admin_value applies only in its workers (docs/redis-tier.md).
 *
 * The connection: one per process under NTS (a static, as before: nothing added to the hot path), one
 * per thread under ZTS (TABLE_G(tier_conn), closed at the thread's end by php_table_tier_thread_end, from
 * GSHUTDOWN). Either is opened on first use and dropped unwritten in a forked child.
 *
 * The helper (redis/tier_helper.c) is started when a call finds the L1 not fresh and no helper alive: under
 * NTS forked from the calling process, as before; under ZTS by the launcher (php_table_tier_launcher.c),
 * forked at MINIT while the process was still single-threaded, since a fork of a threaded process leaves
 * the child with every lock other threads held (in hiredis, OpenSSL, getaddrinfo, malloc arenas).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include "php_table_internal.h"
#include "core/platform.h"
#include "core/frame.h"

#ifdef HAVE_TABLE_HIREDIS

#include <inttypes.h>
#include <time.h>
#include <unistd.h>
#include "redis/redis_client.h"
#include "redis/redis_tracker.h"
#include "redis/tier_config.h"
#include "redis/tier_helper.h"
#include "core/tier.h"

#define PHP_TABLE_TIER_KEY_MAX (TBL_TIER_PREFIX_MAX + 8u + TBL_NS_NAME_MAX + 1u + TBL_KEY_MAX)
#define PHP_TABLE_TIER_ENSURE_EVERY_MS 200u   /* how often a process may look for a helper */

/* Resolved at start-up, read-only afterwards (php_table_tier_on and _default live in the state,
 * php_table_state.c, which the namespaces' fast path reads). */
static bool php_table_tier_miss_on_error;   /* table.redis_on_error=miss */
static tbl_tier_config_t php_table_tier_cfg;
/* Tests only (TABLE_TEST_HOOKS=1 and TABLE_TEST_TIER_NO_HELPER=1 at start-up): never ask for a helper, so
 * that the L1 stays not fresh and only this process writes the segment (ThreadSanitizer sees no other
 * process's writes, and tests/embed/run.sh's pass under it must not have a helper's reported as races). */
static bool php_table_tier_no_helper;
#ifdef ZTS
/* Each thread's (php_table.h's module globals). */
# define php_table_tier_conn TABLE_G(tier_conn)
# define php_table_tier_conn_pid TABLE_G(tier_conn_pid)
# define php_table_tier_next_ensure TABLE_G(tier_next_ensure)
#else
static tbl_redis_t *php_table_tier_conn;
static pid_t php_table_tier_conn_pid;
static uint64_t php_table_tier_next_ensure;
#endif
/* table.redis_allowed_classes: NULL for * (any class), else the lowercase names listed (none: empty).
 * Persistent; made again whenever the settings are (a named segment's first use in a process, which
 * sees a php-fpm pool's php_admin_value). */
static HashTable *php_table_tier_classes;
/* How the tier's values are decoded (php_table_decode_ex): .classes is php_table_tier_classes. */
static php_table_foreign php_table_tier_foreign;

/* ---- settings -------------------------------------------------------------------------------------- */

/* Whether `name` is a class name as PHP spells one: parts of [A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*
 * separated by single backslashes. */
static bool php_table_tier_class_name_ok(const char *name, size_t len)
{
	bool part_start = true;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c == '\\') {
			if (part_start) {
				return false;
			}
			part_start = true;
			continue;
		}
		if (!(c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c >= 0x80
		      || (!part_start && c >= '0' && c <= '9'))) {
			return false;
		}
		part_start = false;
	}
	return len > 0 && !part_start;
}

static void php_table_tier_classes_free(void)
{
	if (php_table_tier_classes) {
		zend_hash_destroy(php_table_tier_classes);
		pefree(php_table_tier_classes, 1);
		php_table_tier_classes = NULL;
	}
	php_table_tier_foreign.classes = NULL;
}

/* table.redis_allowed_classes: * (any class), none or empty (no class), or class names separated by
 * commas (blanks around each ignored, a leading backslash too; PHP's class names ignore ASCII case, so
 * the set holds them lowercased). false with php_table_reason set when it is not one of those. */
static bool php_table_tier_classes_resolve(void)
{
	const char *value = TABLE_G(redis_allowed_classes) ? TABLE_G(redis_allowed_classes) : "";
	const char *p = value, *end = value + strlen(value), *comma = NULL;
	const char *usage = "use *, none, or class names separated by commas";
	bool more;

	php_table_tier_classes_free();
	while (p < end && (*p == ' ' || *p == '\t')) {
		p++;
	}
	while (end > p && (end[-1] == ' ' || end[-1] == '\t')) {
		end--;
	}
	if (end - p == 1 && *p == '*') {
		return true;
	}
	php_table_tier_classes = pemalloc(sizeof(HashTable), 1);
	zend_hash_init(php_table_tier_classes, 8, NULL, NULL, 1);
	php_table_tier_foreign.classes = php_table_tier_classes;
	/* none (php.ini's parser reads an unquoted none as empty): the set stays empty */
	more = !(p == end || (end - p == 4 && zend_binary_strcasecmp(p, 4, "none", 4) == 0));
	for (p = value, end = value + strlen(value); more; p = more ? comma + 1 : end) {
		const char *a = p, *b;
		char lc[256];

		comma = memchr(p, ',', (size_t)(end - p));
		more = comma != NULL;
		b = comma ? comma : end;
		while (a < b && (*a == ' ' || *a == '\t')) {
			a++;
		}
		while (b > a && (b[-1] == ' ' || b[-1] == '\t')) {
			b--;
		}
		if (a == b) {
			snprintf(php_table_reason, sizeof(php_table_reason), "table.redis_allowed_classes=%.200s has an empty "
			         "name; %s", value, usage);
			return false;
		}
		if (b - a == 1 && *a == '*') {
			snprintf(php_table_reason, sizeof(php_table_reason), "table.redis_allowed_classes=%.200s: \"*\" is not a "
			         "class name; use * alone (any class), none, or class names separated by commas", value);
			return false;
		}
		if (b - a == 4 && zend_binary_strcasecmp(a, 4, "none", 4) == 0) {
			snprintf(php_table_reason, sizeof(php_table_reason), "table.redis_allowed_classes=%.200s: \"%.4s\" is not "
			         "a class name; use none alone (no class; \\None names a class None), *, or class names "
			         "separated by commas", value, a);
			return false;
		}
		if (!php_table_tier_class_name_ok(a + (*a == '\\'), (size_t)(b - a) - (*a == '\\'))
		    || (size_t)(b - a) >= sizeof(lc)) {
			snprintf(php_table_reason, sizeof(php_table_reason), "table.redis_allowed_classes=%.200s: \"%.*s\" is not "
			         "a class name; %s", value, (int)MIN(b - a, 200), a, usage);
			return false;
		}
		if (*a == '\\') {
			a++;
		}
		zend_str_tolower_copy(lc, a, (size_t)(b - a));
		zend_hash_str_add_empty_element(php_table_tier_classes, lc, (size_t)(b - a));
	}
	if (php_table_ser && php_table_ser->type == TBL_T_SERIAL_IGBINARY) {
		/* igbinary has no allowed-classes option, so the objects it stores could not be read back. */
		snprintf(php_table_reason, sizeof(php_table_reason), "table.redis_allowed_classes=%.200s cannot be enforced "
		         "with table.serializer=igbinary (igbinary cannot refuse a class); use table.serializer=php, or "
		         "table.redis_allowed_classes=*", zend_hash_num_elements(php_table_tier_classes) ? value : "none");
		return false;
	}
	return true;
}

/* table.redis_on_error: throw (the default) or miss. false with php_table_reason set otherwise. */
static bool php_table_tier_on_error_resolve(void)
{
	const char *v = TABLE_G(redis_on_error) ? TABLE_G(redis_on_error) : "";

	if (strcasecmp(v, "throw") == 0) {
		php_table_tier_miss_on_error = false;
		return true;
	}
	if (strcasecmp(v, "miss") == 0) {
		php_table_tier_miss_on_error = true;
		return true;
	}
	snprintf(php_table_reason, sizeof(php_table_reason), "table.redis_on_error=%.100s is not valid; use throw (a failed "
	         "Redis call throws) or miss (a failed read is a miss, a failed write returns false)", v);
	return false;
}

bool php_table_tier_resolve(void)
{
	const char *url = TABLE_G(redis) ? TABLE_G(redis) : "";
	const char *segment = TABLE_G(segment) ? TABLE_G(segment) : "";

	php_table_tier_on = php_table_tier_default = false;
	if (!url[0]) {
		return true;
	}
	if (tbl_tier_config_parse(&php_table_tier_cfg, url, TABLE_G(redis_namespaces) ? TABLE_G(redis_namespaces) : "",
	                          TABLE_G(redis_prefix) ? TABLE_G(redis_prefix) : "", TABLE_G(redis_timeout),
	                          TABLE_G(redis_max_stale), php_table_reason, sizeof(php_table_reason)) != 0) {
		return false;
	}
	if (!php_table_tier_on_error_resolve()) {
		return false;
	}
	/* The helper's process title names the segment (cut to fit: a title, not an identifier). */
	snprintf(php_table_tier_cfg.segment, sizeof(php_table_tier_cfg.segment), "%s", segment);
	if (!php_table_tier_classes_resolve()) {
		return false;
	}
	php_table_tier_on = true;
	php_table_tier_default = php_table_tier_cfg.all;
	return true;
}

void php_table_tier_startup(void)
{
	const char *hooks = getenv("TABLE_TEST_HOOKS"), *no_helper = getenv("TABLE_TEST_TIER_NO_HELPER");

	php_table_tier_no_helper = hooks && strcmp(hooks, "1") == 0 && no_helper && strcmp(no_helper, "1") == 0;
#ifdef ZTS
	if (php_table_tier_on) {
		php_table_tier_launcher_start(&php_table_tier_cfg);
	}
#endif
}

#ifdef ZTS
void php_table_tier_thread_end(zend_table_globals *g)
{
	if (g->tier_conn && g->tier_conn_pid == getpid()) {
		tbl_redis_free(g->tier_conn);
	}
	g->tier_conn = NULL;
}
#endif

void php_table_tier_shutdown(void)
{
#ifdef ZTS
	/* This thread's connection; other threads' go at their GSHUTDOWN. */
	php_table_tier_thread_end(ZEND_MODULE_GLOBALS_BULK(table));
	php_table_tier_launcher_stop();
#else
	if (php_table_tier_conn && php_table_tier_conn_pid == getpid()) {
		tbl_redis_free(php_table_tier_conn);
	}
	php_table_tier_conn = NULL;
#endif
	php_table_tier_classes_free();
	php_table_tier_on = php_table_tier_default = false;
}

bool php_table_tier_covers(const zend_string *ns)
{
	return ns ? tbl_tier_config_covers(&php_table_tier_cfg, ZSTR_VAL(ns), ZSTR_LEN(ns))
	          : tbl_tier_config_covers(&php_table_tier_cfg, "", 0);
}

void php_table_tier_stats(zval *out)
{
	tbl_tier_stats_t st;
	uint64_t c[TBL_TIER_NCOUNTERS];

	array_init(out);
	add_assoc_bool(out, "enabled", php_table_tier_on);
	if (!php_table_tier_on || !php_table_tbl) {
		return;
	}
	tbl_tier_stats(php_table_tbl, &st);
	add_assoc_bool(out, "fresh", st.fresh_ms != 0
	               && tbl_clock_monotonic_ms() - st.fresh_ms <= php_table_tier_cfg.max_stale_ms);
	add_assoc_long(out, "fresh_age_ms", st.fresh_ms ? (zend_long)(tbl_clock_monotonic_ms() - st.fresh_ms) : -1);
	add_assoc_long(out, "helper_pid", st.helper_pid);
	add_assoc_long(out, "helper_starts", (zend_long)st.helper_starts);
	add_assoc_long(out, "invalidations", (zend_long)st.invalidations);
	add_assoc_long(out, "flushes", (zend_long)st.flushes);
	add_assoc_string(out, "tracking", (char *)tbl_redis_tracker_mode());
	tbl_tier_counters(php_table_tbl, c);
	add_assoc_long(out, "reads", (zend_long)c[TBL_TIER_READS]);
	add_assoc_long(out, "l1_hits", (zend_long)c[TBL_TIER_L1_HITS]);
	add_assoc_long(out, "misses", (zend_long)c[TBL_TIER_MISSES]);
	add_assoc_long(out, "fills", (zend_long)c[TBL_TIER_FILLS]);
	add_assoc_long(out, "errors", (zend_long)c[TBL_TIER_ERRORS]);
	add_assoc_long(out, "reconnects", (zend_long)c[TBL_TIER_RECONNECTS]);
	add_assoc_long(out, "failovers", (zend_long)c[TBL_TIER_FAILOVERS]);
	add_assoc_long(out, "bypasses", (zend_long)c[TBL_TIER_BYPASSES]);
}

/* A connection of this process opened again after one was lost (redis_client.h). */
static void php_table_tier_reconnected(void *ctx)
{
	(void)ctx;
	if (php_table_tbl) {
		tbl_tier_count(php_table_tbl, TBL_TIER_RECONNECTS, 1);
	}
}

/* ---- the connection and errors ------------------------------------------------------------------- */

static tbl_redis_t *php_table_tier_redis(void)
{
	pid_t me = getpid();

	if (php_table_tier_conn && php_table_tier_conn_pid != me) {
		tbl_redis_forget(php_table_tier_conn);   /* the parent's socket: never written from here */
		php_table_tier_conn = NULL;
	}
	if (!php_table_tier_conn) {
		php_table_tier_conn = tbl_redis_new(&php_table_tier_cfg.url, php_table_tier_cfg.timeout_ms);
		php_table_tier_conn_pid = me;
		if (php_table_tier_conn) {
			tbl_redis_on_reconnect(php_table_tier_conn, php_table_tier_reconnected, NULL);
		} else {
			zend_string *fn = get_active_function_or_method_name();

			zend_throw_exception_ex(php_table_exception_ce, 0, "%s(): out of memory for the Redis connection",
			                        ZSTR_VAL(fn));
			zend_string_release(fn);
		}
	}
	return php_table_tier_conn;
}

/* What a Redis status means for the call. */
typedef enum {
	PHP_TABLE_TIER_ANSWERED = 0,   /* OK or NIL: go on */
	PHP_TABLE_TIER_THREW,          /* a value's error (not an integer, overflow), or a failure under throw */
	PHP_TABLE_TIER_FAILED          /* a failure under table.redis_on_error=miss: a miss, or false; nothing thrown */
} php_table_tier_outcome_t;

/* The one place a Redis status becomes an exception (or, on_error=miss, a miss). Failures are counted. */
static php_table_tier_outcome_t php_table_tier_outcome(tbl_t *t, tbl_redis_status_t st, const zend_string *key)
{
	switch (st) {
		case TBL_REDIS_OK:
		case TBL_REDIS_NIL:
			return PHP_TABLE_TIER_ANSWERED;
		case TBL_REDIS_ETYPE:
			return php_table_throw(t, TBL_ETYPE, key, 0) ? PHP_TABLE_TIER_THREW : PHP_TABLE_TIER_ANSWERED;
		case TBL_REDIS_EOVERFLOW:
			return php_table_throw(t, TBL_EOVERFLOW, key, 0) ? PHP_TABLE_TIER_THREW : PHP_TABLE_TIER_ANSWERED;
		default: {
			zend_string *fn;

			tbl_tier_count(t, TBL_TIER_ERRORS, 1);
			if (php_table_tier_miss_on_error) {
				return PHP_TABLE_TIER_FAILED;
			}
			fn = get_active_function_or_method_name();
			zend_throw_exception_ex(php_table_exception_ce, 0, "%s(): Redis (table.redis) failed: %s; nothing was "
			                        "changed on this host", ZSTR_VAL(fn), tbl_redis_last_error(php_table_tier_conn));
			zend_string_release(fn);
			return PHP_TABLE_TIER_THREW;
		}
	}
}

/* The key's name in Redis, emalloc'd; NULL (with *len 0) never happens for valid arguments. */
static char *php_table_tier_key(const zend_string *ns, const zend_string *key, size_t *len)
{
	size_t cap = php_table_tier_cfg.prefix_len + 8u + (ns ? ZSTR_LEN(ns) : 0) + 1u + ZSTR_LEN(key);
	char *out = emalloc(cap);

	*len = tbl_tier_redis_key(&php_table_tier_cfg, ns ? ZSTR_VAL(ns) : "", ns ? ZSTR_LEN(ns) : 0, ZSTR_VAL(key),
	                          ZSTR_LEN(key), out, cap);
	ZEND_ASSERT(*len != 0);
	return out;
}

/* ---- freshness ----------------------------------------------------------------------------------- */

/* Whether the L1 may be trusted now. When it may not, start a helper if none lives (at most every
 * PHP_TABLE_TIER_ENSURE_EVERY_MS per process). */
static bool php_table_tier_fresh(tbl_t *t)
{
	uint64_t fresh = tbl_tier_fresh_ms(t), now = tbl_clock_monotonic_ms();

	if (fresh != 0 && now - fresh <= php_table_tier_cfg.max_stale_ms) {
		return true;
	}
	if (now >= php_table_tier_next_ensure && !php_table_tier_no_helper) {
		php_table_tier_next_ensure = now + PHP_TABLE_TIER_ENSURE_EVERY_MS;
#ifdef ZTS
		/* Never fork here: other threads may hold locks the child would inherit held. */
		php_table_tier_launcher_request(TABLE_G(segment) && TABLE_G(segment)[0]);
#else
		tbl_tier_helper_ensure(t, &php_table_tier_cfg);
#endif
	}
	return false;
}

/* ---- values ---------------------------------------------------------------------------------------- */

/* Encode `value` for Redis into `out` (a smart_str the caller frees). false when it threw. */
static bool php_table_tier_encode(zval *value, uint32_t argnum, smart_str *out)
{
	php_table_encoded enc;

	ZVAL_DEREF(value);
	if (Z_TYPE_P(value) == IS_LONG) {
		smart_str_append_long(out, Z_LVAL_P(value));
		return true;
	}
	if (php_table_encode_compact(value, php_table_ser, argnum, &enc) != SUCCESS) {
		php_table_encoded_free(&enc);
		return false;
	}
	smart_str_appendc(out, '\0');
	smart_str_appendc(out, (char)enc.val.type);
	smart_str_appendl(out, (const char *)enc.val.data, enc.val.len);
	php_table_encoded_free(&enc);
	return true;
}

/* Materialize what Redis returned into rv, and fill the L1 with it when `stamp` allows (fill non-zero).
 * 1 done, -1 thrown. */
static int php_table_tier_materialize(tbl_t *t, tbl_ns_t nsid, const zend_string *key, const tbl_redis_buf_t *b,
                                      int64_t pttl, bool fill, uint64_t stamp, zval *rv, uint32_t *len)
{
	tbl_value_t v;
	int64_t scratch;
	const char *why;

	/* Anyone who can write to the Redis can put any bytes there: only what the tier writes is decoded
	 * (core/frame.c), never a zero-copy image, and no declared length is trusted. */
	if (tbl_frame_tier(b->data, b->len, &v, &scratch, &why) != TBL_OK) {
		char msg[256];

		snprintf(msg, sizeof(msg), "a Redis value of a tiered namespace that this extension does not write: %s", why);
		php_table_throw_corrupt(msg);
		return -1;
	}
	if (php_table_decode_ex(v.type, v.data, v.len, &php_table_tier_foreign, rv) != SUCCESS) {
		return -1;
	}
	if (len) {
		*len = (uint32_t)v.len;
	}
	if (fill && (pttl == -1 || pttl >= 1000)) {
		/* The copy expires no later than the key: whole seconds, rounded down. */
		uint32_t ttl = pttl == -1 ? 0 : (uint32_t)MIN((uint64_t)pttl / 1000u, (uint64_t)TBL_EXPIRE_MAX);

		/* Refused (the stamp moved) or no room: a later miss. */
		if (tbl_fill(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key), &v, ttl, stamp) == TBL_OK) {
			tbl_tier_count(t, TBL_TIER_FILLS, 1);
		}
	}
	return 1;
}

/* ---- reads ----------------------------------------------------------------------------------------- */

/* What getWithMeta() tells of a tiered key's value. */
typedef struct php_table_tier_meta {
	bool cached;         /* answered by the L1 */
	tbl_view_t view;     /* the L1 copy's (cached) */
	uint32_t len;        /* the value's bytes, encoded (not cached) */
	int64_t pttl;        /* Redis's PTTL (not cached) */
} php_table_tier_meta;

/* get(), and getWithMeta() with `meta`. 1 found, 0 missing (or, on_error=miss, Redis failed), -1 thrown. */
static int php_table_tier_fetch_meta(tbl_t *t, zend_string *ns, zend_string *key, zval *rv, php_table_tier_meta *meta)
{
	tbl_redis_t *r;
	tbl_ns_t nsid;
	tbl_redis_buf_t b = { NULL, 0 };
	tbl_redis_status_t st;
	uint64_t stamp = 0;
	int64_t pttl = -1;
	bool fresh;
	char *rkey;
	size_t rlen;
	int res;

	/* The namespace exists before the stamp is taken (tier_helper.c relies on it). */
	if (!php_table_ns_write(t, ns, &nsid)) {
		return -1;
	}
	fresh = php_table_tier_fresh(t);
	if (fresh) {
		if ((res = php_table_fetch_ex(t, nsid, key, rv, meta ? &meta->view : NULL, 1, &php_table_tier_foreign)) != 0) {
			if (res > 0) {
				tbl_tier_count_l1_hit(t);
				if (meta) {
					meta->cached = true;
				}
			}
			return res;
		}
		stamp = tbl_tier_stamp(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key));
	} else {
		tbl_tier_count(t, TBL_TIER_BYPASSES, 1);
	}
	if (!(r = php_table_tier_redis())) {
		return -1;
	}
	tbl_tier_count(t, TBL_TIER_READS, 1);
	rkey = php_table_tier_key(ns, key, &rlen);
	st = tbl_redis_get_pttl(r, rkey, rlen, &b, &pttl);
	efree(rkey);
	switch (php_table_tier_outcome(t, st, key)) {
		case PHP_TABLE_TIER_THREW:
			return -1;
		case PHP_TABLE_TIER_FAILED:
			tbl_tier_count(t, TBL_TIER_MISSES, 1);
			return 0;
		default:
			break;
	}
	if (st == TBL_REDIS_NIL) {
		tbl_tier_count(t, TBL_TIER_MISSES, 1);
		return 0;
	}
	res = php_table_tier_materialize(t, nsid, key, &b, pttl, fresh, stamp, rv, meta ? &meta->len : NULL);
	tbl_redis_buf_free(&b);
	if (res > 0 && meta) {
		meta->cached = false;
		meta->pttl = pttl;
	}
	return res;
}

int php_table_tier_fetch(tbl_t *t, zend_string *ns, zend_string *key, zval *rv)
{
	return php_table_tier_fetch_meta(t, ns, key, rv, NULL);
}

/* getWithMeta() on a tiered namespace: [value, meta], or false when missing. Redis keeps no creation or
 * update time: `created` and `updated` are when this host's copy was made (a copy is never updated, a
 * write drops it) or, for a value read from Redis, the time of this read. false when it threw. */
bool php_table_tier_get_with_meta(tbl_t *t, zend_string *ns, zend_string *key, zval *rv)
{
	php_table_tier_meta meta;
	zval value, m;
	int res = php_table_tier_fetch_meta(t, ns, key, &value, &meta);
	zend_long now = (zend_long)time(NULL);

	if (res <= 0) {
		if (res == 0) {
			ZVAL_FALSE(rv);
		}
		return res == 0;
	}
	array_init_size(&m, 5);
	add_assoc_bool(&m, "cached", meta.cached);
	if (meta.cached) {
		add_assoc_long(&m, "length", meta.view.len);
		add_assoc_long(&m, "ttl", meta.view.expire ? php_table_seconds_left(meta.view.expire) : -1);
		add_assoc_long(&m, "created", meta.view.created);
		add_assoc_long(&m, "updated", meta.view.updated);
	} else {
		add_assoc_long(&m, "length", meta.len);
		add_assoc_long(&m, "ttl", meta.pttl < 0 ? -1 : (zend_long)((meta.pttl + 999) / 1000));
		add_assoc_long(&m, "created", now);
		add_assoc_long(&m, "updated", now);
	}
	array_init_size(rv, 2);
	add_next_index_zval(rv, &value);
	add_next_index_zval(rv, &m);
	return true;
}

/* get(): true when `ns` is tiered and the call was answered here (the value, null, or an exception). Kept
 * out of line, so that get() on a table without tiered namespaces pays one test. */
zend_never_inline ZEND_COLD bool php_table_tier_get(tbl_t *t, zend_string *ns, zend_string *key, zval *rv)
{
	if (!php_table_tier_covers(ns)) {
		return false;
	}
	php_table_tier_fetch(t, ns, key, rv);
	return true;
}

bool php_table_tier_exists(tbl_t *t, zend_string *ns, zend_string *key, int *found)
{
	tbl_ns_t nsid;
	tbl_redis_t *r;
	tbl_redis_status_t st;
	char *rkey;
	size_t rlen;

	bool fresh = php_table_tier_fresh(t);

	if (fresh && php_table_ns_read(t, ns, &nsid) > 0 && php_table_peek(t, nsid, key, NULL) > 0) {
		tbl_tier_count_l1_hit(t);
		*found = 1;
		return true;
	}
	if (EG(exception) || !(r = php_table_tier_redis())) {
		return false;
	}
	if (!fresh) {
		tbl_tier_count(t, TBL_TIER_BYPASSES, 1);
	}
	tbl_tier_count(t, TBL_TIER_READS, 1);
	rkey = php_table_tier_key(ns, key, &rlen);
	st = tbl_redis_exists(r, rkey, rlen);
	efree(rkey);
	*found = st == TBL_REDIS_OK;
	if (php_table_tier_outcome(t, st, key) == PHP_TABLE_TIER_THREW) {
		return false;
	}
	if (!*found) {
		tbl_tier_count(t, TBL_TIER_MISSES, 1);   /* not in Redis, or (on_error=miss) Redis failed */
	}
	return true;
}

/* ttl(): seconds left (rounded up), -1 none, 0 missing. false when it threw. */
bool php_table_tier_ttl(tbl_t *t, zend_string *ns, zend_string *key, zend_long *secs, bool *found)
{
	tbl_redis_t *r = php_table_tier_redis();
	tbl_redis_status_t st;
	int64_t ms = -1;
	char *rkey;
	size_t rlen;

	if (!r) {
		return false;
	}
	tbl_tier_count(t, TBL_TIER_READS, 1);
	rkey = php_table_tier_key(ns, key, &rlen);
	st = tbl_redis_pttl(r, rkey, rlen, &ms);
	efree(rkey);
	*found = st == TBL_REDIS_OK;
	*secs = ms < 0 ? -1 : (zend_long)((ms + 999) / 1000);
	return php_table_tier_outcome(t, st, key) != PHP_TABLE_TIER_THREW;   /* failed, on_error=miss: missing */
}

/* getMany(): hits of the L1 first (when fresh), the rest with one MGET, each with its PTTL in the same
 * round trip, so what it finds fills the L1 as get() does. */
bool php_table_tier_fetch_many(tbl_t *t, zend_string *ns, HashTable *keys, zval *rv)
{
	tbl_redis_t *r;
	tbl_ns_t nsid;
	bool fresh, ok = true;
	uint32_t n = zend_hash_num_elements(keys), missing = 0, i;
	zend_string **names;
	char **rkeys;
	size_t *rlens;
	uint64_t *stamps;
	int64_t *pttls;
	tbl_redis_buf_t *bufs;
	zval *zv;

	array_init_size(rv, n);
	if (n == 0) {
		return true;
	}
	if (!php_table_ns_write(t, ns, &nsid)) {
		return false;
	}
	fresh = php_table_tier_fresh(t);
	if (!fresh) {
		tbl_tier_count(t, TBL_TIER_BYPASSES, 1);
	}
	names = safe_emalloc(n, sizeof(*names), 0);
	rkeys = safe_emalloc(n, sizeof(*rkeys), 0);
	rlens = safe_emalloc(n, sizeof(*rlens), 0);
	stamps = safe_emalloc(n, sizeof(*stamps), 0);
	ZEND_HASH_FOREACH_VAL(keys, zv) {
		zend_string *key = php_table_array_key(0, NULL, zv, true);
		zval value;
		int res = fresh ? php_table_fetch_ex(t, nsid, key, &value, NULL, 1, &php_table_tier_foreign) : 0;

		if (res > 0) {
			tbl_tier_count_l1_hit(t);
			zend_symtable_update(Z_ARRVAL_P(rv), key, &value);
			zend_string_release(key);
			continue;
		}
		if (res < 0) {
			zend_string_release(key);
			ok = false;
			break;
		}
		stamps[missing] = fresh ? tbl_tier_stamp(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key)) : 0;
		names[missing] = key;
		rkeys[missing] = php_table_tier_key(ns, key, &rlens[missing]);
		missing++;
	} ZEND_HASH_FOREACH_END();
	if (ok && missing) {
		tbl_redis_status_t st = TBL_REDIS_ENOMEM;
		bool failed = false;

		bufs = ecalloc(missing, sizeof(*bufs));
		pttls = safe_emalloc(missing, sizeof(*pttls), 0);
		if ((r = php_table_tier_redis())) {
			tbl_tier_count(t, TBL_TIER_READS, 1);
			/* Expiries serve only to fill the L1, which is not filled while it is stale. */
			st = fresh ? tbl_redis_mget_pttl(r, missing, (const char *const *)rkeys, rlens, bufs, pttls)
			           : tbl_redis_mget(r, missing, (const char *const *)rkeys, rlens, bufs);
		}
		if (st != TBL_REDIS_OK) {
			/* on_error=miss: every key Redis was asked for is a miss */
			ok = r && php_table_tier_outcome(t, st, NULL) == PHP_TABLE_TIER_FAILED;
			failed = true;
		}
		for (i = 0; ok && i < missing; i++) {
			zval value;

			if (failed || !bufs[i].data) {
				tbl_tier_count(t, TBL_TIER_MISSES, 1);
				continue;
			}
			if (php_table_tier_materialize(t, nsid, names[i], &bufs[i], fresh ? pttls[i] : -1, fresh, stamps[i],
			                               &value, NULL) < 0) {
				ok = false;
				break;
			}
			zend_symtable_update(Z_ARRVAL_P(rv), names[i], &value);
		}
		for (i = 0; i < missing; i++) {
			tbl_redis_buf_free(&bufs[i]);
		}
		efree(bufs);
		efree(pttls);
	}
	for (i = 0; i < missing; i++) {
		zend_string_release(names[i]);
		efree(rkeys[i]);
	}
	efree(names);
	efree(rkeys);
	efree(rlens);
	efree(stamps);
	if (!ok) {
		zval_ptr_dtor(rv);
		ZVAL_NULL(rv);
	}
	return ok;
}

/* ---- writes ---------------------------------------------------------------------------------------- */

/* After a write in Redis: this host's copy goes (its stamp moves first). */
static void php_table_tier_invalidate_local(tbl_t *t, zend_string *ns, const zend_string *key)
{
	tbl_ns_t nsid;

	if (php_table_ns_read(t, ns, &nsid) > 0) {
		tbl_tier_invalidate(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key));
	}
	if (EG(exception)) {
		zend_clear_exception();   /* the write is done in Redis; the helper removes the copy anyway */
	}
}

/* What a write's Redis answer means for the method: -1 thrown, 0 failed under table.redis_on_error=miss
 * (no exception), 1 answered (st says what). A failed write may still land in Redis (a command that
 * went out before the connection broke), so this host then keeps no copy that could predate it. */
static int php_table_tier_write_outcome(tbl_t *t, tbl_redis_status_t st, zend_string *ns, const zend_string *key)
{
	switch (php_table_tier_outcome(t, st, key)) {
		case PHP_TABLE_TIER_THREW:
			return -1;
		case PHP_TABLE_TIER_FAILED:
			php_table_tier_invalidate_local(t, ns, key);
			return 0;
		default:
			return 1;
	}
}

/* set() / add(). 1 stored, 0 not (add: the key exists; on_error=miss: Redis failed), -1 thrown. */
int php_table_tier_store(tbl_t *t, zend_string *ns, zend_string *key, zval *value, uint32_t ttl, bool only_if_absent)
{
	smart_str enc = {0};
	tbl_redis_t *r;
	tbl_redis_status_t st;
	char *rkey;
	size_t rlen;
	int w;

	if (!php_table_tier_encode(value, 2, &enc)) {
		smart_str_free(&enc);
		return -1;
	}
	if (!(r = php_table_tier_redis())) {
		smart_str_free(&enc);
		return -1;
	}
	rkey = php_table_tier_key(ns, key, &rlen);
	st = tbl_redis_set(r, rkey, rlen, enc.s ? ZSTR_VAL(enc.s) : "", enc.s ? ZSTR_LEN(enc.s) : 0,
	                   (uint64_t)ttl * 1000u, only_if_absent);
	efree(rkey);
	smart_str_free(&enc);
	if ((w = php_table_tier_write_outcome(t, st, ns, key)) <= 0) {
		return w;
	}
	if (st == TBL_REDIS_OK) {
		php_table_tier_invalidate_local(t, ns, key);
	}
	return st == TBL_REDIS_OK;
}

/* delete(): 1 deleted, 0 missing, -1 thrown. */
int php_table_tier_delete(tbl_t *t, zend_string *ns, zend_string *key)
{
	tbl_redis_t *r = php_table_tier_redis();
	tbl_redis_status_t st;
	uint64_t deleted = 0;
	char *rkey;
	size_t rlen;
	int w;

	if (!r) {
		return -1;
	}
	rkey = php_table_tier_key(ns, key, &rlen);
	st = tbl_redis_del(r, 1, (const char *const *)&rkey, &rlen, &deleted);
	efree(rkey);
	if ((w = php_table_tier_write_outcome(t, st, ns, key)) <= 0) {
		return w;
	}
	php_table_tier_invalidate_local(t, ns, key);
	return deleted > 0;
}

/* deleteMany(): how many existed, or -1 thrown. */
zend_long php_table_tier_delete_many(tbl_t *t, zend_string *ns, HashTable *keys)
{
	uint32_t n = zend_hash_num_elements(keys), i = 0;
	zend_string **names;
	char **rkeys;
	size_t *rlens;
	tbl_redis_t *r;
	tbl_redis_status_t st = TBL_REDIS_ENOMEM;
	uint64_t deleted = 0;
	zval *zv;

	if (n == 0) {
		return 0;
	}
	names = safe_emalloc(n, sizeof(*names), 0);
	rkeys = safe_emalloc(n, sizeof(*rkeys), 0);
	rlens = safe_emalloc(n, sizeof(*rlens), 0);
	ZEND_HASH_FOREACH_VAL(keys, zv) {
		names[i] = php_table_array_key(0, NULL, zv, true);
		rkeys[i] = php_table_tier_key(ns, names[i], &rlens[i]);
		i++;
	} ZEND_HASH_FOREACH_END();
	php_table_tier_outcome_t out = PHP_TABLE_TIER_THREW;

	if ((r = php_table_tier_redis())) {
		st = tbl_redis_del(r, n, (const char *const *)rkeys, rlens, &deleted);
		out = php_table_tier_outcome(t, st, NULL);
	}
	for (i = 0; i < n; i++) {
		/* Done, or failed under on_error=miss (it may still land): no copy stays. */
		if (out != PHP_TABLE_TIER_THREW) {
			php_table_tier_invalidate_local(t, ns, names[i]);
		}
		zend_string_release(names[i]);
		efree(rkeys[i]);
	}
	efree(names);
	efree(rkeys);
	efree(rlens);
	if (out == PHP_TABLE_TIER_THREW) {
		return -1;
	}
	return out == PHP_TABLE_TIER_FAILED ? 0 : (zend_long)deleted;
}

/* setMany(): all or nothing (MULTI/EXEC). false when it threw. */
bool php_table_tier_store_many(tbl_t *t, zend_string *ns, HashTable *values, uint32_t ttl)
{
	uint32_t n = zend_hash_num_elements(values), i = 0, encoded = 0;
	zend_string **names;
	char **rkeys;
	size_t *rlens, *vlens;
	const void **vals;
	smart_str *enc;
	tbl_redis_t *r;
	tbl_redis_status_t st = TBL_REDIS_ENOMEM;
	zend_string *skey;
	zend_ulong h;
	zval *zv;
	bool ok = true;

	if (n == 0) {
		return true;
	}
	names = safe_emalloc(n, sizeof(*names), 0);
	rkeys = safe_emalloc(n, sizeof(*rkeys), 0);
	rlens = safe_emalloc(n, sizeof(*rlens), 0);
	vlens = safe_emalloc(n, sizeof(*vlens), 0);
	vals = safe_emalloc(n, sizeof(*vals), 0);
	enc = ecalloc(n, sizeof(*enc));
	ZEND_HASH_FOREACH_KEY_VAL(values, h, skey, zv) {
		if (!php_table_tier_encode(zv, 1, &enc[i])) {
			ok = false;
			break;
		}
		names[i] = php_table_array_key(h, skey, zv, false);
		rkeys[i] = php_table_tier_key(ns, names[i], &rlens[i]);
		vals[i] = enc[i].s ? ZSTR_VAL(enc[i].s) : "";
		vlens[i] = enc[i].s ? ZSTR_LEN(enc[i].s) : 0;
		i++;
	} ZEND_HASH_FOREACH_END();
	encoded = i;
	if (ok && (r = php_table_tier_redis())) {
		st = tbl_redis_set_many(r, n, (const char *const *)rkeys, rlens, vals, vlens, (uint64_t)ttl * 1000u);
		switch (php_table_tier_outcome(t, st, NULL)) {
			case PHP_TABLE_TIER_THREW:
				ok = false;
				break;
			case PHP_TABLE_TIER_FAILED:
				/* false without an exception; no copy stays (the MULTI may still land) */
				ok = false;
				for (i = 0; i < encoded; i++) {
					php_table_tier_invalidate_local(t, ns, names[i]);
				}
				break;
			default:
				break;
		}
	} else {
		ok = false;
	}
	for (i = 0; i < encoded; i++) {
		if (ok) {
			php_table_tier_invalidate_local(t, ns, names[i]);
		}
		zend_string_release(names[i]);
		efree(rkeys[i]);
	}
	for (i = 0; i < n; i++) {
		smart_str_free(&enc[i]);
	}
	efree(names);
	efree(rkeys);
	efree(rlens);
	efree(vlens);
	efree(vals);
	efree(enc);
	return ok;
}

/* increment()/decrement(): the new value, or false with *threw. */
bool php_table_tier_incr(tbl_t *t, zend_string *ns, zend_string *key, int64_t by, uint32_t ttl, int64_t *result)
{
	tbl_redis_t *r = php_table_tier_redis();
	tbl_redis_status_t st;
	char *rkey;
	size_t rlen;

	if (!r) {
		return false;
	}
	rkey = php_table_tier_key(ns, key, &rlen);
	st = tbl_redis_incrby(r, rkey, rlen, by, (uint64_t)ttl * 1000u, result);
	efree(rkey);
	if (php_table_tier_write_outcome(t, st, ns, key) <= 0) {
		return false;   /* thrown, or failed under on_error=miss: the method returns false */
	}
	php_table_tier_invalidate_local(t, ns, key);
	return true;
}

/* touch(): 1 done, 0 missing, -1 thrown. */
int php_table_tier_touch(tbl_t *t, zend_string *ns, zend_string *key, uint32_t ttl)
{
	tbl_redis_t *r = php_table_tier_redis();
	tbl_redis_status_t st;
	char *rkey;
	size_t rlen;
	int w;

	if (!r) {
		return -1;
	}
	rkey = php_table_tier_key(ns, key, &rlen);
	st = tbl_redis_expire(r, rkey, rlen, (uint64_t)ttl * 1000u);
	efree(rkey);
	if ((w = php_table_tier_write_outcome(t, st, ns, key)) <= 0) {
		return w;
	}
	if (st == TBL_REDIS_OK) {
		php_table_tier_invalidate_local(t, ns, key);
	}
	return st == TBL_REDIS_OK;
}

/* cas() (value non-NULL) and deleteIf() (value NULL): Redis compares the stored bytes with the encoding
 * of `expected`, in one script. 1 swapped, 0 not, -1 thrown. */
int php_table_tier_compare_and_swap(tbl_t *t, zend_string *ns, zend_string *key, zval *expected, zval *value)
{
	smart_str exp = {0}, val = {0};
	tbl_redis_t *r;
	tbl_redis_status_t st;
	char *rkey;
	size_t rlen;
	int res = -1, w;

	if (!php_table_tier_encode(expected, 2, &exp) || (value && !php_table_tier_encode(value, 3, &val))
	    || !(r = php_table_tier_redis())) {
		goto done;
	}
	rkey = php_table_tier_key(ns, key, &rlen);
	if (value) {
		st = tbl_redis_replace_if(r, rkey, rlen, ZSTR_VAL(exp.s), ZSTR_LEN(exp.s), val.s ? ZSTR_VAL(val.s) : "",
		                          val.s ? ZSTR_LEN(val.s) : 0);
	} else {
		st = tbl_redis_delete_if(r, rkey, rlen, ZSTR_VAL(exp.s), ZSTR_LEN(exp.s));
	}
	efree(rkey);
	if ((w = php_table_tier_write_outcome(t, st, ns, key)) <= 0) {
		res = w;
	} else if ((res = st == TBL_REDIS_OK)) {
		php_table_tier_invalidate_local(t, ns, key);
	}
done:
	smart_str_free(&exp);
	smart_str_free(&val);
	return res;
}

/* clear(): every key of the namespace in Redis, then this host's copies. false when it threw. */
bool php_table_tier_clear(tbl_t *t, zend_string *ns)
{
	tbl_redis_t *r = php_table_tier_redis();
	tbl_redis_status_t st;
	uint64_t deleted = 0, removed = 0;
	char prefix[TBL_TIER_PREFIX_MAX + 8u + TBL_NS_NAME_MAX + 1u];
	size_t plen;
	tbl_ns_t nsid;

	if (!r) {
		return false;
	}
	/* The Redis name of key "" is the namespace's prefix. */
	plen = tbl_tier_redis_key(&php_table_tier_cfg, ns ? ZSTR_VAL(ns) : "", ns ? ZSTR_LEN(ns) : 0, "", 0, prefix,
	                          sizeof(prefix));
	st = tbl_redis_del_prefix(r, prefix, plen, &deleted);
	switch (php_table_tier_outcome(t, st, NULL)) {
		case PHP_TABLE_TIER_THREW:
			return false;
		case PHP_TABLE_TIER_FAILED:
			/* Some keys may be gone from Redis: no copy stays here either. false, nothing thrown. */
			if (php_table_ns_read(t, ns, &nsid) > 0) {
				tbl_tier_advance_all(t);
				tbl_clear_ns(t, nsid, &removed);
			}
			if (EG(exception)) {
				zend_clear_exception();
			}
			return false;
		default:
			break;
	}
	if (php_table_ns_read(t, ns, &nsid) > 0) {
		tbl_tier_advance_all(t);
		tbl_clear_ns(t, nsid, &removed);
	}
	return !EG(exception);
}

/* ---- remember(): one computation across all hosts ------------------------------------------------- */

/* The lock's Redis name: the prefix, "lock:", then the rest of the key's name. The helper never takes it
 * for a key (a key's name continues with the namespace's length). */
static char *php_table_tier_lock_key(const zend_string *ns, const zend_string *key, size_t *len)
{
	size_t rlen, p = php_table_tier_cfg.prefix_len;
	char *rkey = php_table_tier_key(ns, key, &rlen), *out = emalloc(rlen + 5);

	memcpy(out, rkey, p);
	memcpy(out + p, "lock:", 5);
	memcpy(out + p + 5, rkey + p, rlen - p);
	efree(rkey);
	*len = rlen + 5;
	return out;
}

/* Call $compute and store its value in Redis. SUCCESS with the value in rv. */
static zend_result php_table_tier_compute(tbl_t *t, zend_string *ns, zend_string *key, uint32_t ttl,
                                          zend_fcall_info *fci, zend_fcall_info_cache *fcc, zval *rv, bool store)
{
	ZVAL_UNDEF(rv);
	fci->retval = rv;
	fci->param_count = 0;
	fci->named_params = NULL;
	if (zend_call_function(fci, fcc) != SUCCESS || EG(exception) || Z_TYPE_P(rv) == IS_UNDEF) {
		zval_ptr_dtor(rv);
		ZVAL_UNDEF(rv);
		return FAILURE;
	}
	if (Z_ISREF_P(rv)) {
		zend_unwrap_reference(rv);
	}
	if (store && php_table_tier_store(t, ns, key, rv, ttl, false) < 0) {
		zval_ptr_dtor(rv);
		ZVAL_UNDEF(rv);
		return FAILURE;
	}
	return SUCCESS;
}

/* remember() on a tiered namespace: a Redis key (SET NX PX) is the lock every host competes for; the
 * others poll the value, within PHP_TABLE_REMEMBER_WAIT_MS, then compute it themselves. -1 thrown. */
int php_table_tier_remember(tbl_t *t, zend_string *ns, zend_string *key, uint32_t ttl, zend_fcall_info *fci,
                            zend_fcall_info_cache *fcc, zval *rv)
{
	uint64_t deadline = tbl_clock_monotonic_ms() + PHP_TABLE_REMEMBER_WAIT_MS;
	char token[64], *lkey;
	size_t llen;
	long sleep_us = 1000;
	int res, tlen;

	if ((res = php_table_tier_fetch(t, ns, key, rv)) != 0) {
		return res;
	}
	tlen = snprintf(token, sizeof(token), "%ld.%" PRIu64 ".%p", (long)getpid(), (uint64_t)tbl_clock_monotonic_ms(),
	                (void *)rv);
	lkey = php_table_tier_lock_key(ns, key, &llen);
	for (;;) {
		tbl_redis_t *r = php_table_tier_redis();
		tbl_redis_status_t st;

		if (!r) {
			res = -1;
			break;
		}
		st = tbl_redis_set(r, lkey, llen, token, (size_t)tlen, PHP_TABLE_REMEMBER_WAIT_MS, 1);
		switch (php_table_tier_outcome(t, st, key)) {
			case PHP_TABLE_TIER_THREW:
				res = -1;
				break;
			case PHP_TABLE_TIER_FAILED:
				/* on_error=miss and Redis failed: the value, computed here, stored nowhere */
				res = php_table_tier_compute(t, ns, key, ttl, fci, fcc, rv, false) == SUCCESS ? 1 : -1;
				break;
			default:
				res = 0;
		}
		if (res != 0) {
			break;
		}
		if (st == TBL_REDIS_OK) {
			/* The previous holder may have stored it between our miss and our lock. */
			res = php_table_tier_fetch(t, ns, key, rv);
			if (res == 0) {
				res = php_table_tier_compute(t, ns, key, ttl, fci, fcc, rv, true) == SUCCESS ? 1 : -1;
			}
			tbl_redis_delete_if(r, lkey, llen, token, (size_t)tlen);   /* an error here: it expires */
			break;
		}
		if (tbl_clock_monotonic_ms() >= deadline) {
			/* The other host did not deliver in time: compute it here. */
			res = php_table_tier_compute(t, ns, key, ttl, fci, fcc, rv, true) == SUCCESS ? 1 : -1;
			break;
		}
		{
			struct timespec ts = { 0, sleep_us * 1000 };

			nanosleep(&ts, NULL);
		}
		if (sleep_us < 20000) {
			sleep_us *= 2;
		}
		if ((res = php_table_tier_fetch(t, ns, key, rv)) != 0) {
			break;
		}
	}
	efree(lkey);
	return res;
}

#else /* !HAVE_TABLE_HIREDIS */

/* table.redis in a build without the tier: refused, so that nothing the user meant for Redis stays local. */
bool php_table_tier_resolve(void)
{
	if (TABLE_G(redis) && TABLE_G(redis)[0]) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.redis is set, but this build of table lacks Redis; rebuild it with --with-table-hiredis "
			"(needs libhiredis-dev), or leave table.redis empty");
		return false;
	}
	return true;
}

void php_table_tier_startup(void)
{
}

void php_table_tier_shutdown(void)
{
}

#endif /* HAVE_TABLE_HIREDIS */
