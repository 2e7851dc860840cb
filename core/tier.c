/*
 * tier.c - the Redis tier's bookkeeping in the segment: key generations, the tier epoch, freshness, and
 * the place of the one helper process that applies Redis's invalidations.
 *
 * A tiered namespace's entries are copies (the L1) of keys whose truth is in Redis. Three rules keep a
 * copy from outliving a change there:
 *   - Invalidation: the helper (redis/tier_helper.c) hears of every changed key. For each, it advances
 *     the key's generation, then deletes the copy, then counts it (tbl_tier_apply_invalidation). A
 *     writer does the same on its own host after its Redis write, so that it reads its own writes at
 *     once, uncounted (tbl_tier_invalidate): the count says what the helper has applied, which is what
 *     a process waiting for another host's write (or its own write's echo from Redis) can rely on.
 *   - Fills: a miss takes the key's stamp (tbl_tier_stamp) before it reads Redis, and stores what it
 *     read with tbl_fill, which checks under the key's stripe lock that the stamp has not moved. The
 *     invalidation advances the generation before it takes that lock to delete: if it came first, the
 *     fill sees the new stamp and stores nothing; if not, the delete runs after the fill's store and
 *     removes it. Either way nothing read before a change survives its invalidation.
 *   - Freshness: the helper publishes the monotonic time before which every invalidation Redis sent has
 *     been applied. A reader that finds it older than table.redis_max_stale does not trust the L1.
 *     When the helper loses a connection (invalidations may be lost) it publishes 0, advances the tier
 *     epoch (every stamp moves: fills in flight fail), clears the tiered namespaces, and only then,
 *     reconnected, publishes freshness again.
 *
 * Generations are per slot of the key hash (TBL_TIER_GENS of them, in the header): two keys that share
 * a slot only make each other's fills fail now and then. The stamp is the slot's generation plus the
 * epoch; both only grow, so an unchanged sum means neither moved.
 *
 * The helper's place is a pid in the header, taken with a compare-and-swap by the process that finds no
 * live helper (tbl_tier_helper_claim) and then handed to the helper it starts. A claim whose helper never
 * registered expires after the caller's `claim_ms`.
 */
#include <stddef.h>
#include "hash.h"
#include "proc.h"
#include "segment.h"
#include "table_core.h"
#include "tier.h"

static _Atomic uint64_t *gen_of_hash(tbl_t *t, uint64_t hash)
{
	/* The bucket uses the low bits; take the generation's from the high ones, so that the keys of one
	 * bucket spread over the slots. */
	return &t->hdr->tier_gens[(hash >> 40) & (TBL_TIER_GENS - 1u)];
}

uint64_t tbl_tier_stamp_of_hash(tbl_t *t, uint64_t hash)
{
	return atomic_load_explicit(gen_of_hash(t, hash), memory_order_acquire)
	       + atomic_load_explicit(&t->hdr->tier_epoch, memory_order_acquire);
}

uint64_t tbl_tier_stamp(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen)
{
	return tbl_tier_stamp_of_hash(t, tbl_key_hash(t, key, klen, tbl_ns_id(ns)));
}

tbl_status_t tbl_tier_invalidate(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen)
{
	tbl_status_t st;

	if (klen == 0 || klen > TBL_KEY_MAX) {
		return TBL_EINVAL;
	}
	/* Before the delete takes the stripe lock: a fill that checks its stamp after this sees it moved. */
	atomic_fetch_add_explicit(gen_of_hash(t, tbl_key_hash(t, key, klen, tbl_ns_id(ns))), 1, memory_order_seq_cst);
	st = tbl_delete(t, ns, key, klen);
	return st;
}

tbl_status_t tbl_tier_apply_invalidation(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen)
{
	tbl_status_t st = tbl_tier_invalidate(t, ns, key, klen);

	if (st != TBL_EINVAL) {
		/* Counted once applied: whoever sees the count move can rely on the copy being gone. */
		atomic_fetch_add_explicit(&t->hdr->tier_invalidations, 1, memory_order_release);
	}
	return st;
}

void tbl_tier_advance_all(tbl_t *t)
{
	atomic_fetch_add_explicit(&t->hdr->tier_epoch, 1, memory_order_seq_cst);
	atomic_fetch_add_explicit(&t->hdr->tier_flushes, 1, memory_order_relaxed);
}

uint64_t tbl_tier_fresh_ms(const tbl_t *t)
{
	return atomic_load_explicit(&t->hdr->tier_fresh_ms, memory_order_acquire);
}

void tbl_tier_set_fresh_ms(tbl_t *t, uint64_t ms)
{
	atomic_store_explicit(&t->hdr->tier_fresh_ms, ms, memory_order_release);
}

static int helper_alive(tbl_t *t, int32_t pid)
{
	uint64_t start = atomic_load_explicit(&t->hdr->tier_helper_start, memory_order_acquire);

	if (start == 0) {
		/* Claimed, not yet registered: alive while the claim is young (tbl_tier_helper_claim judges). */
		return tbl_proc_alive((pid_t)pid, 0);
	}
	return tbl_proc_alive((pid_t)pid, start);
}

int tbl_tier_helper_claim(tbl_t *t, uint64_t claim_ms)
{
	tbl_header_t *h = t->hdr;
	int32_t pid = atomic_load_explicit(&h->tier_helper_pid, memory_order_acquire);
	uint64_t now = tbl_clock_monotonic_ms();

	if (pid != 0) {
		int registered = atomic_load_explicit(&h->tier_helper_start, memory_order_acquire) != 0;

		if (registered ? helper_alive(t, pid)
		               : now - atomic_load_explicit(&h->tier_claim_ms, memory_order_acquire) < claim_ms) {
			return 0;
		}
	}
	/* No helper, a dead one, or a claim that never produced one: take the place. */
	if (!atomic_compare_exchange_strong(&h->tier_helper_pid, &pid, (int32_t)tbl_proc_self())) {
		return 0;
	}
	atomic_store_explicit(&h->tier_helper_start, 0, memory_order_release);
	atomic_store_explicit(&h->tier_claim_ms, now, memory_order_release);
	return 1;
}

void tbl_tier_helper_register(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	pid_t me = tbl_proc_self();

	atomic_store_explicit(&h->tier_helper_start, tbl_proc_start_time(me), memory_order_release);
	atomic_store_explicit(&h->tier_helper_pid, (int32_t)me, memory_order_release);
	atomic_fetch_add_explicit(&h->tier_helper_starts, 1, memory_order_relaxed);
}

int tbl_tier_helper_current(tbl_t *t)
{
	return atomic_load_explicit(&t->hdr->tier_helper_pid, memory_order_acquire) == (int32_t)tbl_proc_self();
}

void tbl_tier_helper_leave(tbl_t *t)
{
	int32_t me = (int32_t)tbl_proc_self();

	tbl_tier_set_fresh_ms(t, 0);
	atomic_compare_exchange_strong(&t->hdr->tier_helper_pid, &me, 0);
}

int tbl_tier_others_alive(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	pid_t me = tbl_proc_self();
	uint32_t i, hwm = atomic_load_explicit(&h->slots_hwm, memory_order_acquire);

	if (!t->seg.named && h->tier_creator_pid != 0 && h->tier_creator_pid != (int32_t)me
	    && tbl_proc_alive((pid_t)h->tier_creator_pid, h->tier_creator_start)
	    && tbl_proc_maps((pid_t)h->tier_creator_pid, t->base, h->map_ino) != 0) {
		return 1;
	}
	for (i = 0; i < hwm && i < h->nslots; i++) {
		tbl_slot_t *s = &t->slots[i];
		int32_t pid = atomic_load_explicit(&s->pid, memory_order_acquire);

		if (pid != 0 && pid != (int32_t)me && tbl_proc_alive((pid_t)pid, s->start_time)
		    && tbl_proc_maps((pid_t)pid, t->base, h->map_ino) != 0) {
			return 1;
		}
	}
	return 0;
}

void tbl_tier_stats(const tbl_t *t, tbl_tier_stats_t *out)
{
	const tbl_header_t *h = t->hdr;

	out->fresh_ms = atomic_load_explicit(&h->tier_fresh_ms, memory_order_relaxed);
	out->invalidations = atomic_load_explicit(&h->tier_invalidations, memory_order_acquire);
	out->flushes = atomic_load_explicit(&h->tier_flushes, memory_order_relaxed);
	out->helper_starts = atomic_load_explicit(&h->tier_helper_starts, memory_order_relaxed);
	out->helper_pid = atomic_load_explicit(&h->tier_helper_pid, memory_order_relaxed);
}
