/*
 * evict.c - making room when the heap is full, and reclaiming expired entries.
 *
 * When an allocation fails, the writer (holding its own stripe lock) tries, in order:
 *   1. reclamation of retired blocks no reader can still see;
 *   2. removal of expired entries, in the stripes whose earliest-expiry hint has passed;
 *   3. unless the policy is noeviction, eviction of ONE window (below), which reclaims and allocates
 *      in the same hold of the allocator lock;
 *   4. when the window's blocks (or anything else retired) still wait for readers, a short wait (at
 *      most TBL_ROOM_WAIT_MS, with one check for dead readers) instead of evicting more; no wait at
 *      all when the oldest pin is the writer's own (tbl_pin), which only its request's end releases.
 * A full table therefore costs a failing set() a bounded time and never wipes anything wholesale.
 *
 * WINDOWS. A write of S bytes needs one free block of need = S + header bytes. Evicting single sampled
 * entries until one happens to leave such a block behind (what this file used to do) evicts thousands
 * of entries for one large value. Instead the victim is a window: a run of neighbouring heap blocks,
 * free ones, expired entries and live entries, that spans at least `need` bytes, so that retiring its
 * live entries and reclaiming them coalesces the run into one free block that fits. Candidates grow
 * around TBL_EVICT_SEEDS entries sampled from random buckets (as Redis samples keys) and around the
 * TBL_EVICT_FREE_SEEDS largest free fragments (downwards only, see window_grow), one neighbour at a
 * time, free/expired first, then (lru) the one read longer ago. They are ranked:
 *   lru     by the latest read among the window's live entries, oldest first in doubling age classes
 *           (a window whose every entry is cold beats one holding a single hot entry), then as random;
 *   random  by the live entries it evicts per byte it frees (what it frees beyond the need stays
 *           free for the next writes, so keys lost, not bytes, are the price).
 * Under lru a new entry starts 3/4 of the eviction age down the LRU order (tbl_lru_insert_tick), so
 * keys written and never read go before keys read since.
 * Invariants (core/DESIGN.md, "TTL and eviction"):
 *   - a window stops growing as soon as it spans need bytes, so the bytes it evicts are less than
 *     need + its last block: making room for S bytes evicts at most need + one entry (< 2*S + one
 *     entry once S counts the block the write takes);
 *   - one write evicts at most one window while readers hold what it retired (it waits for them),
 *     and at most TBL_EVICT_MAX_WINDOWS in all;
 *   - a window never crosses a retired block (it cannot be freed now) and is evicted only when every
 *     used block in it is a linked entry whose stripe this writer holds or could trylock: a fresh
 *     block of another writer is never touched;
 *   - choosing, evicting, reclaiming and allocating happen in one hold of the allocator lock, so no
 *     other writer takes the run in between. Other stripes are only ever trylocked (the allocator lock
 *     is held, and lock order puts stripes first: waiting could deadlock, trying cannot).
 * Evicted entries are retired like any other; the reader protocol (epoch.h) is never bypassed. Every
 * step is crash-safe the way a delete is: an entry unlinked but not yet retired is a leak the GC
 * retires; the heap's shape changes only inside tbl_free/tbl_alloc.
 */
#include <sched.h>
#include <string.h>
#include "crash.h"
#include "entry.h"
#include "epoch.h"
#include "evict.h"
#include "index.h"
#include "split.h"
#include "sync.h"

#define TBL_EVICT_SEEDS        8u     /* sampled entries a candidate window grows from */
#define TBL_EVICT_FREE_SEEDS   4u     /* and the largest free blocks */
#define TBL_EVICT_PROBES       64u    /* random buckets looked at per sample, at most */
#define TBL_EVICT_CHAIN_LOOK   4u     /* entries taken per sampled chain */
#define TBL_EVICT_MAX_WINDOWS  16u    /* windows one write may evict, in all: beyond the first, each only
                                       * replaces room another writer took (see tbl_alloc_entry) */
#define TBL_EVICT_RESAMPLES    8u     /* fresh samples before a write that found no window fails */
#define TBL_ROOM_WAIT_MS       200u   /* longest a writer waits for pinned blocks */

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
	for (i = 0, n = tbl_ns_count_created(t); i < n; i++) {
		if (cell_due(t, stripe, i, now_sec)) {
			return 1;
		}
	}
	return 0;
}

void tbl_expire_stripe_locked(tbl_t *t, uint32_t stripe, int ns, uint32_t now_sec)
{
	tbl_header_t *h = t->hdr;
	unsigned i, n = tbl_ns_count_created(t);
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
static int expire_for_room(tbl_t *t, uint32_t held, uint32_t now_sec)
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
	uint32_t newest;        /* the latest read tick among those entries (when live != 0) */
} window_t;

/* The entry a used block stands for in a window: itself, or for a piece of a split entry (split.c) the
 * entry it belongs to, whose eviction frees it. NULL for a piece that has no owner yet. */
static tbl_entry_t *block_entry(tbl_t *t, uint64_t off)
{
	tbl_entry_t *e = tbl_entry_at(t, off);

	/* Non-zero exactly for retired blocks: tbl_alloc_entry clears it under the lock it is set under. A
	 * retired block is itself, whatever its type says. */
	if (TBL_UNLIKELY(e->type == TBL_T_PIECE) && e->retire_epoch == 0) {
		return tbl_piece_owner(t, e);
	}
	return e;
}

static blk_kind_t classify(tbl_t *t, uint64_t off, uint32_t now_sec, uint32_t *atime)
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
	*atime = TBL_LOAD_RELAXED(&e->atime);
	return BK_LIVE;
}

static void window_take(window_t *w, uint64_t size, blk_kind_t kind, uint32_t atime)
{
	w->total += size;
	if (kind == BK_LIVE) {
		if (!w->live || tbl_tick_before(w->newest, atime)) {
			w->newest = atime;
		}
		w->live++;
	}
}

/* Grow a window from the block at `seed` until it spans `need` bytes, one neighbour at a time: free and
 * expired neighbours first, then (lru) the one read longer ago, else the smaller. Every step adds one
 * block to a run still short of `need`, so the run ends up smaller than need + its last block: the
 * price is at most need + one entry. 0 when barriers or the heap's ends stop it short. `down`: grow
 * towards lower addresses only (free seeds, below). */
static int window_grow(tbl_t *t, uint64_t seed, uint64_t need, uint32_t now_sec, int lru, int down,
                       window_t *w)
{
	tbl_alloc_t *a = &t->hdr->alloc;
	uint32_t at = 0;
	blk_kind_t kind = classify(t, seed, now_sec, &at);

	if (kind == BK_BARRIER) {
		return 0;
	}
	memset(w, 0, sizeof(*w));
	w->first = w->last = seed;
	window_take(w, tbl_alloc_block_size(t->base, seed), kind, at);
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
		} else if (lru && alo != ahi) {
			take_lo = tbl_tick_before(alo, ahi);
		} else {
			take_lo = tbl_alloc_block_size(t->base, lo) <= tbl_alloc_block_size(t->base, hi);
		}
		if (take_lo) {
			w->first = lo;
			window_take(w, tbl_alloc_block_size(t->base, lo), klo, alo);
		} else {
			w->last = hi;
			window_take(w, tbl_alloc_block_size(t->base, hi), khi, ahi);
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

/* Whether window a is the better victim: lru, the one whose most recently read entry was read longest
 * ago (a window of free space and expired entries beats all; ages are compared by class); then, and for
 * random, the one that evicts fewer entries per byte it frees. What a window frees beyond the write's
 * need stays free for the next writes, so the real price of a window is the keys it costs: one old
 * 100 KiB entry is a better victim for a 1 KiB write than two old 1 KiB entries. */
static int window_better(const window_t *a, const window_t *b, int lru, uint32_t now_tick)
{
	if (lru) {
		if (!a->live != !b->live) {
			return !a->live;
		}
		if (a->live) {
			unsigned ca = age_class(now_tick, a->newest), cb = age_class(now_tick, b->newest);
			if (ca != cb) {
				return ca > cb;
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
 * new entries 3/4 of that age down the LRU order (tbl_lru_insert_tick): memcached's segmented LRU and the
 * midpoint insertion of database buffer pools do the same, so that keys written once and never read
 * again (most of a Zipf tail) leave before keys that are read. */
static void lru_note_age(tbl_header_t *h, uint32_t now_tick, uint32_t newest)
{
	uint32_t age = tbl_tick_before(newest, now_tick) ? now_tick - newest : 0;
	uint32_t avg = TBL_LOAD_RELAXED(&h->evict_age);   /* ticks, 8 fractional bits */

	age = age < (1u << 23) ? age << 8 : UINT32_MAX >> 1;
	TBL_STORE_RELAXED(&h->evict_age, avg - avg / 8u + age / 8u);
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

/* A block just allocated (allocator lock held): not retired (classify() relies on it), and held by
 * nobody. Only then is the allocator's fresh mark cleared: a writer killed before that leaves a block the
 * GC knows was never initialised (its old bytes could hold any hold count, which would keep it on the
 * held list forever); one killed after leaves an entry whose fields the GC and reclamation can read. */
static uint64_t entry_block(tbl_t *t, uint64_t off)
{
	if (off) {
		tbl_entry_t *e = tbl_entry_at(t, off);

		TBL_CRASH_POINT("evict.block.allocated");
		e->retire_epoch = 0;
		atomic_store_explicit(&e->holds, 0, memory_order_relaxed);
		TBL_CRASH_POINT("evict.block.cleared");
		atomic_signal_fence(memory_order_seq_cst);
		tbl_alloc_settle(t->base, off);
	}
	return off;
}

uint64_t tbl_alloc_entry_from_free(tbl_t *t, uint64_t min, uint64_t max)
{
	tbl_alloc_t *a = &t->hdr->alloc;
	uint64_t largest, off = 0;

	if (tbl_alloc_lock(t) != TBL_OK) {
		return 0;
	}
	largest = tbl_alloc_largest_free(a, t->base);
	if (largest >= min) {
		off = entry_block(t, tbl_alloc(a, t->base, largest < max ? largest : max));
	}
	tbl_alloc_unlock(t);
	return off;
}

typedef enum evict_result {
	EV_NONE,   /* nothing to evict: no window of the size exists between retired blocks */
	EV_BUSY,   /* every candidate window had an entry in a stripe another writer holds */
	EV_DONE    /* one window evicted (and, if readers let it be freed, *off allocated) */
} evict_result_t;

/* Make room for `size` bytes by evicting one window: sample seeds, grow a window around each, evict
 * the best one that can be locked, reclaim and allocate, all under one hold of the allocator lock so
 * that no other writer takes the space in between. */
static evict_result_t evict_window(tbl_t *t, uint32_t held, uint64_t size, tbl_now_t now, uint64_t *off)
{
	tbl_header_t *h = t->hdr;
	uint64_t seeds[TBL_EVICT_SEEDS + TBL_EVICT_FREE_SEEDS], need = tbl_alloc_need(size), locked;
	window_t cand[TBL_EVICT_SEEDS + TBL_EVICT_FREE_SEEDS], tmp;
	unsigned nseeds, nentry, ncand = 0, i, j;
	int lru = h->policy == TBL_POLICY_LRU;
	evict_result_t result = EV_NONE;

	*off = 0;
	/* The read section keeps the seeds from being freed until the allocator lock does. */
	tbl_epoch_enter(t);
	nseeds = sample_seeds(t, seeds, TBL_EVICT_SEEDS);
	if (tbl_alloc_lock(t) != TBL_OK) {
		tbl_epoch_exit(t);
		return EV_NONE;   /* an unusable allocator lock: never evict or allocate unlocked */
	}
	tbl_epoch_exit(t);   /* now, so this writer's own slot does not hold back what it evicts */
	/* The largest free fragments too: a window around one costs less, and uses space that would
	 * otherwise stay free but too small. */
	nentry = nseeds;
	nseeds += tbl_alloc_free_sample(&h->alloc, seeds + nseeds, TBL_EVICT_FREE_SEEDS);
	for (i = 0; i < nseeds; i++) {
		if (!window_grow(t, seeds[i], need, now.sec, lru, i >= nentry, &tmp)) {
			continue;
		}
		/* Insertion sort, best first; seeds that grew into the same run are kept once. */
		for (j = 0; j < ncand && !(cand[j].first == tmp.first && cand[j].last == tmp.last); j++) {
		}
		if (j < ncand) {
			continue;
		}
		for (j = ncand++; j > 0 && window_better(&tmp, &cand[j - 1], lru, now.tick); j--) {
			cand[j] = cand[j - 1];
		}
		cand[j] = tmp;
	}
	for (i = 0; i < ncand; i++) {
		if (!window_lock(t, held, &cand[i], &locked)) {
			result = EV_BUSY;
			continue;
		}
		window_evict(t, held, &cand[i], now.sec);
		if (lru && cand[i].live) {
			lru_note_age(h, now.tick, cand[i].newest);
		}
		stripes_unlock(t, locked);
		TBL_CRASH_POINT("evict.window.evicted");
		tbl_reclaim_locked(t, 0);
		*off = entry_block(t, tbl_alloc(&h->alloc, t->base, size));
		result = EV_DONE;
		break;
	}
	tbl_alloc_unlock(t);
	return result;
}

static int can_still_evict(const tbl_header_t *h, unsigned windows)
{
	return h->policy != TBL_POLICY_NOEVICTION && windows < TBL_EVICT_MAX_WINDOWS;
}

uint64_t tbl_alloc_entry(tbl_t *t, uint32_t held, uint64_t size, tbl_now_t now)
{
	tbl_header_t *h = t->hdr;
	uint64_t deadline = 0;
	int expired_tried = 0, reaped = 0, reap_now = 0, waited_out = 0, holders_checked = 0;
	unsigned windows = 0, unlucky = 0;

	if (!t->rng) {
		t->rng = ((uint64_t)t->pid << 32) ^ now.tick ^ 0x9E3779B97F4A7C15ull;
	}
	for (;;) {
		uint64_t off, pending, ms, min;
		/* Once we are waiting, check (once per call) whether the readers pinning the retired blocks
		 * are dead processes. */
		int reap = (deadline != 0 || reap_now) && !reaped;

		reaped |= reap;
		if (tbl_alloc_lock(t) != TBL_OK) {
			return 0;   /* an unusable allocator lock: no room (never allocate unlocked) */
		}
		off = tbl_alloc(&h->alloc, t->base, size);
		if (!off && (h->retire_head || h->held_head)) {   /* held_head: epoch.c, zero-copy holds */
			tbl_reclaim_locked(t, reap);
			off = tbl_alloc(&h->alloc, t->base, size);
		}
		entry_block(t, off);
		pending = h->retired_bytes;
		tbl_alloc_unlock(t);
		if (off) {
			return off;
		}
		if (!expired_tried) {
			expired_tried = 1;
			if (expire_for_room(t, held, now.sec)) {
				continue;
			}
		}
		/* Evict one window. Once one is evicted, its blocks only wait for readers to leave: wait for
		 * them rather than evict a second window (that is what keeps the price of a write bounded).
		 * Nor evict at all while what already waits for readers could cover the request (with slack
		 * for fragmentation): those readers leave, or are found dead and reaped, and a live entry
		 * evicted instead would be lost for nothing. Once waiting for them has run out, evict after
		 * all (at most TBL_EVICT_MAX_WINDOWS in all) rather than fail the write. */
		if (h->policy != TBL_POLICY_NOEVICTION && (windows == 0 || pending == 0 || waited_out)
		    && (pending < 2 * size || waited_out) && windows < TBL_EVICT_MAX_WINDOWS) {
			evict_result_t r = evict_window(t, held, size, now, &off);

			if (off) {
				return off;
			}
			if (r == EV_DONE) {
				windows++;
				continue;
			}
			if (r == EV_NONE && pending == 0) {
				/* No sampled window could grow to the size: barriers (retired or held blocks) hemmed
				 * in every seed. Held ones may be held by processes that died: release their holds
				 * (once per write), which makes those entries evictable. Other seeds may do better;
				 * after a few samples, it cannot fit. */
				if (!holders_checked) {
					holders_checked = 1;
					if (tbl_holders_check(t, 1) > 0) {
						continue;
					}
				}
				if (++unlucky < TBL_EVICT_RESAMPLES) {
					continue;
				}
				return 0;
			}
		} else if (pending == 0) {
			return 0;       /* noeviction, and nothing will be freed */
		}
		/* Blocks are pinned by readers (or a victim's stripe was busy). Readers leave within
		 * microseconds unless descheduled, so wait, for a bounded time; but not for a reader that
		 * already made a writer wait in vain (a long scan, a stuck process): fail at once instead. */
		min = tbl_epoch_min_active(t);
		ms = tbl_clock_monotonic_ms();
		if (min != UINT64_MAX && min == atomic_load(&h->stuck_epoch)) {
			if (reaped) {
				if (!waited_out && can_still_evict(h, windows)) {
					waited_out = 1;
					continue;
				}
				return 0;
			}
			/* Known to be stuck: do not wait, but do check once whether that reader has died. */
			reap_now = 1;
			continue;
		}
		if (!deadline) {
			deadline = ms + TBL_ROOM_WAIT_MS;
		} else if (ms >= deadline) {
			atomic_store(&h->stuck_epoch, min);
			if (!waited_out && can_still_evict(h, windows)) {
				waited_out = 1;
				continue;
			}
			return 0;
		}
		sched_yield();
	}
}
