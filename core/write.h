/*
 * write.h - helpers shared by every writer (write.c, evict.c): accounting and removal of entries.
 * All of them run with the entry's stripe lock held.
 */
#ifndef TBL_WRITE_H
#define TBL_WRITE_H

#include "segment.h"

void tbl_count_add(tbl_t *t, uint32_t stripe, const tbl_entry_t *e);
void tbl_count_sub(tbl_t *t, uint32_t stripe, const tbl_entry_t *e);

/* Unlink `e` through `link`, update the counters and retire it (takes the allocator lock). */
void tbl_remove_locked(tbl_t *t, uint32_t stripe, _Atomic uint64_t *link, tbl_entry_t *e);

/* Retire an entry that was unlinked (or never linked), reclaiming now and then. */
void tbl_retire(tbl_t *t, tbl_entry_t *e);

#endif
