/*
 * window.c - windows: runs of neighbouring heap blocks, which eviction frees together.
 *
 * A write of S bytes needs one free block of need = S + header bytes. Evicting single entries until one
 * happens to leave such a block behind evicts thousands of entries for one large value, so the victim is
 * a window instead: a run of neighbouring blocks (free ones, expired entries and live entries) that spans
 * at least `need` bytes, so that retiring its live entries and reclaiming them coalesces the run into one
 * free block that fits. This file judges blocks (tbl_window_classify: free, expired, live with a rank, or
 * a barrier no window crosses: retired, held by a zero-copy reader, a piece with no owner yet), ranks
 * live entries by the table's policy (entry_rank), adds blocks to a window (tbl_window_take, which also
 * keeps gdsf's most valuable movable entries) and grows a window from a seed block (tbl_window_grow).
 * Which windows are candidates and which one goes is evict.c's (lru, random) and gdsf.c's (the sweep)
 * business; nothing here locks a stripe or changes the heap.
 *
 * Invariant (core/DESIGN.md, "TTL and eviction", bound 1): a window stops growing as soon as it spans
 * `need` bytes, so the bytes it evicts are less than need + its last block: making room for S bytes
 * evicts at most need + one entry.
 */
#include <stddef.h>
#include <string.h>
#include "usage.h"
#include "window.h"

/* How a policy ranks one live entry (allocator lock held; `inflation` is gdsf's clock). Ranks compare
 * as ticks do (tbl_tick_before): the lower one goes first.
 *   lru   the tick of its last read;
 *   gdsf  the clock it was stamped with (now, when it has been read since the sweep last passed it: see
 *         tbl_gdsf_pass) plus (reads + 1)^2 * TBL_GDSF_SCALE / the bytes it takes. GreedyDual-Size-Frequency
 *         (with the square weighing frequency more): a small entry read often ranks highest, a large
 *         one never read lowest; evicting raises the clock to the lowest rank among the candidates, so
 *         what stays unread falls behind. */
static uint32_t entry_rank(const tbl_t *t, tbl_entry_t *e, uint32_t inflation)
{
	uint32_t u = TBL_LOAD_RELAXED(&e->usage), stamp, reads;

	if (t->hdr->policy != TBL_POLICY_GDSF) {
		return u;
	}
	reads = u & TBL_GDSF_READS;
	stamp = (u & TBL_GDSF_SEEN ? inflation : u) & ~TBL_GDSF_LOW;
	if ((int32_t)(inflation - stamp) > (int32_t)TBL_GDSF_OLDEST) {
		stamp = inflation - TBL_GDSF_OLDEST;
	}
	return stamp + (reads + 1u) * (reads + 1u) * (TBL_GDSF_SCALE / (e->bytes ? e->bytes : 1u));
}

/* The entry a used block stands for in a window: itself, or for a piece of a split entry (split.c) the
 * entry it belongs to, whose eviction frees it. NULL for a piece that has no owner yet. */
tbl_entry_t *tbl_block_entry(tbl_t *t, uint64_t off)
{
	tbl_entry_t *e = tbl_entry_at(t, off);

	/* Non-zero exactly for retired blocks: tbl_entry_block clears it under the lock it is set under. A
	 * retired block is itself, whatever its type says. */
	if (TBL_UNLIKELY(e->type == TBL_T_PIECE) && e->retire_epoch == 0) {
		return tbl_piece_owner(t, e);
	}
	return e;
}

blk_kind_t tbl_window_classify(tbl_t *t, uint64_t off, uint32_t now_sec, uint32_t *rank)
{
	tbl_entry_t *e;

	t->evict_looked++;
	if (!tbl_alloc_block_used(t->base, off)) {
		return BK_FREE;
	}
	if (!(e = tbl_block_entry(t, off)) || e->retire_epoch != 0) {
		return BK_BARRIER;
	}
	/* Held by a zero-copy reader: evicting it would free nothing until that request ends, so a window
	 * goes around it. (A hold taken after this look only costs this write one more window.) */
	if (atomic_load_explicit(&e->holds, memory_order_relaxed) != 0) {
		return BK_BARRIER;
	}
	if (tbl_entry_expired(e, now_sec)) {
		return BK_DEAD;
	}
	*rank = entry_rank(t, e, TBL_LOAD_RELAXED(&t->hdr->inflation));
	return BK_LIVE;
}

/* Whether gdsf may move an entry out of a window rather than evict it (tbl_gdsf_plan): not a zero-copy
 * image (its arrays point into its own bytes) nor a value in pieces or a piece. */
static int movable(const tbl_entry_t *e)
{
	return !tbl_entry_split(e) && e->type != TBL_T_IMAGE && e->type != TBL_T_PIECE;
}

/* Add the block at `off` (`size` bytes, of `kind`, ranked `rank` when live) to window `w`. */
void tbl_window_take(tbl_t *t, window_t *w, uint64_t off, uint64_t size, blk_kind_t kind, uint32_t rank)
{
	w->total += size;
	if (kind == BK_LIVE) {
		if (t->hdr->policy == TBL_POLICY_GDSF) {
			int32_t above = (int32_t)(rank - w->clock);
			double v = above > 0 ? (double)above * (double)size : 0.0;

			w->worth += v;
			/* The most valuable entries that could be moved out instead of evicted, in order. */
			if ((w->nkeep < TBL_MOVE_MAX || v > w->keep_worth[w->nkeep - 1])
			    && movable(tbl_entry_at(t, off))) {
				unsigned j = w->nkeep < TBL_MOVE_MAX ? w->nkeep++ : w->nkeep - 1;

				for (; j > 0 && v > w->keep_worth[j - 1]; j--) {
					w->keep_worth[j] = w->keep_worth[j - 1];
					w->keep[j] = w->keep[j - 1];
				}
				w->keep_worth[j] = v;
				w->keep[j] = off;
			}
		}
		if (!w->live || tbl_tick_before(w->top, rank)) {
			w->top = rank;
		}
		if (!w->live || tbl_tick_before(rank, w->low)) {
			w->low = rank;
		}
		w->live++;
	}
}

/* Grow a window from the block at `seed` until it spans `need` bytes, one neighbour at a time: free and
 * expired neighbours first, then (lru, gdsf) the one ranked lower, else the smaller. Every step adds one
 * block to a run still short of `need`, so the run ends up smaller than need + its last block: the
 * price is at most need + one entry. 0 when barriers or the heap's ends stop it short. `down`: grow
 * towards lower addresses only (free seeds, below). */
int tbl_window_grow(tbl_t *t, uint64_t seed, uint64_t need, uint32_t now_sec, int ranked, int down,
                       window_t *w)
{
	tbl_alloc_t *a = &t->hdr->alloc;
	uint32_t at = 0;
	blk_kind_t kind = tbl_window_classify(t, seed, now_sec, &at);

	if (kind == BK_BARRIER) {
		return 0;
	}
	memset(w, 0, offsetof(window_t, keep));
	w->clock = TBL_LOAD_RELAXED(&t->hdr->inflation);
	w->first = w->last = seed;
	tbl_window_take(t, w, seed, tbl_alloc_block_size(t->base, seed), kind, at);
	while (w->total < need) {
		uint64_t lo = tbl_alloc_block_below(a, t->base, w->first);
		uint64_t hi = tbl_alloc_block_above(a, t->base, w->last);
		uint32_t alo = 0, ahi = 0;
		blk_kind_t klo = lo ? tbl_window_classify(t, lo, now_sec, &alo) : BK_BARRIER;
		/* A free seed grows downwards only. The fragment is most likely the rest of a block the
		 * allocator split for an earlier write, which took the top: the block above it is that write's
		 * entry. Growing upwards would evict it, leave the same fragment below, and repeat: lru would
		 * turn into "evict the newest". Downwards the fragment sweeps through older placements and
		 * stops at the heap's start or a retired block. */
		blk_kind_t khi = hi && !down ? tbl_window_classify(t, hi, now_sec, &ahi) : BK_BARRIER;
		int take_lo;

		if (klo == BK_BARRIER && khi == BK_BARRIER) {
			return 0;
		}
		if (klo == BK_BARRIER || khi == BK_BARRIER) {
			take_lo = khi == BK_BARRIER;
		} else if (klo != BK_LIVE || khi != BK_LIVE) {
			take_lo = klo != BK_LIVE;
		} else if (ranked && alo != ahi) {
			take_lo = tbl_tick_before(alo, ahi);
		} else {
			take_lo = tbl_alloc_block_size(t->base, lo) <= tbl_alloc_block_size(t->base, hi);
		}
		if (take_lo) {
			w->first = lo;
			tbl_window_take(t, w, lo, tbl_alloc_block_size(t->base, lo), klo, alo);
		} else {
			w->last = hi;
			tbl_window_take(t, w, hi, tbl_alloc_block_size(t->base, hi), khi, ahi);
		}
	}
	return 1;
}
