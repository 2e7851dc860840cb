/*
 * ns.c - namespaces: a name <-> small integer id map in the segment, with recycling.
 *
 * Entries carry a 16-bit namespace id, which keeps them small and lets the counters be a flat
 * [stripe][namespace] array, so count() and memory() per namespace are a handful of loads. Names are
 * stored once, by id (tbl_nsrec_t), and found through an open-addressed index of id + 1 values keyed by
 * the name's hash. Id 0 is the default namespace and is not in the index.
 *
 * Readers look names up without a lock. A creator writes the record, counts it (ns_created), then
 * publishes the index cell with a release store: a reader that finds the cell sees the record and an
 * ns_created that covers its id, so a handle is usable the moment its name can be found.
 *
 * Recycling. When every id is taken, tbl_ns_get() reuses the id of a namespace that holds no entry (the
 * one writers resolved least recently). It takes every stripe lock first (so no write is in flight and
 * the namespace stays empty), then the namespace lock, tombstones the old index cell and rewrites the
 * record under a sequence count (`gen` odd while rewriting). A handle carries the generation it was found
 * at: writers check it under the stripe lock (TBL_ESTALE), and readers check it after their lookup, so a
 * handle from before the recycle can neither see nor write the new namespace. A namespace just created
 * or recycled is "fresh" until its first write (or for TBL_NS_FRESH_MS): recycling skips it, so two
 * creators racing for the last empty id cannot keep taking it from each other.
 *
 * Crashes. A creator or recycler that dies holds the namespace lock, so the next taker repairs
 * (ns_repair_records, from tbl_ns_lock): a record left odd (a recycle cut short) is retired - its index
 * cells tombstoned, its name emptied, its generation moved on, so it is recyclable again and no old
 * handle matches it - and a counted record whose name never reached the index is published. A reader that
 * keeps meeting an odd record takes the namespace lock itself, which runs that repair if the recycler is
 * dead and waits for it otherwise: a lookup never spins for long.
 */
#include <string.h>
#include "hash.h"
#include "platform.h"
#include "segment.h"
#include "ns.h"
#include "sync.h"
#include "table_core.h"
#include "crash.h"

static uint32_t name_slot(const tbl_t *t, const char *name, size_t len)
{
	return (uint32_t)(tbl_hash_ns_name(&t->hasher, name, len) & (t->hdr->nsindex_size - 1u));
}

static tbl_ns_t make_handle(uint32_t id, uint32_t gen)
{
	return (tbl_ns_t)(id | ((gen & 0xFFFFu) << 16));
}

/* Compare the record of `id` with `name` consistently with a concurrent recycle: returns 1 and the
 * generation when it matches, 0 when it does not, -1 when it changed under us (probe again). */
static int record_matches(tbl_t *t, uint32_t id, const char *name, size_t len, uint32_t *gen)
{
	const tbl_nsrec_t *r = &t->nsrecs[id];
	uint32_t g1 = atomic_load_explicit(&t->nsrecs[id].gen, memory_order_acquire), g2;
	int same;

	if (g1 & 1u) {
		return -1;
	}
	same = r->len == len && memcmp(r->name, name, len) == 0;
	atomic_thread_fence(memory_order_acquire);
	g2 = atomic_load_explicit(&t->nsrecs[id].gen, memory_order_relaxed);
	if (g1 != g2) {
		return -1;
	}
	*gen = g1;
	return same;
}

#define TBL_NS_SPINS 64u   /* odd records met before a lock-free lookup waits on the namespace lock */

/* Probe for `name`. Returns its handle, or -1 with *insert set to the first cell a new name may take
 * (a tombstone or an empty cell; UINT32_MAX when the index is full). `locked`: the caller holds the
 * namespace lock, so no record is being rewritten (an odd one was left by a dead recycler and is
 * repaired already; it never matches). Without the lock, a record that stays odd makes the lookup take
 * the lock once (repairing it, or waiting for its live recycler). TBL_ESYS when that lock fails. */
static int64_t probe(tbl_t *t, const char *name, size_t len, uint32_t *insert, int locked)
{
	uint32_t mask = t->hdr->nsindex_size - 1u, i, n, spins = 0;

again:
	*insert = UINT32_MAX;
	for (n = 0, i = name_slot(t, name, len); n <= mask; n++, i = (i + 1u) & mask) {
		uint16_t v = atomic_load_explicit(&t->nsindex[i], memory_order_acquire);
		uint32_t gen;
		int m;

		if (v == TBL_NSINDEX_TOMBSTONE) {
			if (*insert == UINT32_MAX) {
				*insert = i;
			}
			continue;
		}
		if (v == 0) {
			if (*insert == UINT32_MAX) {
				*insert = i;
			}
			return -1;
		}
		if ((m = record_matches(t, v - 1u, name, len, &gen)) < 0) {
			if (locked) {
				continue;
			}
			if (++spins % TBL_NS_SPINS == 0) {
				if (tbl_ns_lock(t) != TBL_OK) {
					return -2;
				}
				tbl_ns_unlock(t);
			}
			goto again;
		}
		if (m) {
			return (int64_t)make_handle(v - 1u, gen);
		}
	}
	return -1;
}

tbl_status_t tbl_ns_find(tbl_t *t, const char *name, size_t len, tbl_ns_t *out)
{
	uint32_t insert;
	int64_t h;

	if (len == 0 || len > TBL_NS_NAME_MAX) {
		return TBL_EINVAL;
	}
	if ((h = probe(t, name, len, &insert, 0)) < 0) {
		return h == -2 ? TBL_ESYS : TBL_ENOTFOUND;
	}
	*out = (tbl_ns_t)h;
	return TBL_OK;
}

static void touch_record(tbl_t *t, tbl_ns_t ns)
{
	uint32_t now = tbl_clock_now().sec;
	_Atomic uint32_t *last = &t->nsrecs[tbl_ns_id(ns)].last_get;

	if (tbl_ns_id(ns) != 0 && TBL_LOAD_RELAXED(last) != now) {
		TBL_STORE_RELAXED(last, now);
	}
}

/* Low 32 bits of the monotonic clock in ms, never 0 (0 marks a record that is not fresh). */
static uint32_t fresh_stamp(void)
{
	uint32_t ms = (uint32_t)tbl_clock_monotonic_ms();
	return ms ? ms : 1u;
}

/* Write a name into record `id` (namespace lock held); it is not reachable until publish(). */
static void write_record(tbl_t *t, uint32_t id, const char *name, size_t len)
{
	tbl_nsrec_t *r = &t->nsrecs[id];

	r->len = (uint16_t)len;
	memcpy(r->name, name, len);
	TBL_STORE_RELAXED(&r->last_get, tbl_clock_now().sec);
	TBL_STORE_RELAXED(&r->fresh, fresh_stamp());
}

tbl_status_t tbl_ns_reserve(tbl_t *t, uint32_t id)
{
	const char *what = id ? "a new namespace" : "the default namespace";
	tbl_status_t st = tbl_seg_reserve(t, tbl_offset_of(t, &t->nsrecs[id]), sizeof(tbl_nsrec_t), what);
	uint32_t s;

	/* One cell per stripe, max_ns cells apart: a page each, shared with the neighbouring ids. */
	for (s = 0; st == TBL_OK && s < t->hdr->nstripes; s++) {
		st = tbl_seg_reserve(t, tbl_offset_of(t, tbl_nscount(t, s, id)), sizeof(tbl_nscount_t), what);
	}
	return st;
}

static void publish(tbl_t *t, uint32_t id, uint32_t cell)
{
	atomic_store_explicit(&t->nsindex[cell], (uint16_t)(id + 1u), memory_order_release);
}

/* The empty namespace (no entry in any stripe) that writers resolved least recently, or 0 when every
 * namespace holds something (all stripe locks and the namespace lock held). The least recently resolved
 * one is the least likely to be in a writer's hands right now; a writer that does hold it gets
 * TBL_ESTALE and looks the name up again. */
static uint32_t recyclable_id(tbl_t *t)
{
	uint32_t id, s, created = atomic_load(&t->hdr->ns_created), best = 0, best_age = 0;
	uint32_t now = tbl_clock_now().sec, now_ms = fresh_stamp();

	for (id = 1; id < created; id++) {
		uint32_t age = now - TBL_LOAD_RELAXED(&t->nsrecs[id].last_get);
		uint32_t fresh = TBL_LOAD_RELAXED(&t->nsrecs[id].fresh);
		int empty = 1;

		if (fresh && now_ms - fresh < TBL_NS_FRESH_MS) {
			continue;   /* just made for a writer that has not written yet */
		}
		for (s = 0; s < t->hdr->nstripes && empty; s++) {
			empty = TBL_LOAD_RELAXED(&tbl_nscount(t, s, id)->entries) == 0;
		}
		if (empty && (!best || age > best_age)) {
			best = id;
			best_age = age;
		}
	}
	return best;
}

static void index_remove(tbl_t *t, uint32_t id)
{
	const tbl_nsrec_t *r = &t->nsrecs[id];
	uint32_t mask = t->hdr->nsindex_size - 1u, i, n;

	for (n = 0, i = name_slot(t, r->name, r->len); n <= mask; n++, i = (i + 1u) & mask) {
		if (atomic_load(&t->nsindex[i]) == id + 1u) {
			atomic_store_explicit(&t->nsindex[i], (uint16_t)TBL_NSINDEX_TOMBSTONE, memory_order_release);
			return;
		}
	}
}

/* Tombstone every index cell that holds `id`, wherever its name hashes (repair: the name may be torn). */
static void index_remove_all(tbl_t *t, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < t->hdr->nsindex_size; i++) {
		if (atomic_load(&t->nsindex[i]) == id + 1u) {
			atomic_store_explicit(&t->nsindex[i], (uint16_t)TBL_NSINDEX_TOMBSTONE, memory_order_release);
		}
	}
}

static void ns_repair_records(tbl_t *t)
{
	uint32_t id, created = atomic_load(&t->hdr->ns_created), insert;

	for (id = 1; id < created && id < t->hdr->max_ns; id++) {
		tbl_nsrec_t *r = &t->nsrecs[id];
		uint32_t gen = atomic_load(&r->gen);

		if (gen & 1u) {
			/* A recycle cut short: neither the old name (empty, being given up) nor the new one (its
			 * creator is gone) is worth keeping. Retire the record under a new generation. */
			index_remove_all(t, id);
			r->len = 0;
			TBL_STORE_RELAXED(&r->fresh, 0);
			TBL_CRASH_POINT("ns.repair.retired");
			atomic_store_explicit(&r->gen, gen + 1u, memory_order_release);
		} else if (r->len > 0 && probe(t, r->name, r->len, &insert, 1) < 0 && insert != UINT32_MAX) {
			/* Counted but never published: a creator killed between the two. */
			publish(t, id, insert);
		}
	}
}

/* A creator or recycler died holding the namespace lock. Creators now count before they publish, so the
 * index never holds an uncounted id; the recount stays for segments written the old way. Then the
 * records themselves (ns_repair_records). */
static void repair_ns(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	uint32_t i, max_id = 0;

	for (i = 0; i < h->nsindex_size; i++) {
		uint16_t v = atomic_load(&t->nsindex[i]);
		if (v && v != TBL_NSINDEX_TOMBSTONE && v > max_id) {
			max_id = v;   /* the index stores id + 1 */
		}
	}
	/* max_id is the highest id + 1, i.e. the count those ids need. */
	if (atomic_load(&h->ns_created) < max_id) {
		atomic_store(&h->ns_created, max_id);
	}
	TBL_CRASH_POINT("sync.ns.counted");
	ns_repair_records(t);
}

/* The namespace lock, taken the way sync.c takes every lock; its repair is this file's, so it lives here
 * rather than in sync.c, which sits below the namespaces and calls nothing of them. */
tbl_status_t tbl_ns_lock(tbl_t *t)
{
	int recovered;
	tbl_status_t st = tbl_lock_take(t, TBL_LOCK_NS(t->hdr), "namespace", &recovered);

	if (TBL_UNLIKELY(recovered) && st == TBL_OK) {
		repair_ns(t);
		tbl_lock_repaired(t);
	}
	return st;
}

void tbl_ns_unlock(tbl_t *t)
{
	tbl_lock_give(t, TBL_LOCK_NS(t->hdr));
}

/* Every id is taken: reuse an empty one for `name`. */
static tbl_status_t recycle(tbl_t *t, const char *name, size_t len, tbl_ns_t *out)
{
	uint32_t s, id, insert, gen;
	tbl_status_t st;
	int64_t h;

	for (s = 0; s < t->hdr->nstripes; s++) {
		if ((st = tbl_stripe_lock(t, s)) != TBL_OK) {
			goto unlock_stripes;
		}
	}
	if ((st = tbl_ns_lock(t)) != TBL_OK) {
		goto unlock_stripes;
	}
	st = TBL_ENSFULL;
	if ((h = probe(t, name, len, &insert, 1)) >= 0) {
		*out = (tbl_ns_t)h;           /* someone created it meanwhile */
		st = TBL_OK;
	} else if ((id = recyclable_id(t)) != 0) {
		tbl_nsrec_t *r = &t->nsrecs[id];

		gen = atomic_load(&r->gen);
		atomic_store_explicit(&r->gen, gen + 1u, memory_order_relaxed);   /* odd: rewriting */
		atomic_thread_fence(memory_order_release);
		TBL_CRASH_POINT("ns.recycle.gen_odd");
		index_remove(t, id);
		TBL_CRASH_POINT("ns.recycle.unindexed");
		probe(t, name, len, &insert, 1);  /* the tombstone may be the best cell now */
		write_record(t, id, name, len);
		TBL_CRASH_POINT("ns.recycle.written");
		publish(t, id, insert);
		TBL_CRASH_POINT("ns.recycle.published");
		atomic_store_explicit(&r->gen, gen + 2u, memory_order_release);
		*out = make_handle(id, gen + 2u);
		st = TBL_OK;
	}
	tbl_ns_unlock(t);
unlock_stripes:
	while (s-- > 0) {
		tbl_stripe_unlock(t, s);
	}
	return st;
}

tbl_status_t tbl_ns_get(tbl_t *t, const char *name, size_t len, tbl_ns_t *out)
{
	tbl_header_t *h = t->hdr;
	tbl_status_t st = tbl_ns_find(t, name, len, out);
	uint32_t insert, id;
	int64_t found;

	if (st == TBL_OK) {
		touch_record(t, *out);
	}
	if (st != TBL_ENOTFOUND) {
		return st;
	}
	if ((st = tbl_ns_lock(t)) != TBL_OK) {
		return st;
	}
	if ((found = probe(t, name, len, &insert, 1)) >= 0) {
		tbl_ns_unlock(t);
		*out = (tbl_ns_t)found;
		touch_record(t, *out);
		return TBL_OK;
	}
	id = atomic_load(&h->ns_created);
	if (id >= h->max_ns || insert == UINT32_MAX) {
		tbl_ns_unlock(t);
		return recycle(t, name, len, out);
	}
	/* A named segment's file may be full: the record's and counters' pages get their blocks first. */
	if ((st = tbl_ns_reserve(t, id)) != TBL_OK) {
		tbl_ns_unlock(t);
		return st;
	}
	/* Record, count, publish: whoever finds the name finds it counted (ns_created covers its id). */
	write_record(t, id, name, len);
	TBL_CRASH_POINT("ns.create.written");
	atomic_store_explicit(&h->ns_created, id + 1u, memory_order_release);
	TBL_CRASH_POINT("ns.create.counted");
	publish(t, id, insert);
	tbl_ns_unlock(t);
	*out = make_handle(id, 0);
	return TBL_OK;
}

const char *tbl_ns_name(tbl_t *t, tbl_ns_t ns, size_t *len)
{
	uint32_t id = tbl_ns_id(ns);

	if (id >= atomic_load_explicit(&t->hdr->ns_created, memory_order_acquire)) {
		*len = 0;
		return NULL;
	}
	*len = t->nsrecs[id].len;
	return t->nsrecs[id].name;
}

unsigned tbl_ns_count_created(tbl_t *t)
{
	return tbl_ns_created(t);
}

unsigned tbl_ns_limit(tbl_t *t)
{
	return t->hdr->max_ns;
}

tbl_ns_t tbl_ns_handle(tbl_t *t, unsigned id)
{
	return make_handle(id, atomic_load_explicit(&t->nsrecs[id].gen, memory_order_acquire) & ~1u);
}
