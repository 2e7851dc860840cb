/*
 * evict.h - eviction (evict.c): one window of neighbouring blocks evicted under the table's policy, the
 * policies' usage words, and the TTL sweeps. Below room.h, which decides when to evict; above entry.h and
 * epoch.h, through which what it evicts leaves the index and is reclaimed.
 */
#ifndef TBL_EVICT_H
#define TBL_EVICT_H

#include "segment.h"

typedef enum tbl_evict_result {
	TBL_EV_NONE,   /* nothing to evict: no window of the size exists between retired blocks */
	TBL_EV_BUSY,   /* every candidate window had an entry in a stripe another writer holds */
	TBL_EV_DONE    /* one window evicted (and, if readers let it be freed, *off allocated) */
} tbl_evict_result_t;

/* Make room for `size` bytes by evicting one window, for a writer holding stripe `held` (other stripes
 * only through trylock): choose candidates, evict the best one whose stripes can all be taken, reclaim
 * and allocate, all under one hold of the allocator lock so that no other writer takes the space in
 * between. *off: the block (initialised, tbl_entry_block), 0 when none (what was evicted still waits
 * for readers, or nothing was). Call holding no allocator lock, outside a read section; t->rng seeded. */
tbl_evict_result_t tbl_evict_window(tbl_t *t, uint32_t held, uint64_t size, tbl_now_t now, uint64_t *off);

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

/* Under memory pressure, for a writer holding stripe `held`: expire what is due in every stripe it can
 * get. Non-zero when some stripe was due (the caller tries to allocate again). */
int tbl_expire_for_room(tbl_t *t, uint32_t held, uint32_t now_sec);

#endif
