/*
 * gc.h - recovering blocks leaked by a writer that died in the middle of an operation.
 */
#ifndef TBL_GC_H
#define TBL_GC_H

#include "segment.h"

/* If a lock repair flagged it, run a mark-and-retire pass: with every lock held, every used heap block
 * that is neither linked in a chain nor queued for reclamation is retired (not freed: a reader may still
 * be looking at an entry the dead writer had unlinked). Call holding no lock. Cheap when not flagged. */
void tbl_gc_if_needed(tbl_t *t);

/* The pass itself, unconditionally. Returns the number of blocks recovered. */
uint64_t tbl_gc(tbl_t *t);

#endif
