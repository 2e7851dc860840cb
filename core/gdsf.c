/*
 * gdsf.c - gdsf's half of eviction: the sweep that offers candidate windows, and the moves that keep a
 * window's most valuable entries.
 *
 * gdsf ranks an entry by GreedyDual-Size-Frequency (entry_rank, window.c: reads per byte, stamped with an
 * inflation clock that evictions move, no wall clock) and a window by what its live entries are worth per
 * byte it frees, less what it keeps by moving (evict.c's window_better). This file finds the windows and
 * does the moving; evict.c picks one, locks it and evicts it.
 *
 * THE SWEEP.
 * gdsf takes its candidates from a sweep over the heap in address order, not from random buckets: the windows
 * that follow one another from the allocator's hand (tbl_alloc_hand), up to TBL_GDSF_WINDOWS of them, and one
 * grown both ways from the block at the hand (tbl_evict_window). Which entries are looked at then depends on
 * the order of writes alone, not on the segment's random hash key or on time: the same trace evicts the same
 * entries on every run. When a swept window is evicted the hand moves past it, and the entries it passed on
 * the way get their reads stamped (tbl_gdsf_pass), as CLOCK's hand clears reference bits: an entry's "read
 * since" bit says "since the hand last passed". Windows it did not take stay ahead of the hand and are
 * offered again, so the candidates are a pool that slides along the heap.
 *
 * THE MOVES.
 * A window is a run of neighbours, so besides the cheap entries it is chosen for it may hold valuable ones.
 * gdsf moves up to TBL_MOVE_MAX of those, the most valuable first, into free blocks outside the window
 * instead of evicting them: a copy, linked in place of the old entry under its stripe lock and the old one
 * retired, as a set() that replaces a value does. What a window costs is then what it evicts. The room for
 * moves is what earlier windows freed beyond their writes' need (gdsf frees twice that, tbl_evict_window).
 *
 * Every step is crash-safe the way a replacing set() is: a copy not yet linked is a leak the GC retires;
 * the heap's shape changes only inside tbl_alloc_from/tbl_free.
 */
#include <stddef.h>
#include <string.h>
#include "crash.h"
#include "entry.h"
#include "epoch.h"
#include "gdsf.h"
#include "index.h"
#include "usage.h"

#define TBL_GDSF_HOPS          4096u  /* blocks one sweep looks at, at most */

/* Make `w` the window from block `first` to block `last` (no barrier between them). */
static void window_span(tbl_t *t, window_t *w, uint64_t first, uint64_t last, uint32_t now_sec)
{
	uint64_t off = first;

	memset(w, 0, offsetof(window_t, keep));
	w->clock = TBL_LOAD_RELAXED(&t->hdr->inflation);
	w->first = first;
	w->last = last;
	for (;;) {
		uint32_t rank = 0;
		blk_kind_t kind = tbl_window_classify(t, off, now_sec, &rank);

		tbl_window_take(t, w, off, tbl_alloc_block_size(t->base, off), kind, rank);
		if (off == last) {
			break;
		}
		off = tbl_alloc_block_above(&t->hdr->alloc, t->base, off);
	}
}

/* The block above `off`, or the heap's first block past its end (allocator lock held). */
static uint64_t sweep_next(tbl_t *t, uint64_t off, int *wrapped)
{
	uint64_t next = tbl_alloc_block_above(&t->hdr->alloc, t->base, off);

	if (!next) {
		(*wrapped)++;
		next = t->hdr->alloc.heap_off + TBL_ALLOC_HDR;
	}
	return next;
}

/* Up to `max` windows of at least `need` bytes that follow one another upwards from the hand. A window
 * that meets a barrier starts again above it; one that meets the heap's end starts again at its start
 * (a window never wraps). *stop: the block the sweep would have looked at next. */
unsigned tbl_gdsf_sweep(tbl_t *t, uint64_t need, uint32_t now_sec, window_t *out, unsigned max,
                        uint64_t *stop)
{
	uint64_t off = tbl_alloc_hand(&t->hdr->alloc), start = off;
	unsigned n = 0, hops = 0;
	int wrapped = 0, open = 0;

	while (n < max && hops++ < TBL_GDSF_HOPS) {
		window_t *w = &out[n];
		uint32_t rank = 0;
		blk_kind_t kind = tbl_window_classify(t, off, now_sec, &rank);
		int before = wrapped;
		uint64_t next;

		if (kind == BK_BARRIER) {
			open = 0;
		} else {
			if (!open) {
				memset(w, 0, offsetof(window_t, keep));
				w->clock = TBL_LOAD_RELAXED(&t->hdr->inflation);
				w->first = off;
				open = 1;
			}
			w->last = off;
			tbl_window_take(t, w, off, tbl_alloc_block_size(t->base, off), kind, rank);
			if (w->total >= need) {
				/* Leading blocks the rest does without (the last one was large) stay out of it. */
				uint64_t first = w->first, total = w->total;

				while (first != off && total - tbl_alloc_block_size(t->base, first) >= need) {
					total -= tbl_alloc_block_size(t->base, first);
					first = tbl_alloc_block_above(&t->hdr->alloc, t->base, first);
				}
				if (first != w->first) {
					window_span(t, w, first, off, now_sec);
				}
				w->sweep = ++n;
				open = 0;
				if (w->worth == 0) {
					break;   /* nothing in it is worth more than the clock: none could be cheaper */
				}
			}
		}
		next = sweep_next(t, off, &wrapped);
		if (wrapped != before) {
			open = 0;      /* a window never wraps */
		}
		off = next;
		if (wrapped > 1 || (wrapped && next == start)) {
			break;         /* once round the heap */
		}
	}
	*stop = off;
	return n;
}

/* The hand passes the blocks from where it is up to `w` (about to be evicted), then moves past `w`. An
 * entry read since the hand last passed gets the clock as its stamp (which entry_rank already counted
 * it as) and its read bit cleared; a stamp too far behind the clock is brought up to TBL_GDSF_OLDEST
 * behind it, so that it never wraps round to look new. Advisory stores, as a read's: a concurrent
 * read's count may be lost. */
void tbl_gdsf_pass(tbl_t *t, const window_t *w, uint32_t now_sec)
{
	tbl_alloc_t *a = &t->hdr->alloc;
	uint32_t clock = TBL_LOAD_RELAXED(&t->hdr->inflation) & ~TBL_GDSF_LOW;
	uint64_t off = tbl_alloc_hand(a);
	unsigned hops = 0;
	int wrapped = 0;

	while (off != w->first && hops++ < TBL_GDSF_HOPS) {
		uint32_t rank = 0;

		if (tbl_window_classify(t, off, now_sec, &rank) == BK_LIVE && !tbl_alloc_block_fresh(t->base, off)) {
			tbl_entry_t *e = tbl_block_entry(t, off);
			uint32_t u = TBL_LOAD_RELAXED(&e->usage), reads = u & TBL_GDSF_READS;

			if (u & TBL_GDSF_SEEN) {
				TBL_STORE_RELAXED(&e->usage, clock | reads);
			} else if ((int32_t)(clock - u) > (int32_t)TBL_GDSF_OLDEST) {
				TBL_STORE_RELAXED(&e->usage, ((clock - TBL_GDSF_OLDEST) & ~TBL_GDSF_LOW) | reads);
			}
		}
		off = sweep_next(t, off, &wrapped);
	}
	tbl_alloc_set_hand(a, tbl_alloc_block_above(a, t->base, w->last));
}

/* Choose what `w` keeps (allocator lock held): of its most valuable movable entries (tbl_window_take), the
 * ones worth something, most valuable first, each into the first of `free` (free blocks, largest first)
 * that lies outside the window and still has room for it (its own header stays behind). Moving into the
 * largest blocks rather than the best fitting ones keeps more of the hit ratio (0.776 against 0.775 on
 * core/bench/eviction_replay): small holes are left for windows to merge. */
void tbl_gdsf_plan(tbl_t *t, window_t *w, const uint64_t *free, unsigned nfree)
{
	uint64_t room[TBL_MOVE_TARGETS];
	unsigned i, k, n = w->nkeep;

	w->nkeep = 0;
	w->kept = 0;
	if (nfree > TBL_MOVE_TARGETS) {
		nfree = TBL_MOVE_TARGETS;
	}
	for (k = 0; k < nfree; k++) {
		room[k] = free[k] < w->first || free[k] > w->last ? tbl_alloc_block_size(t->base, free[k]) : 0;
	}
	for (i = 0; i < n; i++) {
		const tbl_entry_t *e = tbl_entry_at(t, w->keep[i]);
		uint64_t need = tbl_alloc_need(tbl_entry_size(e));

		if (w->keep_worth[i] == 0) {
			break;   /* worth nothing (and neither is the rest): evicted */
		}
		for (k = 0; k < nfree && need + TBL_ALLOC_HDR > room[k]; k++) {
		}
		if (k == nfree) {
			continue;
		}
		room[k] -= need;
		w->to[w->nkeep] = free[k];
		w->keep_worth[w->nkeep] = w->keep_worth[i];
		w->keep[w->nkeep++] = w->keep[i];
		w->kept += w->keep_worth[i];
	}
}

/* Move entry `e` (its stripe and the allocator lock held) into free block `target`, outside its window.
 * 0 when it no longer fits there: it is evicted with the rest. The entry's fields that may change
 * while it is linked change only under its stripe lock (expire) or are advisory (usage, updated), and an
 * integer is sealed before it is copied (integer.h), so the copy is exact. */
int tbl_gdsf_move(tbl_t *t, tbl_entry_t *e, uint64_t target)
{
	uint64_t size = tbl_entry_size(e), off, b;
	_Atomic uint64_t *link;
	tbl_entry_t *n;
	uint32_t s;

	b = tbl_bucket_of_hash(t, e->hash);
	s = tbl_stripe_of_bucket(t, b);
	link = tbl_index_link_of(t, b, e);
	if (!link || !(off = tbl_entry_block(t, tbl_alloc_from(&t->hdr->alloc, t->base, target, size)))) {
		return 0;
	}
	TBL_CRASH_POINT("evict.move.allocated");
	n = tbl_entry_at(t, off);
	atomic_store_explicit(&n->next, 0, memory_order_relaxed);
	n->hash = e->hash;
	n->retire_next = 0;
	n->ns = e->ns;
	n->key_len = e->key_len;
	n->type = e->type;
	n->flags = e->flags;
	n->val_len = e->val_len;
	atomic_store_explicit(&n->usage, TBL_LOAD_RELAXED(&e->usage), memory_order_relaxed);
	n->created = e->created;
	n->updated = e->updated;
	atomic_store_explicit(&n->expire, TBL_LOAD_RELAXED(&e->expire), memory_order_relaxed);
	n->bytes = (uint32_t)tbl_alloc_block_size(t->base, off);
	memcpy(n + 1, e + 1, size - sizeof(tbl_entry_t));
	if (e->type == TBL_T_LONG) {
		tbl_long_init(n, tbl_long_seal(e));   /* final from here on; the copy counts on */
	}
	tbl_index_replace(t, link, e, n);
	TBL_CRASH_POINT("evict.move.linked");
	tbl_count_sub(t, s, e);
	tbl_count_add(t, s, n);
	tbl_retire_locked(t, tbl_offset_of(t, e));
	TBL_CRASH_POINT("evict.move.retired");
	t->hdr->evict_moves++;
	return 1;
}

/* After evicting a window (allocator lock held): the clock rises to `floor`, the lowest rank among the
 * live entries of every candidate window (not only the evicted one), when that is above it. GDSF's clock
 * is the rank of the lowest entry in the cache, which is what it evicts; a window is evicted for being
 * cheap as a whole, and its lowest entry is ranked higher than the lowest of all the entries looked at,
 * the better estimate. Raising the clock to the evicted window's lowest rank made it rise too fast, so
 * that recency outweighed frequency: 0.777 against 0.780 on core/bench/eviction_replay at 32 MiB
 * (0.718 against 0.724 at 16 MiB, 0.828 against 0.832 at 64 MiB, means of three seeds). */
void tbl_gdsf_note_evicted(tbl_header_t *h, uint32_t floor)
{
	uint32_t clock = TBL_LOAD_RELAXED(&h->inflation);

	if (tbl_tick_before(clock, floor)) {
		TBL_STORE_RELAXED(&h->inflation, floor);
	}
}
