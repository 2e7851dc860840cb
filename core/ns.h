/*
 * ns.h - the namespace lock (ns.c). The rest of the namespaces' interface is public (table_core.h:
 * tbl_ns_find, tbl_ns_get, ...); segment.h has the records' layout and tbl_ns_created.
 */
#ifndef TBL_NS_H
#define TBL_NS_H

#include "segment.h"

/* Take the namespace lock (lock order: after the stripes, before the allocator). When its last holder
 * died, the namespace count and records are repaired first (retire records a recycle left odd, publish
 * counted records missing from the index). TBL_OK, or TBL_ESYS with nothing held. */
tbl_status_t tbl_ns_lock(tbl_t *t);
void tbl_ns_unlock(tbl_t *t);

/* Give namespace `id`'s record and counter cells their blocks in a named segment's file before anything
 * writes them (tbl_seg_reserve): under the namespace lock, or while the segment is being made. TBL_OK,
 * or TBL_ESYS with t->errstr naming the file and the room left. */
tbl_status_t tbl_ns_reserve(tbl_t *t, uint32_t id);

#endif
