/*
 * hash.h - the key hash: drawn per segment from a strongly universal family (keys up to 128 bytes) or
 * keyed SipHash-1-3 (longer keys), for keys and namespace names.
 *
 * Keys come from users (URLs, query strings), so the hash must not let anyone pick keys that share a
 * chain: with the seedless, invertible hash this table had first, 4,000 crafted keys in one chain made
 * every set and get on that chain quadratic. So the hash depends on a 128-bit secret drawn from the OS
 * (getrandom) when the segment is created and kept in its header.
 *
 * Keys of up to 128 bytes (nearly all keys) use multilinear hashing (Lemire and Kaser, "Strongly
 * universal string hashing is fast", The Computer Journal, 2014). The key is cut into 64-bit little-endian
 * words w_1 .. w_n (the last one zero-padded), a word w_0 = length | namespace id << 32 is put in front,
 * and with secret 128-bit multipliers m_b, m_0, m_1, .. m_16:
 *
 *     h = ((m_b + m_0 w_0 + m_1 w_1 + ... + m_n w_n) mod 2^128) >> 64
 *
 * For two different (namespace, key) pairs the word vectors differ (w_0 tells lengths apart, so zero
 * padding is harmless), and Lemire and Kaser prove that the top 64 bits of such sums are then strongly
 * universal: the two hashes are independent and uniform over the secret. Every subset of their bits,
 * the bucket number (the low bits) included, therefore collides with probability exactly 2^-bits,
 * whatever the keys, as long as whoever chose them does not know the secret. The expected length of the
 * chain any key lands in is at most 1 + keys/buckets, so filling one chain takes luck, not crafting.
 *
 * The sum is linear, and keys that differ in a few bytes (user:1, user:2, ...) land on a lattice: for
 * some secrets 16,384 such keys filled 4,096 buckets so unevenly that a key's chain held 12.8 keys on
 * average where random placement gives 5 (the worst of 100 secrets). So the result goes last through a
 * fixed bijection (xorshift, multiply by an odd constant, xorshift). A bijection keeps independent uniform
 * pairs independent and uniform, so the bound above is unchanged; the worst of 100 secrets is then 5.06
 * (core/test/test_hash.c checks several key shapes).
 *
 * Keys longer than 128 bytes use SipHash-1-3 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * 2012; the variant Python and Rust hash their dictionaries with) under a 128-bit key derived from the
 * secret, the namespace id folded into it. Multilinear hashing needs a multiplier per word, and 128
 * bytes keeps them in 288 bytes.
 *
 * What the universal part does not promise: SipHash is a PRF, so even an attacker who learns by timing
 * which of their own keys collide learns nothing about the secret. A universal hash is proven only for
 * keys chosen without the secret; an attacker who can detect collisions and adapt may in principle learn
 * something about the multipliers (no practical attack on this construction is known to us). It is used
 * anyway because a get is mostly a PHP call: SipHash-1-3 for every key made a get of a 14-16 byte key
 * about 8% slower than the seedless hash, against a budget of 3%; multilinear, a handful of independent
 * multiplies, costs 1-3% (CHANGELOG has the measurements). `stats()` reports the longest chain ever
 * built, so anyone worried can watch for it.
 *
 * Each process derives the multipliers and the SipHash key from the segment's secret once (hash.c,
 * with SipHash-2-4 as the PRF), into its handle (tbl_hasher_t), next to bucket_mask. Namespace names go
 * through the same hash under a namespace id (0xFFFF) no entry has, so no input of the table, key or
 * name, can be crafted to collide.
 */
#ifndef TBL_HASH_H
#define TBL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "platform.h"

#if defined(_MSC_VER) && defined(_M_X64) && !defined(__SIZEOF_INT128__)
# include <intrin.h>
#endif

/* The 128-bit secret of a segment, kept in its header. */
typedef struct tbl_hash_key {
	uint64_t k0, k1;
} tbl_hash_key_t;

#define TBL_HASH_SHORT_MAX 128u   /* keys up to this many bytes are hashed multilinearly, inline */

/* What a process derives from the secret (tbl_hasher_init). */
typedef struct tbl_hasher {
	/* 128-bit multipliers as (low, high) pairs: m_b, m_0 (for the length word), m_1 .. m_16 */
	uint64_t m[2 * (2 + TBL_HASH_SHORT_MAX / 8)];
	uint64_t sip_k0, sip_k1;   /* SipHash-1-3 key, for longer keys */
} tbl_hasher_t;

/* Fill `buf` with `len` bytes from the OS's cryptographic generator (Linux: getrandom(), falling back to
 * /dev/urandom; Windows: BCryptGenRandom). Returns 0, or -1 with errno-style detail in `errbuf`. One
 * backend per platform: random_posix.c, random_win32.c. */
int tbl_os_random(void *buf, size_t len, char *errbuf, size_t errlen);

/* SipHash-c-d of `data` under (k0, k1) (hash.c; written from the paper and checked against its reference
 * vectors). */
uint64_t tbl_siphash(const void *data, size_t len, uint64_t k0, uint64_t k1, unsigned c, unsigned d);

/* Derive a process's hasher from a segment's secret. */
void tbl_hasher_init(tbl_hasher_t *h, const tbl_hash_key_t *secret);

/* The hash of a key longer than TBL_HASH_SHORT_MAX bytes (hash.c). */
uint64_t tbl_hash_key_long(const tbl_hasher_t *h, const void *data, size_t len, uint16_t ns_id);

/* ---- 128-bit arithmetic -------------------------------------------------------------------------- */

typedef struct tbl_u128 {
	uint64_t lo, hi;
} tbl_u128_t;

/* a * b in full, from 32-bit halves: for compilers with neither unsigned __int128 nor _umul128 (and for
 * the test that checks the fast forms against it). */
TBL_INLINE tbl_u128_t tbl_mul_64x64_portable(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	tbl_u128_t r;

	r.lo = (mid << 32) | (uint32_t)p00;
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 tbl_uint128;
#endif

TBL_INLINE tbl_u128_t tbl_mul_64x64(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__)
	tbl_uint128 m = (tbl_uint128)a * b;
	tbl_u128_t r;

	r.lo = (uint64_t)m;
	r.hi = (uint64_t)(m >> 64);
	return r;
#elif defined(_MSC_VER) && defined(_M_X64)
	tbl_u128_t r;

	r.lo = _umul128(a, b, &r.hi);
	return r;
#else
	return tbl_mul_64x64_portable(a, b);
#endif
}

/* s += m * w (mod 2^128), m a 128-bit multiplier as (low, high): in 64-bit halves, and (below) in one
 * 128-bit sum where the compiler has the type, which it keeps in registers better. */
TBL_INLINE void tbl_u128_add_product_halves(tbl_u128_t *s, const uint64_t m[2], uint64_t w)
{
	tbl_u128_t t = tbl_mul_64x64(m[0], w);

	t.hi += m[1] * w;
	s->lo += t.lo;
	s->hi += t.hi + (s->lo < t.lo);
}

TBL_INLINE void tbl_u128_add_product(tbl_u128_t *s, const uint64_t m[2], uint64_t w)
{
#if defined(__SIZEOF_INT128__)
	tbl_uint128 acc = ((tbl_uint128)s->hi << 64 | s->lo) + (tbl_uint128)m[0] * w;

	s->lo = (uint64_t)acc;
	s->hi = (uint64_t)(acc >> 64) + m[1] * w;
#else
	tbl_u128_add_product_halves(s, m, w);
#endif
}

/* ---- the hash ------------------------------------------------------------------------------------ */

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

/* The last 0 to 7 bytes as a little-endian word, with at most three loads and no byte loop
 * (overlapping bytes are equal, so OR-ing them is exact). */
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

#if defined(__SIZEOF_INT128__)
/* One word of the sum below: *acc += m_lo * w (128-bit), *hi += m_hi * w (what it adds to the top half). */
TBL_INLINE void tbl_hash_word(tbl_uint128 *acc, uint64_t *hi, const uint64_t m[2], uint64_t w)
{
	*acc += (tbl_uint128)m[0] * w;
	*hi += m[1] * w;
}
#endif

/* The fixed bijection applied last (see above). */
TBL_INLINE uint64_t tbl_hash_scramble(uint64_t x)
{
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ull;
	return x ^ (x >> 32);
}

/* The hash of a key (keys are under 2^32 bytes) in namespace `ns_id`: what the index, the checker and the
 * claims use. */
TBL_INLINE uint64_t tbl_hash_key(const tbl_hasher_t *h, const void *data, size_t len, uint16_t ns_id)
{
	const unsigned char *p = (const unsigned char *)data;
	const uint64_t *m = h->m + 4;   /* m_1 */
	tbl_u128_t s = { h->m[0], h->m[1] };

	if (TBL_UNLIKELY(len > TBL_HASH_SHORT_MAX)) {
		return tbl_hash_key_long(h, data, len, ns_id);
	}
#if defined(__SIZEOF_INT128__)
	/* The same sum, kept in registers (the struct above spilled to the stack on every word): the low
	 * products in one 128-bit local, and the high ones (m_i's high half times w_i, which only ever adds to
	 * bits 64..127) in a word of their own, added to the top half once at the end. The first two words
	 * are outside the loop: a key of up to 24 bytes (nearly every key) skips the loop's setup. */
	{
		tbl_uint128 acc = (tbl_uint128)s.hi << 64 | s.lo;
		uint64_t hi = 0;

		tbl_hash_word(&acc, &hi, h->m + 2, (uint64_t)len | ((uint64_t)ns_id << 32));
		if (len > 8) {
			tbl_hash_word(&acc, &hi, m, tbl_hash_load64(p));
			p += 8, len -= 8, m += 2;
			if (len > 8) {
				tbl_hash_word(&acc, &hi, m, tbl_hash_load64(p));
				for (p += 8, len -= 8, m += 2; len > 8; p += 8, len -= 8, m += 2) {
					tbl_hash_word(&acc, &hi, m, tbl_hash_load64(p));
				}
			}
		}
		tbl_hash_word(&acc, &hi, m, len == 8 ? tbl_hash_load64(p) : tbl_hash_tail(p, len));
		return tbl_hash_scramble((uint64_t)(acc >> 64) + hi);
	}
#else
	tbl_u128_add_product(&s, h->m + 2, (uint64_t)len | ((uint64_t)ns_id << 32));
	for (; len > 8; p += 8, len -= 8, m += 2) {
		tbl_u128_add_product(&s, m, tbl_hash_load64(p));
	}
	tbl_u128_add_product(&s, m, len == 8 ? tbl_hash_load64(p) : tbl_hash_tail(p, len));
	return tbl_hash_scramble(s.hi);
#endif
}

/* The hash of a namespace name: the key hash under the one namespace id (0xFFFF) no entry can have. */
#define TBL_HASH_NS_NAMES 0xFFFFu
TBL_INLINE uint64_t tbl_hash_ns_name(const tbl_hasher_t *h, const void *name, size_t len)
{
	return tbl_hash_key(h, name, len, TBL_HASH_NS_NAMES);
}

#endif
