/*
 * evict.c - eviction: choosing one window of neighbouring blocks and evicting it, under every policy;
 * and (until they get a file of their own) the TTL sweeps.
 *
 * Called by room.c (tbl_room_alloc) when a write found no free block, after reclamation and expiry did
 * not help: tbl_evict_window evicts ONE window, reclaims and allocates in the same hold of the allocator
 * lock. Whether to call it again, wait for readers or give up is room.c's decision, not this file's.
 *
 * WINDOWS. A write of S bytes needs one free block of need = S + header bytes. Evicting single sampled
 * entries until one happens to leave such a block behind (what this file used to do) evicts thousands
 * of entries for one large value. Instead the victim is a window: a run of neighbouring heap blocks,
 * free ones, expired entries and live entries, that spans at least `need` bytes, so that retiring its
 * live entries and reclaiming them coalesces the run into one free block that fits. Candidates grow
 * around TBL_EVICT_SEEDS entries sampled from random buckets (as Redis samples keys) and around the
 * TBL_EVICT_FREE_SEEDS largest free fragments (downwards only, see window_grow), one neighbour at a
 * time, free/expired first, then (lru, gdsf) the one ranked lower. They are ranked:
 *   gdsf    by what their live entries are worth per byte (GreedyDual-Size-Frequency: reads per byte,
 *           stamped with an inflation clock that evictions move, no wall clock), less what the window
 *           keeps by moving its most valuable entries out (window_plan). Its candidates come from a
 *           sweep over the heap (sweep_windows), not from random buckets, so the same trace evicts the
 *           same entries on every run. See "gdsf" below and core/DESIGN.md;
 *   lru     by the latest read among the window's live entries, oldest first in doubling age classes
 *           (a window whose every entry is cold beats one holding a single hot entry), then as random;
 *   random  by the live entries it evicts per byte it frees (what it frees beyond the need stays
 *           free for the next writes, so keys lost, not bytes, are the price).
 * Under lru a new entry starts 3/4 of the eviction age down the LRU order (tbl_usage_new), so keys
 * written and never read go before keys read since.
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
#include "index.h"
#include "sync.h"

#define TBL_EVICT_SEEDS        8u     /* sampled entries a candidate window grows from */
#define TBL_EVICT_FREE_SEEDS   4u     /* and the largest free blocks */
#define TBL_EVICT_PROBES       64u    /* random buckets looked at per sample, at most */
#define TBL_EVICT_CHAIN_LOOK   4u     /* entries taken per sampled chain */

/* gdsf */
#define TBL_GDSF_WINDOWS       32u    /* windows the sweep offers per eviction */
#define TBL_GDSF_HOPS          4096u  /* blocks one sweep looks at, at most */
#define TBL_GDSF_SCALE         (1u << 22)   /* one read of one byte, in units of the inflation clock */
#define TBL_GDSF_OLDEST        (1u << 30)   /* stamps further behind the clock count as this far */
#define TBL_MOVE_MAX           16u    /* entries one eviction may move out of its window */
#define TBL_MOVE_TARGETS       16u    /* free blocks (the largest) it plans to move them to */

_Static_assert(TBL_NSTRIPES <= 64, "window_lock keeps the stripes it holds in one 64-bit mask");

static uint64_t next_random(tbl_t *t)
{
	uint64_t x = t->rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	t->rng = x;
	return x;
}

/* ---- expiry ------------------------------------------------------------------------------------------ */

static int cell_due(tbl_t *t, uint32_t stripe, uint32_t ns, uint32_t now_sec)
{
	uint32_t min = TBL_LOAD_RELAXED(&tbl_nscount(t, stripe, ns)->min_expire);
	return min != 0 && min < now_sec;   /* as tbl_entry_expired() */
}

static int stripe_due(tbl_t *t, uint32_t stripe, int ns, uint32_t now_sec)
{
	unsigned i, n;

	if (ns >= 0) {
		return cell_due(t, stripe, (uint32_t)ns, now_sec);
	}
	for (i = 0, n = tbl_ns_created(t); i < n; i++) {
		if (cell_due(t, stripe, i, now_sec)) {
			return 1;
		}
	}
	return 0;
}

void tbl_expire_stripe_locked(tbl_t *t, uint32_t stripe, int ns, uint32_t now_sec)
{
	tbl_header_t *h = t->hdr;
	unsigned i, n = tbl_ns_created(t);
	uint64_t b, removed = 0;

	for (i = 0; i < n; i++) {
		if (ns < 0 || (int)i == ns) {
			TBL_STORE_RELAXED(&tbl_nscount(t, stripe, i)->min_expire, 0);
		}
	}
	for (b = stripe; b < h->nbuckets; b += h->nstripes) {
		_Atomic uint64_t *link = &t->buckets[b];
		uint64_t off;

		while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
			tbl_entry_t *e = tbl_entry_at(t, off);
			uint32_t exp = TBL_LOAD_RELAXED(&e->expire);

			if (ns >= 0 && e->ns != (uint16_t)ns) {
				link = &e->next;
				continue;
			}
			if (exp && exp < now_sec) {
				tbl_remove_locked(t, stripe, link, e);
				removed++;
				continue;
			}
			if (exp) {
				tbl_nscount_t *c = tbl_nscount(t, stripe, e->ns);
				uint32_t min = TBL_LOAD_RELAXED(&c->min_expire);
				if (min == 0 || exp < min) {
					TBL_STORE_RELAXED(&c->min_expire, exp);
				}
			}
			link = &e->next;
		}
	}
	if (removed && t->slot) {
		TBL_COUNT(t, expirations, removed);
	}
}

void tbl_expire_due(tbl_t *t, int ns, uint32_t now_sec)
{
	uint32_t s;

	if (!TBL_LOAD_RELAXED(&t->hdr->has_ttl)) {
		return;
	}
	for (s = 0; s < t->hdr->nstripes; s++) {
		if (stripe_due(t, s, ns, now_sec) && tbl_stripe_lock(t, s) == TBL_OK) {
			tbl_expire_stripe_locked(t, s, ns, now_sec);
			tbl_stripe_unlock(t, s);
		}
	}
}

/* Under memory pressure: expire what is due in every stripe we can get (our own is already held).
 * Non-zero when some stripe was due: the caller tries to allocate again. (Not "when retired_blocks
 * changed": retiring reclaims every TBL_RECLAIM_EVERY retires, which can bring the count back to where
 * it was although everything expired was freed.) */
int tbl_expire_for_room(tbl_t *t, uint32_t held, uint32_t now_sec)
{
	uint32_t s;
	int any = 0;

	if (!TBL_LOAD_RELAXED(&t->hdr->has_ttl)) {
		return 0;
	}
	for (s = 0; s < t->hdr->nstripes; s++) {
		if (!stripe_due(t, s, -1, now_sec)) {
			continue;
		}
		if (s == held) {
			tbl_expire_stripe_locked(t, s, -1, now_sec);
		} else if (tbl_stripe_trylock(t, s)) {
			tbl_expire_stripe_locked(t, s, -1, now_sec);
			tbl_stripe_unlock(t, s);
		}
		any = 1;
	}
	return any;
}

void tbl_sweep_step(tbl_t *t, uint64_t n, uint32_t now_sec)
{
	tbl_header_t *h = t->hdr;
	uint64_t start, i;

	if (!TBL_LOAD_RELAXED(&h->has_ttl)) {
		return;
	}
	start = atomic_fetch_add_explicit(&h->sweep_cursor, n, memory_order_relaxed);
	for (i = 0; i < n; i++) {
		uint64_t b = (start + i) & t->bucket_mask, off;
		uint32_t s = tbl_stripe_of_bucket(t, b);
		_Atomic uint64_t *link;
		int due = 0;

		/* Look lock-free first; most buckets hold nothing expired and need no lock at all. */
		tbl_epoch_enter(t);
		for (off = atomic_load_explicit(&t->buckets[b], memory_order_acquire); off && !due;
		     off = atomic_load_explicit(&tbl_entry_at(t, off)->next, memory_order_acquire)) {
			due = tbl_entry_expired(tbl_entry_at(t, off), now_sec);
		}
		tbl_epoch_exit(t);
		if (!due || !tbl_stripe_trylock(t, s)) {
			continue;
		}
		link = &t->buckets[b];
		while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
			tbl_entry_t *e = tbl_entry_at(t, off);
			if (tbl_entry_expired(e, now_sec)) {
				tbl_remove_locked(t, s, link, e);
				TBL_COUNT(t, expirations, 1);
			} else {
				link = &e->next;
			}
		}
		tbl_stripe_unlock(t, s);
	}
}

/* ---- eviction: a run of neighbouring blocks ------------------------------------------------------- */

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
	uint32_t low;           /* and the lowest (gdsf: the clock rises to it when the window goes) */
	/* gdsf only: */
	uint32_t clock;         /* the inflation clock its entries were ranked against */
	uint32_t sweep;         /* found by the sweep (its place in it, from 1), 0 for a seed's window */
	double worth;           /* what its live entries are worth: the sum of max(0, rank - clock) * bytes,
	                         * about the reads they would still serve (rank - clock is reads per byte) */
	double kept;            /* the part of `worth` it keeps by moving entries out (window_plan) */
	unsigned nkeep;         /* its most valuable movable entries (window_take), most valuable first; */
	/* window_grow and sweep_windows clear the fields above, not these: */
	uint64_t keep[TBL_MOVE_MAX];         /* where they are, */
	double keep_worth[TBL_MOVE_MAX];     /* what each is worth */
	uint64_t to[TBL_MOVE_MAX];           /* and (window_plan) the free block outside it each moves to */
} window_t;

/* How a policy ranks one live entry (allocator lock held; `inflation` is gdsf's clock). Ranks compare
 * as ticks do (tbl_tick_before): the lower one goes first.
 *   lru   the tick of its last read;
 *   gdsf  the clock it was stamped with (now, when it has been read since the sweep last passed it: see
 *         gdsf_pass) plus (reads + 1)^2 * TBL_GDSF_SCALE / the bytes it takes. GreedyDual-Size-Frequency
 *         (with the square weighing frequency more): a small entry read often ranks highest, a large
 *         one never read lowest; evicting raises the clock to what went, so what stays unread falls
 *         behind. */
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
static tbl_entry_t *block_entry(tbl_t *t, uint64_t off)
{
	tbl_entry_t *e = tbl_entry_at(t, off);

	/* Non-zero exactly for retired blocks: tbl_entry_block clears it under the lock it is set under. A
	 * retired block is itself, whatever its type says. */
	if (TBL_UNLIKELY(e->type == TBL_T_PIECE) && e->retire_epoch == 0) {
		return tbl_piece_owner(t, e);
	}
	return e;
}

static blk_kind_t classify(tbl_t *t, uint64_t off, uint32_t now_sec, uint32_t *rank)
{
	tbl_entry_t *e;

	if (!tbl_alloc_block_used(t->base, off)) {
		return BK_FREE;
	}
	if (!(e = block_entry(t, off)) || e->retire_epoch != 0) {
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

/* Whether gdsf may move an entry out of a window rather than evict it (window_plan): not a zero-copy
 * image (its arrays point into its own bytes) nor a value in pieces or a piece. */
static int movable(const tbl_entry_t *e)
{
	return !tbl_entry_split(e) && e->type != TBL_T_IMAGE && e->type != TBL_T_PIECE;
}

/* Add the block at `off` (`size` bytes, of `kind`, ranked `rank` when live) to window `w`. */
static void window_take(tbl_t *t, window_t *w, uint64_t off, uint64_t size, blk_kind_t kind, uint32_t rank)
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
static int window_grow(tbl_t *t, uint64_t seed, uint64_t need, uint32_t now_sec, int ranked, int down,
                       window_t *w)
{
	tbl_alloc_t *a = &t->hdr->alloc;
	uint32_t at = 0;
	blk_kind_t kind = classify(t, seed, now_sec, &at);

	if (kind == BK_BARRIER) {
		return 0;
	}
	memset(w, 0, offsetof(window_t, keep));
	w->clock = TBL_LOAD_RELAXED(&t->hdr->inflation);
	w->first = w->last = seed;
	window_take(t, w, seed, tbl_alloc_block_size(t->base, seed), kind, at);
	while (w->total < need) {
		uint64_t lo = tbl_alloc_block_below(a, t->base, w->first);
		uint64_t hi = tbl_alloc_block_above(a, t->base, w->last);
		uint32_t alo = 0, ahi = 0;
		blk_kind_t klo = lo ? classify(t, lo, now_sec, &alo) : BK_BARRIER;
		/* A free seed grows downwards only. The fragment is most likely the rest of a block the
		 * allocator split for an earlier write, which took the top: the block above it is that write's
		 * entry. Growing upwards would evict it, leave the same fragment below, and repeat: lru would
		 * turn into "evict the newest". Downwards the fragment sweeps through older placements and
		 * stops at the heap's start or a retired block. */
		blk_kind_t khi = hi && !down ? classify(t, hi, now_sec, &ahi) : BK_BARRIER;
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
			window_take(t, w, lo, tbl_alloc_block_size(t->base, lo), klo, alo);
		} else {
			w->last = hi;
			window_take(t, w, hi, tbl_alloc_block_size(t->base, hi), khi, ahi);
		}
	}
	return 1;
}

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
			tbl_entry_t *e = block_entry(t, off);
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

		tbl_entry_t *e = tbl_alloc_block_used(t->base, off) ? block_entry(t, off) : NULL;

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

/* ---- gdsf: a sweep over the heap ------------------------------------------------------------------- */

/* gdsf takes its candidates from a sweep over the heap in address order, not from random buckets: the
 * windows that follow one another from the allocator's hand (tbl_alloc_hand), up to TBL_GDSF_WINDOWS
 * of them, and one grown both ways from the block at the hand (evict_window). Which entries are looked
 * at then depends on the order of writes alone, not on the segment's random hash key or on time: the
 * same trace evicts the same entries on every run. When a swept window is evicted the hand moves past
 * it, and the entries it passed on the way get their reads stamped (gdsf_pass), as CLOCK's hand clears
 * reference bits: an entry's "read since" bit says "since the hand last passed". Windows it did not
 * take stay ahead of the hand and are offered again, so the candidates are a pool that slides along
 * the heap. */

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
		blk_kind_t kind = classify(t, off, now_sec, &rank);

		window_take(t, w, off, tbl_alloc_block_size(t->base, off), kind, rank);
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
static unsigned sweep_windows(tbl_t *t, uint64_t need, uint32_t now_sec, window_t *out, unsigned max,
                              uint64_t *stop)
{
	uint64_t off = tbl_alloc_hand(&t->hdr->alloc), start = off;
	unsigned n = 0, hops = 0;
	int wrapped = 0, open = 0;

	while (n < max && hops++ < TBL_GDSF_HOPS) {
		window_t *w = &out[n];
		uint32_t rank = 0;
		blk_kind_t kind = classify(t, off, now_sec, &rank);
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
			window_take(t, w, off, tbl_alloc_block_size(t->base, off), kind, rank);
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
static void gdsf_pass(tbl_t *t, const window_t *w, uint32_t now_sec)
{
	tbl_alloc_t *a = &t->hdr->alloc;
	uint32_t clock = TBL_LOAD_RELAXED(&t->hdr->inflation) & ~TBL_GDSF_LOW;
	uint64_t off = tbl_alloc_hand(a);
	unsigned hops = 0;
	int wrapped = 0;

	while (off != w->first && hops++ < TBL_GDSF_HOPS) {
		uint32_t rank = 0;

		if (classify(t, off, now_sec, &rank) == BK_LIVE && !tbl_alloc_block_fresh(t->base, off)) {
			tbl_entry_t *e = block_entry(t, off);
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

/* ---- gdsf: moving what a window should keep ----------------------------------------------------------- */

/* A window is a run of neighbours, so besides the cheap entries it is chosen for it may hold valuable
 * ones. gdsf moves up to TBL_MOVE_MAX of those, the most valuable first, into free blocks outside the
 * window instead of evicting them: a copy, linked in place of the old entry under its stripe lock and
 * the old one retired, as a set() that replaces a value does. What a window costs is then what it
 * evicts. The room for moves is what earlier windows freed beyond their writes' need (gdsf frees twice
 * that, evict_window). */

/* Choose what `w` keeps (allocator lock held): of its most valuable movable entries (window_take), the
 * ones worth something, most valuable first, each into the first of `free` (free blocks, largest first)
 * that lies outside the window and still has room for it (its own header stays behind). Moving into the
 * largest blocks rather than the best fitting ones keeps more of the hit ratio (0.776 against 0.775 on
 * core/bench/eviction_replay): small holes are left for windows to merge. */
static void window_plan(tbl_t *t, window_t *w, const uint64_t *free, unsigned nfree)
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
		uint64_t need = tbl_alloc_need(tbl_entry_alloc_size(e->key_len, e->val_len));

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
 * while it is linked (usage, expire, a TBL_T_LONG's value and `updated`) change only under its stripe
 * lock or are advisory, so the copy is exact. */
static int entry_move(tbl_t *t, tbl_entry_t *e, uint64_t target)
{
	uint64_t size = tbl_entry_alloc_size(e->key_len, e->val_len), off, b;
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
	tbl_index_replace(t, link, e, n);
	TBL_CRASH_POINT("evict.move.linked");
	tbl_count_sub(t, s, e);
	tbl_count_add(t, s, n);
	tbl_retire_locked(t, tbl_offset_of(t, e));
	TBL_CRASH_POINT("evict.move.retired");
	t->hdr->evict_moves++;
	return 1;
}

/* After evicting a window (allocator lock held): the clock rises to the lowest rank among what went. */
static void gdsf_note_evicted(tbl_header_t *h, const window_t *w)
{
	uint32_t clock = TBL_LOAD_RELAXED(&h->inflation);

	if (w->live && tbl_tick_before(clock, w->low)) {
		TBL_STORE_RELAXED(&h->inflation, w->low);
	}
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
	 * the entries it moves out of the next windows (window_plan). Where no run that long lies between
	 * retired or held blocks, it looks again for one just long enough. */
	for (pass = gdsf ? 0 : 1; pass < 2 && nbuilt == 0; pass++) {
		uint64_t span = pass == 0 ? 2 * need : need;

		for (i = 0; i < nseeds; i++) {
			if (window_grow(t, seeds[i], span, now.sec, lru || gdsf, i >= nentry, &cand[nbuilt])) {
				nbuilt++;
			}
		}
		if (gdsf) {
			/* The block at the hand, grown both ways: what the sweep left just behind it (the rest of
			 * the last run it freed) joins a window. */
			if (window_grow(t, tbl_alloc_hand(&h->alloc), span, now.sec, 1, 0, &cand[nbuilt])) {
				nbuilt++;
			}
			nbuilt += sweep_windows(t, span, now.sec, cand + nbuilt, TBL_GDSF_WINDOWS, &stop);
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
			window_plan(t, w, targets, ntargets);
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
			gdsf_pass(t, w, now.sec);
		}
		for (j = 0; j < w->nkeep; j++) {
			entry_move(t, tbl_entry_at(t, w->keep[j]), w->to[j]);
		}
		window_evict(t, held, w, now.sec);
		if (lru && w->live) {
			lru_note_age(h, now.tick, w->top);
		}
		if (gdsf) {
			gdsf_note_evicted(h, w);
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
