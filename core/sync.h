/*
 * sync.h - taking the table's locks: signal blocking, robust-mutex recovery and repair in one place.
 *
 * Every function here calls hooks.block_signals() before acquiring and hooks.unblock_signals() after
 * releasing, so the embedding program's interruption depth stays balanced on every path. When a lock
 * comes back TBL_LOCK_RECOVERED (its holder died), the matching repair runs before the caller proceeds:
 *   stripe: recount that stripe's namespace counters from its chains (chains are always consistent,
 *           because every chain change is one atomic store);
 *   alloc:  rebuild the allocator's bins and counters from a heap walk; check the retire queue;
 *   ns:     rebuild the namespace count from the name index, then the records (ns.c: the namespace
 *           lock is taken there, through tbl_lock_take, since its repair is the namespaces' own);
 *   misc:   nothing to repair (counters and claims tolerate a torn update).
 * Each repair also sets gc_needed: the dead writer may have leaked a block.
 *
 * A lock that cannot be taken at all (TBL_LOCK_FAILED: pthread_mutex_lock() returned ENOTRECOVERABLE or
 * another error) is never treated as taken: the lock function returns TBL_ESYS with t->errstr naming the
 * failure, holds nothing and leaves signals unblocked, and every caller returns that status without
 * entering its critical section. A trylock that fails that way reports "busy".
 *
 * Lock order: stripes in ascending order -> ns -> alloc -> misc.
 */
#ifndef TBL_SYNC_H
#define TBL_SYNC_H

#include "segment.h"

/* TBL_OK: acquired (signals blocked until the unlock). TBL_ESYS: not acquired, nothing held (above). */
tbl_status_t tbl_stripe_lock(tbl_t *t, uint32_t stripe);
/* 1: acquired (signals blocked until unlock); 0: busy (or unusable), nothing held. */
int tbl_stripe_trylock(tbl_t *t, uint32_t stripe);
void tbl_stripe_unlock(tbl_t *t, uint32_t stripe);

tbl_status_t tbl_alloc_lock(tbl_t *t);
void tbl_alloc_unlock(tbl_t *t);
tbl_status_t tbl_misc_lock(tbl_t *t);
void tbl_misc_unlock(tbl_t *t);

/* Recount the namespace counters of one stripe from its chains (stripe lock held). */
void tbl_stripe_recount(tbl_t *t, uint32_t stripe);
/* Before reading counters without a lock (count(), memory(), stats()): repair every stripe whose lock
 * holder died and that nobody has taken since, so that a writer killed between linking an entry and
 * counting it is never seen as a wrong count. One load per stripe when nobody died. */
void tbl_stripes_settle(tbl_t *t);
/* For a lock whose repair lives above this file (the namespace lock: ns.c). Take lock `index` as the
 * functions above do (signals blocked; `which` names it when it fails): TBL_OK with *recovered set when
 * its holder died, in which case the caller repairs what it protects and then calls tbl_lock_repaired
 * (counts the repair, flags the GC); TBL_ESYS with nothing held. tbl_lock_give releases it. */
tbl_status_t tbl_lock_take(tbl_t *t, uint32_t index, const char *which, int *recovered);
void tbl_lock_repaired(tbl_t *t);
void tbl_lock_give(tbl_t *t, uint32_t index);

#endif
