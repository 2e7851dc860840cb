/*
 * hash.h - the key hash: 64 bits, seedless, fast on short keys.
 *
 * Keys are read 8 bytes at a time (memcpy, so any alignment is fine), each word is folded in with a
 * multiply, and the result goes through a final avalanche so that both the low bits (bucket index) and
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

TBL_INLINE uint64_t tbl_hash_bytes(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = (const unsigned char *)data;
	uint64_t h = (seed + TBL_HASH_M1) ^ ((uint64_t)len * TBL_HASH_M2);
	uint64_t w;

	while (len >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ (w * TBL_HASH_M2)) * TBL_HASH_M1;
		h ^= h >> 29;
		p += 8;
		len -= 8;
	}
	if (len) {
		w = 0;
		memcpy(&w, p, len);
		h = (h ^ (w * TBL_HASH_M2)) * TBL_HASH_M1;
	}
	return tbl_hash_mix(h);
}

#endif
