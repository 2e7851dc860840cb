/*
 * expire.c - removing expired entries.
 *
 * An entry is live while expire == 0 || now < expire; every read checks, so an expired entry is
 * invisible at once, and removing it is only about memory and counts. Three things remove them, all
 * through tbl_expire_stripe_locked (one stripe, its lock held: unlink + uncount + retire, entry.c):
 *   - tbl_sweep_step: writers sweep a few buckets every so many stores, from a shared cursor, looking
 *     without a lock first and trylocking only a stripe where something expired;
 *   - tbl_expire_due: count(), memory() and stats() first expire the cells whose earliest-expiry hint
 *     (nscount[s][n].min_expire, a lower bound) has passed, so they never count an expired entry and
 *     stay O(stripes) when nothing has;
 *   - tbl_expire_for_room: a write that found no free block (room.c) expires what is due in every stripe
 *     it can take before anything live is evicted.
 * Nothing here runs unless some entry was ever stored with an expiry (has_ttl). Other stripes than the
 * caller's own are only trylocked where the caller holds one (lock order: core/DESIGN.md).
 */
#include "crash.h"
#include "entry.h"
#include "epoch.h"
#include "expire.h"
#include "index.h"
#include "sync.h"

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
