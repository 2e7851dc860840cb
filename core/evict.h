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

/* The LRU tick a new entry starts with: `now` less half the age at which entries get evicted, so an
 * entry that is written and never read is evicted before one read since (midpoint insertion). */
static inline uint32_t tbl_lru_insert_tick(const tbl_t *t, tbl_now_t now)
{
	return now.tick - (uint32_t)(((uint64_t)TBL_LOAD_RELAXED(&((tbl_header_t *)t->hdr)->evict_age) * 3u) >> 10);
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
