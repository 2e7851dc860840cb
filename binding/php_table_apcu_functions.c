/*
 * php_table_apcu_functions.c - APCu 5.1's per-key functions on the table's "apcu" namespace: apcu_fetch,
 * apcu_store, apcu_add, apcu_delete, apcu_exists, apcu_inc, apcu_dec, apcu_cas, apcu_entry, and
 * apcu_clear_cache / apcu_enabled.
 *
 * They answer as APCu 5.1.22 does (php_apc.c, apc_cache.c), not as Shm\Table does: false and a warning
 * instead of exceptions for the inputs APCu warns about, an array of keys accepted wherever APCu accepts
 * one, a disabled cache (apc.enabled=0, or the CLI without apc.enable_cli) answering false/null without
 * touching the table. What the table cannot hold the way APCu would (an empty key, a key over 64 KiB, a
 * value larger than the table) is a failed store or a miss, as APCu's "no room" is. Exceptions remain for
 * what APCu throws too (__sleep/__serialize throwing, Closure serialization, a callback throwing) and for
 * a table that fails (a system call, no namespace slot left): never for an ordinary "no".
 *
 * Values are encoded as Shm\Table::set() encodes them (php_table_encode_arg): scalars and plain arrays
 * natively, objects and references through the serializer, which keeps their structure as APCu's does.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "SAPI.h"
#include "zend_exceptions.h"

#include "php_table.h"
#include "php_table_apcu.h"

#define PHP_TABLE_APCU_ARG_VALUE 2   /* named by the encoder's errors, which are turned into APCu's answers */

/* ---- the apcu namespace, kept (php_table_apcu.h) ---------------------------------------------------- */

PHP_TABLE_HIDDEN TSRM_TLS php_table_apcu_ns_cache php_table_apcu_nsc;

int php_table_apcu_ns_resolve(tbl_t *t, tbl_ns_t *out, bool create)
{
	int r = create ? (php_table_apcu_ns_write(t, out) ? 1 : -1) : php_table_apcu_ns_read(t, out);

	if (r > 0) {
		php_table_apcu_nsc = (php_table_apcu_ns_cache){ t, php_table_ns_epoch_now(), *out };
	} else {
		php_table_apcu_nsc.t = NULL;
	}
	return r;
}

int php_table_apcu_ns_recheck(tbl_t *t, tbl_ns_t *ns)
{
	tbl_ns_t was = *ns;
	int r = php_table_apcu_ns_resolve(t, ns, false);

	return r <= 0 ? r : *ns != was;
}

/* ---- TTLs -------------------------------------------------------------------------------------------
 * APCu: 0 never expires; N expires N seconds after the store, with apc.use_request_time measured from the
 * request's start. A negative TTL stores an entry that is already expired: nothing anyone can read. */
typedef enum { PHP_TABLE_APCU_TTL_OK, PHP_TABLE_APCU_TTL_EXPIRED } php_table_apcu_ttl_kind;

static php_table_apcu_ttl_kind php_table_apcu_ttl_slow(zend_long ttl, uint32_t *out)
{
	*out = 0;
	if (ttl < 0) {
		return PHP_TABLE_APCU_TTL_EXPIRED;
	}
	if (PHP_TABLE_APCU_G(use_request_time)) {
		time_t now = time(NULL);

		if (!PHP_TABLE_APCU_G(request_time)) {
			PHP_TABLE_APCU_G(request_time) = (time_t)sapi_get_request_time();
		}
		/* Counted from the request's start, as APCu's clock would be; at least one second, so that the
		 * request that stored it still sees it, as APCu's frozen clock lets it. */
		if (now > PHP_TABLE_APCU_G(request_time)) {
			ttl -= (zend_long)(now - PHP_TABLE_APCU_G(request_time));
		}
		if (ttl < 1) {
			ttl = 1;
		}
	}
	*out = (zend_ulong)ttl > TBL_EXPIRE_MAX ? TBL_EXPIRE_MAX : (uint32_t)ttl;
	return PHP_TABLE_APCU_TTL_OK;
}

/* Inline for the usual TTL, none. */
static zend_always_inline php_table_apcu_ttl_kind php_table_apcu_ttl(zend_long ttl, uint32_t *out)
{
	if (EXPECTED(ttl == 0)) {
		*out = 0;
		return PHP_TABLE_APCU_TTL_OK;
	}
	return php_table_apcu_ttl_slow(ttl, out);
}

/* $success = ok. The usual $success holds a bool or null already, which needs no destructor call. */
static zend_always_inline void php_table_apcu_set_success(zval *success, bool ok)
{
	if (EXPECTED(Z_ISREF_P(success)) && EXPECTED(!ZEND_REF_HAS_TYPE_SOURCES(Z_REF_P(success)))
			&& EXPECTED(!Z_REFCOUNTED_P(Z_REFVAL_P(success)))) {
		ZVAL_BOOL(Z_REFVAL_P(success), ok);
		return;
	}
	ZEND_TRY_ASSIGN_REF_BOOL(success, ok);
}

/* ---- statuses ----------------------------------------------------------------------------------------- */

/* A core status as APCu answers it: true for TBL_OK, false for every "no" (missing, exists, no room, a
 * value that never fits, not an integer); an exception only for a table that fails. */
static bool php_table_apcu_ok(tbl_t *t, tbl_status_t st, const zend_string *key)
{
	switch (st) {
		case TBL_OK:
			return true;
		case TBL_ETOOBIG:
			tbl_count_failed_store(t);
			return false;
		case TBL_ENOTFOUND:
		case TBL_EEXIST:
		case TBL_EMISMATCH:
		case TBL_ENOMEM:
		case TBL_EFULL:
		case TBL_ETYPE:
		case TBL_EOVERFLOW:
		case TBL_ESTALE:
			return false;
		default:
			php_table_throw(t, st, key, 0);
			return false;
	}
}

/* Encode a value as set() does. The encoder's own refusals (a resource; a value too large or too deep)
 * become APCu's answer, a failed store (with APCu's warning for a resource); exceptions from user code
 * (__sleep, __serialize, a Closure) propagate, as they do from APCu. */
static bool php_table_apcu_encode(tbl_t *t, zval *value, php_table_encoded *enc)
{
	zend_object *ex;
	bool resource = false, ok;

	ok = php_table_encode_arg(t, value, PHP_TABLE_APCU_ARG_VALUE, enc);
	if (EXPECTED(ok)) {
		return true;
	}
	if (!(ex = EG(exception))) {
		return false;
	}
	if (!instanceof_function(ex->ce, php_table_exception_ce)) {
		/* The encoder's refusals name the value's argument; user code's own errors do not. */
		zval rv, *msg;

		if (!instanceof_function(ex->ce, zend_ce_value_error) && !instanceof_function(ex->ce, zend_ce_type_error)) {
			return false;
		}
		msg = zend_read_property_ex(zend_get_exception_base(ex), ex, ZSTR_KNOWN(ZEND_STR_MESSAGE), 1, &rv);
		if (Z_TYPE_P(msg) != IS_STRING || !strstr(Z_STRVAL_P(msg), "Argument #2 ($value)")) {
			return false;
		}
		resource = strstr(Z_STRVAL_P(msg), "resource") != NULL;
	}
	zend_clear_exception();
	if (resource) {
		php_error_docref(NULL, E_WARNING, "Cannot store resources in apcu cache");
	}
	return false;
}

/* ---- store / add --------------------------------------------------------------------------------------- */

static bool php_table_apcu_store_one(tbl_t *t, zend_string *key, zval *value, zend_long ttl, bool exclusive)
{
	php_table_encoded enc;
	tbl_ns_t ns;
	tbl_status_t st;
	uint32_t secs;
	int r;

	if (!php_table_key_ok(key)) {
		return false;   /* the table's keys are 1 .. 65535 bytes: a store that does not fit */
	}
	ZVAL_DEREF(value);
	if (php_table_apcu_ttl(ttl, &secs) == PHP_TABLE_APCU_TTL_EXPIRED) {
		/* APCu replaces the entry with one that is expired at once: the key reads as missing after. */
		if ((r = php_table_apcu_ns_read(t, &ns)) <= 0) {
			return r == 0;
		}
		if (exclusive) {
			return php_table_peek(t, ns, key, NULL) == 0;
		}
		st = tbl_delete(t, ns, ZSTR_VAL(key), ZSTR_LEN(key));
		return st == TBL_OK || st == TBL_ENOTFOUND || php_table_apcu_ok(t, st, key);
	}
	if (!php_table_apcu_encode(t, value, &enc) || !php_table_apcu_ns_write_kept(t, &ns)) {
		php_table_encoded_free(&enc);
		return false;
	}
	st = php_table_store_encoded(t, ns, key, value, PHP_TABLE_APCU_ARG_VALUE, &enc, secs,
	                             exclusive ? TBL_STORE_ADD : TBL_STORE_SET);
	if (php_table_apcu_ns_refresh(t, st, &ns)) {
		st = php_table_store_encoded(t, ns, key, value, PHP_TABLE_APCU_ARG_VALUE, &enc, secs,
		                             exclusive ? TBL_STORE_ADD : TBL_STORE_SET);
	}
	php_table_encoded_free(&enc);
	if (st == TBL_ENOMEM && EG(exception)) {
		/* php_table_store_compact's encoder refused: the same answer as a refusal up front. */
		zend_clear_exception();
	}
	return php_table_apcu_ok(t, st, key);
}

static void php_table_apcu_store(INTERNAL_FUNCTION_PARAMETERS, bool exclusive)
{
	zval *key, *value = NULL;
	zend_long ttl = 0;
	tbl_t *t;

	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_ZVAL(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(value)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	t = php_table_apcu_table(false);
	if (Z_TYPE_P(key) == IS_ARRAY) {
		zend_string *skey;
		zend_ulong h;
		zval *v, failed;

		/* The keys that were not stored, each => -1. */
		ZVAL_LONG(&failed, -1);
		array_init(return_value);
		ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(key), h, skey, v) {
			zend_string *k = skey ? zend_string_copy(skey) : zend_long_to_str((zend_long)h);
			bool ok = t && php_table_apcu_store_one(t, k, v, ttl, exclusive);

			if (UNEXPECTED(EG(exception))) {
				zend_string_release(k);
				RETURN_THROWS();
			}
			if (!ok) {
				zend_symtable_add_new(Z_ARRVAL_P(return_value), k, &failed);
			}
			zend_string_release(k);
		} ZEND_HASH_FOREACH_END();
		return;
	}
	if (Z_TYPE_P(key) != IS_STRING) {
		php_error_docref(NULL, E_WARNING,
			"apc_store expects key parameter to be a string or an array of key/value pairs.");
		RETURN_FALSE;
	}
	if (!value || !t) {
		RETURN_FALSE;   /* nothing to store; or APCu disabled */
	}
	RETURN_BOOL(php_table_apcu_store_one(t, Z_STR_P(key), value, ttl, exclusive));
}

PHP_FUNCTION(apcu_store)
{
	php_table_apcu_store(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

PHP_FUNCTION(apcu_add)
{
	php_table_apcu_store(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

/* ---- fetch / exists ----------------------------------------------------------------------------------- */

/* 1 hit (value in rv), 0 miss, -1 thrown. */
static int php_table_apcu_fetch_one(tbl_t *t, zend_string *key, zval *rv)
{
	tbl_ns_t ns;
	int r;

	if (!php_table_key_ok(key)) {
		return 0;
	}
	if ((r = php_table_apcu_ns_read_kept(t, &ns)) <= 0) {
		return r;
	}
	/* Inside an unserialize() too: the serializer decodes with a var hash of its own (APCu's bug #76145). */
	if ((r = php_table_fetch(t, ns, key, rv, NULL, 1)) != 0 || (r = php_table_apcu_ns_recheck(t, &ns)) <= 0) {
		return r;
	}
	return php_table_fetch(t, ns, key, rv, NULL, 1);
}

/* 1 exists, 0 not, -1 thrown. */
static int php_table_apcu_exists_one(tbl_t *t, zend_string *key)
{
	tbl_ns_t ns;
	int r;

	if (!php_table_key_ok(key)) {
		return 0;
	}
	if ((r = php_table_apcu_ns_read_kept(t, &ns)) <= 0) {
		return r;
	}
	if ((r = php_table_peek(t, ns, key, NULL)) != 0 || (r = php_table_apcu_ns_recheck(t, &ns)) <= 0) {
		return r;
	}
	return php_table_peek(t, ns, key, NULL);
}

/* APCu converts any other scalar key to a string (convert_to_string: null is "", 1 is "1"). */
static zend_string *php_table_apcu_scalar_key(zval *key)
{
	return zval_try_get_string(key);
}

PHP_FUNCTION(apcu_fetch)
{
	zval *key, *success = NULL;
	tbl_t *t;
	int r = 0;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ZVAL(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(success)
	ZEND_PARSE_PARAMETERS_END();

	t = php_table_apcu_table(false);
	if (Z_TYPE_P(key) == IS_ARRAY) {
		zval *k;

		array_init(return_value);
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(key), k) {
			zval v;

			ZVAL_DEREF(k);
			if (Z_TYPE_P(k) != IS_STRING) {
				php_error_docref(NULL, E_WARNING, "apc_fetch() expects a string or array of strings.");
				continue;
			}
			if (!t) {
				continue;
			}
			if ((r = php_table_apcu_fetch_one(t, Z_STR_P(k), &v)) < 0) {
				RETURN_THROWS();
			}
			if (r > 0) {
				zend_hash_update(Z_ARRVAL_P(return_value), Z_STR_P(k), &v);   /* as APCu: the key as given */
			}
		} ZEND_HASH_FOREACH_END();
		r = 1;   /* an array of keys "succeeds", whatever it found */
	} else if (EXPECTED(Z_TYPE_P(key) == IS_STRING)) {
		/* The argument holds the string for the whole call: no reference of our own to take and drop. */
		if (t && (r = php_table_apcu_fetch_one(t, Z_STR_P(key), return_value)) < 0) {
			RETURN_THROWS();
		}
	} else {
		zend_string *skey = php_table_apcu_scalar_key(key);

		if (!skey) {
			RETURN_THROWS();
		}
		r = t ? php_table_apcu_fetch_one(t, skey, return_value) : 0;
		zend_string_release(skey);
		if (r < 0) {
			RETURN_THROWS();
		}
	}
	if (success) {
		php_table_apcu_set_success(success, r > 0);
	}
	if (r <= 0) {
		RETURN_FALSE;
	}
}

PHP_FUNCTION(apcu_exists)
{
	zval *key;
	tbl_t *t;
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(key)
	ZEND_PARSE_PARAMETERS_END();

	t = php_table_apcu_table(false);
	if (Z_TYPE_P(key) == IS_ARRAY) {
		zval *k, yes;

		ZVAL_TRUE(&yes);
		array_init(return_value);
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(key), k) {
			ZVAL_DEREF(k);
			if (Z_TYPE_P(k) != IS_STRING) {
				php_error_docref(NULL, E_WARNING, "apc_exists() expects a string or array of strings.");
				continue;
			}
			if (t && (r = php_table_apcu_exists_one(t, Z_STR_P(k))) != 0) {
				if (r < 0) {
					RETURN_THROWS();
				}
				zend_hash_update(Z_ARRVAL_P(return_value), Z_STR_P(k), &yes);
			}
		} ZEND_HASH_FOREACH_END();
		return;
	}
	{
		zend_string *skey = Z_TYPE_P(key) == IS_STRING ? zend_string_copy(Z_STR_P(key)) : php_table_apcu_scalar_key(key);

		if (!skey) {
			RETURN_THROWS();
		}
		r = t ? php_table_apcu_exists_one(t, skey) : 0;
		zend_string_release(skey);
		if (r < 0) {
			RETURN_THROWS();
		}
		RETURN_BOOL(r > 0);
	}
}

/* ---- delete -------------------------------------------------------------------------------------------- */

/* true when it was there and is gone. */
static bool php_table_apcu_delete_one(tbl_t *t, zend_string *key)
{
	tbl_ns_t ns;
	tbl_status_t st;

	if (!t || !php_table_key_ok(key) || php_table_apcu_ns_read_kept(t, &ns) <= 0) {
		return false;
	}
	st = tbl_delete(t, ns, ZSTR_VAL(key), ZSTR_LEN(key));
	if ((st == TBL_ENOTFOUND || st == TBL_ESTALE) && php_table_apcu_ns_recheck(t, &ns) > 0) {
		st = tbl_delete(t, ns, ZSTR_VAL(key), ZSTR_LEN(key));
	}
	return php_table_apcu_ok(t, st, key);
}

PHP_FUNCTION(apcu_delete)
{
	zval *keys;
	tbl_t *t;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(keys)
	ZEND_PARSE_PARAMETERS_END();

	t = php_table_apcu_table(false);
	if (Z_TYPE_P(keys) == IS_STRING) {
		RETURN_BOOL(php_table_apcu_delete_one(t, Z_STR_P(keys)));
	}
	if (Z_TYPE_P(keys) == IS_ARRAY) {
		zval *k;

		/* The keys that were not deleted, as given. */
		array_init(return_value);
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(keys), k) {
			ZVAL_DEREF(k);
			if (Z_TYPE_P(k) != IS_STRING) {
				php_error_docref(NULL, E_WARNING,
					"apc_delete() expects a string, array of strings, or APCIterator instance");
				Z_TRY_ADDREF_P(k);
				add_next_index_zval(return_value, k);
			} else if (!php_table_apcu_delete_one(t, Z_STR_P(k))) {
				if (UNEXPECTED(EG(exception))) {
					RETURN_THROWS();
				}
				Z_TRY_ADDREF_P(k);
				add_next_index_zval(return_value, k);
			}
		} ZEND_HASH_FOREACH_END();
		return;
	}
	if (Z_TYPE_P(keys) == IS_OBJECT) {
		/* What the iterator has left to hand out (php_table_apcu_iterator.c). */
		bool ok = php_table_apcu_iterator_delete(keys);

		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_BOOL(ok);
	}
	php_error_docref(NULL, E_WARNING, "apc_delete() expects a string, array of strings, or APCIterator instance");
	RETURN_FALSE;
}

/* ---- inc / dec / cas ----------------------------------------------------------------------------------- */

/* APCu adds with the CPU's wrapping arithmetic; tbl_incr refuses to overflow. Past the edge, do the
 * wrapped addition as a cas loop on the integer. */
static tbl_status_t php_table_apcu_add_wrapping(tbl_t *t, tbl_ns_t ns, zend_string *key, int64_t delta,
                                                uint32_t ttl, int64_t *result)
{
	for (;;) {
		tbl_view_t v;
		int64_t cur, next;
		tbl_value_t expected, val;
		tbl_status_t st = tbl_read_lookup(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &v, 0);

		if (st != TBL_OK && st != TBL_ENOTFOUND) {
			return st;   /* no section was opened */
		}
		if (st == TBL_OK && (v.type != TBL_T_LONG || v.len != sizeof(cur))) {
			tbl_read_end(t);
			return TBL_ETYPE;
		}
		cur = st == TBL_OK ? tbl_view_long(&v) : 0;
		tbl_read_end(t);
		if (st == TBL_ENOTFOUND) {
			/* Created meanwhile by someone else's incr, or deleted: tbl_incr creates or adds again. */
			st = tbl_incr(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), delta, ttl, result);
			if (st != TBL_EOVERFLOW) {
				return st;
			}
			continue;
		}
		next = (int64_t)((uint64_t)cur + (uint64_t)delta);
		expected = (tbl_value_t){ TBL_T_LONG, &cur, sizeof(cur), NULL };
		val = (tbl_value_t){ TBL_T_LONG, &next, sizeof(next), NULL };
		st = tbl_cas(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &expected, &val);
		if (st == TBL_OK) {
			*result = next;
			return TBL_OK;
		}
		if (st != TBL_EMISMATCH && st != TBL_ENOTFOUND) {
			return st;
		}
	}
}

/* Every apcu_inc / apcu_dec the fast path below does not settle, from its arguments on. */
static zend_never_inline void php_table_apcu_inc_slow(INTERNAL_FUNCTION_PARAMETERS, bool decrement)
{
	zend_string *key;
	zend_long step = 1, ttl = 0;
	zval *success = NULL;
	tbl_t *t;
	tbl_ns_t ns;
	tbl_status_t st;
	uint32_t secs;
	int64_t delta, result;
	bool ok = false;

	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(step)
		Z_PARAM_ZVAL(success)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	/* 0 - step wraps as APCu's does (dec by PHP_INT_MIN adds PHP_INT_MIN). */
	delta = decrement ? (int64_t)(0 - (uint64_t)step) : (int64_t)step;
	if ((t = php_table_apcu_table(false)) != NULL && php_table_key_ok(key)) {
		if (php_table_apcu_ttl(ttl, &secs) == PHP_TABLE_APCU_TTL_EXPIRED) {
			/* A missing key would be created already expired, and then not found: APCu fails. An existing
			 * one is changed, keeping its expiry. */
			if (php_table_apcu_ns_read(t, &ns) > 0 && php_table_peek(t, ns, key, NULL) > 0) {
				st = tbl_incr(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), delta, 0, &result);
				if (st == TBL_EOVERFLOW) {
					st = php_table_apcu_add_wrapping(t, ns, key, delta, 0, &result);
				}
				ok = php_table_apcu_ok(t, st, key);
			}
		} else if (php_table_apcu_ns_write_kept(t, &ns)) {
			st = tbl_incr(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), delta, secs, &result);
			if (php_table_apcu_ns_refresh(t, st, &ns)) {
				st = tbl_incr(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), delta, secs, &result);
			}
			if (st == TBL_EOVERFLOW) {
				st = php_table_apcu_add_wrapping(t, ns, key, delta, secs, &result);
			}
			ok = php_table_apcu_ok(t, st, key);
		}
	}
	if (success) {
		php_table_apcu_set_success(success, ok);
	}
	if (UNEXPECTED(EG(exception))) {
		RETURN_THROWS();
	}
	if (!ok) {
		RETURN_FALSE;
	}
	RETURN_LONG((zend_long)result);
}

/* The usual call, apcu_inc($key[, $step[, &$success]]) with a string key, an integer step and no TTL, on
 * an attached table whose apcu namespace this process keeps: the arguments read straight off the call
 * frame (what ZEND_PARSE_PARAMETERS would accept for exactly these types, with nothing to coerce) and one
 * tbl_incr, whose TBL_OK is the whole answer. Anything else, including every status but TBL_OK, goes to
 * php_table_apcu_inc_slow from the start: a tbl_incr that did not answer TBL_OK changed nothing, so
 * calling it again there (for the wrapped addition, a namespace to resolve again, APCu's false) is the
 * same call made a moment later. 58 instructions per call here where the general path spent 104. */
static zend_always_inline void php_table_apcu_inc(INTERNAL_FUNCTION_PARAMETERS, bool decrement)
{
	uint32_t argc = ZEND_NUM_ARGS();
	zval *arg = ZEND_CALL_ARG(execute_data, 1);
	tbl_t *t;
	zend_long step;
	int64_t result;

	if (EXPECTED(argc - 1 < 3) && EXPECTED(Z_TYPE(arg[0]) == IS_STRING)
			&& (argc < 2 || EXPECTED(Z_TYPE(arg[1]) == IS_LONG))
			&& EXPECTED(php_table_apcu_active) && EXPECTED((t = php_table_tbl) != NULL)
			&& php_table_apcu_ns_kept(t)) {
		/* No php_table_key_ok() here: the core refuses a key it cannot hold (TBL_EINVAL), and the slow
		 * path then gives APCu's answer for it. */
		step = argc < 2 ? 1 : Z_LVAL(arg[1]);
		if (EXPECTED(tbl_incr(t, php_table_apcu_nsc.ns, Z_STRVAL(arg[0]), Z_STRLEN(arg[0]),
		                      decrement ? (int64_t)(0 - (uint64_t)step) : (int64_t)step, 0, &result) == TBL_OK)) {
			if (argc == 3) {
				php_table_apcu_set_success(&arg[2], true);
			}
			RETURN_LONG((zend_long)result);
		}
	}
	php_table_apcu_inc_slow(INTERNAL_FUNCTION_PARAM_PASSTHRU, decrement);
}

PHP_FUNCTION(apcu_inc)
{
	php_table_apcu_inc(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

PHP_FUNCTION(apcu_dec)
{
	php_table_apcu_inc(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

/* Integers only, as APCu: true when the stored value is the integer `old` and is now `new`; false when
 * missing, another value, or not an integer. The expiry is kept. */
PHP_FUNCTION(apcu_cas)
{
	zend_string *key;
	zend_long old, new_value;
	int64_t o, n;
	tbl_value_t expected, val;
	tbl_t *t;
	tbl_ns_t ns;
	tbl_status_t st;

	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_STR(key)
		Z_PARAM_LONG(old)
		Z_PARAM_LONG(new_value)
	ZEND_PARSE_PARAMETERS_END();

	if (!(t = php_table_apcu_table(false)) || !php_table_key_ok(key) || php_table_apcu_ns_read_kept(t, &ns) <= 0) {
		RETURN_FALSE;
	}
	o = old;
	n = new_value;
	expected = (tbl_value_t){ TBL_T_LONG, &o, sizeof(o), NULL };
	val = (tbl_value_t){ TBL_T_LONG, &n, sizeof(n), NULL };
	st = tbl_cas(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &expected, &val);
	if ((st == TBL_ENOTFOUND || st == TBL_ESTALE) && php_table_apcu_ns_recheck(t, &ns) > 0) {
		st = tbl_cas(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &expected, &val);
	}
	RETURN_BOOL(php_table_apcu_ok(t, st, key));
}

/* ---- entry ---------------------------------------------------------------------------------------------
 * APCu runs the callback under its cache-wide write lock. Here it is remember()'s machinery: a claim on
 * the one key, so $callback runs once across all processes per miss (the others wait for its value, up to
 * PHP_TABLE_REMEMBER_WAIT_MS, then compute it themselves), no lock is held while it runs, and other keys
 * and apcu_* calls from inside the callback go on as usual. The callback gets the key, as APCu passes it. */
PHP_FUNCTION(apcu_entry)
{
	zend_string *key;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_long ttl = 0;
	uint32_t secs;
	zval param;
	tbl_t *t;

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if (!(t = php_table_apcu_table(false))) {
		return;   /* APCu disabled: null, the callback is not called */
	}
	ZVAL_STR_COPY(&param, key);
	fci.params = &param;
	fci.param_count = 1;
	if (!php_table_key_ok(key) || php_table_apcu_ttl(ttl, &secs) == PHP_TABLE_APCU_TTL_EXPIRED) {
		/* Nothing that could be read back would be stored: the callback's value is the answer. */
		fci.retval = return_value;
		zend_call_function(&fci, &fcc);
		zval_ptr_dtor(&param);
		if (Z_ISREF_P(return_value)) {
			zend_unwrap_reference(return_value);
		}
		return;
	}
	php_table_remember_key(t, php_table_apcu_ns, key, secs, &fci, &fcc, return_value);
	zval_ptr_dtor(&param);
}

/* ---- whole cache --------------------------------------------------------------------------------------- */

PHP_FUNCTION(apcu_clear_cache)
{
	tbl_t *t;
	tbl_ns_t ns;
	uint64_t removed;
	tbl_status_t st;

	ZEND_PARSE_PARAMETERS_NONE();

	/* Only the apcu namespace: Shm\Table's own namespaces sharing the table are left alone. */
	if ((t = php_table_apcu_table(false)) != NULL && php_table_apcu_ns_read(t, &ns) > 0
			&& (st = tbl_clear_ns(t, ns, &removed)) != TBL_OK && php_table_throw(t, st, NULL, 0)) {
		RETURN_THROWS();
	}
	RETURN_TRUE;
}

PHP_FUNCTION(apcu_enabled)
{
	ZEND_PARSE_PARAMETERS_NONE();

	RETURN_BOOL(php_table_apcu_table(true) != NULL);
}
