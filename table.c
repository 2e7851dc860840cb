/*
 * table.c - the Zend binding of Shm\Table: INI, module lifecycle, errors, and the helpers the method
 * files in binding/ share (php_table_methods.c, php_table_remember.c, php_table_scan.c, php_table_ns.c,
 * php_table_metrics.c). The core (core/) does all table work and never calls back into PHP;
 * serializer/ encodes and decodes values.
 *
 * Rules every method follows:
 *   - Validate every argument before touching the table (ValueErrors name the argument).
 *   - Run all user code (encoding runs __serialize/__sleep, remember() runs $compute) before calling the
 *     core; the core never holds a lock while control is back in PHP.
 *   - A core status becomes a PHP outcome in exactly one place: php_table_throw().
 *   - Reads happen inside a read section (tbl_read_begin/end). Native values are materialized inside it
 *     (emalloc only, no user code); serialized ones are copied out and decoded after it is closed, since
 *     unserializing can run user code that might call back into the table.
 *
 * The segment is created in MINIT, before FPM or pcntl children fork, so every worker maps the same one.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <time.h>
#include <inttypes.h>
#include <errno.h>

#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "ext/spl/spl_exceptions.h"
#include "zend_exceptions.h"
#include "zend_objects.h"
#include "zend_smart_str.h"

#include "php_table.h"
#include "php_table_internal.h"
#include "core/platform.h"
#include "table_arginfo.h"
#include "serializer/image.h"
#include "serializer/compress.h"

ZEND_DECLARE_MODULE_GLOBALS(table)

zend_class_entry *php_table_exception_ce;
zend_class_entry *php_table_ce;

/* Process state (see php_table_internal.h). */
tbl_t *php_table_tbl;
const php_table_serializer *php_table_ser;
tbl_policy_t php_table_policy;
bool php_table_zero_copy;
bool php_table_holding;
uint64_t php_table_zero_copy_budget;
zend_long php_table_start_time;
const char *const php_table_policy_names[4] = { "noeviction", "lru", "random", "gdsf" };
static char php_table_reason[512];                   /* why the table is unavailable */
/* Named segments (table.segment): attached on first use in each process, after fork, so that php-fpm
 * workers see their pool's php_admin_value. php_table_anon is the anonymous segment MINIT made when no
 * name was set globally (a pool may still name one); php_table_named says php_table_tbl is a named one. */
static tbl_t *php_table_anon;
bool php_table_named;
char php_table_segment_name[PHP_TABLE_SEGMENT_NAME_MAX + 1];
char php_table_segment_path[PHP_TABLE_SEGMENT_PATH_MAX];

/* ---- INI ------------------------------------------------------------------------------------------- */

/* Values are validated in MINIT, not in the update handlers: an invalid one must make the table
 * unavailable with a message that names the setting, rather than silently fall back to a default. */
PHP_INI_BEGIN()
	STD_PHP_INI_BOOLEAN("table.enabled", "1", PHP_INI_SYSTEM, OnUpdateBool, enabled,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.memory", "64M", PHP_INI_SYSTEM, OnUpdateString, memory,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.eviction_policy", "gdsf", PHP_INI_SYSTEM, OnUpdateString, eviction_policy,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.serializer", "php", PHP_INI_SYSTEM, OnUpdateString, serializer,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.compression", "none", PHP_INI_SYSTEM, OnUpdateString, compression,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.compression_threshold", "512", PHP_INI_SYSTEM, OnUpdateString,
		compression_threshold, zend_table_globals, table_globals)
	STD_PHP_INI_BOOLEAN("table.relay_alias", "0", PHP_INI_SYSTEM, OnUpdateBool, relay_alias,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.zero_copy", "auto", PHP_INI_SYSTEM, OnUpdateString, zero_copy,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.zero_copy_budget", "", PHP_INI_SYSTEM, OnUpdateString, zero_copy_budget,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.segment", "", PHP_INI_SYSTEM, OnUpdateString, segment,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.segment_dir", "/dev/shm", PHP_INI_SYSTEM, OnUpdateString, segment_dir,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.segment_mode", "0600", PHP_INI_SYSTEM, OnUpdateString, segment_mode,
		zend_table_globals, table_globals)
	STD_PHP_INI_BOOLEAN("table.segment_recreate", "0", PHP_INI_SYSTEM, OnUpdateBool, segment_recreate,
		zend_table_globals, table_globals)
PHP_INI_END()

/* ---- errors ---------------------------------------------------------------------------------------- */

ZEND_COLD void php_table_throw_unavailable(void)
{
	if (!TABLE_G(enabled)) {
		zend_throw_exception(php_table_exception_ce,
			"Shm\\Table is disabled; set table.enabled=1 to use it", 0);
	} else {
		zend_throw_exception_ex(php_table_exception_ce, 0, "Shm\\Table is unavailable: %s", php_table_reason);
	}
}

/* Throw Shm\TableException with a binary-safe message (keys may hold NUL bytes). */
static ZEND_COLD void php_table_throw_str(zend_string *msg)
{
	zval ex, tmp;

	object_init_ex(&ex, php_table_exception_ce);
	ZVAL_STR(&tmp, msg);
	zend_update_property_ex(zend_ce_exception, Z_OBJ(ex), ZSTR_KNOWN(ZEND_STR_MESSAGE), &tmp);
	zend_string_release(msg);
	zend_throw_exception_object(&ex);
}

/* A key quoted in a message: printable ASCII as is, '"' and '\\' escaped with a backslash, any other
 * byte as \xHH, and at most PHP_TABLE_MSG_KEY_MAX bytes of it (then "..."). Keys are binary strings and
 * may be long; a message must stay one readable line. */
#define PHP_TABLE_MSG_KEY_MAX 64u
static void php_table_append_key(smart_str *msg, const zend_string *key)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = ZSTR_LEN(key) < PHP_TABLE_MSG_KEY_MAX ? ZSTR_LEN(key) : PHP_TABLE_MSG_KEY_MAX;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)ZSTR_VAL(key)[i];
		if (c == '"' || c == '\\') {
			smart_str_appendc(msg, '\\');
			smart_str_appendc(msg, (char)c);
		} else if (c < 32 || c > 126) {
			smart_str_appendl(msg, "\\x", 2);
			smart_str_appendc(msg, hex[c >> 4]);
			smart_str_appendc(msg, hex[c & 15]);
		} else {
			smart_str_appendc(msg, (char)c);
		}
	}
	if (ZSTR_LEN(key) > n) {
		smart_str_appendl(msg, "...", 3);
	}
}

bool php_table_throw(tbl_t *t, tbl_status_t st, const zend_string *key, size_t size)
{
	zend_string *fn;

	switch (st) {
		case TBL_OK:
		case TBL_ENOTFOUND:
		case TBL_EEXIST:
		case TBL_EMISMATCH:
		case TBL_ENOMEM:   /* counted in stats()['oom'] by the core */
		case TBL_ESTALE:   /* the namespace was emptied and recycled: nothing of it is left */
			return false;
		default:
			break;
	}

	fn = get_active_function_or_method_name();
	switch (st) {
		case TBL_ETOOBIG:
			zend_throw_exception_ex(php_table_exception_ce, 0,
				"%s(): value of %zu bytes does not fit in the table (at most %" PRIu64 " bytes; raise table.memory)",
				ZSTR_VAL(fn), size, tbl_value_max(t, key ? ZSTR_LEN(key) : 1));
			break;
		case TBL_ETYPE: {
			smart_str msg = {0};
			smart_str_append(&msg, fn);
			smart_str_appends(&msg, "(): the value of key \"");
			php_table_append_key(&msg, key);
			smart_str_appends(&msg, "\" is not an integer");
			smart_str_0(&msg);
			php_table_throw_str(msg.s);
			break;
		}
		case TBL_EFULL:
			/* add()/cas()/increment(): their false (or int) answers must not be mistaken for "no room";
			 * the core counted it in stats()['oom']. */
			zend_throw_exception_ex(php_table_exception_ce, 0,
				"%s(): out of memory: the table has no room for this value (raise table.memory%s)",
				ZSTR_VAL(fn), php_table_policy == TBL_POLICY_NOEVICTION
					? ", or set table.eviction_policy=gdsf" : "");
			break;
		case TBL_EOVERFLOW:
			zend_throw_exception_ex(php_table_exception_ce, 0, "%s(): integer overflow", ZSTR_VAL(fn));
			break;
		case TBL_ENSFULL:   /* tbl_ns_limit() counts the default namespace too */
			zend_throw_exception_ex(php_table_exception_ce, 0,
				"%s(): too many namespaces (at most %u, and none of them is empty)", ZSTR_VAL(fn), tbl_ns_limit(t) - 1);
			break;
		case TBL_ESYS:
			zend_throw_exception_ex(php_table_exception_ce, 0, "%s(): %s", ZSTR_VAL(fn), tbl_errstr(t));
			break;
		case TBL_ENOSLOT:
			zend_throw_exception_ex(php_table_exception_ce, 0,
				"%s(): %s: every reader slot is held by a live process", ZSTR_VAL(fn), tbl_status_str(st));
			break;
		default:
			zend_throw_exception_ex(php_table_exception_ce, 0, "%s(): %s", ZSTR_VAL(fn), tbl_status_str(st));
			break;
	}
	zend_string_release(fn);
	return true;
}

/* ---- helpers shared by the method files -------------------------------------------------------------- */

/* A key taken from a getMany/setMany/deleteMany array: a string, or an int used as its decimal form.
 * Returns the key (a new reference) or NULL when it breaks the key rule. */
zend_string *php_table_array_key(zend_ulong h, zend_string *skey, zval *val, bool from_value)
{
	if (from_value) {
		ZVAL_DEREF(val);
		if (Z_TYPE_P(val) == IS_STRING) {
			skey = Z_STR_P(val);
		} else if (Z_TYPE_P(val) == IS_LONG) {
			return zend_long_to_str(Z_LVAL_P(val));
		} else {
			return NULL;
		}
	} else if (!skey) {
		return zend_long_to_str((zend_long)h);
	}
	return php_table_key_ok(skey) ? zend_string_copy(skey) : NULL;
}

/* getMany() / deleteMany(): every element must be a valid key; checked before the table is touched.
 * A key of another type than string or int is a TypeError naming that type (no silent conversion of
 * 1.5, null or true), a string that breaks the length rule a ValueError. */
bool php_table_check_key_list(HashTable *keys, uint32_t argnum)
{
	zval *zv;

	ZEND_HASH_FOREACH_VAL(keys, zv) {
		ZVAL_DEREF(zv);
		if (Z_TYPE_P(zv) == IS_LONG || (Z_TYPE_P(zv) == IS_STRING && php_table_key_ok(Z_STR_P(zv)))) {
			continue;
		}
		if (Z_TYPE_P(zv) != IS_STRING) {
			zend_argument_type_error(argnum, "must contain only keys of type string or int, %s given",
				zend_zval_type_name(zv));
			return false;
		}
		zend_argument_value_error(argnum, "must contain only non-empty keys of at most %u bytes", TBL_KEY_MAX);
		return false;
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* Serialized values: copy the bytes out and close the read section before decoding, because
 * unserializing runs user code (__unserialize, __wakeup, autoloaders). */
/* Materialize a value inside the read section, closing the section even when PHP bails out of an
 * allocation (memory_limit): shutdown functions run before RSHUTDOWN, and nothing may stay pinned by
 * this process while they do. */
zend_never_inline int php_table_decode_guarded(tbl_t *t, const tbl_view_t *v, zval *rv)
{
	volatile zend_result r = FAILURE;

	zend_try {
		r = php_table_decode(v->type, v->data, v->len, rv);
	} zend_catch {
		tbl_read_end(t);
		zend_bailout();
	} zend_end_try();
	tbl_read_end(t);
	return r == SUCCESS ? 1 : -1;
}

zend_never_inline int php_table_fetch_serialized(tbl_t *t, const tbl_view_t *v, zval *rv)
{
	uint8_t type = v->type;
	uint32_t len = v->len;
	char *volatile buf = NULL;
	zend_result r;

	/* Copy the bytes out and leave the read section before unserializing: __wakeup() and
	 * __unserialize() are user code and may call into the table. */
	zend_try {
		buf = emalloc(len ? len : 1);
	} zend_catch {
		tbl_read_end(t);
		zend_bailout();
	} zend_end_try();
	memcpy(buf, v->data, len);
	tbl_read_end(t);
	r = php_table_decode(type, buf, len, rv);
	efree(buf);
	return r == SUCCESS ? 1 : -1;
}

zend_never_inline int php_table_fetch_split(tbl_t *t, const tbl_view_t *v, zval *rv)
{
	uint8_t type = (uint8_t)(v->type & ~TBL_T_SPLIT);
	zend_string *volatile bytes = NULL;
	zend_result r;

	zend_try {
		bytes = zend_string_alloc(v->len, 0);
	} zend_catch {
		tbl_read_end(t);
		zend_bailout();
	} zend_end_try();
	tbl_view_copy(t, v, ZSTR_VAL(bytes));
	ZSTR_VAL(bytes)[v->len] = '\0';
	tbl_read_end(t);
	if (type == TBL_T_STRING) {
		ZVAL_STR(rv, bytes);
		return 1;
	}
	r = php_table_decode(type, ZSTR_VAL(bytes), v->len, rv);
	zend_string_efree(bytes);
	return r == SUCCESS ? 1 : -1;
}

zend_never_inline int php_table_fetch_image(tbl_t *t, const tbl_view_t *v, zval *rv, int count)
{
	/* Hold just this entry until the request's memory is gone (post_deactivate); past the budget of held
	 * bytes, or this process's hold list, copy instead. */
	if (php_table_zero_copy && tbl_hold(t, v, php_table_zero_copy_budget) == TBL_OK) {
		if (count) {
			tbl_count_zero_copy_read(t);   /* a hit counted by tbl_lookup: copied_reads = hits - these */
		}
		php_table_image_zval(v->data, rv);
		tbl_read_end(t);
		php_table_holding = true;
		return 1;
	}
	return php_table_decode_guarded(t, v, rv);
}

zend_never_inline int php_table_fetch_slotless(tbl_t *t, tbl_ns_t ns, const zend_string *key, zval *rv,
                                               tbl_view_t *meta)
{
	void *volatile copy = NULL;
	volatile zend_result r = FAILURE;
	tbl_view_t v;
	tbl_status_t st;

	st = tbl_lookup_copy(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &v, (void **)&copy);
	if (st != TBL_OK) {
		free(copy);
		return php_table_throw(t, st, key, 0) ? -1 : 0;
	}
	if (meta) {
		*meta = v;   /* metadata only: v.data names the segment */
	}
	/* Decoding allocates request memory (and unserializing runs user code): free the copy on a bailout. */
	zend_try {
		if (v.type == TBL_T_IMAGE) {
			/* Its pointers name the creator's addresses (php_table_image_shift from ours). */
			r = php_table_image_copy_moved(copy, v.len, (const char *)v.data - php_table_image_shift, rv);
		} else {
			r = php_table_decode(v.type, copy ? copy : "", v.len, rv);
		}
	} zend_catch {
		free(copy);
		zend_bailout();
	} zend_end_try();
	free(copy);
	return r == SUCCESS ? 1 : -1;
}

/* Whether a live entry exists, without materializing it. 1 / 0 / -1 thrown. */
int php_table_peek(tbl_t *t, tbl_ns_t ns, const zend_string *key, tbl_view_t *meta)
{
	tbl_view_t v;
	tbl_status_t st;

	if (UNEXPECTED((st = tbl_read_begin(t)) != TBL_OK)) {
		if (st == TBL_ENOSLOT) {   /* no reader slot: look under the stripe lock instead */
			void *copy = NULL;
			st = tbl_lookup_copy(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &v, &copy);
			free(copy);
			if (st == TBL_OK) {
				if (meta) {
					*meta = v;
				}
				return 1;
			}
		}
		return php_table_throw(t, st, key, 0) ? -1 : 0;
	}
	st = tbl_lookup(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &v, 0);
	tbl_read_end(t);
	if (st != TBL_OK) {
		return php_table_throw(t, st, key, 0) ? -1 : 0;
	}
	if (meta) {
		*meta = v;   /* metadata only: v.data is no longer valid */
	}
	return 1;
}

/* Seconds left before an entry with absolute expiry `expire` dies (at least 1 while it is visible). */
zend_long php_table_seconds_left(uint32_t expire)
{
	uint32_t now = tbl_clock_now().sec;
	return expire > now ? (zend_long)(expire - now) : 1;
}

/* Encode a value; false when it threw (the caller must still free `enc`). */
bool php_table_encode_arg(tbl_t *t, zval *value, uint32_t argnum, php_table_encoded *enc)
{
	if (php_table_encode(value, php_table_ser, argnum, php_table_encode_images && tbl_memory_short(t), enc) != SUCCESS) {
		return false;
	}
	if (UNEXPECTED(enc->size > UINT32_MAX)) {
		php_table_throw(t, TBL_ETOOBIG, NULL, enc->size);
		return false;
	}
	return true;
}

bool php_table_encode_compact_again(zval *value, uint32_t argnum, php_table_encoded *enc)
{
	php_table_encoded_free(enc);
	if (php_table_encode_compact(value, php_table_ser, argnum, enc) != SUCCESS) {
		return false;
	}
	if (UNEXPECTED(enc->size > UINT32_MAX)) {
		return false;   /* not after an image that fitted in 32 bits; never stored */
	}
	return true;
}

zend_never_inline tbl_status_t php_table_store_compact(tbl_t *t, tbl_ns_t ns, const zend_string *key, zval *value,
                                                       uint32_t argnum, php_table_encoded *enc, uint32_t ttl,
                                                       tbl_store_mode_t mode)
{
	if (!php_table_encode_compact_again(value, argnum, enc)) {
		tbl_count_failed_store(t);
		return TBL_ENOMEM;   /* with the exception, if the encoder threw one */
	}
	return tbl_store(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &enc->val, ttl, mode);
}

/* ---- module lifecycle ------------------------------------------------------------------------------ */

/* The core brackets every critical section with these, so that no signal handler (and no timeout)
 * runs PHP code while a stripe lock is held. */
static void php_table_block_signals(void)
{
	HANDLE_BLOCK_INTERRUPTIONS();
}

static void php_table_unblock_signals(void)
{
	HANDLE_UNBLOCK_INTERRUPTIONS();
}

/* SAPIs whose processes end every request, so that the request's zero-copy holds are released regularly. CLI,
 * phpdbg and embed run one request for the process's whole life; FrankenPHP's worker mode, Swoole and
 * RoadRunner run under the cli or frankenphp SAPI and never end theirs either. */
static const char *const php_table_request_scoped_sapis[] = {
	"fpm-fcgi", "apache2handler", "cgi-fcgi", "litespeed"
};

/* A size setting written with a minus sign. zend_ini_parse_uquantity() accepts "-1" and wraps it to
 * 2^64 - 1, which would surface as an mmap() of 18446744073709551615 bytes; sizes are never negative. */
static bool php_table_ini_negative(const char *value)
{
	while (*value == ' ' || *value == '\t') {
		value++;
	}
	return *value == '-';
}

/* A size setting's bytes: `value` in bytes or with K, M or G. false when it does not parse (the caller
 * has rejected a negative one first, with its own message). */
static bool php_table_ini_size(const char *value, zend_ulong *out)
{
	zend_string *str = zend_string_init(value, strlen(value), 1), *errstr = NULL;

	*out = zend_ini_parse_uquantity(str, &errstr);
	zend_string_release(str);
	if (errstr) {
		zend_string_release(errstr);
		return false;
	}
	return true;
}

/* table.zero_copy and table.zero_copy_budget. false with php_table_reason set when invalid. */
static bool php_table_zero_copy_resolve(zend_ulong memory)
{
	const char *zc = TABLE_G(zero_copy) ? TABLE_G(zero_copy) : "";
	const char *budget = TABLE_G(zero_copy_budget) ? TABLE_G(zero_copy_budget) : "";
	size_t i;

	if (strcmp(zc, "auto") == 0) {
		php_table_zero_copy = false;
		for (i = 0; i < sizeof(php_table_request_scoped_sapis) / sizeof(php_table_request_scoped_sapis[0]); i++) {
			if (sapi_module.name && strcmp(sapi_module.name, php_table_request_scoped_sapis[i]) == 0) {
				php_table_zero_copy = true;
			}
		}
	} else if (strcmp(zc, "1") == 0 || zend_binary_strcasecmp(zc, strlen(zc), "on", 2) == 0) {
		php_table_zero_copy = true;
	} else if (strcmp(zc, "0") == 0 || zend_binary_strcasecmp(zc, strlen(zc), "off", 3) == 0 || zc[0] == '\0') {
		php_table_zero_copy = false;
	} else {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.zero_copy=%s is not valid; use auto, 1 or 0", zc);
		return false;
	}
#ifdef PHP_WIN32
	/* Each process maps the segment at its own address there; images hold absolute pointers. */
	php_table_zero_copy = false;
#endif
#ifdef ZTS
	/* Never under threads (apache2handler with a threaded MPM is ZTS): one pin per process, not thread. */
	php_table_zero_copy = false;
#endif

	php_table_zero_copy_budget = memory / 8;
	if (php_table_ini_negative(budget)) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.zero_copy_budget=%s is negative; use a size in bytes or with K, M or G, or leave it empty", budget);
		return false;
	}
	if (budget[0]) {
		zend_ulong bytes;

		if (!php_table_ini_size(budget, &bytes)) {
			snprintf(php_table_reason, sizeof(php_table_reason),
				"table.zero_copy_budget=%s is not a valid size; use bytes or a number with K, M or G", budget);
			return false;
		}
		php_table_zero_copy_budget = bytes;
	}
	php_table_encode_images = php_table_zero_copy;
	return true;
}

/* table.segment, table.segment_dir and table.segment_mode. false with php_table_reason set when invalid;
 * an empty name is valid (the anonymous segment). Fills the name, the path and *mode. */
static bool php_table_segment_resolve(uint32_t *mode)
{
	const char *name = TABLE_G(segment) ? TABLE_G(segment) : "";
	const char *dir = TABLE_G(segment_dir) ? TABLE_G(segment_dir) : "";
	const char *m = TABLE_G(segment_mode) ? TABLE_G(segment_mode) : "";
	size_t i, len = strlen(name), dlen;
	unsigned long bits = 0;

	php_table_segment_name[0] = php_table_segment_path[0] = '\0';
	if (len == 0) {
		return true;
	}
	if (len > PHP_TABLE_SEGMENT_NAME_MAX) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.segment=%.80s%s is too long; use 1 to %u characters of A-Z, a-z, 0-9, '.', '_' and '-'",
			name, len > 80 ? "..." : "", PHP_TABLE_SEGMENT_NAME_MAX);
		return false;
	}
	for (i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
		      || c == '-')) {
			snprintf(php_table_reason, sizeof(php_table_reason),
				"table.segment=%s is not valid; use 1 to %u characters of A-Z, a-z, 0-9, '.', '_' and '-'",
				name, PHP_TABLE_SEGMENT_NAME_MAX);
			return false;
		}
	}
	dlen = strlen(dir);
	while (dlen > 1 && dir[dlen - 1] == '/') {
		dlen--;
	}
	if (dir[0] != '/') {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.segment_dir=%.200s is not valid; use an absolute directory path (e.g. /dev/shm)", dir);
		return false;
	}
	if ((size_t)snprintf(php_table_segment_path, sizeof(php_table_segment_path), "%.*s/php-table.%s",
	                     (int)(dlen == 1 ? 0 : dlen), dir, name) >= sizeof(php_table_segment_path)) {
		snprintf(php_table_reason, sizeof(php_table_reason), "table.segment_dir=%.200s... is too long", dir);
		php_table_segment_path[0] = '\0';
		return false;
	}
	for (i = 0; m[i]; i++) {
		if (m[i] < '0' || m[i] > '7' || i >= 4) {
			bits = ~0ul;
			break;
		}
		bits = bits * 8 + (unsigned long)(m[i] - '0');
	}
	if (i == 0 || bits > 0777 || (bits & 0600) != 0600) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.segment_mode=%.40s is not valid; use octal permission bits that include 0600 (owner read "
			"and write), e.g. 0600, or 0660 to share with the file's group", m);
		php_table_segment_path[0] = '\0';
		return false;
	}
	*mode = (uint32_t)bits;
	memcpy(php_table_segment_name, name, len + 1);
	return true;
}

/* After attaching a named segment: zero-copy only where it lies at its creator's address (images hold
 * absolute pointers), a warning when it has another size than table.memory asks for. */
static void php_table_named_attached(const char *mem)
{
	tbl_segment_info_t info;
	tbl_stats_t s;

	tbl_segment_info(php_table_tbl, &info);
	php_table_image_shift = (ptrdiff_t)info.base_shift;
	if (!info.same_base) {
		/* Images here would hold this process's addresses, and images read here were written for the
		 * creator's: store arrays compactly, and copy images out, relocating their pointers. */
		php_table_zero_copy = false;
		php_table_encode_images = false;
	}
	tbl_get_stats(php_table_tbl, &s);
	php_table_policy = s.policy;   /* the segment's own, whatever this process's INI says */
	if (info.memory != info.requested) {
		php_error_docref(NULL, E_WARNING,
			"table.memory=%s asks for %" PRIu64 " bytes, but segment \"%s\" (%s) has %" PRIu64 ": attached at its "
			"size; to resize it, remove the file or set table.segment_recreate=1", mem, info.requested,
			php_table_segment_name, php_table_segment_path, info.memory);
	}
}

/* table.compression and table.compression_threshold (serializer/compress.h). */
static bool php_table_compression_resolve(void)
{
	const char *name = TABLE_G(compression) ? TABLE_G(compression) : "";
	const char *thr = TABLE_G(compression_threshold) ? TABLE_G(compression_threshold) : "";
	php_table_compression c;
	zend_ulong bytes = 0;

	if (php_table_compression_parse(name, &c, php_table_reason, sizeof(php_table_reason)) != 0) {
		return false;
	}
	if (php_table_ini_negative(thr) || !php_table_ini_size(thr, &bytes) || bytes > UINT32_MAX) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.compression_threshold=%s is not valid; use a size in bytes, or with K or M (e.g. 1K)", thr);
		return false;
	}
	php_table_compress_algorithm = c;
	php_table_compress_threshold = (uint32_t)bytes;
	return true;
}

/* Validate the INI values and create the segment. With a named segment (table.segment), only validate
 * unless `attach`: every process attaches on its first use (php_table_handle_slow). On failure
 * php_table_reason says why. */
static void php_table_open(bool attach)
{
	const char *policy = TABLE_G(eviction_policy) ? TABLE_G(eviction_policy) : "";
	const char *ser = TABLE_G(serializer) ? TABLE_G(serializer) : "";
	const char *mem = TABLE_G(memory) ? TABLE_G(memory) : "";
	zend_ulong bytes;
	tbl_config_t cfg;
	tbl_status_t st;
	uint32_t mode = 0600;
	size_t i;
	char errbuf[512];

	if (php_table_ini_negative(mem)) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.memory=%s is negative; use a size of at least 1M, in bytes or with K, M or G (e.g. 64M)", mem);
		return;
	}
	if (!php_table_ini_size(mem, &bytes)) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.memory=%s is not a valid size; use bytes or a number with K, M or G (e.g. 64M)", mem);
		return;
	}
	if (bytes < 1024 * 1024) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.memory=%s is too small; it must be at least 1M", mem);
		return;
	}

	for (i = 0; i < sizeof(php_table_policy_names) / sizeof(php_table_policy_names[0]); i++) {
		if (strcmp(policy, php_table_policy_names[i]) == 0) {
			break;
		}
	}
	if (i == sizeof(php_table_policy_names) / sizeof(php_table_policy_names[0])) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.eviction_policy=%s is not valid; use noeviction, lru, random or gdsf", policy);
		return;
	}
	php_table_policy = (tbl_policy_t)i;

	php_table_ser = php_table_serializer_find(ser);
	if (!php_table_ser) {
#ifndef HAVE_TABLE_IGBINARY
		if (strcmp(ser, "igbinary") == 0) {
			snprintf(php_table_reason, sizeof(php_table_reason),
				"table.serializer=igbinary needs table built with --enable-table-igbinary");
			return;
		}
		snprintf(php_table_reason, sizeof(php_table_reason), "table.serializer=%s is not valid; use php", ser);
#else
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.serializer=%s is not valid; use php or igbinary", ser);
#endif
		return;
	}

	if (!php_table_compression_resolve()) {
		return;
	}
	if (!php_table_zero_copy_resolve(bytes)) {
		return;
	}
	if (!php_table_segment_resolve(&mode)) {
		return;
	}
	if (php_table_segment_name[0] && !attach) {
		return;
	}

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = bytes;
	cfg.policy = php_table_policy;
	cfg.hooks.block_signals = php_table_block_signals;
	cfg.hooks.unblock_signals = php_table_unblock_signals;
	if (getenv("TABLE_TEST_HOOKS") && strcmp(getenv("TABLE_TEST_HOOKS"), "1") == 0 && getenv("TABLE_TEST_SLOTS")) {
		cfg.slots = (uint32_t)atoi(getenv("TABLE_TEST_SLOTS"));   /* tests: run out of reader slots */
	}
	if (php_table_segment_name[0]) {
		cfg.segment_path = php_table_segment_path;
		cfg.segment_mode = mode;
		cfg.segment_recreate = TABLE_G(segment_recreate);
		cfg.app_version = PHP_TABLE_VERSION;
		if (getenv("TABLE_TEST_HOOKS") && strcmp(getenv("TABLE_TEST_HOOKS"), "1") == 0
		    && getenv("TABLE_TEST_SEGMENT_MOVE") && strcmp(getenv("TABLE_TEST_SEGMENT_MOVE"), "1") == 0) {
			cfg.segment_move = 1;   /* tests: map away from the creator's address (the copying fallback) */
		}
	}
	errbuf[0] = '\0';
	st = tbl_create(&php_table_tbl, &cfg, errbuf, sizeof(errbuf));
	if (st == TBL_OK) {
		/* An array whose image could not fit even under the longest key is stored natively instead. */
		php_table_image_limit = (size_t)tbl_value_max(php_table_tbl, TBL_KEY_MAX);
		/* stats()['start_time']: the segment is created here, before workers fork, so they all agree. */
		php_table_start_time = (zend_long)time(NULL);
		php_table_reason[0] = '\0';
		if (php_table_segment_name[0]) {
			php_table_named = true;
			php_table_named_attached(mem);
		}
	}
	if (st != TBL_OK) {
		php_table_tbl = NULL;
		if (php_table_segment_name[0]) {
			snprintf(php_table_reason, sizeof(php_table_reason), "segment \"%s\": %s", php_table_segment_name,
				errbuf[0] ? errbuf : tbl_status_str(st));
		} else {
			snprintf(php_table_reason, sizeof(php_table_reason), "%s%s", errbuf[0] ? errbuf : tbl_status_str(st),
				st == TBL_ESYS ? "; lower table.memory" : "");
		}
	}
}

/* php_table_handle() found no table: attach the named segment this process's settings name (its first
 * use since start or fork: php-fpm workers get their pool's php_admin_value), else throw. */
tbl_t *php_table_handle_slow(void)
{
	if (TABLE_G(enabled) && !php_table_named && TABLE_G(segment) && TABLE_G(segment)[0]) {
		php_table_open(true);
		if (php_table_tbl) {
			return php_table_tbl;
		}
	}
	php_table_throw_unavailable();
	return NULL;
}

static PHP_GINIT_FUNCTION(table)
{
#if defined(COMPILE_DL_TABLE) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(table_globals, 0, sizeof(*table_globals));
	ZVAL_UNDEF(&table_globals->fullscan_fn);
}

/* Threads of one ZTS process would share its one reader slot and its one zero-copy pin: a thread could
 * free (reclaim) what another is still reading. config.m4 refuses to build for ZTS; this refuses to load a
 * module that was built some other way. */
#ifdef ZTS
# define PHP_TABLE_ZTS_REFUSED "table does not support thread-safe PHP (ZTS) yet: the threads of one process " \
	"would share one reader slot. Use a non-thread-safe (NTS) PHP: php-fpm, CLI, or Apache with mpm_prefork"
#endif

/* Shm\Table is a static API: `new Shm\Table('log')` used to succeed and silently ignore its argument
 * (some Relay docs show an instance bound to a namespace). Refuse it, as Closure does, before any
 * constructor would run; unserialize() of an instance is refused too (ZEND_ACC_NOT_SERIALIZABLE). */
static zend_object_handlers php_table_object_handlers;

static zend_function *php_table_get_constructor(zend_object *obj)
{
	(void)obj;
	zend_throw_error(NULL, "Cannot instantiate Shm\\Table: its methods are static; pass the namespace to each "
		"call instead, e.g. Shm\\Table::get($key, 'log')");
	return NULL;
}

static zend_object *php_table_create_object(zend_class_entry *ce)
{
	zend_object *obj = zend_objects_new(ce);

	object_properties_init(obj, ce);
	obj->handlers = &php_table_object_handlers;
	return obj;
}

static PHP_MINIT_FUNCTION(table)
{
	(void)type;
#ifdef ZTS
	php_error_docref(NULL, E_CORE_WARNING, "%s", PHP_TABLE_ZTS_REFUSED);
	return FAILURE;
#endif
	REGISTER_INI_ENTRIES();

	php_table_ce = register_class_Shm_Table();
	memcpy(&php_table_object_handlers, &std_object_handlers, sizeof(php_table_object_handlers));
	php_table_object_handlers.get_constructor = php_table_get_constructor;
	php_table_ce->create_object = php_table_create_object;
	php_table_ce->ce_flags |= ZEND_ACC_NOT_SERIALIZABLE;
	php_table_exception_ce = register_class_Shm_TableException(spl_ce_RuntimeException);

	/* The relay extension ships its own Relay\Table; it loads before us when present (see deps). */
	if (TABLE_G(relay_alias) && !zend_hash_str_exists(&module_registry, "relay", sizeof("relay") - 1)
			&& !zend_hash_str_exists(CG(class_table), "relay\\table", sizeof("relay\\table") - 1)) {
		zend_register_class_alias("Relay\\Table", php_table_ce);
	}

	php_table_testhooks_register(module_number);

	php_table_reason[0] = '\0';
	php_table_ser = &php_table_serializer_php;
	if (TABLE_G(enabled)) {
		php_table_open(false);
		php_table_anon = php_table_tbl;
	}
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(table)
{
	(void)type;
	if (php_table_tbl && php_table_tbl != php_table_anon) {
		tbl_destroy(php_table_tbl);
	}
	if (php_table_anon) {
		tbl_destroy(php_table_anon);
	}
	php_table_tbl = php_table_anon = NULL;
	php_table_named = false;
	php_table_native_shutdown();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(table)
{
	(void)type;
	(void)module_number;
#if defined(COMPILE_DL_TABLE) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	/* A named segment is attached on first use, in this process: a php-fpm worker's pool may name one
	 * (php_admin_value) although the master, which made the anonymous segment, did not. */
	if (UNEXPECTED(!php_table_named) && TABLE_G(enabled) && TABLE_G(segment) && TABLE_G(segment)[0]) {
		php_table_tbl = NULL;
	}
	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(table)
{
	(void)type;
	(void)module_number;
	if (php_table_tbl) {
		/* A bailout (fatal error, memory limit) during materialization leaves a read section open. */
		tbl_read_reset(php_table_tbl);
		/* ... and one inside $compute leaves remember() claims behind. */
		php_table_claims_release_all(php_table_tbl);
	}
	php_table_scan_rshutdown();
	return SUCCESS;
}

/* After zend_deactivate: the request's memory, and with it every array that may still point into an
 * image, is gone. Only now may the request's holds go (RSHUTDOWN is too early: the symbol table and
 * everything derived from a zero-copy array are still alive then). */
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(table)
{
	if (php_table_tbl) {
		php_table_holding = false;
		tbl_release_holds(php_table_tbl);
	}
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(table)
{
	char buf[64];

	php_info_print_table_start();
	php_info_print_table_row(2, "table support", "enabled");
	php_info_print_table_row(2, "Version", PHP_TABLE_VERSION);
	php_info_print_table_row(2, "Enabled", TABLE_G(enabled) ? "yes" : "no");
	if (php_table_tbl) {
		tbl_stats_t s;
		tbl_get_stats(php_table_tbl, &s);
		snprintf(buf, sizeof(buf), "%" PRIu64, s.segment_size);
		php_info_print_table_row(2, "Segment size", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, s.free_bytes);
		php_info_print_table_row(2, "Free memory", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, s.entries);
		php_info_print_table_row(2, "Entries", buf);
		php_info_print_table_row(2, "Eviction policy", php_table_policy_names[php_table_policy]);
		php_info_print_table_row(2, "Serializer", php_table_ser->name);
		php_info_print_table_row(2, "Compression", php_table_compression_name(php_table_compress_algorithm));
		php_info_print_table_row(2, "Zero-copy reads", php_table_zero_copy ? "on" : "off");
		php_info_print_table_row(2, "Segment", php_table_named ? php_table_segment_path : "anonymous");
	} else if (TABLE_G(enabled)) {
		php_info_print_table_row(2, "Unavailable", php_table_reason);
	}
	{
		const char *const *c = php_table_compressors();
		smart_str list = {0};

		for (; *c; c++) {
			smart_str_appends(&list, list.s ? ", " : "");
			smart_str_appends(&list, *c);
		}
		smart_str_0(&list);
		php_info_print_table_row(2, "Compressors", list.s ? ZSTR_VAL(list.s) : "none");
		smart_str_free(&list);
	}
#ifdef HAVE_TABLE_IGBINARY
	php_info_print_table_row(2, "igbinary support", "yes");
#else
	php_info_print_table_row(2, "igbinary support", "no");
#endif
	php_info_print_table_end();

	DISPLAY_INI_ENTRIES();
}

static const zend_module_dep table_deps[] = {
	ZEND_MOD_REQUIRED("spl")
#ifdef HAVE_TABLE_IGBINARY
	ZEND_MOD_REQUIRED("igbinary")
#endif
	/* Start after relay when it is loaded, so table.relay_alias sees its Relay\Table. */
	ZEND_MOD_OPTIONAL("relay")
	ZEND_MOD_END
};

zend_module_entry table_module_entry = {
	STANDARD_MODULE_HEADER_EX,
	NULL,
	table_deps,
	PHP_TABLE_EXTNAME,
	NULL,
	PHP_MINIT(table),
	PHP_MSHUTDOWN(table),
	PHP_RINIT(table),
	PHP_RSHUTDOWN(table),
	PHP_MINFO(table),
	PHP_TABLE_VERSION,
	PHP_MODULE_GLOBALS(table),
	PHP_GINIT(table),
	NULL,
	ZEND_MODULE_POST_ZEND_DEACTIVATE_N(table),
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_TABLE
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(table)
#endif

