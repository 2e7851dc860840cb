/*
 * evict.c - eviction under every policy: candidate windows, the best one chosen, locked and evicted.
 *
 * Called by room.c (tbl_room_alloc) when a write found no free block, after reclamation and expiry did
 * not help: tbl_evict_window evicts ONE window, reclaims and allocates in the same hold of the allocator
 * lock. Whether to call it again, wait for readers or give up is room.c's decision, not this file's.
 *
 * The victim is a window, a run of neighbouring heap blocks that spans at least the write's need
 * (window.c says what a window is and how one grows). Candidates grow around TBL_EVICT_SEEDS entries
 * sampled from random buckets (as Redis samples keys) and around the TBL_EVICT_FREE_SEEDS largest free
 * fragments (downwards only, see tbl_window_grow), one neighbour at a time, free/expired first, then
 * (lru, gdsf) the one ranked lower. gdsf takes its candidates from a sweep over the heap instead of
 * random buckets, and moves a window's most valuable entries out rather than evict them (gdsf.c). The
 * candidates are ranked (window_better):
 *   gdsf    by what their live entries are worth per byte (GreedyDual-Size-Frequency: reads per byte,
 *           stamped with an inflation clock that evictions move, no wall clock), less what the window
 *           keeps by moving its most valuable entries out (tbl_gdsf_plan); see gdsf.c and
 *           core/DESIGN.md;
 *   lru     by the latest read among the window's live entries, oldest first in doubling age classes
 *           (a window whose every entry is cold beats one holding a single hot entry), then as random;
 *   random  by the live entries it evicts per byte it frees (what it frees beyond the need stays
 *           free for the next writes, so keys lost, not bytes, are the price).
 * Under lru a new entry starts 3/4 of the eviction age down the LRU order (tbl_usage_new, usage.h), so
 * keys written and never read go before keys read since.
 * Invariants (core/DESIGN.md, "TTL and eviction"):
 *   - a window stops growing as soon as it spans need bytes, so the bytes it evicts are less than
 *     need + its last block: making room for S bytes evicts at most need + one entry (< 2*S + one
 *     entry once S counts the block the write takes); gdsf's need is twice the write's, so it evicts
 *     less than 2*S + one entry;
 *   - one write evicts at most one window while readers hold what it retired (it waits for them),
 *     and at most TBL_EVICT_MAX_WINDOWS in all (room.c);
 *   - a window never crosses a retired block (it cannot be freed now) and is evicted only when every
 *     used block in it is a linked entry whose stripe this writer holds or could trylock: a fresh
 *     block of another writer is never touched;
 *   - choosing, evicting, reclaiming and allocating happen in one hold of the allocator lock, so no
 *     other writer takes the run in between. Other stripes are only ever trylocked (the allocator lock
 *     is held, and lock order puts stripes first: waiting could deadlock, trying cannot).
 * Evicted entries are retired like any other, and moved ones are replaced as a set() replaces a value;
 * the reader protocol (epoch.h) is never bypassed. Every step is crash-safe the way a delete (or a
 * replacing set) is: an entry unlinked but not yet retired, or a copy not yet linked, is a leak the GC
 * retires; the heap's shape changes only inside tbl_free/tbl_alloc.
 */
#include <stddef.h>
#include <string.h>
#include "crash.h"
#include "entry.h"
#include "epoch.h"
#include "evict.h"
#include "gdsf.h"
#include "index.h"
#include "sync.h"
#include "usage.h"
#include "window.h"

#define TBL_EVICT_SEEDS        8u     /* sampled entries a candidate window grows from */
#define TBL_EVICT_FREE_SEEDS   4u     /* and the largest free blocks */
#define TBL_EVICT_PROBES       64u    /* random buckets looked at per sample, at most */
#define TBL_EVICT_CHAIN_LOOK   4u     /* entries taken per sampled chain */

_Static_assert(TBL_NSTRIPES <= 64, "window_lock keeps the stripes it holds in one 64-bit mask");

/* How long ago a window's most recently read entry was read, in classes that double: 0, 1, 2-3, 4-7,
 * ... ticks. Windows in one class count as equally old, so the cheaper one wins among them. */
static unsigned age_class(uint32_t now_tick, uint32_t newest)
{
	uint32_t age = tbl_tick_before(newest, now_tick) ? now_tick - newest : 0;
	unsigned c = 0;

	while (age) {
		age >>= 1;
		c++;
	}
	return c;
}

/* Whether window a is the better victim. A window of free space and expired entries beats all; then, lru,
 * the one whose most recently read entry was read longest ago (ages compared by class); gdsf, the one
 * whose evicted entries are worth least per byte it frees (worth less what it keeps by moving); then, and
 * for random, the one that evicts fewer entries per byte it frees. What a window frees beyond the
 * write's need stays free for the next writes, so the real price of a window is the keys it costs: one
 * old 100 KiB entry is a better victim for a 1 KiB write than two old 1 KiB entries. */
static int window_better(const window_t *a, const window_t *b, tbl_policy_t policy, uint32_t now_tick)
{
	if (policy == TBL_POLICY_LRU || policy == TBL_POLICY_GDSF) {
		if (!a->live != !b->live) {
			return !a->live;
		}
		if (a->live && policy == TBL_POLICY_LRU) {
			unsigned ca = age_class(now_tick, a->top), cb = age_class(now_tick, b->top);
			if (ca != cb) {
				return ca > cb;
			}
		} else if (a->live) {
			/* (a->worth - a->kept) / a->total < (b->worth - b->kept) / b->total, without division */
			double ca = (a->worth - a->kept) * (double)b->total, cb = (b->worth - b->kept) * (double)a->total;

			if (ca != cb) {
				return ca < cb;
			}
		}
	}
	/* a->live / a->total < b->live / b->total, without division (both fit easily in 64 bits). */
	return a->live * b->total < b->live * a->total;
}

static inline uint64_t stripe_bit(uint32_t s)
{
	return (uint64_t)1 << s;
}

static void stripes_unlock(tbl_t *t, uint64_t locked)
{
	uint32_t s;

	for (s = 0; locked; s++, locked >>= 1) {
		if (locked & 1) {
			tbl_stripe_unlock(t, s);
		}
	}
}

/* Take (trylock: the allocator lock is held, so waiting could deadlock) the stripe of every entry in
 * the window, and check that each one is linked. A used block that is not linked is another writer's
 * fresh block (or a leak the GC will retire): such a window cannot be emptied, so give it up. That
 * writer may be filling the block's header while we read its hash (it holds no lock we hold): whatever
 * we read masks to a bucket in range, and the block is not found linked there. Returns the stripes
 * taken through *locked, 1 when the whole window can be evicted. */
static int window_lock(tbl_t *t, uint32_t held, const window_t *w, uint64_t *locked)
{
	tbl_alloc_t *a = &t->hdr->alloc;
	uint64_t off = w->first;

	*locked = 0;
	for (;;) {
		if (tbl_alloc_block_used(t->base, off)) {
			tbl_entry_t *e = tbl_block_entry(t, off);
			uint64_t b;
			uint32_t s;

			if (!e || e->retire_epoch != 0) {
				break;
			}
			b = tbl_bucket_of_hash(t, e->hash);
			s = tbl_stripe_of_bucket(t, b);
			if (s != held && !(*locked & stripe_bit(s))) {
				if (!tbl_stripe_trylock(t, s)) {
					break;
				}
				*locked |= stripe_bit(s);
			}
			if (!tbl_index_link_of(t, b, e)) {
				break;
			}
		}
		if (off == w->last) {
			return 1;
		}
		off = tbl_alloc_block_above(a, t->base, off);
	}
	stripes_unlock(t, *locked);
	*locked = 0;
	return 0;
}

/* Remove every entry of a locked window (allocator lock and the stripes held) and retire it. */
static void window_evict(tbl_t *t, uint32_t held, const window_t *w, uint32_t now_sec)
{
	tbl_header_t *h = t->hdr;
	uint64_t off = w->first, evicted = 0, expired = 0;

	for (;;) {
		/* The next block, read before this one is retired (retiring does not change the heap's shape,
		 * but keep the walk independent of what happens to the entry). */
		uint64_t next = off == w->last ? 0 : tbl_alloc_block_above(&h->alloc, t->base, off);

		tbl_entry_t *e = tbl_alloc_block_used(t->base, off) ? tbl_block_entry(t, off) : NULL;

		/* A split entry with several pieces in the window (or its own block too) goes at the first. */
		if (e && e->retire_epoch == 0) {
			uint64_t b = tbl_bucket_of_hash(t, e->hash);
			uint32_t s = tbl_stripe_of_bucket(t, b);
			_Atomic uint64_t *link = tbl_index_link_of(t, b, e);

			if (tbl_entry_expired(e, now_sec)) {
				expired++;
			} else {
				evicted++;
				h->evicted_bytes += e->bytes;
			}
			tbl_index_unlink(link, e);
			TBL_CRASH_POINT("evict.window.unlinked");
			tbl_count_sub(t, s, e);
			tbl_retire_locked(t, tbl_offset_of(t, e));
			TBL_CRASH_POINT("evict.window.retired");
		}
		if (!next) {
			break;
		}
		off = next;
	}
	(void)held;
	h->evict_runs++;
	if (evicted) {
		TBL_COUNT(t, evictions, evicted);
	}
	if (expired) {
		TBL_COUNT(t, expirations, expired);
	}
}

/* Keep the moving average of the age at which entries are evicted (allocator lock held), which places
 * new entries 3/4 of that age down the LRU order (tbl_usage_new): memcached's segmented LRU and the
 * midpoint insertion of database buffer pools do the same, so that keys written once and never read
 * again (most of a Zipf tail) leave before keys that are read. */
static void lru_note_age(tbl_header_t *h, uint32_t now_tick, uint32_t newest)
{
	uint32_t age = tbl_tick_before(newest, now_tick) ? now_tick - newest : 0;
	uint32_t avg = TBL_LOAD_RELAXED(&h->evict_age);   /* ticks, 8 fractional bits */

	age = age < (1u << 23) ? age << 8 : UINT32_MAX >> 1;
	TBL_STORE_RELAXED(&h->evict_age, avg - avg / 8u + age / 8u);
}

static uint64_t next_random(tbl_t *t)
{
	uint64_t x = t->rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	t->rng = x;
	return x;
}

/* Sample up to `max` live entries from random buckets (inside a read section). */
static unsigned sample_seeds(tbl_t *t, uint64_t *seeds, unsigned max)
{
	uint64_t walk = 0;
	unsigned probes, n = 0;

	for (probes = 0; n < max && probes < TBL_EVICT_PROBES + t->hdr->nbuckets; probes++) {
		/* Random buckets first; in a sparse table they may all be empty, so then walk on linearly from
		 * the last one until something turns up (bounded by one pass over the index). */
		uint64_t b = probes < TBL_EVICT_PROBES ? (walk = next_random(t)) & t->bucket_mask
		                                       : ++walk & t->bucket_mask;
		uint64_t off = atomic_load_explicit(&t->buckets[b], memory_order_acquire);
		unsigned depth;

		for (depth = 0; off && depth < TBL_EVICT_CHAIN_LOOK && n < max; depth++) {
			seeds[n++] = off;
			off = atomic_load_explicit(&tbl_entry_at(t, off)->next, memory_order_acquire);
		}
	}
	return n;
}

/* Make room for `size` bytes by evicting one window: sample seeds, grow a window around each, evict
 * the best one that can be locked, reclaim and allocate, all under one hold of the allocator lock so
 * that no other writer takes the space in between. */
tbl_evict_result_t tbl_evict_window(tbl_t *t, uint32_t held, uint64_t size, tbl_now_t now, uint64_t *off)
{
	tbl_header_t *h = t->hdr;
	tbl_policy_t policy = (tbl_policy_t)h->policy;
	int lru = policy == TBL_POLICY_LRU, gdsf = policy == TBL_POLICY_GDSF;
	uint64_t need = tbl_alloc_need(size), locked, stop = 0;
	uint64_t seeds[TBL_EVICT_SEEDS + TBL_EVICT_FREE_SEEDS], targets[TBL_MOVE_TARGETS];
	window_t cand[TBL_EVICT_SEEDS + TBL_EVICT_FREE_SEEDS + 1 + TBL_GDSF_WINDOWS];
	unsigned char order[TBL_EVICT_SEEDS + TBL_EVICT_FREE_SEEDS + 1 + TBL_GDSF_WINDOWS];
	unsigned nseeds, nentry, ntargets = 0, ncand = 0, nbuilt = 0, i, j, pass;
	tbl_evict_result_t result = TBL_EV_NONE;
	uint32_t floor = 0;      /* gdsf: the lowest rank among the candidates' live entries */
	int floored = 0;

	*off = 0;
	/* The read section keeps the seeds from being freed until the allocator lock does. */
	tbl_epoch_enter(t);
	nseeds = gdsf ? 0 : sample_seeds(t, seeds, TBL_EVICT_SEEDS);
	if (tbl_alloc_lock(t) != TBL_OK) {
		tbl_epoch_exit(t);
		return TBL_EV_NONE;   /* an unusable allocator lock: never evict or allocate unlocked */
	}
	tbl_epoch_exit(t);   /* now, so this writer's own slot does not hold back what it evicts */
	/* The largest free fragments too: a window around one costs less, and uses space that would
	 * otherwise stay free but too small. */
	nentry = nseeds;
	nseeds += tbl_alloc_free_sample(&h->alloc, seeds + nseeds, TBL_EVICT_FREE_SEEDS);
	if (gdsf) {
		ntargets = tbl_alloc_free_sample(&h->alloc, targets, TBL_MOVE_TARGETS);
	}
	/* gdsf takes twice the room the write needs: what is left stays free for the next writes and for
	 * the entries it moves out of the next windows (tbl_gdsf_plan). Where no run that long lies between
	 * retired or held blocks, it looks again for one just long enough. */
	for (pass = gdsf ? 0 : 1; pass < 2 && nbuilt == 0; pass++) {
		uint64_t span = pass == 0 ? 2 * need : need;

		for (i = 0; i < nseeds; i++) {
			if (tbl_window_grow(t, seeds[i], span, now.sec, lru || gdsf, i >= nentry, &cand[nbuilt])) {
				nbuilt++;
			}
		}
		if (gdsf) {
			/* The block at the hand, grown both ways: what the sweep left just behind it (the rest of
			 * the last run it freed) joins a window. */
			if (tbl_window_grow(t, tbl_alloc_hand(&h->alloc), span, now.sec, 1, 0, &cand[nbuilt])) {
				nbuilt++;
			}
			nbuilt += tbl_gdsf_sweep(t, span, now.sec, cand + nbuilt, TBL_GDSF_WINDOWS, &stop);
		}
	}
	/* Best first (sorting their places); seeds that grew into the same run are kept once. */
	for (i = 0; i < nbuilt; i++) {
		window_t *w = &cand[i];

		for (j = 0; j < ncand && !(cand[order[j]].first == w->first && cand[order[j]].last == w->last); j++) {
		}
		if (j < ncand) {
			continue;
		}
		if (gdsf) {
			tbl_gdsf_plan(t, w, targets, ntargets);
			if (w->live && (!floored || tbl_tick_before(w->low, floor))) {
				floor = w->low;
				floored = 1;
			}
		}
		for (j = ncand++; j > 0 && window_better(w, &cand[order[j - 1]], policy, now.tick); j--) {
			order[j] = order[j - 1];
		}
		order[j] = (unsigned char)i;
	}
	for (i = 0; i < ncand; i++) {
		const window_t *w = &cand[order[i]];

		if (!window_lock(t, held, w, &locked)) {
			result = TBL_EV_BUSY;
			continue;
		}
		if (w->sweep) {
			tbl_gdsf_pass(t, w, now.sec);
		}
		for (j = 0; j < w->nkeep; j++) {
			tbl_gdsf_move(t, tbl_entry_at(t, w->keep[j]), w->to[j]);
		}
		window_evict(t, held, w, now.sec);
		if (lru && w->live) {
			lru_note_age(h, now.tick, w->top);
		}
		if (gdsf && floored) {
			tbl_gdsf_note_evicted(h, floor);
		}
		stripes_unlock(t, locked);
		TBL_CRASH_POINT("evict.window.evicted");
		tbl_reclaim_locked(t, 0);
		*off = tbl_entry_block(t, tbl_alloc(&h->alloc, t->base, size));
		result = TBL_EV_DONE;
		break;
	}
	if (gdsf && result != TBL_EV_DONE && stop) {
		/* Nothing here could be evicted (barriers, busy stripes): the next look starts further on. */
		tbl_alloc_set_hand(&h->alloc, stop);
	}
	tbl_alloc_unlock(t);
	return result;
}
