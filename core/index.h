/*
 * index.h - the hash index: a fixed array of chain heads, chains of immutable entries.
 *
 * Every change to a chain is one release store of an offset, so a reader walking with acquire loads
 * always sees a well-formed chain, old or new:
 *   insert:  N.next = head;           head = N
 *   replace: N.next = X.next;         link(X) = N      (readers already at X still reach X.next)
 *   remove:                           link(X) = X.next
 * where link(X) is the bucket head or the predecessor's next field. Writers hold the stripe lock of the
 * bucket; removed entries are retired (epoch.h), never freed in place. An integer is sealed before it is
 * unlinked, so that no lock-free increment lands on it afterwards (integer.h).
 */
#ifndef TBL_INDEX_H
#define TBL_INDEX_H

#include <string.h>
#include "integer.h"
#include "segment.h"

/* Key equality. The 64-bit hashes already matched, so this nearly always succeeds: keys of up to 32
 * bytes are compared with overlapping loads (four or two of 8 bytes, two of 4, or 1 byte) instead of a
 * memcmp call. */
static inline int tbl_key_equal(const char *a, const char *b, size_t len)
{
	/* One difference word and one test of it at the end, which the caller's branch takes directly. */
	uint64_t d;

	if (len >= 8 && len <= 16) {
		uint64_t x1, y1, x2, y2;

		memcpy(&x1, a, 8);
		memcpy(&y1, b, 8);
		memcpy(&x2, a + len - 8, 8);
		memcpy(&y2, b + len - 8, 8);
		d = (x1 ^ y1) | (x2 ^ y2);
	} else if (len >= 4 && len < 8) {
		uint32_t x1, y1, x2, y2;

		memcpy(&x1, a, 4);
		memcpy(&y1, b, 4);
		memcpy(&x2, a + len - 4, 4);
		memcpy(&y2, b + len - 4, 4);
		d = (x1 ^ y1) | (x2 ^ y2);
	} else if (len >= 1 && len < 4) {   /* bytes 0, len/2 and len-1 cover all of them */
		d = (unsigned char)((a[0] ^ b[0]) | (a[len >> 1] ^ b[len >> 1]) | (a[len - 1] ^ b[len - 1]));
	} else if (len > 16 && len <= 32) {   /* after the shorter ones, which stay as cheap as they were */
		uint64_t x1, y1, x2, y2, x3, y3, x4, y4;

		memcpy(&x1, a, 8);
		memcpy(&y1, b, 8);
		memcpy(&x2, a + 8, 8);
		memcpy(&y2, b + 8, 8);
		memcpy(&x3, a + len - 16, 8);
		memcpy(&y3, b + len - 16, 8);
		memcpy(&x4, a + len - 8, 8);
		memcpy(&y4, b + len - 8, 8);
		d = (x1 ^ y1) | (x2 ^ y2) | (x3 ^ y3) | (x4 ^ y4);
	} else {
		return memcmp(a, b, len) == 0;
	}
	return d == 0;
}

static inline int tbl_entry_matches(const tbl_entry_t *e, uint64_t hash, uint16_t ns, const char *key,
                                    size_t klen)
{
	return e->hash == hash && e->ns == ns && e->key_len == klen && tbl_key_equal(tbl_entry_key(e), key, klen);
}

/* Reader: the entry for (ns, key), expired or not, or NULL. Call inside a read section. */
static inline tbl_entry_t *tbl_index_find(const tbl_t *t, uint64_t hash, uint16_t ns, const char *key,
                                          size_t klen)
{
	uint64_t off = atomic_load_explicit(&t->buckets[tbl_bucket_of_hash(t, hash)], memory_order_acquire);

	while (off) {
		tbl_entry_t *e = tbl_entry_at(t, off);
		if (tbl_entry_matches(e, hash, ns, key, klen)) {
			return e;
		}
		off = atomic_load_explicit(&e->next, memory_order_acquire);
	}
	return NULL;
}

/* Writer (stripe lock held): the link that points at the entry for (ns, key), or NULL. */
static inline _Atomic uint64_t *tbl_index_find_link(const tbl_t *t, uint64_t hash, uint16_t ns,
                                                    const char *key, size_t klen, tbl_entry_t **out)
{
	_Atomic uint64_t *link = &t->buckets[tbl_bucket_of_hash(t, hash)];
	uint64_t off;

	while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
		tbl_entry_t *e = tbl_entry_at(t, off);
		if (tbl_entry_matches(e, hash, ns, key, klen)) {
			*out = e;
			return link;
		}
		link = &e->next;
	}
	*out = NULL;
	return NULL;
}

/* Writer: the link that points at exactly `target` in its bucket, or NULL if it is no longer linked. */
static inline _Atomic uint64_t *tbl_index_link_of(const tbl_t *t, uint64_t bucket, const tbl_entry_t *target)
{
	_Atomic uint64_t *link = &t->buckets[bucket];
	uint64_t want = tbl_offset_of(t, target), off;

	while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
		if (off == want) {
			return link;
		}
		link = &tbl_entry_at(t, off)->next;
	}
	return NULL;
}

static inline void tbl_index_push(tbl_t *t, uint64_t bucket, tbl_entry_t *n)
{
	atomic_store_explicit(&n->next, atomic_load_explicit(&t->buckets[bucket], memory_order_relaxed),
	                      memory_order_relaxed);
	atomic_store_explicit(&t->buckets[bucket], tbl_offset_of(t, n), memory_order_release);
}

/* Writer (stripe lock held), after an insert: raise the stripe's longest-chain mark if this chain is now
 * the longest it has had. The chain was just walked by the lookup before the insert, so this second walk
 * runs in cache; the mark is written only when it grows. */
static inline void tbl_index_note_length(tbl_t *t, uint64_t bucket)
{
	_Atomic uint32_t *hwm = &t->hdr->chain_hwm[tbl_stripe_of_bucket(t, bucket)];
	uint64_t off = atomic_load_explicit(&t->buckets[bucket], memory_order_relaxed);
	uint32_t n = 0;

	while (off) {
		n++;
		off = atomic_load_explicit(&tbl_entry_at(t, off)->next, memory_order_relaxed);
	}
	if (n > atomic_load_explicit(hwm, memory_order_relaxed)) {
		atomic_store_explicit(hwm, n, memory_order_relaxed);
	}
}

static inline void tbl_index_replace(tbl_t *t, _Atomic uint64_t *link, tbl_entry_t *old, tbl_entry_t *n)
{
	tbl_long_seal_if(old);
	atomic_store_explicit(&n->next, atomic_load_explicit(&old->next, memory_order_relaxed),
	                      memory_order_relaxed);
	atomic_store_explicit(link, tbl_offset_of(t, n), memory_order_release);
}

static inline void tbl_index_unlink(_Atomic uint64_t *link, tbl_entry_t *old)
{
	tbl_long_seal_if(old);
	atomic_store_explicit(link, atomic_load_explicit(&old->next, memory_order_relaxed), memory_order_release);
}

#endif
