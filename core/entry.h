/*
 * entry.h - counting an entry in and taking it out of the index (entry.c), for the writers (write.c),
 * eviction and expiry (evict.c). All of them run with the entry's stripe lock held.
 */
#ifndef TBL_ENTRY_H
#define TBL_ENTRY_H

#include "segment.h"

void tbl_count_add(tbl_t *t, uint32_t stripe, const tbl_entry_t *e);
void tbl_count_sub(tbl_t *t, uint32_t stripe, const tbl_entry_t *e);

/* Unlink `e` through `link`, update the counters and retire it (takes the allocator lock). */
void tbl_remove_locked(tbl_t *t, uint32_t stripe, _Atomic uint64_t *link, tbl_entry_t *e);

/* Retire an entry that was unlinked (or never linked), reclaiming now and then. */
void tbl_retire(tbl_t *t, tbl_entry_t *e);

#endif
