/*
 * gc.c - mark and retire, after a writer died holding a lock.
 *
 * Chains are always well formed (every change is one store), so a dead writer can only leave behind:
 *   - a block it allocated but had not linked yet,
 *   - an entry it had unlinked but not queued for reclamation yet,
 *   - (allocator crash) a block popped from the retire queue but not freed,
 *   - the pieces of a value stored in pieces (split.c) whose entry is one of the above.
 * All of them are used blocks that nothing references. With every stripe lock and the allocator lock held
 * no live writer is between "allocate" and "link", so "unreferenced" is exact: mark what the chains and
 * the retire queue reference, then retire the rest. Retire, never free: a reader that was walking when
 * the writer died may still be inside the unlinked entry.
 */
#include <stdlib.h>
#include "epoch.h"
#include "gc.h"
#include "split.h"
#include "sync.h"
#include "crash.h"

typedef struct gc_ctx {
	tbl_t *t;
	uint64_t *marks;
	uint64_t recovered;
} gc_ctx_t;

static size_t mark_index(const tbl_t *t, uint64_t off)
{
	return (size_t)((off - t->hdr->alloc.heap_off) / TBL_ALLOC_ALIGN);
}

static void mark(gc_ctx_t *g, uint64_t off)
{
	size_t i = mark_index(g->t, off);
	g->marks[i / 64] |= 1ull << (i % 64);
}

/* Mark an entry the index or a queue references, and the pieces of a split one (split.c). */
static void mark_entry(gc_ctx_t *g, uint64_t off)
{
	const tbl_alloc_t *a = &g->t->hdr->alloc;
	tbl_entry_t *e = tbl_entry_at(g->t, off);

	mark(g, off);
	if (tbl_entry_split(e)) {
		uint32_t n, i;
		const tbl_piece_ref_t *ref = tbl_entry_pieces(e, &n);

		for (i = 0; i < n && i < TBL_SPLIT_MAX_PIECES; i++) {
			if (ref[i].off >= a->heap_off + TBL_ALLOC_HDR && ref[i].off < a->heap_end) {
				mark(g, ref[i].off);
			}
		}
	}
}

static int marked(const gc_ctx_t *g, uint64_t off)
{
	size_t i = mark_index(g->t, off);
	return (g->marks[i / 64] >> (i % 64)) & 1u;
}

typedef struct gc_leak {
	uint64_t off;
	struct gc_leak *next;
} gc_leak_t;

static void collect_unmarked(void *ctx, uint64_t off, uint64_t size, int used)
{
	void **pair = ctx;
	gc_ctx_t *g = pair[0];
	gc_leak_t **list = pair[1], *l;

	if (!used || marked(g, off)) {
		return;
	}
	/* The block may hold a half-built entry: make the fields reclamation reads trustworthy. One its
	 * writer never initialised (the allocator's fresh mark says so) holds old bytes only: nobody can
	 * hold it, whatever its holds field says. Otherwise holds was written (0) before the mark was
	 * cleared, and may since count the holds of readers of an entry the writer had unlinked. */
	if (tbl_alloc_block_fresh(g->t->base, off)) {
		tbl_entry_t *e = tbl_entry_at(g->t, off);

		atomic_store_explicit(&e->holds, 0, memory_order_relaxed);
		e->retire_epoch = 0;
		tbl_alloc_settle(g->t->base, off);
	}
	/* Nothing references it, so nothing references what its directory names either (if it is a split
	 * entry at all, and its directory was written): those pieces are collected on their own. Reclaiming
	 * it must free its block alone. */
	tbl_entry_at(g->t, off)->type = TBL_T_NULL;
	tbl_entry_at(g->t, off)->bytes = (uint32_t)size;
	g->recovered++;
	if ((l = malloc(sizeof(*l))) != NULL) {
		l->off = off;
		l->next = *list;
		*list = l;
	}
}

/* `if_needed`: run only if gc_needed is still set once every lock is held. After one repair several
 * writers see the flag before any of them has cleared it; they queue on the stripe locks, and only the
 * first one through does the (full-heap) work. */
static uint64_t gc_run(tbl_t *t, int if_needed)
{
	tbl_header_t *h = t->hdr;
	gc_ctx_t g = { t, NULL, 0 };
	gc_leak_t *leaks = NULL, *l;
	void *pair[2] = { &g, &leaks };
	uint64_t b, off, nbits;
	uint32_t s;

	nbits = (h->alloc.heap_end - h->alloc.heap_off) / TBL_ALLOC_ALIGN + 1;
	if (!(g.marks = calloc((size_t)(nbits / 64 + 1), sizeof(uint64_t)))) {
		return 0;
	}
	for (s = 0; s < h->nstripes; s++) {
		if (tbl_stripe_lock(t, s) != TBL_OK) {
			goto unlock_stripes;   /* an unusable lock: leave gc_needed set, recover nothing */
		}
	}
	if (tbl_alloc_lock(t) != TBL_OK) {
		goto unlock_stripes;
	}
	if (if_needed && !atomic_load(&h->gc_needed)) {
		tbl_alloc_unlock(t);
		goto unlock_stripes;   /* another writer collected while this one waited for the locks */
	}
	TBL_CRASH_POINT("gc.locked");
	atomic_store(&h->gc_needed, 0);
	atomic_fetch_add(&h->gc_runs, 1);
	/* Processes die together: the writer that died may not be alone. Give back the slots (and holds) of
	 * every dead process, so that what they held is collected like the rest. */
	tbl_slots_reap_gone(t);
	for (b = 0; b < h->nbuckets; b++) {
		for (off = atomic_load(&t->buckets[b]); off; off = atomic_load(&tbl_entry_at(t, off)->next)) {
			mark_entry(&g, off);
		}
	}
	for (off = h->retire_head; off; off = tbl_entry_at(t, off)->retire_next) {
		mark_entry(&g, off);
	}
	/* Retired entries still held by zero-copy readers (epoch.c) are referenced too. */
	for (off = h->held_head; off; off = tbl_entry_at(t, off)->retire_next) {
		mark_entry(&g, off);
	}
	/* Collect during the walk, retire after it, so the walk never sees the queue it feeds. */
	tbl_alloc_walk(&h->alloc, t->base, collect_unmarked, pair);
	for (l = leaks; l; l = leaks) {
		leaks = l->next;
		tbl_retire_locked(t, l->off);
		free(l);
	}
	tbl_alloc_unlock(t);
unlock_stripes:
	while (s-- > 0) {
		tbl_stripe_unlock(t, s);
	}
	free(g.marks);
	return g.recovered;
}

uint64_t tbl_gc(tbl_t *t)
{
	return gc_run(t, 0);
}

void tbl_gc_if_needed(tbl_t *t)
{
	if (TBL_UNLIKELY(atomic_load_explicit(&t->hdr->gc_needed, memory_order_relaxed))) {
		gc_run(t, 1);
	}
}
