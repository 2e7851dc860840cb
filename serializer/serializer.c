/*
 * serializer.c - choose how a value is stored, and rebuild it.
 *
 * Scalars are stored inline and strings raw (pointing at the caller's zend_string, no copy). Arrays try
 * the native encoding first (one pass); only when it meets an object or a shared PHP reference does the
 * value go through the configured serializer. Before that, a walk over the value (through object
 * properties, best effort) rejects resources, which both serializers would silently turn into 0.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "serializer/serializer.h"
#include "serializer/image.h"
#include "serializer/compress.h"
#include "serializer/shape.h"

bool php_table_encode_images;

/* Thread-safe PHP: the extension's one TSRM cache (ZEND_TSRMLS_CACHE_UPDATE in table.c's GINIT and RINIT)
 * is defined here, in the lowest Zend layer, because every layer of the binding reads it (TABLE_G,
 * EG, emalloc): calls go down only (scripts/check-binding-layers.sh). */
#if defined(COMPILE_DL_TABLE) && defined(ZTS)
ZEND_TSRMLS_CACHE_DEFINE()
#endif

static zend_class_entry *exception_ce;   /* Shm\TableException, from php_table_serializer_startup() */

static const php_table_serializer *const serializers[] = {
	&php_table_serializer_php,
#ifdef HAVE_TABLE_IGBINARY
	&php_table_serializer_igbinary,
#endif
};

const php_table_serializer *php_table_serializer_find(const char *name)
{
	for (size_t i = 0; i < sizeof(serializers) / sizeof(serializers[0]); i++) {
		if (strcmp(serializers[i]->name, name) == 0) {
			return serializers[i];
		}
	}
	return NULL;
}

const php_table_serializer *php_table_serializer_for_type(uint8_t type)
{
	for (size_t i = 0; i < sizeof(serializers) / sizeof(serializers[0]); i++) {
		if (serializers[i]->type == type) {
			return serializers[i];
		}
	}
	return NULL;
}

void php_table_serializer_startup(zend_class_entry *ce)
{
	exception_ce = ce;
	php_table_shape_startup();
}

ZEND_COLD void php_table_throw_corrupt(const char *why)
{
	zend_string *fn = get_active_function_or_method_name();
	zend_throw_exception_ex(exception_ce, 0, "%s(): the stored value is corrupt (%s)", ZSTR_VAL(fn), why);
	zend_string_release(fn);
}

ZEND_COLD void php_table_throw_unreadable(const char *fmt, ...)
{
	zend_string *fn = get_active_function_or_method_name();
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	zend_throw_exception_ex(exception_ce, 0, "%s(): the stored value cannot be read (%s)", ZSTR_VAL(fn), why);
	zend_string_release(fn);
}

ZEND_COLD void php_table_value_error(uint32_t argnum, bool type_error, const char *msg)
{
	if (argnum != PHP_TABLE_ARG_COMPUTED) {
		if (type_error) {
			zend_argument_type_error(argnum, "%s", msg);
		} else {
			zend_argument_value_error(argnum, "%s", msg);
		}
		return;
	}
	/* remember(): the value came from the callback, argument #2. */
	zend_string *fn = get_active_function_or_method_name();
	zend_throw_error(type_error ? zend_ce_type_error : zend_ce_value_error,
		"%s(): Return value of argument #2 ($compute) %s", ZSTR_VAL(fn), msg);
	zend_string_release(fn);
}

/* Beyond this many levels the resource walk stops descending (it is best effort; the serializer has its
 * own depth limit). Keeps deep object graphs from exhausting the C stack here. */
#define WALK_MAX_LEVELS 4096

/* Reject resources anywhere in a value bound for the serializer, and arrays nested too deeply. Cycles
 * (through references or objects) are cut with the GC recursion-protection flag, as var_dump does. */
static zend_result walk_value(zval *zv, uint32_t argnum, uint32_t array_depth, uint32_t levels)
{
	HashTable *ht;
	zval *child;
	zend_result res = SUCCESS;

	ZVAL_DEREF(zv);
	if (Z_TYPE_P(zv) == IS_RESOURCE) {
		php_table_value_error(argnum, 1, "cannot contain a resource");
		return FAILURE;
	}
	if (Z_TYPE_P(zv) == IS_ARRAY && array_depth + 1 > PHP_TABLE_MAX_SERIAL_DEPTH) {
		php_table_value_error(argnum, 0, "is nested deeper than " ZEND_TOSTR(PHP_TABLE_MAX_SERIAL_DEPTH) " levels");
		return FAILURE;
	}
	if (levels >= WALK_MAX_LEVELS) {
		return SUCCESS;
	}
	if (Z_TYPE_P(zv) == IS_ARRAY) {
		ht = Z_ARRVAL_P(zv);
		array_depth++;
		/* Immutable arrays hold only constants: no resources, no objects, no cycles. */
		if (GC_FLAGS(ht) & GC_IMMUTABLE) {
			return SUCCESS;
		}
		if (GC_IS_RECURSIVE(ht)) {
			return SUCCESS;
		}
		GC_PROTECT_RECURSION(ht);
		ZEND_HASH_FOREACH_VAL(ht, child) {
			if ((res = walk_value(child, argnum, array_depth, levels + 1)) != SUCCESS) {
				break;
			}
		} ZEND_HASH_FOREACH_END();
		GC_UNPROTECT_RECURSION(ht);
		return res;
	}
	if (Z_TYPE_P(zv) == IS_OBJECT) {
		zend_object *obj = Z_OBJ_P(zv);
		if (GC_IS_RECURSIVE(obj)) {
			return SUCCESS;
		}
		ht = obj->handlers->get_properties(obj);
		if (!ht || EG(exception)) {
			return EG(exception) ? FAILURE : SUCCESS;
		}
		GC_PROTECT_RECURSION(obj);
		ZEND_HASH_FOREACH_VAL_IND(ht, child) {
			if ((res = walk_value(child, argnum, array_depth, levels + 1)) != SUCCESS) {
				break;
			}
		} ZEND_HASH_FOREACH_END();
		GC_UNPROTECT_RECURSION(obj);
		return res;
	}
	return SUCCESS;
}

static zend_result encode_serialized(zval *value, const php_table_serializer *ser, uint32_t argnum,
                                     php_table_encoded *enc)
{
	if (walk_value(value, argnum, 0, 0) != SUCCESS) {
		return FAILURE;
	}
	if (enc->buf.s) {
		ZSTR_LEN(enc->buf.s) = 0;
	}
	if (ser->serialize(value, &enc->buf) != SUCCESS || EG(exception)) {
		return FAILURE;
	}
	enc->val.type = ser->type;
	enc->val.data = enc->buf.s ? ZSTR_VAL(enc->buf.s) : "";
	enc->size = enc->buf.s ? ZSTR_LEN(enc->buf.s) : 0;
	enc->val.len = (uint32_t)enc->size;
	return SUCCESS;
}

static zend_result encode_plain(zval *value, const php_table_serializer *ser, uint32_t argnum, bool images,
                                bool memory_short, php_table_encoded *enc)
{
	enc->buf.s = NULL;
	enc->buf.a = 0;
	enc->val.data = NULL;
	enc->val.len = 0;
	enc->val.ops = NULL;
	enc->size = 0;

	ZVAL_DEREF(value);
	switch (Z_TYPE_P(value)) {
		case IS_NULL:
			enc->val.type = TBL_T_NULL;
			return SUCCESS;
		case IS_FALSE:
			enc->val.type = TBL_T_FALSE;
			return SUCCESS;
		case IS_TRUE:
			enc->val.type = TBL_T_TRUE;
			return SUCCESS;
		case IS_LONG:
			enc->scalar.l = (int64_t)Z_LVAL_P(value);
			enc->val.type = TBL_T_LONG;
			enc->val.data = &enc->scalar.l;
			enc->size = enc->val.len = sizeof(int64_t);
			return SUCCESS;
		case IS_DOUBLE:
			enc->scalar.d = Z_DVAL_P(value);
			enc->val.type = TBL_T_DOUBLE;
			enc->val.data = &enc->scalar.d;
			enc->size = enc->val.len = sizeof(double);
			return SUCCESS;
		case IS_STRING:
			enc->val.type = TBL_T_STRING;
			enc->val.data = Z_STRVAL_P(value);
			enc->size = Z_STRLEN_P(value);
			enc->val.len = (uint32_t)enc->size;
			return SUCCESS;
		case IS_ARRAY: {
			int r;
			if (images
			    && (enc->size = php_table_image_size(Z_ARRVAL_P(value), memory_short, &enc->buf)) != 0) {
				enc->val.type = TBL_T_IMAGE;
				enc->val.data = Z_ARRVAL_P(value);
				enc->val.len = (uint32_t)enc->size;
				enc->val.ops = &php_table_image_ops;
				return SUCCESS;
			}
			/* An image refused for its size left the native encoding it was compared with in buf. */
			r = enc->buf.s ? 1 : php_table_native_encode(Z_ARRVAL_P(value), &enc->buf, argnum);
			if (r > 0) {
				enc->val.type = TBL_T_ARRAY;
				enc->val.data = ZSTR_VAL(enc->buf.s);
				enc->size = ZSTR_LEN(enc->buf.s);
				enc->val.len = (uint32_t)enc->size;
				return SUCCESS;
			}
			if (r < 0) {
				return FAILURE;
			}
			return encode_serialized(value, ser, argnum, enc);
		}
		case IS_OBJECT:
			return encode_serialized(value, ser, argnum, enc);
		case IS_RESOURCE:
			php_table_value_error(argnum, 1, "cannot contain a resource");
			return FAILURE;
		default:
			/* IS_UNDEF etc. cannot reach a userland argument. */
			php_table_value_error(argnum, 1, "cannot be stored");
			return FAILURE;
	}
}

/* Store the encoded bytes compressed when table.compression says so and they shrink (compress.h). */
static void maybe_compress(php_table_encoded *enc)
{
	zend_string *packed;

	if (enc->size <= UINT32_MAX && php_table_compress((uint8_t)enc->val.type, (const char *)enc->val.data,
	                                                  enc->size, &packed)) {
		enc->packed = packed;
		enc->val.type = TBL_T_COMPRESSED;
		enc->val.data = ZSTR_VAL(packed);
		enc->size = ZSTR_LEN(packed);
		enc->val.len = (uint32_t)enc->size;
	}
}

static zend_result encode(zval *value, const php_table_serializer *ser, uint32_t argnum, bool images,
                          bool memory_short, php_table_encoded *enc)
{
	enc->packed = NULL;
	if (encode_plain(value, ser, argnum, images, memory_short, enc) != SUCCESS) {
		return FAILURE;
	}
	if (php_table_compress_algorithm != PHP_TABLE_COMPRESSION_NONE
	    && (enc->val.type == TBL_T_STRING || enc->val.type == TBL_T_ARRAY || enc->val.type == TBL_T_SERIAL_PHP
	        || enc->val.type == TBL_T_SERIAL_IGBINARY)) {
		maybe_compress(enc);   /* not scalars, nor zero-copy images, which are read in place */
	}
	return SUCCESS;
}

zend_result php_table_encode(zval *value, const php_table_serializer *ser, uint32_t argnum, bool memory_short,
                             php_table_encoded *enc)
{
	return encode(value, ser, argnum, php_table_encode_images, memory_short, enc);
}

zend_result php_table_encode_compact(zval *value, const php_table_serializer *ser, uint32_t argnum,
                                     php_table_encoded *enc)
{
	return encode(value, ser, argnum, false, false, enc);
}

void php_table_encoded_free(php_table_encoded *enc)
{
	smart_str_free(&enc->buf);
	if (enc->packed) {
		zend_string_efree(enc->packed);
		enc->packed = NULL;
	}
}

zend_result php_table_decode(uint8_t type, const void *data, uint32_t len, zval *out)
{
	return php_table_decode_ex(type, data, len, NULL, out);
}

zend_result php_table_decode_ex(uint8_t type, const void *data, uint32_t len, const php_table_foreign *foreign,
                               zval *out)
{
	switch (type) {
		case TBL_T_NULL:
			ZVAL_NULL(out);
			return SUCCESS;
		case TBL_T_FALSE:
			ZVAL_FALSE(out);
			return SUCCESS;
		case TBL_T_TRUE:
			ZVAL_TRUE(out);
			return SUCCESS;
		case TBL_T_LONG: {
			int64_t v;
			if (UNEXPECTED(len != sizeof(v))) {
				break;
			}
			memcpy(&v, data, sizeof(v));
			ZVAL_LONG(out, (zend_long)v);
			return SUCCESS;
		}
		case TBL_T_DOUBLE: {
			double d;
			if (UNEXPECTED(len != sizeof(d))) {
				break;
			}
			memcpy(&d, data, sizeof(d));
			ZVAL_DOUBLE(out, d);
			return SUCCESS;
		}
		case TBL_T_STRING:
			if (len <= 1) {
				ZVAL_INTERNED_STR(out, len == 0 ? ZSTR_EMPTY_ALLOC() : ZSTR_CHAR(*(const unsigned char *)data));
			} else {
				ZVAL_STRINGL(out, (const char *)data, len);
			}
			return SUCCESS;
		case TBL_T_ARRAY:
			return php_table_native_decode((const char *)data, len, out);
		case TBL_T_IMAGE:
			return php_table_image_copy(data, len, out);
		case TBL_T_COMPRESSED: {
			zend_string *raw;
			uint8_t inner;
			zend_result r;

			if (php_table_decompress(data, len, &inner, &raw) != SUCCESS) {
				ZVAL_UNDEF(out);
				return FAILURE;
			}
			if (inner == TBL_T_STRING) {
				ZVAL_STR(out, raw);
				return SUCCESS;
			}
			r = php_table_decode_ex(inner, ZSTR_VAL(raw), (uint32_t)ZSTR_LEN(raw), foreign, out);
			zend_string_efree(raw);
			return r;
		}
		case TBL_T_SERIAL_PHP:
		case TBL_T_SERIAL_IGBINARY: {
			const php_table_serializer *ser = php_table_serializer_for_type(type);
			if (UNEXPECTED(!ser)) {
				ZVAL_UNDEF(out);
				php_table_throw_corrupt("stored by a serializer this build does not have");
				return FAILURE;
			}
			return ser->unserialize(out, (const char *)data, len, foreign);
		}
		default:
			break;
	}
	ZVAL_UNDEF(out);
	php_table_throw_corrupt("unknown value type");
	return FAILURE;
}
