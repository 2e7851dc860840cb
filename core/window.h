/*
 * window.h - what eviction evicts (window.c): a window, a run of neighbouring heap blocks, and how its
 * blocks are judged and ranked. Shared by the gdsf sweep (gdsf.c) and the policies' choice (evict.c),
 * both above it. Allocator lock held for everything here.
 */
#ifndef TBL_WINDOW_H
#define TBL_WINDOW_H

#include "segment.h"

#define TBL_MOVE_MAX           16u    /* entries one eviction may move out of its window (gdsf.c) */

/* What a block is worth to a window, judged under the allocator lock. */
typedef enum blk_kind {
	BK_FREE,       /* free already */
	BK_DEAD,       /* an expired entry: removing it costs nothing */
	BK_LIVE,       /* an entry (or, rarely, a block another writer has not linked yet: see window_lock) */
	BK_BARRIER     /* retired, waiting for readers: it cannot be freed now, so no window crosses it */
} blk_kind_t;

typedef struct window {
	uint64_t first, last;   /* payload offsets of its lowest and highest block */
	uint64_t total;         /* bytes of the run, headers included */
	uint64_t live;          /* the price: how many live entries it evicts */
	uint32_t top;           /* the highest rank (entry_rank) among those entries, when live != 0 */
	uint32_t low;           /* and the lowest (gdsf: the clock rises to the lowest of all candidates') */
	/* gdsf only: */
	uint32_t clock;         /* the inflation clock its entries were ranked against */
	uint32_t sweep;         /* found by the sweep (its place in it, from 1), 0 for a seed's window */
	double worth;           /* what its live entries are worth: the sum of max(0, rank - clock) * bytes,
	                         * about the reads they would still serve (rank - clock is reads per byte) */
	double kept;            /* the part of `worth` it keeps by moving entries out (tbl_gdsf_plan) */
	unsigned nkeep;         /* its most valuable movable entries (tbl_window_take), most valuable first; */
	/* tbl_window_grow and tbl_gdsf_sweep clear the fields above, not these: */
	uint64_t keep[TBL_MOVE_MAX];         /* where they are, */
	double keep_worth[TBL_MOVE_MAX];     /* what each is worth */
	uint64_t to[TBL_MOVE_MAX];           /* and (tbl_gdsf_plan) the free block outside it each moves to */
} window_t;

/* The entry a used block stands for in a window: itself, or for a piece of a split entry (split.c) the
 * entry it belongs to, whose eviction frees it. NULL for a piece that has no owner yet. */
tbl_entry_t *tbl_block_entry(tbl_t *t, uint64_t off);

/* What the block at `off` is to a window now (`now_sec`), and for a live entry its rank in *rank (how
 * the table's policy ranks it: the lower goes first). */
blk_kind_t tbl_window_classify(tbl_t *t, uint64_t off, uint32_t now_sec, uint32_t *rank);

/* Add the block at `off` (`size` bytes, of `kind`, ranked `rank` when live) to window `w`. */
void tbl_window_take(tbl_t *t, window_t *w, uint64_t off, uint64_t size, blk_kind_t kind, uint32_t rank);

/* Grow a window from the block at `seed` until it spans `need` bytes (window.c says how). 0 when
 * barriers or the heap's ends stop it short. `ranked`: prefer the lower-ranked neighbour; `down`: grow
 * towards lower addresses only (a free seed). */
int tbl_window_grow(tbl_t *t, uint64_t seed, uint64_t need, uint32_t now_sec, int ranked, int down,
                    window_t *w);

#endif
