/*
 * image.c - building, comparing and copying zero-copy array images (see image.h for the layout rules).
 *
 * Building takes two passes over the source array: php_table_image_size() before any lock is taken
 * (it also decides whether the array can have an image at all), then the write callback, which the core
 * calls under the stripe lock with the entry's final address. The write pass allocates nothing, runs no
 * user code and cannot fail: it bump-allocates inside the entry, in the order the size pass counted.
 *
 * Layout of one array inside an image (everything 8-byte aligned, depth first):
 *   zend_array | hash slots + zvals (packed) or hash slots + Buckets (hash) | its strings and sub-arrays
 * Packed arrays keep their holes (nNumUsed zvals); hash arrays are compacted to nNumOfElements Buckets
 * with a fresh hash. nTableSize is the power of two a live array of that many elements would have;
 * only the used part is allocated, as opcache does: an immutable array is never grown in place.
 */
#include "php.h"
#include "serializer.h"
#include "image.h"
#include "php_table_compat.h"

#define IMAGE_ALIGNED(n) ZEND_MM_ALIGNED_SIZE(n)

static zend_always_inline size_t string_size(size_t len)
{
	return IMAGE_ALIGNED(_ZSTR_STRUCT_SIZE(len));
}

static zend_always_inline uint32_t table_size_for(uint32_t n)
{
	uint32_t size = HT_MIN_SIZE;

	while (size < n) {
		size <<= 1;
	}
	return size;
}

static zend_always_inline size_t array_data_size(const HashTable *ht)
{
	if (HT_IS_PACKED(ht) || ht->nNumOfElements == 0) {
		return HT_HASH_SIZE(HT_MIN_MASK) + (HT_IS_PACKED(ht) ? (size_t)ht->nNumUsed * sizeof(zval) : 0);
	}
	return HT_HASH_SIZE(HT_SIZE_TO_MASK(table_size_for(ht->nNumOfElements)))
		+ (size_t)ht->nNumOfElements * sizeof(Bucket);
}

/* ---- size pass ------------------------------------------------------------------------------------- */

static bool size_array(const HashTable *ht, uint32_t depth, size_t *size);

static zend_always_inline bool size_value(const zval *zv, uint32_t depth, size_t *size)
{
	switch (Z_TYPE_P(zv)) {
		case IS_NULL:
		case IS_FALSE:
		case IS_TRUE:
		case IS_LONG:
		case IS_DOUBLE:
			return true;
		case IS_STRING:
			*size += string_size(Z_STRLEN_P(zv));
			return true;
		case IS_ARRAY:
			return size_array(Z_ARRVAL_P(zv), depth + 1, size);
		default:
			return false;   /* objects, references, resources, indirect slots: no image */
	}
}

static bool size_array(const HashTable *ht, uint32_t depth, size_t *size)
{
	const zval *zv;
	zend_string *key;

	if (depth > PHP_TABLE_MAX_DEPTH) {
		return false;
	}
	*size += IMAGE_ALIGNED(sizeof(zend_array)) + array_data_size(ht);
	if (HT_IS_PACKED(ht)) {
		ZEND_HASH_PACKED_FOREACH_VAL((HashTable *)ht, zv) {
			if (!size_value(zv, depth, size)) {
				return false;
			}
		} ZEND_HASH_FOREACH_END();
		return true;
	}
	ZEND_HASH_MAP_FOREACH_STR_KEY_VAL((HashTable *)ht, key, zv) {
		if (key) {
			*size += string_size(ZSTR_LEN(key));
		}
		if (!size_value(zv, depth, size)) {
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

size_t php_table_image_limit = SIZE_MAX;

/* An image costs more memory than the compact (native) encoding: a 32-byte Bucket per element, a 24-byte
 * header per string, 56 bytes and hash slots per array. Records of short strings come to 3 to 6 times
 * their compact size, long lists of short strings to 5. That memory buys reads without a copy while the
 * table has room to spare. An image over IMAGE_MAX_RATIO times the compact encoding is therefore
 * refused (the array is stored compactly and copied on every read) when memory is short, where it
 * would cost entries, and always from IMAGE_COMPACT_CHECK_FROM bytes on, where a copy costs least per
 * byte. The compact encoding is only computed for those two cases. */
#define IMAGE_COMPACT_CHECK_FROM (64u * 1024u)
#define IMAGE_MAX_RATIO          2u

size_t php_table_image_size(const HashTable *ht, bool memory_short, smart_str *native)
{
	size_t size = 0;

	if (!size_array(ht, 0, &size) || size > UINT32_MAX - 4096u || size > php_table_image_limit) {
		return 0;
	}
	if (size >= IMAGE_COMPACT_CHECK_FROM || memory_short) {
		/* Cannot fail or throw here: size_array() accepted only scalars, strings and such arrays. */
		int r = php_table_native_encode((HashTable *)ht, native, PHP_TABLE_ARG_COMPUTED);

		if (r > 0 && native->s && size > IMAGE_MAX_RATIO * ZSTR_LEN(native->s)) {
			return 0;   /* the caller stores `native` */
		}
		smart_str_free(native);
	}
	return size;
}

/* ---- write pass ------------------------------------------------------------------------------------ */

static zend_always_inline void *bump(char **cur, size_t size)
{
	void *p = *cur;
	*cur += size;
	return p;
}

static zend_string *write_string(const zend_string *src, char **cur)
{
	size_t len = ZSTR_LEN(src);
	zend_string *s = bump(cur, string_size(len));

	GC_SET_REFCOUNT(s, 2);
	/* PHP >= 8.3: keep the source's valid-UTF-8 mark, as opcache does, so that code which sets it
	 * (some extensions do without checking for interned strings) finds it set and writes nothing. */
	GC_TYPE_INFO(s) = GC_STRING | ((IS_STR_INTERNED | (GC_FLAGS(src) & PHP_TABLE_STR_VALID_UTF8)) << GC_FLAGS_SHIFT);
	/* The engine reads an interned string's hash without computing it. Computed here rather than with
	 * zend_string_hash_val(), which would write into a source string that may be immutable itself. */
	ZSTR_H(s) = ZSTR_H(src) ? ZSTR_H(src) : zend_inline_hash_func(ZSTR_VAL(src), len);
	ZSTR_LEN(s) = len;
	memcpy(ZSTR_VAL(s), ZSTR_VAL(src), len);
	ZSTR_VAL(s)[len] = '\0';
	return s;
}

static zend_array *write_array(const HashTable *src, char **cur);

static zend_always_inline void write_value(zval *dst, const zval *src, char **cur)
{
	switch (Z_TYPE_P(src)) {
		case IS_STRING:
			ZVAL_INTERNED_STR(dst, write_string(Z_STR_P(src), cur));
			break;
		case IS_ARRAY:
			php_table_image_zval(write_array(Z_ARRVAL_P(src), cur), dst);
			break;
		case IS_LONG:
		case IS_DOUBLE:
			ZVAL_COPY_VALUE(dst, src);
			break;
		default:
			/* null and bools: the type only. Their source's value word is whatever was on the stack
			 * when the zval was made, and an image is compared as bytes: it stays the zeros above. */
			Z_TYPE_INFO_P(dst) = Z_TYPE_INFO_P(src);
			break;
	}
}

static zend_array *write_array(const HashTable *src, char **cur)
{
	zend_array *a = bump(cur, IMAGE_ALIGNED(sizeof(zend_array)));
	bool packed = HT_IS_PACKED(src) || src->nNumOfElements == 0;
	char *data = bump(cur, array_data_size(src));

	GC_SET_REFCOUNT(a, 2);
	GC_TYPE_INFO(a) = GC_ARRAY | ((IS_ARRAY_IMMUTABLE | GC_NOT_COLLECTABLE) << GC_FLAGS_SHIFT);
	HT_FLAGS(a) = HASH_FLAG_STATIC_KEYS | (packed ? HASH_FLAG_PACKED : 0);
	a->nInternalPointer = 0;
	a->nNextFreeElement = src->nNextFreeElement;
	a->pDestructor = NULL;

	if (packed) {
		uint32_t used = HT_IS_PACKED(src) ? src->nNumUsed : 0, i;

		a->nTableMask = HT_MIN_MASK;
		a->nTableSize = table_size_for(used);
		a->nNumUsed = used;
		a->nNumOfElements = src->nNumOfElements;
		HT_SET_DATA_ADDR(a, data);
		HT_HASH_RESET_PACKED(a);
		for (i = 0; i < used; i++) {
			const zval *zv = &src->arPacked[i];
			if (Z_ISUNDEF_P(zv)) {
				ZVAL_UNDEF(&a->arPacked[i]);
			} else {
				write_value(&a->arPacked[i], zv, cur);
			}
		}
	} else {
		const Bucket *b;
		uint32_t idx = 0;

		a->nTableSize = table_size_for(src->nNumOfElements);
		a->nTableMask = HT_SIZE_TO_MASK(a->nTableSize);
		a->nNumUsed = a->nNumOfElements = src->nNumOfElements;
		HT_SET_DATA_ADDR(a, data);
		HT_HASH_RESET(a);
		ZEND_HASH_MAP_FOREACH_BUCKET((HashTable *)src, b) {
			Bucket *d = &a->arData[idx];
			uint32_t slot = (uint32_t)b->h | a->nTableMask;

			d->h = b->h;
			d->key = b->key ? write_string(b->key, cur) : NULL;
			write_value(&d->val, &b->val, cur);
			Z_NEXT(d->val) = HT_HASH(a, slot);
			HT_HASH(a, slot) = HT_IDX_TO_HASH(idx);
			idx++;
		} ZEND_HASH_FOREACH_END();
	}
	return a;
}

static void image_write(const void *data, void *dst, uint32_t len)
{
	char *cur = dst;

	/* Every byte of the image defined, so that two images of identical arrays are identical bytes (cas()
	 * compares them so): the alignment tails of strings, the u2 of packed zvals and the value word of
	 * nulls and bools are never written below. One pass over memory the writes below touch anyway. */
	memset(dst, 0, len);
	write_array((const HashTable *)data, &cur);
	ZEND_ASSERT((size_t)(cur - (char *)dst) == len);
	(void)len;
}

/* cas(): whether the stored image holds an array identical (===) to the expected one. Compares
 * without allocating: zend_is_identical() on two arrays walks both, and never protects an immutable
 * array against recursion (GC_TRY_PROTECT_RECURSION skips it). */
static int image_equals(const void *data, const void *stored, uint32_t stored_len)
{
	zval a, b;

	(void)stored_len;
	php_table_image_zval(stored, &a);
	ZVAL_ARR(&b, (HashTable *)data);
	return zend_is_identical(&a, &b);
}

const tbl_value_ops_t php_table_image_ops = { image_write, image_equals };

/* ---- copying out ----------------------------------------------------------------------------------- */

static void copy_array(const zend_array *src, zval *dst);

static zend_always_inline void copy_value(const zval *src, zval *dst)
{
	switch (Z_TYPE_P(src)) {
		case IS_STRING:
			ZVAL_STRINGL_FAST(dst, Z_STRVAL_P(src), Z_STRLEN_P(src));
			break;
		case IS_ARRAY:
			copy_array(Z_ARRVAL_P(src), dst);
			break;
		default:
			ZVAL_COPY_VALUE(dst, src);
			break;
	}
}

static void copy_array(const zend_array *src, zval *dst)
{
	HashTable *ht;
	zval tmp;

	array_init_size(dst, src->nNumOfElements);
	ht = Z_ARRVAL_P(dst);
	if (HT_IS_PACKED(src) && src->nNumUsed == src->nNumOfElements && src->nNumUsed > 0) {
		const zval *zv;
		zend_hash_real_init_packed(ht);
		ZEND_HASH_FILL_PACKED(ht) {
			ZEND_HASH_PACKED_FOREACH_VAL((zend_array *)src, zv) {
				copy_value(zv, &tmp);
				ZEND_HASH_FILL_ADD(&tmp);
			} ZEND_HASH_FOREACH_END();
		} ZEND_HASH_FILL_END();
	} else if (HT_IS_PACKED(src)) {
		zend_ulong i;
		const zval *zv;
		ZEND_HASH_PACKED_FOREACH_KEY_VAL((zend_array *)src, i, zv) {
			copy_value(zv, &tmp);
			zend_hash_index_add_new(ht, i, &tmp);
		} ZEND_HASH_FOREACH_END();
	} else {
		const Bucket *b;
		ZEND_HASH_MAP_FOREACH_BUCKET((zend_array *)src, b) {
			copy_value(&b->val, &tmp);
			if (b->key) {
				zend_string *key = zend_string_init(ZSTR_VAL(b->key), ZSTR_LEN(b->key), 0);
				ZSTR_H(key) = ZSTR_H(b->key);
				zend_hash_add_new(ht, key, &tmp);
				zend_string_release_ex(key, 0);
			} else {
				zend_hash_index_add_new(ht, b->h, &tmp);
			}
		} ZEND_HASH_FOREACH_END();
	}
	ht->nNextFreeElement = src->nNextFreeElement;
}

static void copy_array_moved(const zend_array *src, ptrdiff_t delta, zval *dst);

ptrdiff_t php_table_image_shift;

zend_result php_table_image_copy(const void *image, uint32_t len, zval *out)
{
	(void)len;
	if (UNEXPECTED(php_table_image_shift != 0)) {
		copy_array_moved((const zend_array *)image, php_table_image_shift, out);
	} else {
		copy_array((const zend_array *)image, out);
	}
	return SUCCESS;
}

/* ---- copying out of a moved image ----------------------------------------------------------------- */

/* An image's pointers are absolute: after its bytes were copied elsewhere (a read without a reader
 * slot, tbl_lookup_copy), every pointer is read through `delta` (new place minus old place). */
#define RELOC(type, p, delta) ((type)(const void *)((const char *)(p) + (delta)))

static void copy_array_moved(const zend_array *src, ptrdiff_t delta, zval *dst);

static void copy_value_moved(const zval *src, ptrdiff_t delta, zval *dst)
{
	switch (Z_TYPE_P(src)) {
		case IS_STRING: {
			const zend_string *str = RELOC(const zend_string *, Z_STR_P(src), delta);
			ZVAL_STRINGL_FAST(dst, ZSTR_VAL(str), ZSTR_LEN(str));
			break;
		}
		case IS_ARRAY:
			copy_array_moved(RELOC(const zend_array *, Z_ARR_P(src), delta), delta, dst);
			break;
		default:
			ZVAL_COPY_VALUE(dst, src);
			break;
	}
}

static void copy_array_moved(const zend_array *src, ptrdiff_t delta, zval *dst)
{
	HashTable *ht;
	uint32_t i;
	zval tmp;

	array_init_size(dst, src->nNumOfElements);
	ht = Z_ARRVAL_P(dst);
	if (HT_IS_PACKED(src)) {
		const zval *zv = RELOC(const zval *, src->arPacked, delta);
		for (i = 0; i < src->nNumUsed; i++) {
			if (!Z_ISUNDEF(zv[i])) {
				copy_value_moved(&zv[i], delta, &tmp);
				zend_hash_index_add_new(ht, i, &tmp);
			}
		}
	} else {
		const Bucket *b = RELOC(const Bucket *, src->arData, delta);
		for (i = 0; i < src->nNumUsed; i++) {
			if (Z_ISUNDEF(b[i].val)) {
				continue;
			}
			copy_value_moved(&b[i].val, delta, &tmp);
			if (b[i].key) {
				const zend_string *k = RELOC(const zend_string *, b[i].key, delta);
				zend_string *key = zend_string_init(ZSTR_VAL(k), ZSTR_LEN(k), 0);
				ZSTR_H(key) = ZSTR_H(k);
				zend_hash_add_new(ht, key, &tmp);
				zend_string_release_ex(key, 0);
			} else {
				zend_hash_index_add_new(ht, b[i].h, &tmp);
			}
		}
	}
	ht->nNextFreeElement = src->nNextFreeElement;
}

zend_result php_table_image_copy_moved(const void *copy, uint32_t len, const void *orig, zval *out)
{
	(void)len;
	copy_array_moved((const zend_array *)copy, (const char *)copy - (const char *)orig, out);
	return SUCCESS;
}
