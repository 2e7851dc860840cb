/*
 * sync.c - lock wrappers (see sync.h for the rules they enforce).
 *
 * Every wrapper blocks signals, acquires, and on TBL_LOCK_RECOVERED runs the repair of what that lock
 * protects before returning, so no caller ever sees state a dead holder left half-changed. A repairer
 * killed in turn leaves the lock to the next taker with EOWNERDEAD again, and every repair is idempotent,
 * so it simply runs again. A lock that fails outright unblocks signals and returns TBL_ESYS: never
 * acquired, never entered.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "crash.h"
#include "sync.h"

static inline void block(tbl_t *t)
{
	if (t->hooks.block_signals) {
		t->hooks.block_signals();
	}
}

static inline void unblock(tbl_t *t)
{
	if (t->hooks.unblock_signals) {
		t->hooks.unblock_signals();
	}
}

static void note_repair(tbl_t *t)
{
	atomic_fetch_add(&t->hdr->lock_repairs, 1);
	atomic_store(&t->hdr->gc_needed, 1);
}

/* TBL_LOCK_FAILED or TBL_LOCK_TIMEDOUT: nothing is held; undo the signal block and say why. */
static tbl_status_t lock_failed(tbl_t *t, tbl_lock_t *lock, tbl_lock_result_t r, const char *which)
{
	int err = errno;
	uint32_t holder;

	unblock(t);
	if (r != TBL_LOCK_TIMEDOUT) {
		snprintf(t->errstr, sizeof(t->errstr), "the %s lock is unusable: pthread_mutex_lock() failed: %s", which,
		         strerror(err ? err : ENOTRECOVERABLE));
		return TBL_ESYS;
	}
	atomic_fetch_add(&t->hdr->lock_timeouts, 1);
	holder = tbl_lock_holder(lock);
	if (holder) {
		snprintf(t->errstr, sizeof(t->errstr), "the table's %s lock has been held for more than %u ms by process "
		         "(thread) %u, which is stopped or stuck; nothing was changed (table.lock_timeout)", which,
		         (unsigned)t->lock_wait_ms, (unsigned)holder);
	} else {
		snprintf(t->errstr, sizeof(t->errstr), "the table's %s lock was not free within %u ms; nothing was changed "
		         "(table.lock_timeout)", which, (unsigned)t->lock_wait_ms);
	}
	return TBL_ESYS;
}

void tbl_stripe_recount(tbl_t *t, uint32_t stripe)
{
	tbl_header_t *h = t->hdr;
	uint64_t b;
	tbl_ns_t ns, created = tbl_ns_created(t);

	/* Ids from ns_created on were never counted: their pages stay untouched (table_core.c). */
	for (ns = 0; ns < created; ns++) {
		tbl_nscount_t *c = tbl_nscount(t, stripe, ns);
		TBL_STORE_RELAXED(&c->entries, 0);
		TBL_STORE_RELAXED(&c->bytes, 0);
		TBL_STORE_RELAXED(&c->min_expire, 0);
	}
	TBL_CRASH_POINT("sync.stripe.recount_zeroed");
	for (b = stripe; b < h->nbuckets; b += h->nstripes) {
		uint64_t off = atomic_load_explicit(&t->buckets[b], memory_order_acquire);
		while (off) {
			tbl_entry_t *e = tbl_entry_at(t, off);
			tbl_nscount_t *c = tbl_nscount(t, stripe, e->ns);
			uint32_t exp = TBL_LOAD_RELAXED(&e->expire);
			uint32_t min = TBL_LOAD_RELAXED(&c->min_expire);

			TBL_STORE_RELAXED(&c->entries, TBL_LOAD_RELAXED(&c->entries) + 1);
			TBL_STORE_RELAXED(&c->bytes, TBL_LOAD_RELAXED(&c->bytes) + e->bytes);
			if (exp && (min == 0 || exp < min)) {
				TBL_STORE_RELAXED(&c->min_expire, exp);
			}
			off = atomic_load_explicit(&e->next, memory_order_acquire);
		}
	}
}

tbl_status_t tbl_stripe_lock(tbl_t *t, uint32_t stripe)
{
	tbl_lock_result_t r;

	block(t);
	r = tbl_lock_acquire(tbl_lock_at(t, stripe), t->lock_wait_ms);
	if (TBL_LIKELY(r == TBL_LOCK_ACQUIRED)) {
		return TBL_OK;
	}
	if (r != TBL_LOCK_RECOVERED) {
		return lock_failed(t, tbl_lock_at(t, stripe), r, "stripe");
	}
	tbl_stripe_recount(t, stripe);
	note_repair(t);
	return TBL_OK;
}

void tbl_stripes_settle(tbl_t *t)
{
	uint32_t s;

	for (s = 0; s < t->hdr->nstripes; s++) {
		if (TBL_UNLIKELY(tbl_lock_holder_died(tbl_lock_at(t, s))) && tbl_stripe_lock(t, s) == TBL_OK) {
			tbl_stripe_unlock(t, s);
		}
	}
}

int tbl_stripe_trylock(tbl_t *t, uint32_t stripe)
{
	tbl_lock_result_t r;

	block(t);
	r = tbl_lock_try(tbl_lock_at(t, stripe));
	if (r == TBL_LOCK_RECOVERED) {
		tbl_stripe_recount(t, stripe);
		note_repair(t);
		return 1;
	}
	if (r == TBL_LOCK_ACQUIRED) {
		return 1;
	}
	unblock(t);
	return 0;
}

void tbl_stripe_unlock(tbl_t *t, uint32_t stripe)
{
	tbl_lock_release(tbl_lock_at(t, stripe));
	unblock(t);
}

/* The retire queue survives a crash as a prefix: keep entries while they are used blocks in order, cut
 * the rest (the GC retires whatever was cut). */
static void repair_retire_queue(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	uint64_t off = h->retire_head, prev = 0, blocks = 0, bytes = 0;

	while (off) {
		if (off < h->alloc.heap_off || off >= h->alloc.heap_end || (off & 15u) != 0) {
			break;
		}
		blocks++;
		bytes += tbl_entry_at(t, off)->bytes;
		prev = off;
		off = tbl_entry_at(t, off)->retire_next;
	}
	if (off) {
		if (prev) {
			tbl_entry_at(t, prev)->retire_next = 0;
		} else {
			h->retire_head = 0;
		}
	}
	h->retire_tail = prev;
	h->retired_blocks = blocks;
	h->retired_bytes = bytes;
}

tbl_status_t tbl_alloc_lock(tbl_t *t)
{
	tbl_lock_result_t r;

	block(t);
	r = tbl_lock_acquire(tbl_lock_at(t, TBL_LOCK_ALLOC(t->hdr)), t->lock_wait_ms);
	if (TBL_LIKELY(r == TBL_LOCK_ACQUIRED)) {
		return TBL_OK;
	}
	if (r != TBL_LOCK_RECOVERED) {
		return lock_failed(t, tbl_lock_at(t, TBL_LOCK_ALLOC(t->hdr)), r, "allocator");
	}
	tbl_alloc_rebuild(&t->hdr->alloc, t->base);
	TBL_CRASH_POINT("sync.alloc.rebuilt");
	repair_retire_queue(t);
	note_repair(t);
	return TBL_OK;
}

void tbl_alloc_unlock(tbl_t *t)
{
	/* Published for tbl_memory_short(), which reads it without the lock. */
	TBL_STORE_RELAXED(&t->hdr->free_hint, t->hdr->alloc.free_bytes);
	tbl_lock_release(tbl_lock_at(t, TBL_LOCK_ALLOC(t->hdr)));
	unblock(t);
}

tbl_status_t tbl_lock_take(tbl_t *t, uint32_t index, const char *which, int *recovered)
{
	tbl_lock_result_t r;

	block(t);
	r = tbl_lock_acquire(tbl_lock_at(t, index), t->lock_wait_ms);
	*recovered = r == TBL_LOCK_RECOVERED;
	if (TBL_LIKELY(r == TBL_LOCK_ACQUIRED || r == TBL_LOCK_RECOVERED)) {
		return TBL_OK;
	}
	return lock_failed(t, tbl_lock_at(t, index), r, which);
}

void tbl_lock_repaired(tbl_t *t)
{
	note_repair(t);
}

void tbl_lock_give(tbl_t *t, uint32_t index)
{
	tbl_lock_release(tbl_lock_at(t, index));
	unblock(t);
}

tbl_status_t tbl_misc_lock(tbl_t *t)
{
	tbl_lock_result_t r;

	block(t);
	r = tbl_lock_acquire(tbl_lock_at(t, TBL_LOCK_MISC(t->hdr)), t->lock_wait_ms);
	if (TBL_LIKELY(r == TBL_LOCK_ACQUIRED)) {
		return TBL_OK;
	}
	if (r != TBL_LOCK_RECOVERED) {
		return lock_failed(t, tbl_lock_at(t, TBL_LOCK_MISC(t->hdr)), r, "misc");
	}
	atomic_fetch_add(&t->hdr->lock_repairs, 1);
	return TBL_OK;
}

void tbl_misc_unlock(tbl_t *t)
{
	tbl_lock_release(tbl_lock_at(t, TBL_LOCK_MISC(t->hdr)));
	unblock(t);
}
