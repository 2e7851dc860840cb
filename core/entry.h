/*
 * entry.h - counting an entry in and taking it out of the index (entry.c), for the writers (write.c),
 * eviction and expiry (evict.c). All of them run with the entry's stripe lock held. And the first
 * step of an entry's life: making a block just allocated into one (tbl_entry_block).
 */
#ifndef TBL_ENTRY_H
#define TBL_ENTRY_H

#include "alloc.h"
#include "crash.h"
#include "segment.h"

void tbl_count_add(tbl_t *t, uint32_t stripe, const tbl_entry_t *e);
void tbl_count_sub(tbl_t *t, uint32_t stripe, const tbl_entry_t *e);

/* Unlink `e` through `link`, update the counters and retire it (takes the allocator lock). */
void tbl_remove_locked(tbl_t *t, uint32_t stripe, _Atomic uint64_t *link, tbl_entry_t *e);

/* Retire an entry that was unlinked (or never linked), reclaiming now and then. */
void tbl_retire(tbl_t *t, tbl_entry_t *e);

/* A block just allocated (allocator lock held): not retired (eviction's classify() relies on it), and
 * held by nobody. Only then is the allocator's fresh mark cleared: a writer killed before that leaves a
 * block the GC knows was never initialised (its old bytes could hold any hold count, which would keep it
 * on the held list forever); one killed after leaves an entry whose fields the GC and reclamation can
 * read. */
static inline uint64_t tbl_entry_block(tbl_t *t, uint64_t off)
{
	if (off) {
		tbl_entry_t *e = tbl_entry_at(t, off);

		TBL_CRASH_POINT("evict.block.allocated");
		e->retire_epoch = 0;
		atomic_store_explicit(&e->holds, 0, memory_order_relaxed);
		TBL_CRASH_POINT("evict.block.cleared");
		atomic_signal_fence(memory_order_seq_cst);
		tbl_alloc_settle(t->base, off);
	}
	return off;
}

#endif
