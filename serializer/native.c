/*
 * native.c - the native array encoding: arrays of null/bool/int/float/string (and arrays of those),
 * laid out so that decoding is one forward pass with every hash table allocated at its final size.
 *
 * The bytes never leave the machine (one segment, one host), so numbers are host-endian and unaligned;
 * they are read with memcpy.
 *
 *   array   := flags:u8  count:len  [next_free:i64 if flags & A_NEXT_FREE]  element{count}
 *   element := value                      when flags & A_PACKED (keys are 0 .. count-1, in order)
 *            | (kind | tag):u8 key body   otherwise; kind is the high nibble, tag the low one
 *   key     := K_INT8: u8 | K_INT: i64 | K_STR: len bytes
 *   value   := tag:u8 body                (in packed arrays; in hash arrays the tag shares the key byte)
 *   body    := V_NULL V_FALSE V_TRUE: nothing | V_INT8: i8 | V_LONG: i64 | V_DOUBLE: f64
 *            | V_STRING: len bytes | V_ARRAY: array
 *   len     := u8 when < 255, else 0xFF u32
 *
 * Packed arrays decode straight into a packed zend_array (zend_hash_real_init_packed); hash arrays are
 * preallocated for `count` buckets and filled by appending buckets directly, since keys are known to be
 * unique. Integer keys stay integers (PHP already normalized "5" to 5 before we saw it).
 *
 * nNextFreeElement: the decoder recomputes it the way PHP does while inserting (packed: count; hash:
 * one past the largest int key seen, starting from ZEND_LONG_MIN). When the source array's value differs
 * (say [5 => 'a', 6 => 'b'] after unset($a[6]) still appends at 7) the encoder writes it explicitly
 * (A_NEXT_FREE), so `$a[] = x` after a round trip picks the same key as before.
 *
 * A PHP reference whose refcount is 1 is not observable as a reference and is encoded as its value;
 * any other reference, any object, and nesting deeper than PHP_TABLE_MAX_DEPTH levels send the whole
 * value to the serializer.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_smart_str.h"
#include "serializer/serializer.h"

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

/* Append one value. With `hashed` set the tag is or'ed into the key byte the caller already
 * reserved at out->s[kpos]. */
static int encode_value(zval *zv, smart_str *out, uint32_t argnum, uint32_t depth, size_t kpos, int hashed)
{
	uint8_t tag;
	size_t tpos;

	if (Z_TYPE_P(zv) == IS_REFERENCE) {
		if (Z_REFCOUNT_P(zv) > 1) {
			return 0;
		}
		zv = Z_REFVAL_P(zv);
	}

	if (hashed) {
		tpos = kpos;
	} else {
		tpos = ZSTR_LEN(out->s);
		smart_str_appendc(out, 0);
	}

	switch (Z_TYPE_P(zv)) {
		case IS_NULL:
			tag = V_NULL;
			break;
		case IS_FALSE:
			tag = V_FALSE;
			break;
		case IS_TRUE:
			tag = V_TRUE;
			break;
		case IS_LONG: {
			zend_long l = Z_LVAL_P(zv);
			if (l >= INT8_MIN && l <= INT8_MAX) {
				tag = V_INT8;
				smart_str_appendc(out, (char)(int8_t)l);
			} else {
				int64_t v = (int64_t)l;
				tag = V_LONG;
				smart_str_appendl(out, (const char *)&v, sizeof(v));
			}
			break;
		}
		case IS_DOUBLE: {
			double d = Z_DVAL_P(zv);
			tag = V_DOUBLE;
			smart_str_appendl(out, (const char *)&d, sizeof(d));
			break;
		}
		case IS_STRING:
			tag = V_STRING;
			put_len(out, Z_STRLEN_P(zv));
			smart_str_appendl(out, Z_STRVAL_P(zv), Z_STRLEN_P(zv));
			break;
		case IS_ARRAY: {
			int r;
			tag = V_ARRAY;
			r = encode_array(Z_ARRVAL_P(zv), out, argnum, depth + 1);
			if (r <= 0) {
				return r;
			}
			break;
		}
		case IS_RESOURCE:
			php_table_value_error(argnum, 1, "cannot contain a resource");
			return -1;
		default:   /* objects */
			return 0;
	}
	ZSTR_VAL(out->s)[tpos] |= (char)tag;
	return 1;
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
			if ((r = encode_value(zv, out, argnum, depth, 0, 0)) <= 0) {
				return r;
			}
		} ZEND_HASH_FOREACH_END();
		return 1;
	}

	/* Hash array. A first pass over the keys tells whether the decoder's recomputed nNextFreeElement
	 * will match (it nearly always does), so the header can be written up front. */
	{
		zend_ulong h;
		zend_string *key;
		zval *zv;

		nf = ZEND_LONG_MIN;
		ZEND_HASH_FOREACH_KEY(ht, h, key) {
			if (!key) {
				nf = next_free_after(nf, h);
			}
		} ZEND_HASH_FOREACH_END();
		flags = nf != ht->nNextFreeElement ? A_NEXT_FREE : 0;
		smart_str_appendc(out, (char)flags);
		put_len(out, count);
		if (flags & A_NEXT_FREE) {
			nf = ht->nNextFreeElement;
			smart_str_appendl(out, (const char *)&nf, sizeof(nf));
		}

		ZEND_HASH_FOREACH_KEY_VAL(ht, h, key, zv) {
			size_t kpos = ZSTR_LEN(out->s);
			if (key) {
				smart_str_appendc(out, (char)K_STR);
				put_len(out, ZSTR_LEN(key));
				smart_str_appendl(out, ZSTR_VAL(key), ZSTR_LEN(key));
			} else if (h <= UINT8_MAX) {
				smart_str_appendc(out, (char)K_INT8);
				smart_str_appendc(out, (char)(uint8_t)h);
			} else {
				int64_t v = (int64_t)h;
				smart_str_appendc(out, (char)K_INT);
				smart_str_appendl(out, (const char *)&v, sizeof(v));
			}
			if ((r = encode_value(zv, out, argnum, depth, kpos, 1)) <= 0) {
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

/* A string of `len` bytes at r->p; short ones come from the interned single-character table. */
static zend_always_inline zend_string *rd_string(reader *r, uint32_t len)
{
	zend_string *s;
	if (UNEXPECTED((size_t)(r->end - r->p) < len)) {
		return NULL;
	}
	if (len <= 1) {
		s = len == 0 ? ZSTR_EMPTY_ALLOC() : ZSTR_CHAR(r->p[0]);
	} else {
		s = zend_string_init((const char *)r->p, len, 0);
	}
	r->p += len;
	return s;
}

/*
 * Array keys repeat across values (every record has "name", "id", ...), so the decoder keeps a small
 * process-local, direct-mapped cache of key strings. A cached string is persistent and flagged interned
 * (never IS_STR_PERMANENT): the engine neither refcounts nor frees it, so a hit costs no allocation, no
 * free when the array dies, and no hashing (the hash is stored in the string). Only short keys are
 * cached, and a slot is never replaced, so the cache is bounded (KEY_CACHE_SLOTS * ~56 bytes) and
 * never frees a string a live array might still use; php_table_native_shutdown() frees it at MSHUTDOWN,
 * after every request's arrays are gone. Forked children inherit it copy-on-write. Values stored
 * elsewhere (APCu, our own table) copy key bytes, never these pointers. Not used in ZTS builds.
 */
#define KEY_CACHE_SLOTS   4096u
#define KEY_CACHE_MAX_LEN 32u

static zend_string *key_cache[KEY_CACHE_SLOTS];

/* Equality of two 2 .. KEY_CACHE_MAX_LEN byte runs with a few overlapping word loads: cheaper than a
 * memcmp call for the short keys the cache holds. */
static zend_always_inline bool short_equal(const char *a, const char *b, uint32_t len)
{
	if (len >= 8) {
		uint64_t x, y;
		for (uint32_t i = 0; i + 8 < len; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y) {
				return 0;
			}
		}
		memcpy(&x, a + len - 8, 8);
		memcpy(&y, b + len - 8, 8);
		return x == y;
	}
	if (len >= 4) {
		uint32_t x1, y1, x2, y2;
		memcpy(&x1, a, 4);
		memcpy(&y1, b, 4);
		memcpy(&x2, a + len - 4, 4);
		memcpy(&y2, b + len - 4, 4);
		return x1 == y1 && x2 == y2;
	} else {
		uint16_t x1, y1, x2, y2;
		memcpy(&x1, a, 2);
		memcpy(&y1, b, 2);
		memcpy(&x2, a + len - 2, 2);
		memcpy(&y2, b + len - 2, 2);
		return x1 == y1 && x2 == y2;
	}
}

static zend_always_inline zend_string *key_string(reader *r, uint32_t len)
{
	const char *p = (const char *)r->p;
	zend_ulong h;
	zend_string **slot, *s;

#ifdef ZTS
	/* The cache is process-wide and unlocked: threads would race on it. */
	return rd_string(r, len);
#endif
	if (len <= 1 || len > KEY_CACHE_MAX_LEN) {
		return rd_string(r, len);
	}
	if (UNEXPECTED((size_t)(r->end - r->p) < len)) {
		return NULL;
	}
	h = zend_inline_hash_func(p, len);
	slot = &key_cache[h & (KEY_CACHE_SLOTS - 1)];
	s = *slot;
	if (EXPECTED(s != NULL) && ZSTR_H(s) == h && ZSTR_LEN(s) == len && short_equal(ZSTR_VAL(s), p, len)) {
		r->p += len;
		return s;
	}
	if (s == NULL) {
		s = zend_string_init(p, len, 1);
		ZSTR_H(s) = h;
		GC_TYPE_INFO(s) = GC_STRING | ((IS_STR_INTERNED | IS_STR_PERSISTENT) << GC_FLAGS_SHIFT);
		*slot = s;
	} else {
		/* Slot taken by another key: an ordinary string, with its hash already computed. */
		s = zend_string_init(p, len, 0);
		ZSTR_H(s) = h;
	}
	r->p += len;
	return s;
}

void php_table_native_shutdown(void)
{
	for (uint32_t i = 0; i < KEY_CACHE_SLOTS; i++) {
		if (key_cache[i]) {
			pefree(key_cache[i], 1);
			key_cache[i] = NULL;
		}
	}
}

static bool decode_array(reader *r, zval *out, uint32_t depth);

static zend_always_inline bool decode_body(reader *r, uint8_t tag, zval *out, uint32_t depth)
{
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
			zend_string *s;
			if (!rd_len(r, &len) || !(s = rd_string(r, len))) {
				return 0;
			}
			ZVAL_STR(out, s);   /* ZVAL_STR sets the interned type flags for the interned ones */
			return 1;
		}
		case V_ARRAY:
			return decode_array(r, out, depth + 1);
		default:
			return 0;
	}
}

/* Append a bucket to a mixed table sized for it; takes over the caller's reference to `key`. */
static zend_always_inline zval *append_bucket(HashTable *ht, zend_string *key, zend_ulong h)
{
	uint32_t idx = ht->nNumUsed++;
	Bucket *p = ht->arData + idx;
	uint32_t slot;

	if (key) {
		if (!ZSTR_IS_INTERNED(key)) {
			HT_FLAGS(ht) &= ~HASH_FLAG_STATIC_KEYS;
		}
		h = zend_string_hash_val(key);
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
	HashTable *ht;
	zval *zv;
	uint32_t i;
	uint8_t tag;

	array_init_size(out, count);
	ht = Z_ARRVAL_P(out);
	zend_hash_real_init_packed(ht);
	zv = ht->arPacked;
	for (i = 0; i < count; i++, zv++) {
		if (UNEXPECTED(!rd_byte(r, &tag) || !decode_body(r, tag, zv, depth))) {
			break;
		}
	}
	ht->nNumUsed = i;
	ht->nNumOfElements = i;
	ht->nNextFreeElement = i;
	ht->nInternalPointer = 0;
	return i == count;
}

static bool decode_hash(reader *r, zval *out, uint32_t count, uint32_t depth, zend_long *nf_out)
{
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
		zval *zv;

		if (UNEXPECTED(!rd_byte(r, &b))) {
			return 0;
		}
		switch (b & 0xF0) {
			case K_INT8: {
				uint8_t k;
				if (!rd_byte(r, &k)) {
					return 0;
				}
				h = k;
				break;
			}
			case K_INT: {
				int64_t k;
				if (!rd_bytes(r, &k, sizeof(k))) {
					return 0;
				}
				h = (zend_ulong)k;
				break;
			}
			case K_STR: {
				uint32_t len;
				if (!rd_len(r, &len) || !(key = key_string(r, len))) {
					return 0;
				}
				break;
			}
			default:
				return 0;
		}
		/* Decode into a local first: a failing value must not leave a half-made bucket behind. */
		zval tmp;
		if (UNEXPECTED(!decode_body(r, b & 0x0F, &tmp, depth))) {
			if (key) {
				zend_string_release_ex(key, 0);
			}
			return 0;
		}
		if (!key) {
			nf = next_free_after(nf, h);
		}
		zv = append_bucket(ht, key, h);
		ZVAL_COPY_VALUE(zv, &tmp);
	}
	*nf_out = nf;
	return 1;
}

static bool decode_array(reader *r, zval *out, uint32_t depth)
{
	uint8_t flags;
	uint32_t count;
	zend_long nf = 0;
	bool ok;

	if (UNEXPECTED(depth > PHP_TABLE_MAX_DEPTH + 1) || !rd_byte(r, &flags) || (flags & ~(A_PACKED | A_NEXT_FREE))
			|| !rd_len(r, &count)) {
		return 0;
	}
	if ((flags & A_NEXT_FREE) && !rd_bytes(r, &nf, sizeof(nf))) {
		return 0;
	}
	/* Every element takes at least one byte: a count larger than what is left is corrupt, and
	 * must not become a huge allocation. */
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
	if (flags & A_PACKED) {
		ok = decode_packed(r, out, count, depth);
	} else {
		zend_long computed;
		ok = decode_hash(r, out, count, depth, &computed);
		if (ok && !(flags & A_NEXT_FREE)) {
			nf = computed;
		}
	}
	if (UNEXPECTED(!ok)) {
		zval_ptr_dtor(out);
		ZVAL_UNDEF(out);
		return 0;
	}
	if (flags & A_NEXT_FREE) {
		Z_ARRVAL_P(out)->nNextFreeElement = nf;
	} else if (!(flags & A_PACKED)) {
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
