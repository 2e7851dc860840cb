/*
 * php_table_values.c - the helpers the method files share: keys taken from arrays, the slow paths of the
 * read path (php_table_fetch in php_table_internal.h: guarded, serialized, split, image and slotless
 * reads), peeking, and encoding a value for a write. Beneath the methods, above the state and errors.
 *
 * Serialized values are copied out and decoded after the read section is closed, since unserializing
 * can run user code that might call back into the table; native values are materialized inside it.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <stdlib.h>

#include "php.h"

#include "php_table.h"
#include "php_table_internal.h"
#include "core/platform.h"
#include "serializer/image.h"

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

zend_never_inline int php_table_fetch_serialized(tbl_t *t, const tbl_view_t *v, zval *rv,
                                                 const php_table_foreign *foreign)
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
	r = php_table_decode_ex(type, buf, len, foreign, rv);
	efree(buf);
	return r == SUCCESS ? 1 : -1;
}

zend_never_inline int php_table_fetch_split(tbl_t *t, const tbl_view_t *v, zval *rv, const php_table_foreign *foreign)
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
	r = php_table_decode_ex(type, ZSTR_VAL(bytes), v->len, foreign, rv);
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
                                               tbl_view_t *meta, const php_table_foreign *foreign)
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
			r = php_table_decode_ex(v.type, copy ? copy : "", v.len, foreign, rv);
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
