/*
 * native.c - the native array encoding: arrays of null/bool/int/float/string (and arrays of those),
 * laid out so that decoding is one forward pass with every hash table allocated at its final size, and
 * so that an array whose keys the process has seen before is rebuilt from a template of them (shape.c).
 *
 * The bytes never leave the machine (one segment, one host), so numbers are host-endian and unaligned;
 * they are read with memcpy.
 *
 *   array   := flags:u8  count:len  [next_free:i64 if flags & A_NEXT_FREE]  body
 *   body    := value{count}                               when flags & A_PACKED (keys 0 .. count-1)
 *            | shape:u32  keys_len:len  key{count}  value{count}    otherwise
 *   key     := K_INT8:u8 u8 | K_INT:u8 i64 | K_STR:u8 len bytes      (keys_len bytes in all)
 *   value   := tag:u8 body
 *   body    := V_NULL V_FALSE V_TRUE: nothing | V_INT8: i8 | V_LONG: i64 | V_DOUBLE: f64
 *            | V_STRING: len bytes | V_ARRAY: array
 *   len     := u8 when < 255, else 0xFF u32
 *
 * A hash array's keys form one block, apart from its values, so that the decoder can recognise a key
 * list it has a template for with one comparison of bytes, and then copy the template's buckets (keys,
 * hashes and collision chains) instead of hashing and linking each key. `shape` is a hash of the key
 * list that the encoder derives from the keys' own zend hashes (already computed: they are array keys);
 * it only picks the template to compare with, so a wrong one costs a template miss, never a wrong key.
 * Hash arrays the process has no template for are decoded key by key, through the key cache of
 * shape.c, and become templates when they may (shape.c).
 *
 * Packed arrays decode straight into a packed zend_array (zend_hash_real_init_packed); hash arrays are
 * preallocated for `count` buckets and filled by appending buckets directly, since keys are known to be
 * unique. Integer keys stay integers (PHP already normalized "5" to 5 before we saw it).
 *
 * nNextFreeElement: the decoder recomputes it the way PHP does while inserting (packed: count; hash:
 * one past the largest int key seen, starting from ZEND_LONG_MIN; a template remembers it). When the
 * source array's value differs (say [5 => 'a', 6 => 'b'] after unset($a[6]) still appends at 7) the
 * encoder writes it explicitly (A_NEXT_FREE), so `$a[] = x` after a round trip picks the same key as
 * before.
 *
 * Bounds: a value's tag and fixed-size body take at most 9 bytes, so the decoder checks once per value
 * that 9 bytes are left (and only a string's length against the end besides); the last few values of a
 * buffer take a path that checks each read. Corrupt or truncated bytes are rejected, never read past.
 *
 * A PHP reference whose refcount is 1 is not observable as a reference and is encoded as its value;
 * any other reference, any object, and nesting deeper than PHP_TABLE_MAX_DEPTH levels send the whole
 * value to the serializer.
 *
 * Format changes bump TBL_LAYOUT_VERSION (core/table_core.h), so that no segment holding the old
 * encoding is read with the new decoder.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_smart_str.h"
#include "serializer/serializer.h"
#include "serializer/shape.h"

enum {
	V_NULL = 0, V_FALSE = 1, V_TRUE = 2, V_INT8 = 3, V_LONG = 4, V_DOUBLE = 5, V_STRING = 6, V_ARRAY = 7,
	V_LAST = V_ARRAY
};
enum { K_INT8 = 0x10, K_INT = 0x20, K_STR = 0x30 };
enum { A_PACKED = 1, A_NEXT_FREE = 2 };

#define LEN_ESCAPE 0xFF

/* ---- encoding -------------------------------------------------------------------------------------- */

static zend_always_inline void put_len(smart_str *out, size_t len)
{
	if (EXPECTED(len < LEN_ESCAPE)) {
		smart_str_appendc(out, (char)len);
	} else {
		/* Longer than 4 GiB only happens for values that can never be stored; the caller rejects those
		 * by their total size, so a truncated length here is never read back. */
		uint32_t l = (uint32_t)len;
		smart_str_appendc(out, (char)LEN_ESCAPE);
		smart_str_appendl(out, (const char *)&l, sizeof(l));
	}
}

/* The simulated nNextFreeElement after inserting int key h (what zend_hash does on insert). */
static zend_always_inline zend_long next_free_after(zend_long nf, zend_ulong h)
{
	if ((zend_long)h >= nf) {
		return (zend_long)h < ZEND_LONG_MAX ? (zend_long)h + 1 : ZEND_LONG_MAX;
	}
	return nf;
}

static int encode_array(HashTable *ht, smart_str *out, uint32_t argnum, uint32_t depth);

/* Room for `n` more bytes at the end of `out`; the caller writes them and adds what it wrote to the
 * length (one capacity check per value instead of one per field). */
static zend_always_inline unsigned char *reserve(smart_str *out, size_t n)
{
	smart_str_alloc(out, n, 0);
	return (unsigned char *)ZSTR_VAL(out->s) + ZSTR_LEN(out->s);
}

static zend_always_inline unsigned char *write_len(unsigned char *w, size_t len)
{
	if (EXPECTED(len < LEN_ESCAPE)) {
		*w++ = (unsigned char)len;
	} else {
		/* See put_len(). */
		uint32_t l = (uint32_t)len;
		*w++ = LEN_ESCAPE;
		memcpy(w, &l, sizeof(l));
		w += sizeof(l);
	}
	return w;
}

/* Append one value: its tag, then its body. */
static int encode_value(zval *zv, smart_str *out, uint32_t argnum, uint32_t depth)
{
	unsigned char *w, *start;

	if (Z_TYPE_P(zv) == IS_REFERENCE) {
		if (Z_REFCOUNT_P(zv) > 1) {
			return 0;
		}
		zv = Z_REFVAL_P(zv);
	}

	switch (Z_TYPE_P(zv)) {
		case IS_NULL:
		case IS_FALSE:
		case IS_TRUE:
		case IS_LONG:
		case IS_DOUBLE:
			w = start = reserve(out, 1 + sizeof(int64_t));
			if (Z_TYPE_P(zv) == IS_LONG) {
				zend_long l = Z_LVAL_P(zv);
				if (l >= INT8_MIN && l <= INT8_MAX) {
					*w++ = V_INT8;
					*w++ = (unsigned char)(int8_t)l;
				} else {
					int64_t v = (int64_t)l;
					*w++ = V_LONG;
					memcpy(w, &v, sizeof(v));
					w += sizeof(v);
				}
			} else if (Z_TYPE_P(zv) == IS_DOUBLE) {
				double d = Z_DVAL_P(zv);
				*w++ = V_DOUBLE;
				memcpy(w, &d, sizeof(d));
				w += sizeof(d);
			} else {
				*w++ = Z_TYPE_P(zv) == IS_NULL ? V_NULL : Z_TYPE_P(zv) == IS_FALSE ? V_FALSE : V_TRUE;
			}
			break;
		case IS_STRING: {
			size_t len = Z_STRLEN_P(zv);
			w = start = reserve(out, 1 + 1 + sizeof(uint32_t) + len);
			*w++ = V_STRING;
			w = write_len(w, len);
			memcpy(w, Z_STRVAL_P(zv), len);
			w += len;
			break;
		}
		case IS_ARRAY:
			smart_str_appendc(out, V_ARRAY);
			return encode_array(Z_ARRVAL_P(zv), out, argnum, depth + 1);
		case IS_RESOURCE:
			php_table_value_error(argnum, 1, "cannot contain a resource");
			return -1;
		default:   /* objects */
			return 0;
	}
	ZSTR_LEN(out->s) += (size_t)(w - start);
	return 1;
}

static zend_always_inline size_t len_size(size_t len)
{
	return len < LEN_ESCAPE ? 1 : 1 + sizeof(uint32_t);
}

/* One step of the shape hash: order-sensitive, over the keys' zend hashes (or integer values). */
static zend_always_inline uint32_t shape_mix(uint32_t shape, zend_ulong h)
{
	uint64_t x = (uint64_t)h;
	return (shape ^ (uint32_t)(x ^ (x >> 32))) * 0x01000193u;
}

static int encode_array(HashTable *ht, smart_str *out, uint32_t argnum, uint32_t depth)
{
	uint32_t count = zend_hash_num_elements(ht);
	zend_long nf;
	uint8_t flags;
	int r;

	/* Deeper arrays are rare and legal: the serializer stores them (as APCu does), so the decoder's
	 * recursion stays bounded by PHP_TABLE_MAX_DEPTH. */
	if (UNEXPECTED(depth > PHP_TABLE_MAX_DEPTH)) {
		return 0;
	}

	if (count == 0) {
		/* An empty array appends at 0 whether its counter is ZEND_LONG_MIN or 0. */
		nf = ht->nNextFreeElement;
		if (nf == ZEND_LONG_MIN || nf == 0) {
			smart_str_appendc(out, A_PACKED);
			smart_str_appendc(out, 0);
		} else {
			smart_str_appendc(out, A_PACKED | A_NEXT_FREE);
			smart_str_appendc(out, 0);
			smart_str_appendl(out, (const char *)&nf, sizeof(nf));
		}
		return 1;
	}

	if ((HT_IS_PACKED(ht) && HT_IS_WITHOUT_HOLES(ht)) || zend_array_is_list(ht)) {
		zval *zv;
		flags = A_PACKED;
		if (ht->nNextFreeElement != (zend_long)count) {
			flags |= A_NEXT_FREE;
		}
		smart_str_appendc(out, (char)flags);
		put_len(out, count);
		if (flags & A_NEXT_FREE) {
			nf = ht->nNextFreeElement;
			smart_str_appendl(out, (const char *)&nf, sizeof(nf));
		}
		ZEND_HASH_FOREACH_VAL(ht, zv) {
			if ((r = encode_value(zv, out, argnum, depth)) <= 0) {
				return r;
			}
		} ZEND_HASH_FOREACH_END();
		return 1;
	}

	/* Hash array. A first pass over the keys gives the header: whether the decoder's recomputed
	 * nNextFreeElement will match (it nearly always does), the key block's length and the shape hash.
	 * Then the keys, then the values. */
	{
		zend_ulong h;
		zend_string *key;
		zval *zv;
		size_t keys_len = 0;
		uint32_t shape = 0x811c9dc5u ^ count;

		nf = ZEND_LONG_MIN;
		ZEND_HASH_FOREACH_KEY(ht, h, key) {
			if (key) {
				keys_len += 1 + len_size(ZSTR_LEN(key)) + ZSTR_LEN(key);
				shape = shape_mix(shape, zend_string_hash_val(key));
			} else {
				nf = next_free_after(nf, h);
				keys_len += h <= UINT8_MAX ? 2 : 1 + sizeof(int64_t);
				shape = shape_mix(shape, ~h);
			}
		} ZEND_HASH_FOREACH_END();
		flags = nf != ht->nNextFreeElement ? A_NEXT_FREE : 0;
		smart_str_appendc(out, (char)flags);
		put_len(out, count);
		if (flags & A_NEXT_FREE) {
			nf = ht->nNextFreeElement;
			smart_str_appendl(out, (const char *)&nf, sizeof(nf));
		}
		smart_str_appendl(out, (const char *)&shape, sizeof(shape));
		put_len(out, keys_len);
		{
			unsigned char *w = reserve(out, keys_len), *start = w;
			ZEND_HASH_FOREACH_KEY(ht, h, key) {
				if (key) {
					*w++ = K_STR;
					w = write_len(w, ZSTR_LEN(key));
					memcpy(w, ZSTR_VAL(key), ZSTR_LEN(key));
					w += ZSTR_LEN(key);
				} else if (h <= UINT8_MAX) {
					*w++ = K_INT8;
					*w++ = (unsigned char)h;
				} else {
					int64_t v = (int64_t)h;
					*w++ = K_INT;
					memcpy(w, &v, sizeof(v));
					w += sizeof(v);
				}
			} ZEND_HASH_FOREACH_END();
			ZSTR_LEN(out->s) += (size_t)(w - start);
		}

		ZEND_HASH_FOREACH_VAL(ht, zv) {
			if ((r = encode_value(zv, out, argnum, depth)) <= 0) {
				return r;
			}
		} ZEND_HASH_FOREACH_END();
	}
	return 1;
}

int php_table_native_encode(HashTable *ht, smart_str *out, uint32_t argnum)
{
	/* Reserve roughly what a record needs, so small arrays encode without regrowing. */
	smart_str_alloc(out, 64 + zend_hash_num_elements(ht) * 16, 0);
	return encode_array(ht, out, argnum, 1);
}

/* ---- decoding -------------------------------------------------------------------------------------- */

typedef struct reader {
	const unsigned char *p;
	const unsigned char *end;
} reader;

/* The most bytes a value's tag and fixed-size body take (V_LONG, V_DOUBLE; a string's tag and long length
 * take 6): with this many left, the fast path reads them without checking. */
#define VALUE_FIXED_MAX 9
/* The most bytes an array's header takes: flags, an escaped count, next_free. */
#define HEADER_MAX (1 + 1 + 4 + 8)

static zend_always_inline bool rd_byte(reader *r, uint8_t *out)
{
	if (UNEXPECTED(r->p >= r->end)) {
		return 0;
	}
	*out = *r->p++;
	return 1;
}

static zend_always_inline bool rd_bytes(reader *r, void *out, size_t n)
{
	if (UNEXPECTED((size_t)(r->end - r->p) < n)) {
		return 0;
	}
	memcpy(out, r->p, n);
	r->p += n;
	return 1;
}

static zend_always_inline bool rd_len(reader *r, uint32_t *out)
{
	uint8_t b;
	if (UNEXPECTED(!rd_byte(r, &b))) {
		return 0;
	}
	if (EXPECTED(b != LEN_ESCAPE)) {
		*out = b;
		return 1;
	}
	return rd_bytes(r, out, sizeof(*out));
}

/* zend_string_alloc(len, 0), with the allocation's size class chosen here for the sizes record fields
 * have. In release builds the Zend allocator has one entry point per small size class (_emalloc_32,
 * ...: what emalloc() of a constant size compiles to), which skips working the class out: a table of
 * them, indexed by size / 8, costs one indirect call where a switch over the sizes cost nine
 * instructions more per string. Debug builds have no such entry points and take emalloc(). */
#if !ZEND_DEBUG && defined(HAVE_BUILTIN_CONSTANT_P)
# define STRING_BIN_MAX 128
typedef void *(ZEND_FASTCALL *bin_alloc_fn)(void);
static const bin_alloc_fn string_bins[STRING_BIN_MAX / 8 + 1] = {
	_emalloc_8, _emalloc_8, _emalloc_16, _emalloc_24, _emalloc_32, _emalloc_40, _emalloc_48, _emalloc_56,
	_emalloc_64, _emalloc_80, _emalloc_80, _emalloc_96, _emalloc_96, _emalloc_112, _emalloc_112,
	_emalloc_128, _emalloc_128,
};
#endif

static zend_always_inline zend_string *string_alloc(uint32_t len)
{
	size_t size = ZEND_MM_ALIGNED_SIZE(_ZSTR_STRUCT_SIZE(len));
	zend_string *s;

#ifdef STRING_BIN_MAX
	s = EXPECTED(size <= STRING_BIN_MAX) ? string_bins[size / 8]() : emalloc(size);
#else
	s = emalloc(size);
#endif
	GC_SET_REFCOUNT(s, 1);
	GC_TYPE_INFO(s) = GC_STRING;
	ZSTR_H(s) = 0;
	ZSTR_LEN(s) = len;
	return s;
}

/* A new string of the `len` bytes at `p` (which the caller checked are there). Short ones come from the
 * interned single-character table; others of up to 32 bytes are copied with a few overlapping word
 * moves rather than a memcpy call, as most strings in records are short. */
static zend_always_inline zend_string *new_string(const unsigned char *p, uint32_t len)
{
	zend_string *s;
	char *d;

	if (len <= 1) {
		return len == 0 ? ZSTR_EMPTY_ALLOC() : ZSTR_CHAR(p[0]);
	}
	s = string_alloc(len);
	d = ZSTR_VAL(s);
	if (len <= 16) {
		if (len >= 8) {
			uint64_t a, b;
			memcpy(&a, p, 8);
			memcpy(&b, p + len - 8, 8);
			memcpy(d, &a, 8);
			memcpy(d + len - 8, &b, 8);
		} else if (len >= 4) {
			uint32_t a, b;
			memcpy(&a, p, 4);
			memcpy(&b, p + len - 4, 4);
			memcpy(d, &a, 4);
			memcpy(d + len - 4, &b, 4);
		} else {
			uint16_t a, b;
			memcpy(&a, p, 2);
			memcpy(&b, p + len - 2, 2);
			memcpy(d, &a, 2);
			memcpy(d + len - 2, &b, 2);
		}
	} else if (len <= 32) {
		uint64_t a, b, c, e;
		memcpy(&a, p, 8);
		memcpy(&b, p + 8, 8);
		memcpy(&c, p + len - 16, 8);
		memcpy(&e, p + len - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + 8, &b, 8);
		memcpy(d + len - 16, &c, 8);
		memcpy(d + len - 8, &e, 8);
	} else {
		memcpy(d, p, len);
	}
	d[len] = '\0';
	return s;
}

static bool decode_array(reader *r, zval *out, uint32_t depth);

/* One value near the end of the buffer: every read checked. */
static zend_never_inline bool decode_value_checked(reader *r, zval *out, uint32_t depth)
{
	uint8_t tag;

	if (!rd_byte(r, &tag)) {
		return 0;
	}
	switch (tag) {
		case V_NULL:
			ZVAL_NULL(out);
			return 1;
		case V_FALSE:
			ZVAL_FALSE(out);
			return 1;
		case V_TRUE:
			ZVAL_TRUE(out);
			return 1;
		case V_INT8: {
			uint8_t b;
			if (!rd_byte(r, &b)) {
				return 0;
			}
			ZVAL_LONG(out, (int8_t)b);
			return 1;
		}
		case V_LONG: {
			int64_t v;
			if (!rd_bytes(r, &v, sizeof(v))) {
				return 0;
			}
			ZVAL_LONG(out, (zend_long)v);
			return 1;
		}
		case V_DOUBLE: {
			double d;
			if (!rd_bytes(r, &d, sizeof(d))) {
				return 0;
			}
			ZVAL_DOUBLE(out, d);
			return 1;
		}
		case V_STRING: {
			uint32_t len;
			if (!rd_len(r, &len) || len > (size_t)(r->end - r->p)) {
				return 0;
			}
			ZVAL_STR(out, new_string(r->p, len));   /* ZVAL_STR sets the interned type flags for the interned ones */
			r->p += len;
			return 1;
		}
		case V_ARRAY:
			return decode_array(r, out, depth + 1);
		default:
			return 0;
	}
}

/* One value into `out`, writing only its value and type (a bucket's chain link in Z_NEXT stays). On
 * failure `out` holds nothing the caller must free. `end` is r->end, which callers keep in a register
 * across a loop (the allocator calls in between would make the compiler load it again). */
static zend_always_inline bool decode_value(reader *r, const unsigned char *end, zval *out, uint32_t depth)
{
	const unsigned char *p = r->p;
	uint8_t tag;

	if (UNEXPECTED(end - p < VALUE_FIXED_MAX)) {
		return decode_value_checked(r, out, depth);
	}
	tag = *p++;
	/* Strings first, outside the switch: most values in records are strings, and a compare costs them
	 * less than the switch's jump table. */
	if (EXPECTED(tag == V_STRING)) {
		uint32_t len = *p++;
		if (UNEXPECTED(len == LEN_ESCAPE)) {
			memcpy(&len, p, sizeof(len));
			p += sizeof(len);
		}
		if (UNEXPECTED(len > (size_t)(end - p))) {
			return 0;
		}
		if (len > 1) {
			ZVAL_NEW_STR(out, new_string(p, len));
		} else {
			ZVAL_INTERNED_STR(out, len == 0 ? ZSTR_EMPTY_ALLOC() : ZSTR_CHAR(p[0]));
		}
		r->p = p + len;
		return 1;
	}
	switch (tag) {
		case V_NULL:
			ZVAL_NULL(out);
			break;
		case V_FALSE:
			ZVAL_FALSE(out);
			break;
		case V_TRUE:
			ZVAL_TRUE(out);
			break;
		case V_INT8:
			ZVAL_LONG(out, (int8_t)*p++);
			break;
		case V_LONG: {
			int64_t v;
			memcpy(&v, p, sizeof(v));
			p += sizeof(v);
			ZVAL_LONG(out, (zend_long)v);
			break;
		}
		case V_DOUBLE: {
			double d;
			memcpy(&d, p, sizeof(d));
			p += sizeof(d);
			ZVAL_DOUBLE(out, d);
			break;
		}
		case V_ARRAY:
			r->p = p;
			return decode_array(r, out, depth + 1);
		default:
			return 0;
	}
	r->p = p;
	return 1;
}

/* Append a bucket to a mixed table sized for it; takes over the caller's reference to `key` (whose hash
 * is set). */
static zend_always_inline zval *append_bucket(HashTable *ht, zend_string *key, zend_ulong h)
{
	uint32_t idx = ht->nNumUsed++;
	Bucket *p = ht->arData + idx;
	uint32_t slot;

	if (key) {
		if (!ZSTR_IS_INTERNED(key)) {
			HT_FLAGS(ht) &= ~HASH_FLAG_STATIC_KEYS;
		}
		h = ZSTR_H(key);
	}
	p->key = key;
	p->h = h;
	slot = (uint32_t)h | ht->nTableMask;
	Z_NEXT(p->val) = HT_HASH(ht, slot);
	HT_HASH(ht, slot) = HT_IDX_TO_HASH(idx);
	ht->nNumOfElements++;
	return &p->val;
}

static bool decode_packed(reader *r, zval *out, uint32_t count, uint32_t depth)
{
	const unsigned char *end = r->end;
	HashTable *ht;
	zval *zv;
	uint32_t i;

	if (EXPECTED(count <= HT_MIN_SIZE)) {
		/* What array_init_size() and zend_hash_real_init_packed() make of a small list, without the
		 * calls: such lists (coordinates, pairs) are common inside records. */
		ht = (HashTable *)emalloc(sizeof(HashTable));
		GC_SET_REFCOUNT(ht, 1);
		GC_TYPE_INFO(ht) = GC_ARRAY;
		HT_FLAGS(ht) = HASH_FLAG_PACKED | HASH_FLAG_STATIC_KEYS;
		ht->nTableMask = HT_MIN_MASK;
		HT_SET_DATA_ADDR(ht, emalloc(HT_PACKED_SIZE_EX(HT_MIN_SIZE, HT_MIN_MASK)));
		HT_HASH_RESET_PACKED(ht);
		ht->nTableSize = HT_MIN_SIZE;
		ht->pDestructor = ZVAL_PTR_DTOR;
		ZVAL_ARR(out, ht);
	} else {
		array_init_size(out, count);
		ht = Z_ARRVAL_P(out);
		zend_hash_real_init_packed(ht);
	}
	zv = ht->arPacked;
	for (i = 0; i < count; i++, zv++) {
		if (UNEXPECTED(!decode_value(r, end, zv, depth))) {
			break;
		}
	}
	ht->nNumUsed = i;
	ht->nNumOfElements = i;
	ht->nNextFreeElement = i;
	ht->nInternalPointer = 0;
	return i == count;
}

/* A hash array with no template: each key read, hashed (or taken from the key cache) and linked. The
 * result may become the template of its key block. Sets nNextFreeElement to the computed value. */
static zend_never_inline bool decode_hash_keys(reader *r, zval *out, uint32_t count, uint32_t depth,
                                               uint32_t shape, const unsigned char *keys, uint32_t keys_len)
{
	reader k = { keys, keys + keys_len };
	const unsigned char *end = r->end;
	HashTable *ht;
	zend_long nf = ZEND_LONG_MIN;
	uint32_t i;

	array_init_size(out, count);
	ht = Z_ARRVAL_P(out);
	zend_hash_real_init_mixed(ht);
	for (i = 0; i < count; i++) {
		uint8_t b;
		zend_string *key = NULL;
		zend_ulong h = 0;
		zval tmp;

		if (UNEXPECTED(!rd_byte(&k, &b))) {
			return 0;
		}
		switch (b) {
			case K_INT8: {
				uint8_t v;
				if (!rd_byte(&k, &v)) {
					return 0;
				}
				h = v;
				break;
			}
			case K_INT: {
				int64_t v;
				if (!rd_bytes(&k, &v, sizeof(v))) {
					return 0;
				}
				h = (zend_ulong)v;
				break;
			}
			case K_STR: {
				uint32_t len;
				if (!rd_len(&k, &len) || len > (size_t)(k.end - k.p)) {
					return 0;
				}
				key = php_table_shape_key((const char *)k.p, len);
				k.p += len;
				break;
			}
			default:
				return 0;
		}
		/* Decode into a local first: a failing value must not leave a half-made bucket behind. */
		if (UNEXPECTED(!decode_value(r, end, &tmp, depth))) {
			if (key) {
				zend_string_release_ex(key, 0);
			}
			return 0;
		}
		if (!key) {
			nf = next_free_after(nf, h);
		}
		ZVAL_COPY_VALUE(append_bucket(ht, key, h), &tmp);
	}
	ht->nNextFreeElement = nf;
	if (UNEXPECTED(k.p != k.end)) {
		return 0;   /* the key block holds more than `count` keys */
	}
	php_table_shape_learn(shape, keys, keys_len, ht, nf);
	return 1;
}

static bool decode_hash(reader *r, zval *out, uint32_t count, uint32_t depth)
{
	const php_table_shape *t;
	const unsigned char *keys;
	uint32_t shape, keys_len;

	ZVAL_UNDEF(out);   /* a header that fails leaves nothing for decode_array() to destroy */
	if (EXPECTED(r->end - r->p >= (ptrdiff_t)(sizeof(shape) + 1 + sizeof(keys_len)))) {
		const unsigned char *p = r->p;
		memcpy(&shape, p, sizeof(shape));
		p += sizeof(shape);
		keys_len = *p++;
		if (UNEXPECTED(keys_len == LEN_ESCAPE)) {
			memcpy(&keys_len, p, sizeof(keys_len));
			p += sizeof(keys_len);
		}
		r->p = p;
	} else if (!rd_bytes(r, &shape, sizeof(shape)) || !rd_len(r, &keys_len)) {
		return 0;
	}
	if (UNEXPECTED(keys_len > (size_t)(r->end - r->p))) {
		return 0;
	}
	keys = r->p;
	r->p += keys_len;
	/* Every value takes at least one byte: a count larger than what is left is corrupt, and must not
	 * become a huge allocation. */
	if (UNEXPECTED(count > (size_t)(r->end - r->p))) {
		return 0;
	}
	t = php_table_shape_find(shape, count, keys, keys_len);
	if (EXPECTED(t != NULL)) {
		HashTable *ht = php_table_shape_new_array(t);
		const unsigned char *end = r->end;
		Bucket *b = ht->arData;
		uint32_t i;

		ZVAL_ARR(out, ht);
		for (i = 0; i < count; i++, b++) {
			if (UNEXPECTED(!decode_value(r, end, &b->val, depth))) {
				/* Only the values written are destroyed (the keys are interned). */
				ht->nNumUsed = ht->nNumOfElements = i;
				return 0;
			}
		}
		return 1;
	}
	return decode_hash_keys(r, out, count, depth, shape, keys, keys_len);
}

static bool decode_array(reader *r, zval *out, uint32_t depth)
{
	uint8_t flags;
	uint32_t count;
	zend_long nf = 0;
	bool ok;

	if (UNEXPECTED(depth > PHP_TABLE_MAX_DEPTH + 1)) {
		return 0;
	}
	if (EXPECTED(r->end - r->p >= HEADER_MAX)) {
		/* The whole header is there, whatever its fields say: read it unchecked. */
		const unsigned char *p = r->p;
		flags = *p++;
		count = *p++;
		if (UNEXPECTED(count == LEN_ESCAPE)) {
			memcpy(&count, p, sizeof(count));
			p += sizeof(count);
		}
		if (flags & A_NEXT_FREE) {
			memcpy(&nf, p, sizeof(nf));
			p += sizeof(nf);
		}
		r->p = p;
	} else if (!rd_byte(r, &flags) || !rd_len(r, &count)
	           || ((flags & A_NEXT_FREE) && !rd_bytes(r, &nf, sizeof(nf)))) {
		return 0;
	}
	if (UNEXPECTED(flags & ~(A_PACKED | A_NEXT_FREE))) {
		return 0;
	}
	/* Every element takes at least one byte: a count larger than what is left is corrupt, and must not
	 * become a huge allocation. */
	if (UNEXPECTED(count > (size_t)(r->end - r->p))) {
		return 0;
	}
	if (count == 0) {
		if (flags & A_NEXT_FREE) {
			array_init(out);
			Z_ARRVAL_P(out)->nNextFreeElement = nf;
		} else {
			ZVAL_EMPTY_ARRAY(out);
		}
		return 1;
	}
	ok = (flags & A_PACKED) ? decode_packed(r, out, count, depth) : decode_hash(r, out, count, depth);
	if (UNEXPECTED(!ok)) {
		zval_ptr_dtor(out);
		ZVAL_UNDEF(out);
		return 0;
	}
	if (flags & A_NEXT_FREE) {
		Z_ARRVAL_P(out)->nNextFreeElement = nf;
	}
	return 1;
}

zend_result php_table_native_decode(const char *buf, size_t len, zval *out)
{
	reader r = { (const unsigned char *)buf, (const unsigned char *)buf + len };

	ZVAL_UNDEF(out);
	if (EXPECTED(decode_array(&r, out, 1))) {
		if (EXPECTED(r.p == r.end)) {
			return SUCCESS;
		}
		zval_ptr_dtor(out);
		ZVAL_UNDEF(out);
	}
	php_table_throw_corrupt("bad native array encoding");
	return FAILURE;
}

void php_table_native_shutdown(void)
{
	php_table_shape_shutdown();
}
