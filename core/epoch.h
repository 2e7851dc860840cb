/*
 * epoch.h - reader slots and epoch-based reclamation.
 *
 * Readers never lock. To read, a process publishes the global epoch in its own slot (a cache line only
 * it writes), walks chains, copies the value out and publishes IDLE again. A writer that unlinks an
 * entry does not free it: it retires it, tagged with the global epoch it advances. A retired entry is
 * freed once every slot is either idle or shows a later epoch, i.e. once no reader that could have seen
 * it is still inside. Slots of dead processes are detected (pid + start time) and released.
 *
 * Zero-copy holds (tbl_hold) keep single entries valid past the read section, for as long as the caller
 * hands out pointers into them (a PHP request). The reader, inside its read section, appends the
 * entry's offset to its slot's hold list and increments the entry's hold count. Reclamation frees a
 * retired entry only when its count is 0; otherwise it moves it to the held list, from which it is freed
 * once its holders released it (tbl_release_holds, or the reaper for a dead holder, or one that exec'd
 * another program). Everything else is reclaimed at normal epochs. Across fork() the holds are copied:
 * the parent claims a slot with the same records before the fork and the child adopts it, so there is no
 * moment in which the child's inherited pointers are unprotected.
 *
 * Crash safety of a hold record: it is written with TBL_HOLD_PENDING before the count changes and
 * cleared after (taking), or marked before the count drops (releasing); TBL_HOLD_COUNTING says the count
 * may be moving. A reaper skips a pending record, so it never frees an entry still in use; one it drops
 * with TBL_HOLD_COUNTING (its holder or reaper was killed right there) may have left a count no record
 * backs: holds_lost counts them, and reclamation then audits the held list against the hold records
 * (epoch.c, held_audit_locked), so that the entry is freed all the same.
 *
 * Locking: tbl_retire_locked/tbl_reclaim_locked need the allocator lock; slot claim/release and the dead
 * slot reaper take the misc lock themselves. Enter/exit take nothing.
 */
#ifndef TBL_EPOCH_H
#define TBL_EPOCH_H

#include "segment.h"

/* Claim a slot for this process (first call after start or fork). TBL_ENOSLOT when all are taken by
 * live processes. */
tbl_status_t tbl_slot_claim(tbl_t *t);
/* Give this process's slot back, folding its counters into the table's. */
void tbl_slot_release(tbl_t *t);
/* Release the slots of processes that died; returns how many. Takes the misc lock. With `max_epoch`
 * non-zero only slots inside a read section that began at or before that epoch are checked (the ones
 * holding reclamation back); 0 checks every slot. */
unsigned tbl_slots_reap(tbl_t *t, uint64_t max_epoch);
/* Release the slot of every process that is gone: dead, its pid reused, or (a slot with holds) alive but
 * exec'd into another program. Reads /proc once per used slot, and /proc/<pid>/maps once per holding
 * slot: for stats() and the GC, never a hot path. Takes the misc lock. Returns how many. */
unsigned tbl_slots_reap_gone(tbl_t *t);
/* Something is held (a write, a hold or reclamation met a held entry): release the holds of holders that
 * died. At most once per 200 ms across all processes the check is full (exec'd holders too, via their
 * maps); `force` 1 checks the holders' liveness now whatever the period says, 2 does the full check now.
 * Takes the misc lock; callable
 * with the allocator lock held. Returns the slots released. */
unsigned tbl_holders_check(tbl_t *t, int force);
/* Register the atfork handler that makes a forked child claim its own slot. Idempotent. */
void tbl_epoch_track_fork(tbl_t *t);
void tbl_epoch_untrack_fork(tbl_t *t);
/* The same for a thread handle (tbl_thread_open): after a fork, only the forking thread's handle keeps
 * going in the child (and claims its own slot there); the others forget theirs. */
void tbl_epoch_track_thread(tbl_t *t);
void tbl_epoch_untrack_thread(tbl_t *t);

static inline tbl_status_t tbl_slot_ensure(tbl_t *t)
{
	return TBL_LIKELY(t->slot != NULL) ? TBL_OK : tbl_slot_claim(t);
}

/* Begin a read section. The loop closes the window between reading the epoch and publishing it: if a
 * writer advanced the epoch in between, publish the newer one, so a reclaimer that scanned the slot
 * before the store cannot free anything this reader may reach. */
static inline void tbl_epoch_enter(tbl_t *t)
{
	_Atomic uint64_t *global = &t->hdr->epoch;
	uint64_t e = atomic_load_explicit(global, memory_order_seq_cst);

	for (;;) {
		atomic_store_explicit(&t->slot->epoch, e, memory_order_seq_cst);
		uint64_t again = atomic_load_explicit(global, memory_order_seq_cst);
		if (TBL_LIKELY(again == e)) {
			return;
		}
		e = again;
	}
}

static inline void tbl_epoch_exit(tbl_t *t)
{
	atomic_store_explicit(&t->slot->epoch, TBL_EPOCH_IDLE, memory_order_release);
}

/* The oldest epoch any slot is reading at, UINT64_MAX when nobody is inside a read section. */
uint64_t tbl_epoch_min_active(tbl_t *t);

/* Queue an unlinked entry for freeing (allocator lock held). */
void tbl_retire_locked(tbl_t *t, uint64_t entry_off);
/* Free every retired entry no reader can still see and no zero-copy reader holds (allocator lock held);
 * held ones move to the held list, whose released entries are freed here too. With `reap` set, first
 * release the slots of dead processes that hold reclamation back (this reads /proc for each such slot:
 * call it when stuck, not routinely); holders that died or exec'd are checked at most every 200 ms
 * whatever `reap` says. Returns the bytes freed. */
uint64_t tbl_reclaim_locked(tbl_t *t, int reap);

/* Bytes of retired entries still held by zero-copy readers (walks the held list; allocator lock held). */
uint64_t tbl_held_retired_bytes_locked(tbl_t *t);

/* Counter bump on this process's own slot (single writer: a relaxed load and store, no RMW). */
#define TBL_COUNT(t, field, n) do { \
		_Atomic uint64_t *tbl_c_ = &(t)->slot->stats.field; \
		atomic_store_explicit(tbl_c_, atomic_load_explicit(tbl_c_, memory_order_relaxed) + (n), \
			memory_order_relaxed); \
	} while (0)

#endif
