/*
 * alloc.h - variable-size block allocator over one region of the shared segment.
 *
 * Not thread-safe: the caller serializes every call with the table's allocator lock. It stores only
 * offsets (from the segment base), never pointers, so the heap works at any mapping address.
 *
 * Crash consistency contract (a process can be SIGKILLed in the middle of any call):
 *   - At every instant, walking the heap from heap_off by block sizes tiles it exactly. Splits write the
 *     tail block's header before shrinking the head; coalescing grows a block with one 8-byte store.
 *   - Free lists and counters may be inconsistent after a crash. tbl_alloc_rebuild() recomputes them
 *     from a linear walk and is always safe to call (with the lock held).
 *   - A block is never on a free list and in use at once, except transiently inside one call; rebuild
 *     trusts the used bit in the block header.
 */
#ifndef TBL_ALLOC_H
#define TBL_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#define TBL_ALLOC_ALIGN     16u   /* payload alignment and size granularity */
#define TBL_ALLOC_HDR       16u   /* bytes of header in front of every payload */
#define TBL_ALLOC_NBINS     64u

/* Allocator state. Lives inside the segment header; every field is protected by the allocator lock. */
typedef struct tbl_alloc {
	uint64_t heap_off;                  /* first block header */
	uint64_t heap_end;                  /* one past the last byte of the heap */
	uint64_t free_bytes;                /* sum of the sizes (headers included) of free blocks */
	uint64_t used_bytes;                /* sum of the sizes (headers included) of used blocks */
	uint64_t used_blocks;
	uint64_t bin_map;                   /* bit i set when bins[i] is non-empty */
	uint64_t hand;                      /* a block header the caller's sweep goes on from (0 = heap_off):
	                                     * kept a block's start through every merge (tbl_alloc_hand) */
	uint64_t bins[TBL_ALLOC_NBINS];     /* offset of the first free block header in each bin, 0 = empty */
} tbl_alloc_t;

/* Format [heap_off, heap_off + heap_size) as one free block. heap_off must be 16-aligned and
 * heap_size at least 64. */
void tbl_alloc_init(tbl_alloc_t *a, void *base, uint64_t heap_off, uint64_t heap_size);

/* Allocate at least `size` payload bytes. Returns the payload offset (16-aligned, never 0), or 0 when
 * no free block is large enough. The payload is not zeroed: it holds whatever was there before. The
 * block is marked fresh in its header until the caller calls tbl_alloc_settle (once it has written what
 * a recovery would read), so that a recovery after the caller died never trusts those old bytes. */
uint64_t tbl_alloc(tbl_alloc_t *a, void *base, size_t size);
/* tbl_alloc, but from one given free block (its payload offset, from tbl_alloc_free_sample): 0 when that
 * block is not free or is too small. The rest of the block stays free where it was. For eviction, which
 * moves entries out of the run of blocks it frees and must not place them inside it. */
uint64_t tbl_alloc_from(tbl_alloc_t *a, void *base, uint64_t block, size_t size);
/* Clear the fresh mark of a block from tbl_alloc (one store; allocator lock held). */
void tbl_alloc_settle(void *base, uint64_t off);
/* Whether the block at payload offset `off` is used and still fresh: its owner died before settling it. */
int tbl_alloc_block_fresh(const void *base, uint64_t off);

/* Return a block (payload offset from tbl_alloc) and coalesce it with free neighbours. */
void tbl_free(tbl_alloc_t *a, void *base, uint64_t off);

/* Bytes the block at payload offset `off` occupies, header included (what memory() reports). */
uint64_t tbl_alloc_block_size(const void *base, uint64_t off);

/* Whether the block at payload offset `off` is in use. */
int tbl_alloc_block_used(const void *base, uint64_t off);

/* Neighbours, for eviction that looks for a contiguous run of blocks (allocator lock held, `off` a
 * block's payload offset): the payload offset of the block just below or just above, 0 at either end
 * of the heap. Both rely on the boundary tags being exact, which they are under the lock (and after
 * tbl_alloc_rebuild). */
uint64_t tbl_alloc_block_below(const tbl_alloc_t *a, const void *base, uint64_t off);
uint64_t tbl_alloc_block_above(const tbl_alloc_t *a, const void *base, uint64_t off);

/* A sweep over the heap in address order (the gdsf eviction policy's): the payload offset of the block
 * it goes on from, always a block's start, because tbl_free moves it to the start of any block it
 * merges into and rebuild resets it; and setting it (`off` a block's payload offset, or 0 for the
 * heap's first block). Allocator lock held. */
uint64_t tbl_alloc_hand(const tbl_alloc_t *a);
void tbl_alloc_set_hand(tbl_alloc_t *a, uint64_t off);

/* Up to `max` free blocks (payload offsets), the largest first: the heads of the highest non-empty bins.
 * Allocator lock held. Eviction grows windows from them, so that free fragments get used. */
unsigned tbl_alloc_free_sample(const tbl_alloc_t *a, uint64_t *out, unsigned max);

/* Bytes a request for `size` payload bytes takes from the heap: the block size, header included. */
uint64_t tbl_alloc_need(uint64_t size);

/* The largest payload a single allocation could ever get (the whole heap as one block). */
uint64_t tbl_alloc_max_payload(const tbl_alloc_t *a);

/* Largest payload that would succeed right now (O(bins + blocks in the top bin)); for stats. */
uint64_t tbl_alloc_largest_free(const tbl_alloc_t *a, const void *base);

/* Crash repair: walk the heap, coalesce adjacent free blocks, rebuild every bin and counter. */
void tbl_alloc_rebuild(tbl_alloc_t *a, void *base);

/* Visit every block in address order: payload offset, size with header, and whether it is in use. */
typedef void (*tbl_alloc_visit_fn)(void *ctx, uint64_t off, uint64_t size, int used);
void tbl_alloc_walk(const tbl_alloc_t *a, const void *base, tbl_alloc_visit_fn visit, void *ctx);

/* Full consistency check for tests and debug builds: tiling, bins, counters, no two adjacent free
 * blocks. Returns 0 when consistent, otherwise -1 with a description in err. */
int tbl_alloc_check(const tbl_alloc_t *a, const void *base, char *err, size_t errlen);

#endif
