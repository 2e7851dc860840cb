/*
 * hash.h - the key hash: 64 bits, seedless, fast on short keys.
 *
 * Keys are read 8 bytes at a time (memcpy, so any alignment is fine) and the last 1 to 8 bytes with at
 * most two overlapping loads (no byte loop); each word is folded in with a multiply, and the result goes through a final avalanche so that both the low bits (bucket index) and
 * the high bits (stripe spread, comparisons) are well mixed. The namespace id is folded in as the seed,
 * so the same key in two namespaces lands in unrelated buckets.
 */
#ifndef TBL_HASH_H
#define TBL_HASH_H

#include <stdint.h>
#include <string.h>
#include "platform.h"

#define TBL_HASH_M1 0x9E3779B97F4A7C15ull
#define TBL_HASH_M2 0xC2B2AE3D27D4EB4Full

TBL_INLINE uint64_t tbl_hash_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDull;
	h ^= h >> 33;
	h *= 0xC4CEB9FE1A85EC53ull;
	h ^= h >> 33;
	return h;
}

/* The last 1 to 7 bytes as one word, read with at most two loads and no loop. */
TBL_INLINE uint64_t tbl_hash_tail(const unsigned char *p, size_t len)
{
	uint32_t a, b;

	if (len >= 4) {
		memcpy(&a, p, 4);
		memcpy(&b, p + len - 4, 4);
		return ((uint64_t)a << 32) | b;
	}
	/* 1 to 3 bytes: first, middle and last (they overlap for short keys; the length is mixed in too). */
	return ((uint64_t)p[0] << 16) | ((uint64_t)p[len >> 1] << 8) | p[len - 1];
}

TBL_INLINE uint64_t tbl_hash_bytes(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = (const unsigned char *)data;
	uint64_t h = (seed + TBL_HASH_M1) ^ ((uint64_t)len * TBL_HASH_M2);
	uint64_t w;

	while (len > 8) {
		memcpy(&w, p, 8);
		h = (h ^ (w * TBL_HASH_M2)) * TBL_HASH_M1;
		h ^= h >> 29;
		p += 8;
		len -= 8;
	}
	if (len == 8) {
		memcpy(&w, p, 8);
	} else if (len) {
		w = tbl_hash_tail(p, len);
	} else {
		w = 0;
	}
	h = (h ^ (w * TBL_HASH_M2)) * TBL_HASH_M1;
	return tbl_hash_mix(h);
}

#endif
