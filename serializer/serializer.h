/*
 * serializer.h - how PHP values become the bytes the core stores, and back.
 *
 * Null, bools, ints and floats are stored inline (8 bytes at most). Strings are stored raw. Arrays made
 * only of those (nested up to PHP_TABLE_MAX_DEPTH levels) use the native encoding in native.c, which is
 * cheap to materialize. Everything else (objects, arrays holding objects or PHP references) goes through
 * the configured serializer: one vtable per format, one file each (php.c, igbinary.c).
 *
 * Nothing here touches the table or holds a lock: encoding runs user code (__serialize, __sleep) and may
 * throw; it always runs before the core takes any lock. Decoding of TBL_T_SERIAL_* values runs user code
 * too (__unserialize, __wakeup, autoloaders), so the binding copies those bytes out of the segment and
 * closes its read section first (php_table_decode_runs_user_code()).
 */
#ifndef PHP_TABLE_SERIALIZER_H
#define PHP_TABLE_SERIALIZER_H

#include "php.h"
#include "zend_smart_str.h"
#include "core/table_core.h"

#define PHP_TABLE_MAX_DEPTH 512
/* Arrays nested deeper than PHP_TABLE_MAX_DEPTH go through the serializer, up to this many levels:
 * unserialize() refuses more by default (unserialize_max_depth=4096), so deeper values are rejected
 * when stored rather than stored unreadable. */
#define PHP_TABLE_MAX_SERIAL_DEPTH 4096

/* argnum value meaning "the value $compute returned" (remember()), for error messages. */
#define PHP_TABLE_ARG_COMPUTED 0

/* How a value from outside this host's PHP processes is decoded: a tiered namespace's, read from Redis
 * or from its copy in the L1, which any client of the Redis may have written (docs/redis-tier.md's
 * "Trust model"). NULL where the bytes were written by this host's PHP. */
typedef struct php_table_foreign {
	/* The lowercase names of the classes (enums included) its objects may be of: table.redis_allowed_classes,
	 * empty for none; NULL: any class. */
	const HashTable *classes;
} php_table_foreign;

typedef struct php_table_serializer {
	const char *name;       /* the table.serializer INI value */
	uint8_t type;           /* TBL_T_SERIAL_PHP, TBL_T_SERIAL_IGBINARY */
	/* Append the serialized form of `value` to `out`. FAILURE with an exception set on error. */
	zend_result (*serialize)(zval *value, smart_str *out);
	/* Rebuild a value into `out` (left UNDEF on failure). FAILURE with an exception set when the bytes
	 * are not valid or user code (__unserialize, __wakeup) threw. For a `foreign` value (non-NULL) a
	 * value naming a class outside foreign->classes is refused before anything in it is built
	 * (Shm\TableException), and a format that cannot tell refuses every value when there is a list. */
	zend_result (*unserialize)(zval *out, const char *buf, size_t len, const php_table_foreign *foreign);
} php_table_serializer;

extern const php_table_serializer php_table_serializer_php;

/* Whether arrays that qualify are stored as zero-copy images (image.h) instead of the native encoding.
 * Set once in MINIT from table.zero_copy, so every process of one segment agrees. */
extern bool php_table_encode_images;
#ifdef HAVE_TABLE_IGBINARY
extern const php_table_serializer php_table_serializer_igbinary;
#endif

/* Look a serializer up by INI name; NULL when unknown or not compiled in. */
const php_table_serializer *php_table_serializer_find(const char *name);
/* Find a serializer by the type byte it stores with (for reading back). NULL when not compiled in. */
const php_table_serializer *php_table_serializer_for_type(uint8_t type);

/* A value encoded for storage. `val` points either at `scalar`, at the zend_string of the input, at
 * `buf`, or at `packed` (compressed: compress.h); keep the input zval alive until the store is done.
 * `size` is the full encoded length: when it exceeds UINT32_MAX the value can never be stored (val.len
 * is then meaningless). Always call php_table_encoded_free(), also after FAILURE. */
typedef struct php_table_encoded {
	tbl_value_t val;
	size_t size;
	union { int64_t l; double d; } scalar;
	smart_str buf;
	zend_string *packed;
} php_table_encoded;

/* Encode `value`. `argnum` is the position of the value argument, used in error messages
 * (PHP_TABLE_ARG_COMPUTED for the result of remember()'s callback). `memory_short` (tbl_memory_short())
 * makes an array whose zero-copy image would be over twice its compact encoding be stored compactly.
 * FAILURE with an exception set when the value cannot be stored:
 *   TypeError  - it is or contains a resource;
 *   ValueError - an array nested deeper than PHP_TABLE_MAX_SERIAL_DEPTH;
 *   whatever the serializer throws (e.g. "Serialization of 'Closure' is not allowed").
 * Nothing is stored on FAILURE (the caller does not call the core). */
zend_result php_table_encode(zval *value, const php_table_serializer *ser, uint32_t argnum, bool memory_short,
                             php_table_encoded *enc);
/* The same, never as a zero-copy image: for an array the table found no single block for (an image
 * must be contiguous; its compact encoding may be stored in pieces). */
zend_result php_table_encode_compact(zval *value, const php_table_serializer *ser, uint32_t argnum,
                                     php_table_encoded *enc);
void php_table_encoded_free(php_table_encoded *enc);

/* Whether materializing a value of this type can run user code (and so must not run inside a read
 * section, whose data would also vanish if that code called back into the table). */
static zend_always_inline bool php_table_decode_runs_user_code(uint8_t type)
{
	/* A compressed value may hold a serialized one: taken out of the segment first, too. */
	return type == TBL_T_SERIAL_PHP || type == TBL_T_SERIAL_IGBINARY || type == TBL_T_COMPRESSED;
}

/* Materialize a stored value into `out` (emalloc'd, owned by the caller). FAILURE with an exception set
 * (out left UNDEF) when the bytes are corrupt or the serializer fails. Native types run no user code and
 * may be decoded inside a read section; it never calls into the table. */
zend_result php_table_decode(uint8_t type, const void *data, uint32_t len, zval *out);
/* The same for a value from outside this host's PHP processes (`foreign`, NULL: php_table_decode): a value
 * with an object of a class foreign->classes lacks, at any depth, or nested deeper than
 * PHP_TABLE_MAX_SERIAL_DEPTH, fails with Shm\TableException and nothing of it is built. */
zend_result php_table_decode_ex(uint8_t type, const void *data, uint32_t len, const php_table_foreign *foreign,
                                zval *out);

/* MINIT: the class of the exceptions this layer throws (Shm\TableException). It is handed down by the
 * module's start-up rather than named here, so that nothing in serializer/ refers to the binding above it. */
void php_table_serializer_startup(zend_class_entry *exception_ce);
/* Throw Shm\TableException "<method>(): the stored value is corrupt (<why>)". */
ZEND_COLD void php_table_throw_corrupt(const char *why);
/* Throw Shm\TableException "<method>(): the stored value cannot be read (<why>)": valid, but not here. */
ZEND_COLD void php_table_throw_unreadable(const char *fmt, ...) ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);
/* Throw the TypeError/ValueError for argument `argnum` (see PHP_TABLE_ARG_COMPUTED). */
ZEND_COLD void php_table_value_error(uint32_t argnum, bool type_error, const char *msg);

/* native.c: the array encoding. */
/* Append the native encoding of `ht` to `out`. 1 on success; 0 when the array needs the serializer (it
 * holds an object or a PHP reference, or nests deeper than PHP_TABLE_MAX_DEPTH; `out` holds a partial
 * encoding the caller discards); -1 with an exception set when it holds a resource. */
int php_table_native_encode(HashTable *ht, smart_str *out, uint32_t argnum);
/* FAILURE with an exception set when `buf` is not a valid encoding. */
zend_result php_table_native_decode(const char *buf, size_t len, zval *out);
/* Free the decoder's process-local key and shape caches (shape.h; MSHUTDOWN, after the last request). */
void php_table_native_shutdown(void);

#endif
