/*
 * evict.h - making room: reclamation, TTL sweeps and sampled eviction.
 */
#ifndef TBL_EVICT_H
#define TBL_EVICT_H

#include "segment.h"

/* Allocate a block of `size` bytes for a new entry, for a writer holding stripe `held`. On failure it
 * reclaims retired blocks, sweeps expired entries and, unless the policy is noeviction, evicts sampled
 * entries (other stripes only through trylock, so no lock-order inversion), then retries, a bounded
 * number of times. Returns the payload offset, or 0 when the table is full. */
uint64_t tbl_alloc_entry(tbl_t *t, uint32_t held, uint64_t size, tbl_now_t now);

/* A block of between `min` and `max` bytes, as large as the largest free block allows, without making
 * room: 0 when no free block has `min`. For the pieces of a split value (split.c). */
uint64_t tbl_alloc_entry_from_free(tbl_t *t, uint64_t min, uint64_t max);

/* gdsf's usage word: a stamp of the inflation clock (its high 29 bits), taken when the entry is stored
 * and when the eviction sweep passes it after a read; whether it has been read since the sweep last
 * passed (TBL_GDSF_SEEN); and how many reads it has had, saturating at 3 (TBL_GDSF_READS). */
#define TBL_GDSF_READS 3u
#define TBL_GDSF_SEEN  4u
#define TBL_GDSF_LOW   7u

/* The usage a new entry starts with. lru: `now` less 3/4 of the age at which entries get evicted, so an
 * entry that is written and never read is evicted before one read since (midpoint insertion). gdsf: the
 * inflation clock, no reads. */
static inline uint32_t tbl_usage_new(const tbl_t *t, tbl_now_t now)
{
	const tbl_header_t *h = t->hdr;

	if (h->policy == TBL_POLICY_GDSF) {
		return TBL_LOAD_RELAXED(&((tbl_header_t *)h)->inflation) & ~TBL_GDSF_LOW;
	}
	return now.tick - (uint32_t)(((uint64_t)TBL_LOAD_RELAXED(&((tbl_header_t *)h)->evict_age) * 3u) >> 10);
}

/* A read under gdsf: mark it read and count it, with at most one store, none once both are done (a hot
 * entry's reads then write nothing until the sweep passes it again). No clock, nothing shared. */
static inline void tbl_gdsf_note_read(tbl_entry_t *e)
{
	uint32_t u = TBL_LOAD_RELAXED(&e->usage);

	if ((u & TBL_GDSF_LOW) != TBL_GDSF_LOW) {
		TBL_STORE_RELAXED(&e->usage, (u | TBL_GDSF_SEEN) + ((u & TBL_GDSF_READS) != TBL_GDSF_READS));
	}
}

/* Incremental TTL sweep of `n` buckets from the shared cursor. Skips stripes it cannot trylock. Call
 * holding no stripe lock. */
void tbl_sweep_step(tbl_t *t, uint64_t n, uint32_t now_sec);

/* Remove the expired entries of one stripe (lock held), for one namespace or all (ns < 0), and
 * recompute the earliest-expiry hints of the cells it covers. */
void tbl_expire_stripe_locked(tbl_t *t, uint32_t stripe, int ns, uint32_t now_sec);

/* Make the counters of `ns` (or all, ns < 0) exact: sweep stripes whose earliest expiry has passed. */
void tbl_expire_due(tbl_t *t, int ns, uint32_t now_sec);

#endif
