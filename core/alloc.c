/*
 * alloc.c - variable-size block allocator over [heap_off, heap_end) of the shared segment.
 *
 * BLOCKS. The heap is a sequence of blocks that tiles it exactly. Every offset and size is a multiple of
 * 16, so a payload (header + 16) is 16-aligned whenever base is. A block is at least 32 bytes: a free
 * block must hold its two list links.
 *
 *     h = header offset                       h + 16 = payload offset (what tbl_alloc returns)
 *     |                                       |
 *     v                                       v
 *     +-------------------+-------------------+-----------------------------------------+
 *     | head              | prev_size         | used: caller's payload                  |
 *     | size | USED (bit0)| size of the block | free: next_free | prev_free | (garbage) |
 *     |                   | just below h      |       (header offsets, 0 = none)        |
 *     +-------------------+-------------------+-----------------------------------------+
 *     <------------------------------------ size ------------------------------------->
 *
 *   head       Block size including the header, low 4 bits are flags: bit 0 USED, bit 1 FRESH (used,
 *              handed out by tbl_alloc and not yet initialised by its caller, who clears it with
 *              tbl_alloc_settle once the fields recovery reads are written). This is the only word
 *              rebuild trusts, and every change of the heap's shape is a single store to one head word.
 *   prev_size  Boundary tag for backward coalescing. Because the header is never part of a payload it
 *              costs nothing to keep it exact for every block (not only below free blocks), so tbl_free
 *              can double-check it (the block at h - prev_size must have head == prev_size, i.e. be
 *              free and of that size) before trusting it.
 *
 * BINS (TBL_ALLOC_NBINS = 64, block sizes with header):
 *   0..30   exact: one size each, 32, 48, ..., 512. Every block in the bin fits a request that maps
 *           there, so the small-value SET path is one list pop.
 *   31..62  four sub-bins per power of two: [528,640) [640,768) [768,896) [896,1024) [1024,1280) ...
 *           up to [114688,131072). Blocks in a higher bin are always larger than any size mapping to
 *           a lower one.
 *   63      everything >= 128 KiB (the initial heap, large remainders, rare huge values).
 *   bin_map bit i is set exactly when bins[i] is non-empty. Lists are LIFO.
 *
 * ALLOCATION. need = align16(size + 16), at least 32; b = bin_of(need).
 *   1. exact bin: pop its head. Range bin: look at up to FIT_PROBES blocks of bin b for the smallest
 *      that fits (stopping at an exact fit).
 *   2. otherwise the lowest non-empty bin above b (one ctz on bin_map): every block there fits, and
 *      taking from the smallest such bin keeps large blocks intact (good fit against fragmentation).
 *   3. only when nothing above b exists, scan all of bin b, so an allocation fails only when no free
 *      block can hold it (tbl_alloc_largest_free() is exact).
 *   A chosen block is split when the remainder is at least 32 bytes; otherwise the caller gets it
 *   whole. The used part is carved from the TOP of the free block: the free remainder keeps its header
 *   offset, so when it stays in the same bin it stays on its list untouched (no relink).
 * FREE. Merge with a free block above (unlink it) and a free block below (unlink it unless the merged
 *   block stays in the same bin), publish the merged size with one store, push it on its bin.
 *
 * CRASH CONSISTENCY (SIGKILL at any instruction, with the lock then recovered by another process).
 *   A killed process's own stores become visible in program order, so only the compiler can reorder
 *   them; every store that changes the heap's shape goes through blk_store_head(): a volatile 8-byte
 *   store (never torn or merged on 64-bit targets) between two compiler barriers
 *   (atomic_signal_fence). The invariant "walking head words from heap_off tiles the heap exactly"
 *   holds at every instant because:
 *   - split: the tail's header (USED, size need) is written first, inside what is still one free block
 *     (the remainder is >= 32, so it does not touch the free block's own links); then ONE store shrinks
 *     the free block. Before it the walk sees one free block (the tail header is payload garbage),
 *     after it two valid blocks.
 *   - whole-block allocation: unlink, then ONE store sets USED.
 *   - free/coalesce: absorbed neighbours are unlinked first; then ONE store to the lowest block's head
 *     both clears USED and grows it over its neighbours. Before it the neighbours are valid free
 *     blocks (merely unlisted), after it their headers are garbage inside the merged block.
 *   - everything else (links, bins, bin_map, counters, the prev_size of the block above) is derived
 *     data that tbl_alloc_rebuild() recomputes from one walk of head words. Rebuild itself only
 *     changes the shape by growing a free block over the free block above it (one store each), so a
 *     crash during rebuild leaves a heap the next rebuild handles.
 *   A crash inside tbl_alloc after the USED store, or inside tbl_free before it, leaks that block (it
 *   stays used); the allocator cannot know whether the caller recorded it. rebuild never reads links.
 *
 * Limits: heap_off must be non-zero (bins use 0 for "empty"; the segment header always precedes the
 * heap) and base 16-aligned. The single-store argument needs a 64-bit target.
 */
#include "alloc.h"
#include "crash.h"
#include "platform.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

_Static_assert(TBL_ALLOC_NBINS == 64, "bin_map is one 64-bit word");
_Static_assert(TBL_ALLOC_HDR == 16 && TBL_ALLOC_ALIGN == 16, "the block layout assumes 16/16");

#define BLK_USED      ((uint64_t)1)
#define BLK_FRESH     ((uint64_t)2)           /* with USED: its caller has not initialised it yet */
#define BLK_FLAGS     ((uint64_t)TBL_ALLOC_ALIGN - 1)
#define BLK_MIN       ((uint64_t)32)          /* header + two list links */

#define BIN_NEXACT    31u                     /* bins 0..30 hold exactly one size: 32 .. 512 */
#define BIN_EXACT_MAX ((uint64_t)512)
#define BIN_EXACT_LG  9u                      /* log2(BIN_EXACT_MAX): first octave split into sub-bins */
#define BIN_SUB_LG    2u                      /* 2^2 = 4 sub-bins per power of two */
#define BIN_LAST      (TBL_ALLOC_NBINS - 1)

/* A range bin holds blocks of many sizes; looking at a few of them for the best fit before breaking a
 * bigger block up pays off in fragmentation, and the bound keeps the SET path O(1). */
#define FIT_PROBES    8u

typedef struct tbl_blk {
	uint64_t head;        /* size | flags */
	uint64_t prev_size;   /* size of the block just below; 0 for the first block */
	uint64_t next_free;   /* free blocks only (these two words are the payload of a used block) */
	uint64_t prev_free;
} tbl_blk_t;

_Static_assert(sizeof(tbl_blk_t) == BLK_MIN, "a minimum block is exactly one tbl_blk_t");

static inline tbl_blk_t *blk_at(void *base, uint64_t h)
{
	return (tbl_blk_t *)((char *)base + h);
}

static inline const tbl_blk_t *blk_at_c(const void *base, uint64_t h)
{
	return (const tbl_blk_t *)((const char *)base + h);
}

static inline uint64_t blk_size(const tbl_blk_t *b) { return b->head & ~BLK_FLAGS; }
static inline int blk_used(const tbl_blk_t *b) { return (int)(b->head & BLK_USED); }

/* The one store that changes the heap's shape; see CRASH CONSISTENCY. The fences keep the compiler
 * from sinking earlier header writes below it or hoisting list surgery above it. */
static inline void blk_store_head(tbl_blk_t *b, uint64_t head)
{
	atomic_signal_fence(memory_order_seq_cst);
	*(volatile uint64_t *)&b->head = head;
	atomic_signal_fence(memory_order_seq_cst);
}

static inline unsigned bit_ctz(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned)__builtin_ctzll(x);
#else
	unsigned n = 0;
	while (!(x & 1)) { x >>= 1; n++; }
	return n;
#endif
}

static inline unsigned bit_log2(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return 63u - (unsigned)__builtin_clzll(x);
#else
	unsigned n = 0;
	while (x >>= 1) n++;
	return n;
#endif
}

/* Bin of a block size (multiple of 16, >= 32). */
static inline unsigned bin_of(uint64_t size)
{
	unsigned lg, i;

	if (size <= BIN_EXACT_MAX)
		return (unsigned)(size / TBL_ALLOC_ALIGN) - 2u;
	lg = bit_log2(size);
	i = BIN_NEXACT + ((lg - BIN_EXACT_LG) << BIN_SUB_LG)
	    + (unsigned)((size >> (lg - BIN_SUB_LG)) & ((1u << BIN_SUB_LG) - 1));
	return i < BIN_LAST ? i : BIN_LAST;
}

static inline void bin_push(tbl_alloc_t *a, void *base, uint64_t h, tbl_blk_t *b, unsigned i)
{
	uint64_t first = a->bins[i];

	b->next_free = first;
	b->prev_free = 0;
	if (first)
		blk_at(base, first)->prev_free = h;
	a->bins[i] = h;
	a->bin_map |= (uint64_t)1 << i;
}

static inline void bin_unlink(tbl_alloc_t *a, void *base, const tbl_blk_t *b, unsigned i)
{
	uint64_t next = b->next_free, prev = b->prev_free;

	if (prev)
		blk_at(base, prev)->next_free = next;
	else
		a->bins[i] = next;
	if (next)
		blk_at(base, next)->prev_free = prev;
	if (!a->bins[i])
		a->bin_map &= ~((uint64_t)1 << i);
}

/* Smallest block of bin i that holds `need`, looking at no more than `limit` blocks; *cut is set when
 * the limit stopped the search before the end of the list. */
static uint64_t bin_best_fit(const tbl_alloc_t *a, const void *base, unsigned i, uint64_t need,
                             uint64_t limit, int *cut)
{
	uint64_t h = a->bins[i], best = 0, best_size = UINT64_MAX;

	*cut = 0;
	for (; h; h = blk_at_c(base, h)->next_free) {
		uint64_t size;

		if (!limit--) {
			*cut = 1;
			break;
		}
		size = blk_size(blk_at_c(base, h));
		if (size >= need && size < best_size) {
			best = h;
			best_size = size;
			if (size == need)
				break;
		}
	}
	return best;
}

/* Hand out `need` bytes of free block h (listed in bin i); returns the payload offset. */
static uint64_t blk_take(tbl_alloc_t *a, void *base, uint64_t h, unsigned i, uint64_t need)
{
	tbl_blk_t *b = blk_at(base, h);
	uint64_t size = blk_size(b), rest = size - need, used_h, next;

	if (rest < BLK_MIN) {
		bin_unlink(a, base, b, i);
		TBL_CRASH_POINT("alloc.take.unlisted");
		blk_store_head(b, size | BLK_USED | BLK_FRESH);
		TBL_CRASH_POINT("alloc.take.used");
		need = size;
		used_h = h;
	} else {
		tbl_blk_t *tail = blk_at(base, h + rest);
		unsigned ri = bin_of(rest);

		tail->prev_size = rest;
		tail->head = need | BLK_USED | BLK_FRESH;
		if (ri != i)
			bin_unlink(a, base, b, i);
		TBL_CRASH_POINT("alloc.split.tail_written");
		blk_store_head(b, rest);
		TBL_CRASH_POINT("alloc.split.shrunk");
		if (ri != i)
			bin_push(a, base, h, b, ri);
		used_h = h + rest;
		next = used_h + need;
		if (next < a->heap_end)
			blk_at(base, next)->prev_size = need;
		TBL_CRASH_POINT("alloc.split.tagged");
	}
	a->free_bytes -= need;
	a->used_bytes += need;
	a->used_blocks++;
	return used_h + TBL_ALLOC_HDR;
}

void tbl_alloc_init(tbl_alloc_t *a, void *base, uint64_t heap_off, uint64_t heap_size)
{
	uint64_t size = heap_size & ~BLK_FLAGS;

	if (size < BLK_MIN)
		size = 0;
	memset(a, 0, sizeof(*a));
	a->heap_off = heap_off;
	a->heap_end = heap_off + size;
	if (size) {
		tbl_blk_t *b = blk_at(base, heap_off);

		b->prev_size = 0;
		blk_store_head(b, size);
		bin_push(a, base, heap_off, b, bin_of(size));
		a->free_bytes = size;
	}
}

uint64_t tbl_alloc(tbl_alloc_t *a, void *base, size_t size)
{
	uint64_t need, h, above;
	unsigned i;
	int cut = 0;

	/* Also keeps the arithmetic below from overflowing. */
	if (TBL_UNLIKELY((uint64_t)size > tbl_alloc_max_payload(a)))
		return 0;
	need = TBL_ALIGN_UP((uint64_t)size + TBL_ALLOC_HDR, TBL_ALLOC_ALIGN);
	if (need < BLK_MIN)
		need = BLK_MIN;
	i = bin_of(need);

	if (i < BIN_NEXACT) {
		h = a->bins[i];
		if (TBL_LIKELY(h != 0))
			return blk_take(a, base, h, i, need);
	} else if (a->bins[i]) {
		h = bin_best_fit(a, base, i, need, FIT_PROBES, &cut);
		if (h)
			return blk_take(a, base, h, i, need);
	}

	above = i < BIN_LAST ? a->bin_map & (~(uint64_t)0 << (i + 1)) : 0;
	if (TBL_LIKELY(above != 0)) {
		unsigned j = bit_ctz(above);
		return blk_take(a, base, a->bins[j], j, need);
	}

	if (cut) {
		h = bin_best_fit(a, base, i, need, UINT64_MAX, &cut);
		if (h)
			return blk_take(a, base, h, i, need);
	}
	return 0;
}

uint64_t tbl_alloc_from(tbl_alloc_t *a, void *base, uint64_t block, size_t size)
{
	uint64_t need, h = block - TBL_ALLOC_HDR;
	const tbl_blk_t *b;

	if (TBL_UNLIKELY(block < a->heap_off + TBL_ALLOC_HDR || block >= a->heap_end || (block & BLK_FLAGS)
	                 || (uint64_t)size > tbl_alloc_max_payload(a)))
		return 0;
	b = blk_at_c(base, h);
	need = TBL_ALIGN_UP((uint64_t)size + TBL_ALLOC_HDR, TBL_ALLOC_ALIGN);
	if (need < BLK_MIN)
		need = BLK_MIN;
	if (blk_used(b) || blk_size(b) < need)
		return 0;
	return blk_take(a, base, h, bin_of(blk_size(b)), need);
}

void tbl_free(tbl_alloc_t *a, void *base, uint64_t off)
{
	uint64_t h, size, start, total, next, ps;
	tbl_blk_t *b, *sb;
	int listed = 0;

	/* Cheap guards against offsets that cannot be a live block (0, misaligned, double free). */
	if (TBL_UNLIKELY(off < a->heap_off + TBL_ALLOC_HDR || off >= a->heap_end || (off & BLK_FLAGS)))
		return;
	h = off - TBL_ALLOC_HDR;
	b = blk_at(base, h);
	size = blk_size(b);
	if (TBL_UNLIKELY(!blk_used(b) || size < BLK_MIN || size > a->heap_end - h))
		return;

	start = h;
	total = size;
	next = h + size;
	TBL_CRASH_POINT("alloc.free.begun");
	if (next < a->heap_end) {
		tbl_blk_t *nb = blk_at(base, next);

		if (!blk_used(nb)) {
			uint64_t ns = blk_size(nb);

			bin_unlink(a, base, nb, bin_of(ns));
			total += ns;
		}
	}
	ps = b->prev_size;
	if (h > a->heap_off && ps && ps <= h - a->heap_off) {
		tbl_blk_t *pb = blk_at(base, h - ps);

		/* head == ps: free (no flags) and its size agrees with the tag. */
		if (pb->head == ps) {
			unsigned pi = bin_of(ps);

			if (bin_of(ps + total) == pi)
				listed = 1;
			else
				bin_unlink(a, base, pb, pi);
			start = h - ps;
			total += ps;
		}
	}

	TBL_CRASH_POINT("alloc.free.unlisted");
	/* The hand on a block about to vanish inside the merged one moves to its start first: a crash
	 * before the merge leaves it on a block that still exists. */
	if (a->hand > start && a->hand < start + total)
		a->hand = start;
	sb = blk_at(base, start);
	blk_store_head(sb, total);
	TBL_CRASH_POINT("alloc.free.merged");
	if (!listed)
		bin_push(a, base, start, sb, bin_of(total));
	next = start + total;
	if (next < a->heap_end)
		blk_at(base, next)->prev_size = total;
	TBL_CRASH_POINT("alloc.free.listed");

	a->free_bytes += size;
	a->used_bytes -= size;
	a->used_blocks--;
}

uint64_t tbl_alloc_block_size(const void *base, uint64_t off)
{
	return blk_size(blk_at_c(base, off - TBL_ALLOC_HDR));
}

int tbl_alloc_block_used(const void *base, uint64_t off)
{
	return blk_used(blk_at_c(base, off - TBL_ALLOC_HDR));
}

int tbl_alloc_block_fresh(const void *base, uint64_t off)
{
	uint64_t head = blk_at_c(base, off - TBL_ALLOC_HDR)->head;

	return (head & (BLK_USED | BLK_FRESH)) == (BLK_USED | BLK_FRESH);
}

void tbl_alloc_settle(void *base, uint64_t off)
{
	tbl_blk_t *b = blk_at(base, off - TBL_ALLOC_HDR);

	blk_store_head(b, b->head & ~BLK_FRESH);
}

uint64_t tbl_alloc_block_below(const tbl_alloc_t *a, const void *base, uint64_t off)
{
	uint64_t h = off - TBL_ALLOC_HDR, ps = blk_at_c(base, h)->prev_size;

	if (h <= a->heap_off || ps < BLK_MIN || ps > h - a->heap_off)
		return 0;
	return h - ps + TBL_ALLOC_HDR;
}

uint64_t tbl_alloc_block_above(const tbl_alloc_t *a, const void *base, uint64_t off)
{
	uint64_t next = off - TBL_ALLOC_HDR + blk_size(blk_at_c(base, off - TBL_ALLOC_HDR));

	return next + BLK_MIN <= a->heap_end ? next + TBL_ALLOC_HDR : 0;
}

uint64_t tbl_alloc_hand(const tbl_alloc_t *a)
{
	uint64_t h = a->hand;

	return (h > a->heap_off && h < a->heap_end ? h : a->heap_off) + TBL_ALLOC_HDR;
}

void tbl_alloc_set_hand(tbl_alloc_t *a, uint64_t off)
{
	a->hand = off ? off - TBL_ALLOC_HDR : 0;
}

unsigned tbl_alloc_free_sample(const tbl_alloc_t *a, uint64_t *out, unsigned max)
{
	uint64_t map = a->bin_map;
	unsigned n = 0;

	while (map && n < max) {
		unsigned i = bit_log2(map);

		out[n++] = a->bins[i] + TBL_ALLOC_HDR;
		map &= ~((uint64_t)1 << i);
	}
	return n;
}

uint64_t tbl_alloc_need(uint64_t size)
{
	uint64_t need = TBL_ALIGN_UP(size + TBL_ALLOC_HDR, TBL_ALLOC_ALIGN);

	return need < BLK_MIN ? BLK_MIN : need;
}

uint64_t tbl_alloc_max_payload(const tbl_alloc_t *a)
{
	uint64_t heap = a->heap_end - a->heap_off;

	return heap >= BLK_MIN ? heap - TBL_ALLOC_HDR : 0;
}

uint64_t tbl_alloc_largest_free(const tbl_alloc_t *a, const void *base)
{
	uint64_t h, best = 0, bound;
	unsigned i;

	if (!a->bin_map)
		return 0;
	i = bit_log2(a->bin_map);
	if (i < BIN_NEXACT)
		return blk_size(blk_at_c(base, a->bins[i])) - TBL_ALLOC_HDR;
	/* The bound only matters if the lists are corrupt (a cycle); it is the most blocks that fit. */
	bound = (a->heap_end - a->heap_off) / BLK_MIN;
	for (h = a->bins[i]; h && bound; h = blk_at_c(base, h)->next_free, bound--) {
		uint64_t size = blk_size(blk_at_c(base, h));

		if (size > best)
			best = size;
	}
	return best ? best - TBL_ALLOC_HDR : 0;
}

/* A pending run of free blocks in rebuild becomes one listed free block. */
static void rebuild_flush(tbl_alloc_t *a, void *base, uint64_t run, uint64_t run_size)
{
	bin_push(a, base, run, blk_at(base, run), bin_of(run_size));
	TBL_CRASH_POINT("alloc.rebuild.listed");
	a->free_bytes += run_size;
}

void tbl_alloc_rebuild(tbl_alloc_t *a, void *base)
{
	uint64_t h = a->heap_off, end = a->heap_end;
	uint64_t run = 0, run_size = 0;   /* free blocks seen since the last used one, merged into `run` */
	uint64_t last = 0, prev = 0;      /* header offset and size of the block just below h */

	a->free_bytes = a->used_bytes = a->used_blocks = 0;
	a->bin_map = 0;
	a->hand = 0;   /* it may be on a block the walk merges away */
	memset(a->bins, 0, sizeof(a->bins));

	while (h < end) {
		tbl_blk_t *b = blk_at(base, h);
		uint64_t head = b->head, size = head & ~BLK_FLAGS;

		if (TBL_UNLIKELY(size < BLK_MIN || size > end - h)) {
			/* Outside the crash contract (a stray write): the tiling is lost from here on. Keep the
			 * heap usable without ever handing out these bytes: the rest becomes one used block,
			 * or, when it is too small for a block, part of the block below. */
			size = end - h;
			if (size < BLK_MIN) {
				if (run_size) {
					run_size += size;
					blk_store_head(blk_at(base, run), run_size);
				} else {
					blk_store_head(blk_at(base, last), (prev + size) | BLK_USED);
					a->used_bytes += size;
				}
				break;
			}
			head = size | BLK_USED;
			blk_store_head(b, head);
		} else if (TBL_UNLIKELY(head & BLK_FLAGS & ~(BLK_USED | BLK_FRESH))
		           || TBL_UNLIKELY((head & (BLK_USED | BLK_FRESH)) == BLK_FRESH)) {
			/* Unknown flags, or FRESH on a free block: drop them. FRESH on a used block stays for the
			 * GC, which must not trust what such a block holds. */
			head &= ~(BLK_FLAGS & ~BLK_USED) | ((head & BLK_USED) ? BLK_FRESH : 0);
			blk_store_head(b, head);
		}

		if (head & BLK_USED) {
			if (run_size) {
				rebuild_flush(a, base, run, run_size);
				prev = run_size;
				run_size = 0;
			}
			b->prev_size = prev;
			a->used_bytes += size;
			a->used_blocks++;
			last = h;
			prev = size;
		} else if (run_size) {
			run_size += size;
			blk_store_head(blk_at(base, run), run_size);
		} else {
			b->prev_size = prev;
			run = h;
			run_size = size;
		}
		h += size;
	}
	if (run_size)
		rebuild_flush(a, base, run, run_size);
}

void tbl_alloc_walk(const tbl_alloc_t *a, const void *base, tbl_alloc_visit_fn visit, void *ctx)
{
	uint64_t h = a->heap_off;

	while (h < a->heap_end) {
		const tbl_blk_t *b = blk_at_c(base, h);
		uint64_t size = blk_size(b);

		if (size < BLK_MIN || size > a->heap_end - h)
			return;   /* corrupt; tbl_alloc_check reports it */
		visit(ctx, h + TBL_ALLOC_HDR, size, blk_used(b));
		h += size;
	}
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static int check_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int tbl_alloc_check(const tbl_alloc_t *a, const void *base, char *err, size_t errlen)
{
	uint64_t per_bin[TBL_ALLOC_NBINS] = {0};
	uint64_t h = a->heap_off, prev = 0, free_bytes = 0, used_bytes = 0, used_blocks = 0;
	int prev_free = 0, hand_seen = a->hand == 0;
	unsigned i;

	if ((a->heap_off & BLK_FLAGS) || a->heap_end < a->heap_off || ((a->heap_end - a->heap_off) & BLK_FLAGS))
		return check_fail(err, errlen, "bad heap bounds [%llu, %llu)",
		                  (unsigned long long)a->heap_off, (unsigned long long)a->heap_end);

	while (h < a->heap_end) {
		const tbl_blk_t *b = blk_at_c(base, h);
		uint64_t size = blk_size(b);

		if (size < BLK_MIN || size > a->heap_end - h)
			return check_fail(err, errlen, "block at %llu: size %llu breaks the tiling",
			                  (unsigned long long)h, (unsigned long long)size);
		if ((b->head & BLK_FLAGS & ~(BLK_USED | BLK_FRESH)) || (b->head & (BLK_USED | BLK_FRESH)) == BLK_FRESH)
			return check_fail(err, errlen, "block at %llu: unknown flags %#llx", (unsigned long long)h,
			                  (unsigned long long)(b->head & BLK_FLAGS));
		if (b->prev_size != prev)
			return check_fail(err, errlen, "block at %llu: prev_size %llu, block below is %llu",
			                  (unsigned long long)h, (unsigned long long)b->prev_size,
			                  (unsigned long long)prev);
		if (blk_used(b)) {
			used_bytes += size;
			used_blocks++;
			prev_free = 0;
		} else {
			if (prev_free)
				return check_fail(err, errlen, "block at %llu: free next to a free block",
				                  (unsigned long long)h);
			free_bytes += size;
			per_bin[bin_of(size)]++;
			prev_free = 1;
		}
		hand_seen |= h == a->hand;
		prev = size;
		h += size;
	}
	if (!hand_seen)
		return check_fail(err, errlen, "the hand %llu is not a block's start", (unsigned long long)a->hand);

	if (free_bytes != a->free_bytes || used_bytes != a->used_bytes || used_blocks != a->used_blocks)
		return check_fail(err, errlen, "counters free %llu used %llu blocks %llu, heap has %llu %llu %llu",
		                  (unsigned long long)a->free_bytes, (unsigned long long)a->used_bytes,
		                  (unsigned long long)a->used_blocks, (unsigned long long)free_bytes,
		                  (unsigned long long)used_bytes, (unsigned long long)used_blocks);

	for (i = 0; i < TBL_ALLOC_NBINS; i++) {
		uint64_t n = 0, back = 0, f = a->bins[i];

		if (!f != !(a->bin_map & ((uint64_t)1 << i)))
			return check_fail(err, errlen, "bin %u: bin_map bit disagrees with the list", i);
		for (; f; back = f, f = blk_at_c(base, f)->next_free) {
			const tbl_blk_t *b = blk_at_c(base, f);
			uint64_t size;

			if (f < a->heap_off || f >= a->heap_end || (f & BLK_FLAGS) || a->heap_end - f < BLK_MIN)
				return check_fail(err, errlen, "bin %u: link %llu outside the heap", i,
				                  (unsigned long long)f);
			size = blk_size(b);
			if (blk_used(b) || size < BLK_MIN || size > a->heap_end - f || bin_of(size) != i)
				return check_fail(err, errlen, "bin %u: block %llu (head %#llx) does not belong here", i,
				                  (unsigned long long)f, (unsigned long long)b->head);
			if (b->prev_free != back)
				return check_fail(err, errlen, "bin %u: block %llu prev link %llu, expected %llu", i,
				                  (unsigned long long)f, (unsigned long long)b->prev_free,
				                  (unsigned long long)back);
			/* Listed offsets must be real block starts: their boundary tags agree both ways. */
			if ((f + size < a->heap_end && blk_at_c(base, f + size)->prev_size != size)
			    || (f > a->heap_off && (b->prev_size == 0 || b->prev_size > f - a->heap_off
			                            || blk_size(blk_at_c(base, f - b->prev_size)) != b->prev_size)))
				return check_fail(err, errlen, "bin %u: block %llu is not a block start", i,
				                  (unsigned long long)f);
			if (++n > per_bin[i])
				return check_fail(err, errlen, "bin %u: more listed blocks than the heap has (cycle?)", i);
		}
		if (n != per_bin[i])
			return check_fail(err, errlen, "bin %u: %llu listed, heap has %llu free blocks of its sizes", i,
			                  (unsigned long long)n, (unsigned long long)per_bin[i]);
	}
	return 0;
}
