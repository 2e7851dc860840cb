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
 * registered expires after the caller's `claim_ms`. Once registered, the helper beats (tier_claim_ms
 * becomes its heartbeat): a helper that lives but has not beaten for the caller's `hang_ms` (stopped,
 * stuck in a call) is hung, and its place is taken as a dead one's is (tbl_tier_helper_claim_hung; the
 * caller ends the hung process).
 *
 * The counters (tier.h) are shared atomics in the tier's header line: what counts one is a call that went
 * to Redis, next to which an atomic add on a shared line costs nothing. Except L1 hits, which cost no
 * network and are the tier's hot path, and whose count would bounce that line (the one every tiered read
 * loads the freshness from) between the cores: each process counts them in its reader slot, a line only
 * it writes, never reset, so the sum over the slots (and a header count for a process without a slot) is
 * every hit, a dead process's included. Local namespaces touch none of them.
 */
#include <stddef.h>
#include "hash.h"
#include "proc.h"
#include "segment.h"
#include "table_core.h"
#include "tier.h"

_Static_assert(sizeof(((tbl_header_t *)0)->tier_counts) / sizeof(uint64_t) == TBL_TIER_FAILOVERS,
               "one header counter per tbl_tier_counter_t before FAILOVERS, which lives apart");
_Static_assert(TBL_TIER_FAILOVERS + 1 == TBL_TIER_NCOUNTERS, "FAILOVERS is the last counter");

/* A counter's word: tier_counts[c], or tier_failovers (added later, in another line's padding, so that the
 * header's layout stayed as it was). */
static _Atomic uint64_t *counter_word(tbl_header_t *h, tbl_tier_counter_t c)
{
	return c == TBL_TIER_FAILOVERS ? &h->tier_failovers : &h->tier_counts[c];
}

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

int tbl_tier_helper_claim_hung(tbl_t *t, uint64_t claim_ms, uint64_t hang_ms, int32_t *hung, uint64_t *hung_start)
{
	tbl_header_t *h = t->hdr;
	int32_t pid = atomic_load_explicit(&h->tier_helper_pid, memory_order_acquire);
	uint64_t now = tbl_clock_monotonic_ms(), start = 0;
	int was_hung = 0;

	if (hung) {
		*hung = 0;
		*hung_start = 0;
	}
	if (pid != 0) {
		uint64_t mark = atomic_load_explicit(&h->tier_claim_ms, memory_order_acquire);

		start = atomic_load_explicit(&h->tier_helper_start, memory_order_acquire);
		if (start == 0) {
			if (now - mark < claim_ms) {
				return 0;   /* being started */
			}
		} else if (helper_alive(t, pid)) {
			/* The beat may be newer than `now` (taken before it was written): not hung. */
			if (now < mark || now - mark < hang_ms) {
				return 0;
			}
			was_hung = 1;
		}
	}
	/* No helper, a dead or hung one, or a claim that never produced one: take the place. */
	if (!atomic_compare_exchange_strong(&h->tier_helper_pid, &pid, (int32_t)tbl_proc_self())) {
		return 0;
	}
	atomic_store_explicit(&h->tier_helper_start, 0, memory_order_release);
	atomic_store_explicit(&h->tier_claim_ms, now, memory_order_release);
	if (was_hung) {
		tbl_tier_set_fresh_ms(t, 0);   /* whatever it published last is not to be trusted past now */
		if (hung) {
			*hung = pid;
			*hung_start = start;
		}
	}
	return 1;
}

int tbl_tier_helper_claim(tbl_t *t, uint64_t claim_ms)
{
	return tbl_tier_helper_claim_hung(t, claim_ms, UINT64_MAX, NULL, NULL);
}

void tbl_tier_helper_beat(tbl_t *t)
{
	/* Only the helper in place: a replaced one, until it notices, must not keep a claim (the same word)
	 * looking young. */
	if (tbl_tier_helper_current(t)) {
		atomic_store_explicit(&t->hdr->tier_claim_ms, tbl_clock_monotonic_ms(), memory_order_release);
	}
}

void tbl_tier_count(tbl_t *t, tbl_tier_counter_t c, uint64_t n)
{
	atomic_fetch_add_explicit(counter_word(t->hdr, c), n, memory_order_relaxed);
}

void tbl_tier_count_l1_hit(tbl_t *t)
{
	tbl_slot_t *s = t->slot;

	if (s) {
		/* Only this process writes its slot's count: a plain add, on a line no other process writes. */
		atomic_store_explicit(&s->tier_l1_hits, atomic_load_explicit(&s->tier_l1_hits, memory_order_relaxed) + 1,
		                      memory_order_relaxed);
	} else {
		atomic_fetch_add_explicit(&t->hdr->tier_counts[TBL_TIER_L1_HITS], 1, memory_order_relaxed);
	}
}

void tbl_tier_counters(const tbl_t *t, uint64_t out[TBL_TIER_NCOUNTERS])
{
	const tbl_header_t *h = t->hdr;
	uint32_t i, hwm = atomic_load_explicit(&h->slots_hwm, memory_order_acquire);

	for (i = 0; i < TBL_TIER_NCOUNTERS; i++) {
		out[i] = atomic_load_explicit(counter_word(t->hdr, (tbl_tier_counter_t)i), memory_order_relaxed);
	}
	/* Slots past the high-water mark were never held (and their pages never touched). */
	for (i = 0; i < hwm && i < h->nslots; i++) {
		out[TBL_TIER_L1_HITS] += atomic_load_explicit(&t->slots[i].tier_l1_hits, memory_order_relaxed);
	}
}

void tbl_tier_helper_register(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	pid_t me = tbl_proc_self();

	/* The first beat before the start time: a claimer that sees the helper registered sees a beat. */
	atomic_store_explicit(&h->tier_claim_ms, tbl_clock_monotonic_ms(), memory_order_release);
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
