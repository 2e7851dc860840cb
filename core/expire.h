/*
 * expire.h - removing expired entries (expire.c): the incremental sweep writes drive, the exact counts
 * of count()/memory()/stats(), and the room a full heap asks for (room.c).
 */
#ifndef TBL_EXPIRE_H
#define TBL_EXPIRE_H

#include "segment.h"

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
