/*
 * evict.c - making room when the heap is full, and reclaiming expired entries.
 *
 * When an allocation fails, the writer (holding its own stripe lock) tries, in order:
 *   1. reclamation of retired blocks no reader can still see;
 *   2. removal of expired entries, in the stripes whose earliest-expiry hint has passed;
 *   3. unless the policy is noeviction, eviction of one sampled entry, then back to 1;
 *   4. when enough is already retired but still pinned by readers, a short wait (at most
 *      TBL_ROOM_WAIT_MS, with one check for dead readers) instead of evicting more; no wait at all
 *      when the oldest pin is the writer's own (tbl_pin), which only its request's end releases.
 * A full table therefore costs a failing set() a bounded time and never wipes anything wholesale.
 *
 * Sampling (lru): look at up to TBL_EVICT_SAMPLES entries from random buckets and evict the one read
 * least recently (its atime tick, written by readers at most once per 100 ms), preferring expired
 * entries. No list is updated on reads. random: evict the first sampled entry. Another stripe is only
 * ever taken with trylock, so eviction cannot deadlock with a writer that holds that stripe.
 *
 * Evicted entries are retired like any other; the reader protocol (epoch.h) is never bypassed.
 */
#include <sched.h>
#include "epoch.h"
#include "evict.h"
#include "index.h"
#include "sync.h"
#include "write.h"

#define TBL_EVICT_SAMPLES      5u
#define TBL_EVICT_PROBES       64u    /* random buckets looked at per eviction, at most */
#define TBL_EVICT_CHAIN_LOOK   4u     /* entries looked at per sampled chain */
#define TBL_ROOM_WAIT_MS       200u   /* longest a writer waits for pinned blocks */

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
		if (stripe_due(t, s, ns, now_sec)) {
			tbl_stripe_lock(t, s);
			tbl_expire_stripe_locked(t, s, ns, now_sec);
			tbl_stripe_unlock(t, s);
		}
	}
}

/* Under memory pressure: expire what is due in every stripe we can get (our own is already held). */
static int expire_for_room(tbl_t *t, uint32_t held, uint32_t now_sec)
{
	uint64_t before = t->hdr->retired_blocks;
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
	return any && t->hdr->retired_blocks != before;
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

/* ---- eviction ---------------------------------------------------------------------------------------- */

/* 1: evicted one entry; 0: nothing to evict; -1: the chosen victim's stripe was busy. */
static int evict_one(tbl_t *t, uint32_t held, uint32_t now_sec)
{
	tbl_entry_t *best = NULL;
	uint64_t best_bucket = 0, walk = 0;
	unsigned probes, seen = 0;
	_Atomic uint64_t *link;
	uint32_t s;
	int result;

	/* Stay inside a read section until the victim is unlinked, so it cannot be freed and reused
	 * between choosing it and taking its stripe. */
	tbl_epoch_enter(t);
	for (probes = 0; seen < TBL_EVICT_SAMPLES && probes < TBL_EVICT_PROBES + t->hdr->nbuckets; probes++) {
		/* Random buckets first; in a sparse table they may all be empty, so then walk on linearly from
		 * the last one until something turns up (bounded by one pass over the index). */
		uint64_t b = probes < TBL_EVICT_PROBES ? (walk = next_random(t)) & t->bucket_mask
		                                       : ++walk & t->bucket_mask;
		uint64_t off = atomic_load_explicit(&t->buckets[b], memory_order_acquire);
		unsigned depth;

		for (depth = 0; off && depth < TBL_EVICT_CHAIN_LOOK; depth++) {
			tbl_entry_t *e = tbl_entry_at(t, off);
			int better = !best
			             || (tbl_entry_expired(e, now_sec) && !tbl_entry_expired(best, now_sec))
			             || (t->hdr->policy == TBL_POLICY_LRU
			                 && tbl_tick_before(TBL_LOAD_RELAXED(&e->atime), TBL_LOAD_RELAXED(&best->atime)));
			if (better) {
				best = e;
				best_bucket = b;
			}
			seen++;
			off = atomic_load_explicit(&e->next, memory_order_acquire);
		}
	}
	if (!best) {
		tbl_epoch_exit(t);
		return 0;
	}
	s = tbl_stripe_of_bucket(t, best_bucket);
	if (s != held && !tbl_stripe_trylock(t, s)) {
		tbl_epoch_exit(t);
		return -1;
	}
	link = tbl_index_link_of(t, best_bucket, best);
	result = link != NULL ? 1 : -1;
	if (link) {
		if (tbl_entry_expired(best, now_sec)) {
			TBL_COUNT(t, expirations, 1);
		} else {
			TBL_COUNT(t, evictions, 1);
		}
		tbl_remove_locked(t, s, link, best);
	}
	if (s != held) {
		tbl_stripe_unlock(t, s);
	}
	tbl_epoch_exit(t);
	return result;
}

uint64_t tbl_alloc_entry(tbl_t *t, uint32_t held, uint64_t size, tbl_now_t now)
{
	tbl_header_t *h = t->hdr;
	uint64_t deadline = 0;
	int expired_tried = 0, reaped = 0, reap_now = 0;

	if (!t->rng) {
		t->rng = ((uint64_t)t->pid << 32) ^ now.tick ^ 0x9E3779B97F4A7C15ull;
	}
	for (;;) {
		uint64_t off, pending, ms, min;
		/* Once we are waiting, check (once per call) whether the readers pinning the retired blocks
		 * are dead processes. */
		int reap = (deadline != 0 || reap_now) && !reaped;

		reaped |= reap;
		tbl_alloc_lock(t);
		off = tbl_alloc(&h->alloc, t->base, size);
		if (!off && (h->retire_head || h->held_head)) {   /* held_head: epoch.c, zero-copy holds */
			tbl_reclaim_locked(t, reap);
			off = tbl_alloc(&h->alloc, t->base, size);
		}
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
		/* Evict while what is already waiting for readers to leave could not cover the request (with
		 * slack for fragmentation); beyond that, evicting more would only empty the table faster. */
		if (h->policy != TBL_POLICY_NOEVICTION && pending < 2 * size) {
			int evicted = evict_one(t, held, now.sec);
			if (evicted > 0) {
				continue;
			}
			if (evicted == 0 && pending == 0) {
				return 0;   /* nothing left to evict and nothing pending: it cannot fit */
			}
		} else if (pending == 0) {
			return 0;       /* noeviction, and nothing will be freed */
		}
		/* Blocks are pinned by readers (or a victim's stripe was busy). Readers leave within
		 * microseconds unless descheduled, so wait, for a bounded time; but not for a reader that
		 * already made a writer wait in vain (a long scan, a stuck process): fail at once instead. */
		min = tbl_epoch_min_active(t);
		if (t->pinned && min == atomic_load(&t->slot->epoch)) {
			return 0;   /* this process's own pin holds the blocks back: waiting cannot free them */
		}
		ms = tbl_clock_monotonic_ms();
		if (min != UINT64_MAX && min == atomic_load(&h->stuck_epoch)) {
			if (reaped) {
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
			return 0;
		}
		sched_yield();
	}
}
