/*
 * hash.c - the key hash's cold parts: deriving a process's hasher from the segment's secret, SipHash,
 * and keys longer than 128 bytes. The hash itself, and why it is built this way, is in hash.h.
 *
 * Derivation. The multipliers and the SipHash key must be uniform and independent, and every process
 * attached to a segment must derive the same ones from its 128-bit secret. SipHash-2-4 (the PRF of
 * Aumasson and Bernstein, with the round counts they recommend for a PRF) under the secret, applied to a
 * labelled counter, gives a stream of 64-bit words that cannot be told from random without the secret;
 * the hasher takes the first 38 of them.
 */
#include "hash.h"

#define SIPROUND(v0, v1, v2, v3)                                                \
	do {                                                                        \
		v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);               \
		v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                                  \
		v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                                  \
		v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);               \
	} while (0)

static inline uint64_t rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64u - b));
}

/*   v0 = k0 ^ "somepseu"   v1 = k1 ^ "dorandom"   v2 = k0 ^ "lygenera"   v3 = k1 ^ "tedbytes"
 *   for each full 8-byte little-endian word m:   v3 ^= m; C rounds; v0 ^= m
 *   last word b = (len mod 256) << 56 | the 0-7 remaining bytes:   v3 ^= b; C rounds; v0 ^= b
 *   v2 ^= 0xff; D rounds; hash = v0 ^ v1 ^ v2 ^ v3 */
TBL_INLINE uint64_t siphash(const void *data, size_t len, uint64_t k0, uint64_t k1, unsigned c, unsigned d)
{
	const unsigned char *p = (const unsigned char *)data;
	uint64_t v0 = k0 ^ 0x736f6d6570736575ull;
	uint64_t v1 = k1 ^ 0x646f72616e646f6dull;
	uint64_t v2 = k0 ^ 0x6c7967656e657261ull;
	uint64_t v3 = k1 ^ 0x7465646279746573ull;
	uint64_t b = (uint64_t)len << 56, m;
	size_t left = len;
	unsigned i;

	for (; left >= 8; p += 8, left -= 8) {
		m = tbl_hash_load64(p);
		v3 ^= m;
		for (i = 0; i < c; i++) {
			SIPROUND(v0, v1, v2, v3);
		}
		v0 ^= m;
	}
	b |= tbl_hash_tail(p, left);
	v3 ^= b;
	for (i = 0; i < c; i++) {
		SIPROUND(v0, v1, v2, v3);
	}
	v0 ^= b;
	v2 ^= 0xff;
	for (i = 0; i < d; i++) {
		SIPROUND(v0, v1, v2, v3);
	}
	return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t tbl_siphash(const void *data, size_t len, uint64_t k0, uint64_t k1, unsigned c, unsigned d)
{
	return siphash(data, len, k0, k1, c, d);
}

/* Word `i` of the stream the secret expands into. */
static uint64_t expand(const tbl_hash_key_t *secret, uint64_t i)
{
	unsigned char msg[16];

	memcpy(msg, "tbl hash", 8);   /* a label, so these words are used for nothing else */
	for (int j = 0; j < 8; j++) {
		msg[8 + j] = (unsigned char)(i >> (8 * j));
	}
	return tbl_siphash(msg, sizeof(msg), secret->k0, secret->k1, 2, 4);
}

void tbl_hasher_init(tbl_hasher_t *h, const tbl_hash_key_t *secret)
{
	uint64_t i = 0;

	for (size_t j = 0; j < sizeof(h->m) / sizeof(h->m[0]); j++) {
		h->m[j] = expand(secret, i++);
	}
	h->sip_k0 = expand(secret, i++);
	h->sip_k1 = expand(secret, i++);
}

uint64_t tbl_hash_key_long(const tbl_hasher_t *h, const void *data, size_t len, uint16_t ns_id)
{
	return siphash(data, len, h->sip_k0, h->sip_k1 ^ ns_id, 1, 3);   /* constant rounds: unrolled */
}
