/*
 * hash.h - the hash of the core: SipHash-1-3 keyed per segment, for keys and namespace names.
 *
 * Keys come from users (URLs, query strings), so the key hash must not let anyone predict which keys
 * collide: with a seedless, invertible hash, 4,000 crafted keys in one chain made every set and get on
 * that chain quadratic. The key hash is therefore SipHash-1-3 (Aumasson and Bernstein, "SipHash: a fast
 * short-input PRF", 2012; 1 compression and 3 finalization rounds, the variant Python and Rust use for
 * their dicts) under a 128-bit key drawn from the OS (getrandom) when the segment is created and kept in
 * its header. Without that key, finding keys that share a bucket takes about as many tries as a random
 * function would need, so chains stay as long as they would for random keys, whatever the input.
 *
 * Layout of the computation (written from the paper):
 *   v0 = k0 ^ "somepseu"   v1 = k1 ^ "dorandom"   v2 = k0 ^ "lygenera"   v3 = k1 ^ "tedbytes"
 *   for each full 8-byte little-endian word m:   v3 ^= m; C rounds; v0 ^= m
 *   last word b = (len mod 256) << 56 | the 0-7 remaining bytes:   v3 ^= b; C rounds; v0 ^= b
 *   v2 ^= 0xff; D rounds; hash = v0 ^ v1 ^ v2 ^ v3
 * The namespace id is folded into k1, so the same key in two namespaces lands in unrelated buckets.
 *
 * Short keys stay cheap: words are read with memcpy (any alignment), the 1 to 7 trailing bytes with at
 * most three loads and no byte loop, and everything is inlined into the lookup. A 16-byte key costs six
 * rounds of four additions, four xors and six rotations each.
 *
 * Namespace names go through the same keyed hash (under a namespace id no key uses), so no input of the
 * table, key or name, can be crafted to collide.
 */
#ifndef TBL_HASH_H
#define TBL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "platform.h"

/* The 128-bit SipHash key of a segment. */
typedef struct tbl_hash_key {
	uint64_t k0, k1;
} tbl_hash_key_t;

/* Fill `buf` with `len` bytes from the OS's cryptographic generator (Linux: getrandom(), falling back to
 * /dev/urandom; Windows: BCryptGenRandom). Returns 0, or -1 with errno-style detail in `errbuf`. One
 * backend per platform: random_posix.c, random_win32.c. */
int tbl_os_random(void *buf, size_t len, char *errbuf, size_t errlen);

TBL_INLINE uint64_t tbl_hash_rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64u - b));
}

TBL_INLINE uint64_t tbl_hash_load64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

TBL_INLINE uint32_t tbl_hash_load32(const unsigned char *p)
{
	uint32_t w;

	memcpy(&w, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap32(w);
#endif
	return w;
}

/* The last 0 to 7 bytes as a little-endian word, with at most three loads (overlapping bytes are equal,
 * so OR-ing them is exact). */
TBL_INLINE uint64_t tbl_hash_tail(const unsigned char *p, size_t r)
{
	if (r >= 4) {
		return (uint64_t)tbl_hash_load32(p) | ((uint64_t)tbl_hash_load32(p + r - 4) << (8u * (r - 4)));
	}
	if (r) {
		return (uint64_t)p[0] | ((uint64_t)p[r >> 1] << (8u * (r >> 1))) | ((uint64_t)p[r - 1] << (8u * (r - 1)));
	}
	return 0;
}

#define TBL_SIPROUND(v0, v1, v2, v3)                                            \
	do {                                                                        \
		v0 += v1; v1 = tbl_hash_rotl(v1, 13); v1 ^= v0; v0 = tbl_hash_rotl(v0, 32); \
		v2 += v3; v3 = tbl_hash_rotl(v3, 16); v3 ^= v2;                         \
		v0 += v3; v3 = tbl_hash_rotl(v3, 21); v3 ^= v0;                         \
		v2 += v1; v1 = tbl_hash_rotl(v1, 17); v1 ^= v2; v2 = tbl_hash_rotl(v2, 32); \
	} while (0)

/* SipHash-c-d of `data` under (k0, k1). `c` and `d` are constants at every call site, so the loops
 * unroll. */
TBL_INLINE uint64_t tbl_siphash(const void *data, size_t len, uint64_t k0, uint64_t k1, unsigned c, unsigned d)
{
	const unsigned char *p = (const unsigned char *)data;
	uint64_t v0 = k0 ^ 0x736f6d6570736575ull;
	uint64_t v1 = k1 ^ 0x646f72616e646f6dull;
	uint64_t v2 = k0 ^ 0x6c7967656e657261ull;
	uint64_t v3 = k1 ^ 0x7465646279746573ull;
	uint64_t b = (uint64_t)len << 56, m;
	size_t left = len;
	unsigned i;

	while (left >= 8) {
		m = tbl_hash_load64(p);
		v3 ^= m;
		for (i = 0; i < c; i++) {
			TBL_SIPROUND(v0, v1, v2, v3);
		}
		v0 ^= m;
		p += 8;
		left -= 8;
	}
	b |= tbl_hash_tail(p, left);
	v3 ^= b;
	for (i = 0; i < c; i++) {
		TBL_SIPROUND(v0, v1, v2, v3);
	}
	v0 ^= b;
	v2 ^= 0xff;
	if (d == 3) {   /* SipHash-1-3, the key hash: unrolled by hand (GCC -O2 keeps a counted loop) */
		TBL_SIPROUND(v0, v1, v2, v3);
		TBL_SIPROUND(v0, v1, v2, v3);
		TBL_SIPROUND(v0, v1, v2, v3);
	} else {
		for (i = 0; i < d; i++) {
			TBL_SIPROUND(v0, v1, v2, v3);
		}
	}
	return v0 ^ v1 ^ v2 ^ v3;
}

/* The hash of a key in namespace `ns_id` under a segment's key: what the index, the checker and the
 * claims use. */
TBL_INLINE uint64_t tbl_hash_key(const tbl_hash_key_t *key, const void *data, size_t len, uint16_t ns_id)
{
	return tbl_siphash(data, len, key->k0, key->k1 ^ ns_id, 1, 3);
}

/* The hash of a namespace name: the key hash under the one namespace id (0xFFFF) no entry can have. */
#define TBL_HASH_NS_NAMES 0xFFFFu
TBL_INLINE uint64_t tbl_hash_ns_name(const tbl_hash_key_t *key, const void *name, size_t len)
{
	return tbl_hash_key(key, name, len, TBL_HASH_NS_NAMES);
}

#endif
