/*
 * evict.h - eviction (evict.c): one window of neighbouring blocks evicted under the table's policy.
 * Below room.h, which decides when to evict; above window.h and gdsf.h (the windows, gdsf's sweep and
 * moves), entry.h and epoch.h, through which what it evicts leaves the index and is reclaimed. The
 * policies' usage words are in usage.h, the TTL sweeps in expire.h.
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

#endif
