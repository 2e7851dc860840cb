/*
 * sync.h - taking the table's locks: signal blocking, robust-mutex recovery and repair in one place.
 *
 * Every function here calls hooks.block_signals() before acquiring and hooks.unblock_signals() after
 * releasing, so the embedding program's interruption depth stays balanced on every path. When a lock
 * comes back TBL_LOCK_RECOVERED (its holder died), the matching repair runs before the caller proceeds:
 *   stripe: recount that stripe's namespace counters from its chains (chains are always consistent,
 *           because every chain change is one atomic store);
 *   alloc:  rebuild the allocator's bins and counters from a heap walk; check the retire queue;
 *   ns:     rebuild the namespace count from the name index;
 *   misc:   nothing to repair (counters and claims tolerate a torn update).
 * Each repair also sets gc_needed: the dead writer may have leaked a block.
 *
 * Lock order: stripes in ascending order -> ns -> alloc -> misc.
 */
#ifndef TBL_SYNC_H
#define TBL_SYNC_H

#include "segment.h"

void tbl_stripe_lock(tbl_t *t, uint32_t stripe);
/* 1: acquired (signals blocked until unlock); 0: busy, nothing held. */
int tbl_stripe_trylock(tbl_t *t, uint32_t stripe);
void tbl_stripe_unlock(tbl_t *t, uint32_t stripe);

void tbl_alloc_lock(tbl_t *t);
void tbl_alloc_unlock(tbl_t *t);
void tbl_ns_lock(tbl_t *t);
void tbl_ns_unlock(tbl_t *t);
void tbl_misc_lock(tbl_t *t);
void tbl_misc_unlock(tbl_t *t);

/* Recount the namespace counters of one stripe from its chains (stripe lock held). */
void tbl_stripe_recount(tbl_t *t, uint32_t stripe);

#endif
