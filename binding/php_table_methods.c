/*
 * php_table_methods.c - Shm\Table's per-key methods: get, getWithMeta, set, add, exists, delete, ttl,
 * touch, increment, decrement, cas, and the getMany/setMany/deleteMany batches.
 *
 * Each one: fast ZPP, every argument validated, the table handle, then encoding (user code may run) and
 * only then the core call; the status goes through php_table_throw().
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <math.h>
#include "php.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"
#include "php_table_internal.h"

PHP_METHOD(Shm_Table, get)
{
	zend_string *key, *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (UNEXPECTED(!php_table_check_key(key, 1) || !php_table_check_ns(ns, 2) || !(t = php_table_handle()))) {
		RETURN_THROWS();
	}
	if (EXPECTED(!ns) && EXPECTED(!php_table_default_ns_slow)) {
		nsid = TBL_NS_DEFAULT;
	} else {
#ifdef HAVE_TABLE_HIREDIS
		if (UNEXPECTED(ns ? php_table_tier_on : php_table_tier_default) && php_table_tier_get(t, ns, key, return_value)) {
			return;
		}
#endif
		switch (php_table_ns_read(t, ns, &nsid)) {
			case 0:
				RETURN_NULL();
			case -1:
				RETURN_THROWS();
		}
	}
	if (UNEXPECTED(php_table_fetch(t, nsid, key, return_value, NULL, 1) < 0)) {
		RETURN_THROWS();
	}
	/* A miss leaves return_value as the engine initialized it: null. */
}

PHP_METHOD(Shm_Table, getWithMeta)
{
	zend_string *key, *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;
	tbl_view_t meta;
	zval value, m;
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_ns(ns, 2) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if (!php_table_tier_get_with_meta(t, ns, key, return_value)) {
			RETURN_THROWS();
		}
		return;
	}
#endif
	if ((r = php_table_ns_read(t, ns, &nsid)) <= 0 || (r = php_table_fetch(t, nsid, key, &value, &meta, 1)) <= 0) {
		if (r < 0) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	array_init_size(&m, 5);
	add_assoc_bool(&m, "cached", 1);
	add_assoc_long(&m, "length", meta.len);
	add_assoc_long(&m, "ttl", meta.expire ? php_table_seconds_left(meta.expire) : -1);
	add_assoc_long(&m, "created", meta.created);
	add_assoc_long(&m, "updated", meta.updated);
	array_init_size(return_value, 2);
	add_next_index_zval(return_value, &value);
	add_next_index_zval(return_value, &m);
}

/* set() and add(). */
static void php_table_store(INTERNAL_FUNCTION_PARAMETERS, tbl_store_mode_t mode)
{
	zend_string *key, *ns = NULL;
	zval *value;
	zend_long expire = 0;
	bool expire_null = true;
	uint32_t ttl;
	tbl_t *t;
	tbl_ns_t nsid;
	tbl_status_t st;
	php_table_encoded enc;

	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_STR(key)
		Z_PARAM_ZVAL(value)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(expire, expire_null)
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_expire(expire, expire_null, 3, &ttl)
			|| !php_table_check_ns(ns, 4) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		int r = php_table_tier_store(t, ns, key, value, ttl, mode == TBL_STORE_ADD);

		if (r < 0) {
			RETURN_THROWS();
		}
		RETURN_BOOL(r);
	}
#endif
	if (!php_table_encode_arg(t, value, 2, &enc) || !php_table_ns_write(t, ns, &nsid)) {
		php_table_encoded_free(&enc);
		RETURN_THROWS();
	}
	st = php_table_store_encoded(t, nsid, key, value, 2, &enc, ttl, mode);
	if (php_table_ns_refresh(t, ns, st, &nsid)) {
		st = php_table_store_encoded(t, nsid, key, value, 2, &enc, ttl, mode);
	}
	php_table_encoded_free(&enc);
	if (EXPECTED(st == TBL_OK)) {
		RETURN_TRUE;
	}
	if (php_table_throw(t, st, key, enc.size)) {
		RETURN_THROWS();
	}
	RETURN_FALSE;
}

PHP_METHOD(Shm_Table, set)
{
	php_table_store(INTERNAL_FUNCTION_PARAM_PASSTHRU, TBL_STORE_SET);
}

PHP_METHOD(Shm_Table, add)
{
	php_table_store(INTERNAL_FUNCTION_PARAM_PASSTHRU, TBL_STORE_ADD);
}

PHP_METHOD(Shm_Table, exists)
{
	zend_string *key, *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_ns(ns, 2) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if (!php_table_tier_exists(t, ns, key, &r)) {
			RETURN_THROWS();
		}
		RETURN_BOOL(r);
	}
#endif
	if ((r = php_table_ns_read(t, ns, &nsid)) > 0) {
		r = php_table_peek(t, nsid, key, NULL);
	}
	if (r < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(r);
}

PHP_METHOD(Shm_Table, delete)
{
	zend_string *key, *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;
	tbl_status_t st;
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_ns(ns, 2) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if ((r = php_table_tier_delete(t, ns, key)) < 0) {
			RETURN_THROWS();
		}
		RETURN_BOOL(r);
	}
#endif
	if ((r = php_table_ns_read(t, ns, &nsid)) <= 0) {
		if (r < 0) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	st = tbl_delete(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key));
	if (st == TBL_OK) {
		RETURN_TRUE;
	}
	if (php_table_throw(t, st, key, 0)) {
		RETURN_THROWS();
	}
	RETURN_FALSE;
}

PHP_METHOD(Shm_Table, ttl)
{
	zend_string *key, *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;
	tbl_view_t meta;
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_ns(ns, 2) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		zend_long secs;
		bool found;

		if (!php_table_tier_ttl(t, ns, key, &secs, &found)) {
			RETURN_THROWS();
		}
		if (!found || secs < 0) {
			RETURN_FALSE;
		}
		RETURN_LONG(secs);
	}
#endif
	if ((r = php_table_ns_read(t, ns, &nsid)) > 0) {
		r = php_table_peek(t, nsid, key, &meta);
	}
	if (r < 0) {
		RETURN_THROWS();
	}
	if (r == 0 || meta.expire == 0) {
		RETURN_FALSE;
	}
	RETURN_LONG(php_table_seconds_left(meta.expire));
}

PHP_METHOD(Shm_Table, touch)
{
	zend_string *key, *ns = NULL;
	zend_long expire = 0;
	bool expire_null = true;
	uint32_t ttl;
	tbl_t *t;
	tbl_ns_t nsid;
	tbl_status_t st;
	int r;

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_LONG_OR_NULL(expire, expire_null)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_expire(expire, expire_null, 2, &ttl)
			|| !php_table_check_ns(ns, 3) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if ((r = php_table_tier_touch(t, ns, key, ttl)) < 0) {
			RETURN_THROWS();
		}
		RETURN_BOOL(r);
	}
#endif
	if ((r = php_table_ns_read(t, ns, &nsid)) <= 0) {
		if (r < 0) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	st = tbl_touch(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key), ttl);
	if (st == TBL_OK) {
		RETURN_TRUE;
	}
	if (php_table_throw(t, st, key, 0)) {
		RETURN_THROWS();
	}
	RETURN_FALSE;
}

/* decrement($key, PHP_INT_MIN) adds 2^63, which no int64 delta can express: do it as a cas loop that
 * applies the same rules as tbl_incr (a missing key starts from 0; overflow and non-integers throw). */
static void php_table_sub_int_min(tbl_t *t, tbl_ns_t ns, zend_string *key, zval *return_value)
{
	for (;;) {
		tbl_view_t v;
		tbl_status_t st;
		int64_t cur, next;
		tbl_value_t expected, val;

		if ((st = tbl_read_begin(t)) != TBL_OK) {
			php_table_throw(t, st, key, 0);
			return;
		}
		st = tbl_lookup(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &v, 0);
		if (st == TBL_OK && v.type == TBL_T_LONG && v.len == sizeof(cur)) {
			memcpy(&cur, v.data, sizeof(cur));
		}
		tbl_read_end(t);
		if (st == TBL_ENOTFOUND) {
			php_table_throw(t, TBL_EOVERFLOW, key, 0);   /* 0 - PHP_INT_MIN */
			return;
		}
		if (st != TBL_OK) {
			php_table_throw(t, st, key, 0);
			return;
		}
		if (v.type != TBL_T_LONG || v.len != sizeof(cur)) {
			php_table_throw(t, TBL_ETYPE, key, 0);
			return;
		}
		if (cur >= 0) {
			php_table_throw(t, TBL_EOVERFLOW, key, 0);
			return;
		}
		next = (int64_t)((uint64_t)cur + ((uint64_t)1 << 63));
		expected = (tbl_value_t){ TBL_T_LONG, &cur, sizeof(cur), NULL };
		val = (tbl_value_t){ TBL_T_LONG, &next, sizeof(next), NULL };
		st = tbl_cas(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &expected, &val);
		if (st == TBL_OK) {
			RETURN_LONG((zend_long)next);
		}
		if (st != TBL_EMISMATCH && st != TBL_ENOTFOUND) {
			if (!php_table_throw(t, st, key, 0)) {
				RETVAL_FALSE;
			}
			return;
		}
		/* Changed under us: read it again. */
	}
}

static void php_table_incr(INTERNAL_FUNCTION_PARAMETERS, bool decrement)
{
	zend_string *key, *ns = NULL;
	zend_long by = 1, expire = 0;
	bool expire_null = true;
	uint32_t ttl;
	tbl_t *t;
	tbl_ns_t nsid;
	tbl_status_t st;
	int64_t result;

	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(by)
		Z_PARAM_LONG_OR_NULL(expire, expire_null)
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_expire(expire, expire_null, 3, &ttl)
			|| !php_table_check_ns(ns, 4) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		/* Redis refuses a decrement by PHP_INT_MIN (DECRBY cannot negate it): the same here. */
		if (decrement && by == ZEND_LONG_MIN) {
			php_table_throw(t, TBL_EOVERFLOW, key, 0);
			RETURN_THROWS();
		}
		if (!php_table_tier_incr(t, ns, key, decrement ? -(int64_t)by : (int64_t)by, ttl, &result)) {
			if (EG(exception)) {
				RETURN_THROWS();
			}
			RETURN_FALSE;   /* table.redis_on_error=miss */
		}
		RETURN_LONG((zend_long)result);
	}
#endif
	if (!php_table_ns_write(t, ns, &nsid)) {
		RETURN_THROWS();
	}
	if (decrement && UNEXPECTED(by == ZEND_LONG_MIN)) {
		php_table_sub_int_min(t, nsid, key, return_value);
		return;
	}
	st = tbl_incr(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key), decrement ? -(int64_t)by : (int64_t)by, ttl, &result);
	if (php_table_ns_refresh(t, ns, st, &nsid)) {
		st = tbl_incr(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key), decrement ? -(int64_t)by : (int64_t)by, ttl, &result);
	}
	if (EXPECTED(st == TBL_OK)) {
		RETURN_LONG((zend_long)result);
	}
	if (php_table_throw(t, st, key, 0)) {
		RETURN_THROWS();
	}
	RETURN_FALSE;
}

PHP_METHOD(Shm_Table, increment)
{
	php_table_incr(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

PHP_METHOD(Shm_Table, decrement)
{
	php_table_incr(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

/* cas() replaces (val set), deleteIf() deletes (val NULL): the same comparison, one step under the lock. */
static tbl_status_t php_table_swap(tbl_t *t, tbl_ns_t ns, zend_string *key, const tbl_value_t *exp,
                                   const tbl_value_t *val)
{
	return val ? tbl_cas(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), exp, val)
	           : tbl_delete_if(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), exp);
}

/* The core compares stored bytes, which is === for every scalar but floats: NAN is never identical to
 * itself, and 0.0 === -0.0 although their bytes differ. */
static tbl_status_t php_table_cas_identical(tbl_t *t, tbl_ns_t ns, zend_string *key, zval *expected,
	const tbl_value_t *exp, const tbl_value_t *val)
{
	if (Z_TYPE_P(expected) == IS_DOUBLE) {
		double d = Z_DVAL_P(expected);

		if (zend_isnan(d)) {
			return TBL_EMISMATCH;
		}
		if (d == 0.0) {
			double other = signbit(d) ? 0.0 : -0.0;
			tbl_value_t alt = { TBL_T_DOUBLE, &other, sizeof(other), NULL };
			tbl_status_t st = php_table_swap(t, ns, key, exp, val);

			return st == TBL_EMISMATCH ? php_table_swap(t, ns, key, &alt, val) : st;
		}
	}
	return php_table_swap(t, ns, key, exp, val);
}

/* ---- cas() of arrays: === semantics ------------------------------------------------------------------
 *
 * Scalars compare by their stored bytes (with 0.0/-0.0 and NAN handled above), and values holding objects
 * by their serialized form: === on objects compares identity, which no value read back from the table
 * can share. Arrays without objects follow ===: same keys in the same order, values === each other
 * (so [0.0] === [-0.0], [NAN] !== [NAN], a packed array with holes equals the same pairs built any other
 * way, and references are looked through), whatever encoding stored them (native, zero-copy image, or
 * the serializer for references and deep nesting). That needs the stored value decoded, which cannot
 * happen under a stripe lock, so it is optimistic: read the value and its stored bytes, compare with
 * zend_is_identical(), then swap only if the entry still holds exactly those bytes (tbl_cas); if another
 * process replaced it meanwhile, judge the new value the same way. */
#define PHP_TABLE_CAS_ATTEMPTS 64

static bool php_table_has_object(zval *zv, uint32_t depth)
{
	HashTable *ht;
	zval *child;
	bool found = false;

	ZVAL_DEREF(zv);
	if (Z_TYPE_P(zv) == IS_OBJECT) {
		return true;
	}
	if (Z_TYPE_P(zv) != IS_ARRAY || depth > PHP_TABLE_MAX_SERIAL_DEPTH) {
		return false;
	}
	ht = Z_ARRVAL_P(zv);
	if (GC_IS_RECURSIVE(ht)) {
		return false;
	}
	GC_TRY_PROTECT_RECURSION(ht);
	ZEND_HASH_FOREACH_VAL(ht, child) {
		if (php_table_has_object(child, depth + 1)) {
			found = true;
			break;
		}
	} ZEND_HASH_FOREACH_END();
	GC_TRY_UNPROTECT_RECURSION(ht);
	return found;
}

/* The stored value of `key` decoded into `cur`, and its stored form (type and a copy of its bytes).
 * 1 hit, 0 miss, -1 thrown. On 1, release *bytes and `cur`. */
static int php_table_cas_read(tbl_t *t, tbl_ns_t ns, zend_string *key, zval *cur, uint8_t *type,
                              zend_string **bytes)
{
	tbl_view_t v;
	tbl_status_t st = tbl_read_lookup(t, ns, ZSTR_VAL(key), ZSTR_LEN(key), &v, 0);

	if (st != TBL_OK) {
		if (st == TBL_ENOTFOUND) {
			tbl_read_end(t);
			return 0;
		}
		return php_table_throw(t, st, key, 0) ? -1 : 0;
	}
	*type = (uint8_t)(v.type & ~TBL_T_SPLIT);   /* its form, whether in pieces or not (tbl_cas compares so) */
	zend_try {
		*bytes = zend_string_alloc(v.len, 0);
	} zend_catch {
		tbl_read_end(t);
		zend_bailout();
	} zend_end_try();
	tbl_view_copy(t, &v, ZSTR_VAL(*bytes));
	ZSTR_VAL(*bytes)[v.len] = '\0';
	if (php_table_decode_runs_user_code(*type) || (v.type & TBL_T_SPLIT)) {
		tbl_read_end(t);   /* __unserialize/__wakeup may call into the table */
		if (php_table_decode(*type, ZSTR_VAL(*bytes), ZSTR_LEN(*bytes), cur) != SUCCESS) {
			zend_string_release(*bytes);
			return -1;
		}
		return 1;
	}
	if (php_table_decode_guarded(t, &v, cur) < 0) {
		zend_string_release(*bytes);
		return -1;
	}
	return 1;
}

/* cas() for an array expected value without objects. *thrown is set when an exception was thrown. */
static tbl_status_t php_table_cas_array(tbl_t *t, tbl_ns_t ns, zend_string *key, zval *expected,
                                        const tbl_value_t *val, bool *thrown)
{
	for (int attempt = 0; attempt < PHP_TABLE_CAS_ATTEMPTS; attempt++) {
		zend_string *bytes = NULL;
		uint8_t type = 0;
		tbl_value_t witness;
		tbl_status_t st;
		zval cur;
		bool same;
		int r;

		ZVAL_UNDEF(&cur);
		if ((r = php_table_cas_read(t, ns, key, &cur, &type, &bytes)) <= 0) {
			*thrown = r < 0;
			return TBL_ENOTFOUND;
		}
		same = zend_is_identical(&cur, expected);
		zval_ptr_dtor(&cur);
		if (!same || EG(exception)) {
			zend_string_release(bytes);
			*thrown = EG(exception) != NULL;
			return TBL_EMISMATCH;
		}
		witness.type = type;
		witness.data = ZSTR_VAL(bytes);
		witness.len = (uint32_t)ZSTR_LEN(bytes);
		witness.ops = NULL;
		st = php_table_swap(t, ns, key, &witness, val);
		zend_string_release(bytes);
		if (st != TBL_EMISMATCH) {
			return st;
		}
	}
	return TBL_EMISMATCH;   /* replaced by others on every attempt: we lost the race each time */
}

/* cas() and deleteIf(): swap in `val` (NULL: delete) where the stored value is identical to `expected`.
 * *r is php_table_ns_read()'s answer, or -1 when comparing threw. */
static tbl_status_t php_table_compare_and_swap(tbl_t *t, zend_string *ns, zend_string *key, zval *expected,
                                               const tbl_value_t *enc_expected, const tbl_value_t *val, int *r)
{
	tbl_ns_t nsid;
	tbl_status_t st = TBL_ENOTFOUND;

	if ((*r = php_table_ns_read(t, ns, &nsid)) > 0) {
		ZVAL_DEREF(expected);
		if (Z_TYPE_P(expected) == IS_ARRAY && !php_table_has_object(expected, 0)) {
			bool thrown = false;
			st = php_table_cas_array(t, nsid, key, expected, val, &thrown);
			*r = thrown ? -1 : *r;
		} else {
			st = php_table_cas_identical(t, nsid, key, expected, enc_expected, val);
		}
	}
	return st;
}

PHP_METHOD(Shm_Table, cas)
{
	zend_string *key, *ns = NULL;
	zval *expected, *value;
	tbl_t *t;
	tbl_status_t st;
	php_table_encoded enc_expected, enc_new;
	int r;

	ZEND_PARSE_PARAMETERS_START(3, 4)
		Z_PARAM_STR(key)
		Z_PARAM_ZVAL(expected)
		Z_PARAM_ZVAL(value)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_ns(ns, 4) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if ((r = php_table_tier_compare_and_swap(t, ns, key, expected, value)) < 0) {
			RETURN_THROWS();
		}
		RETURN_BOOL(r);
	}
#endif
	/* Both are encoded exactly as set() would store them, so "same bytes" means "same value". */
	if (!php_table_encode_arg(t, expected, 2, &enc_expected)) {
		php_table_encoded_free(&enc_expected);
		RETURN_THROWS();
	}
	if (!php_table_encode_arg(t, value, 3, &enc_new)) {
		php_table_encoded_free(&enc_expected);
		php_table_encoded_free(&enc_new);
		RETURN_THROWS();
	}
	st = php_table_compare_and_swap(t, ns, key, expected, &enc_expected.val, &enc_new.val, &r);
	if (UNEXPECTED(st == TBL_ENOCONTIG) && r >= 0) {
		/* The new value is an image the table has no single block for: swap in its compact encoding,
		 * which can be stored in pieces. Nothing was changed: comparing again is the same cas. */
		if (php_table_encode_compact_again(value, 3, &enc_new)) {
			st = php_table_compare_and_swap(t, ns, key, expected, &enc_expected.val, &enc_new.val, &r);
		} else {
			r = -1;
		}
	}
	php_table_encoded_free(&enc_expected);
	php_table_encoded_free(&enc_new);
	if (r < 0 || php_table_throw(t, st, key, enc_new.size)) {
		RETURN_THROWS();
	}
	RETURN_BOOL(st == TBL_OK);
}

/* deleteIf(): cas() with deletion for the swap (php_table_swap), so a lock's owner releases it in one
 * step and never deletes the value another owner stored after its own expired. */
PHP_METHOD(Shm_Table, deleteIf)
{
	zend_string *key, *ns = NULL;
	zval *expected;
	tbl_t *t;
	tbl_status_t st;
	php_table_encoded enc_expected;
	int r;

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_ZVAL(expected)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_ns(ns, 3) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if ((r = php_table_tier_compare_and_swap(t, ns, key, expected, NULL)) < 0) {
			RETURN_THROWS();
		}
		RETURN_BOOL(r);
	}
#endif
	if (!php_table_encode_arg(t, expected, 2, &enc_expected)) {
		php_table_encoded_free(&enc_expected);
		RETURN_THROWS();
	}
	st = php_table_compare_and_swap(t, ns, key, expected, &enc_expected.val, NULL, &r);
	php_table_encoded_free(&enc_expected);
	if (r < 0 || php_table_throw(t, st, key, 0)) {
		RETURN_THROWS();
	}
	RETURN_BOOL(st == TBL_OK);
}

PHP_METHOD(Shm_Table, getMany)
{
	HashTable *keys;
	zend_string *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;
	zval *zv;
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(keys)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key_list(keys, 1) || !php_table_check_ns(ns, 2) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if (!php_table_tier_fetch_many(t, ns, keys, return_value)) {
			RETURN_THROWS();
		}
		return;
	}
#endif
	if ((r = php_table_ns_read(t, ns, &nsid)) < 0) {
		RETURN_THROWS();
	}
	array_init_size(return_value, zend_hash_num_elements(keys));
	if (r == 0) {
		return;
	}
	ZEND_HASH_FOREACH_VAL(keys, zv) {
		zend_string *key = php_table_array_key(0, NULL, zv, true);
		zval value;
		r = php_table_fetch(t, nsid, key, &value, NULL, 1);
		if (r > 0) {
			zend_symtable_update(Z_ARRVAL_P(return_value), key, &value);
		}
		zend_string_release(key);
		if (r < 0) {
			zval_ptr_dtor(return_value);
			ZVAL_NULL(return_value);
			RETURN_THROWS();
		}
	} ZEND_HASH_FOREACH_END();
}

PHP_METHOD(Shm_Table, setMany)
{
	HashTable *values;
	zend_string *ns = NULL, *skey;
	zend_long expire = 0;
	bool expire_null = true, all = true;
	uint32_t ttl, n, i, encoded = 0;
	tbl_t *t;
	tbl_ns_t nsid;
	zend_ulong h;
	zval *zv, *failed = NULL, failed_keys;
	php_table_encoded *enc;

	ZEND_PARSE_PARAMETERS_START(1, 4)
		Z_PARAM_ARRAY_HT(values)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(expire, expire_null)
		Z_PARAM_STR_OR_NULL(ns)
		Z_PARAM_ZVAL(failed)
	ZEND_PARSE_PARAMETERS_END();

	if (failed && Z_TYPE_P(Z_REFVAL_P(failed)) != IS_NULL && Z_TYPE_P(Z_REFVAL_P(failed)) != IS_ARRAY) {
		zend_argument_type_error(4, "must be of type ?array, %s given", zend_zval_type_name(Z_REFVAL_P(failed)));
		RETURN_THROWS();
	}
	ZEND_HASH_FOREACH_STR_KEY(values, skey) {
		if (skey && !php_table_key_ok(skey)) {
			zend_argument_value_error(1, "must contain only non-empty keys of at most %u bytes", TBL_KEY_MAX);
			RETURN_THROWS();
		}
	} ZEND_HASH_FOREACH_END();
	if (!php_table_check_expire(expire, expire_null, 2, &ttl) || !php_table_check_ns(ns, 3)
			|| !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		/* One MULTI/EXEC: all stored or none (then it threw), so $failed is always empty. */
		if (!php_table_tier_store_many(t, ns, values, ttl)) {
			if (EG(exception)) {
				RETURN_THROWS();
			}
			RETURN_FALSE;   /* table.redis_on_error=miss: none is known to be stored */
		}
		if (failed) {
			ZEND_TRY_ASSIGN_REF_ARR(failed, zend_new_array(0));
		}
		RETURN_TRUE;
	}
#endif

	/* Encode everything first: if one value fails, nothing is stored. */
	n = zend_hash_num_elements(values);
	enc = safe_emalloc(n ? n : 1, sizeof(*enc), 0);
	ZEND_HASH_FOREACH_VAL(values, zv) {
		if (!php_table_encode_arg(t, zv, 1, &enc[encoded++])) {
			goto done;
		}
	} ZEND_HASH_FOREACH_END();
	if (!php_table_ns_write(t, ns, &nsid)) {
		goto done;
	}

	/* $failed: the keys not stored (no room under noeviction), as apcu_store(array) reports them. */
	array_init(&failed_keys);
	i = 0;
	ZEND_HASH_FOREACH_KEY_VAL(values, h, skey, zv) {
		zend_string *key = php_table_array_key(h, skey, zv, false);
		tbl_status_t st = php_table_store_encoded(t, nsid, key, zv, 1, &enc[i], ttl, TBL_STORE_SET);
		if (php_table_ns_refresh(t, ns, st, &nsid)) {
			st = php_table_store_encoded(t, nsid, key, zv, 1, &enc[i], ttl, TBL_STORE_SET);
		}
		bool threw = st != TBL_OK && php_table_throw(t, st, key, enc[i].size);
		i++;
		if (threw) {
			zend_string_release(key);
			zval_ptr_dtor(&failed_keys);
			goto done;
		}
		if (st != TBL_OK) {
			/* Named as the caller did: an int key stays an int. */
			if (skey) {
				add_next_index_str(&failed_keys, key);
			} else {
				add_next_index_long(&failed_keys, (zend_long)h);
				zend_string_release(key);
			}
			all = false;
		} else {
			zend_string_release(key);
		}
	} ZEND_HASH_FOREACH_END();
	if (failed) {
		ZEND_TRY_ASSIGN_REF_TMP(failed, &failed_keys);
	} else {
		zval_ptr_dtor(&failed_keys);
	}
	RETVAL_BOOL(all);

done:
	for (i = 0; i < encoded; i++) {
		php_table_encoded_free(&enc[i]);
	}
	efree(enc);
}

PHP_METHOD(Shm_Table, deleteMany)
{
	HashTable *keys;
	zend_string *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;
	zval *zv;
	zend_long deleted = 0;
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(keys)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key_list(keys, 1) || !php_table_check_ns(ns, 2) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if ((deleted = php_table_tier_delete_many(t, ns, keys)) < 0) {
			RETURN_THROWS();
		}
		RETURN_LONG(deleted);
	}
#endif
	if ((r = php_table_ns_read(t, ns, &nsid)) < 0) {
		RETURN_THROWS();
	}
	if (r > 0) {
		ZEND_HASH_FOREACH_VAL(keys, zv) {
			zend_string *key = php_table_array_key(0, NULL, zv, true);
			tbl_status_t st = tbl_delete(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key));
			bool threw = st != TBL_OK && php_table_throw(t, st, key, 0);
			zend_string_release(key);
			if (threw) {
				RETURN_THROWS();
			}
			deleted += st == TBL_OK;
		} ZEND_HASH_FOREACH_END();
	}
	RETURN_LONG(deleted);
}
