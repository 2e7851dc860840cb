/*
 * room.h - the memory layer seen from above (room.c): a block for an entry, making room for it when the
 * heap has none. Allocation (alloc.c), reclamation (epoch.c), expiry and eviction (evict.c) all sit
 * beneath this call; writers and split values call nothing of them for a block.
 */
#ifndef TBL_ROOM_H
#define TBL_ROOM_H

#include "segment.h"

/* A block of `size` bytes for a new entry, for a writer holding stripe `held`, evicting if the policy
 * allows. When none is free it reclaims retired blocks, expires what is due and, unless the policy is
 * noeviction, evicts one window of neighbouring blocks (other stripes only through trylock, so no
 * lock-order inversion), waiting a bounded time for readers of what it retired; a bounded number of
 * times. Returns the payload offset (the block initialised by tbl_entry_block), or 0 when the table is
 * full. Takes the allocator lock itself: call holding stripe `held` only, outside a read section. */
uint64_t tbl_room_alloc(tbl_t *t, uint32_t held, uint64_t size, tbl_now_t now);

/* A block of between `min` and `max` bytes, as large as the largest free block allows, without making
 * room: 0 when no free block has `min`. For the pieces of a split value (split.c), which calls
 * tbl_room_alloc when this finds nothing. */
uint64_t tbl_room_alloc_free(tbl_t *t, uint64_t min, uint64_t max);

#endif
