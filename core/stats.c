/*
 * stats.c - counters and statistics: the per-process counters folded into the header's totals, the
 * exact entry and byte counts of a namespace (expired entries swept first), and tbl_get_stats's
 * snapshot of the whole table for stats(), phpinfo() and the metrics endpoint.
 */
#include <stdlib.h>
#include <string.h>
#include "epoch.h"
#include "expire.h"
#include "sync.h"
#include "table_core.h"

uint64_t tbl_retired_bytes(tbl_t *t)
{
	return __atomic_load_n(&t->hdr->retired_bytes, __ATOMIC_RELAXED);
}

void tbl_count_zero_copy_read(tbl_t *t)
{
	TBL_COUNT(t, zero_copy_reads, 1);
}

void tbl_count_failed_store(tbl_t *t)
{
	if (tbl_slot_ensure(t) == TBL_OK) {
		TBL_COUNT(t, oom, 1);
	}
}

static void sum_ns(tbl_t *t, uint32_t id, uint64_t *entries, uint64_t *bytes)
{
	uint32_t s;

	*entries = *bytes = 0;
	for (s = 0; s < t->hdr->nstripes; s++) {
		tbl_nscount_t *c = tbl_nscount(t, s, id);
		*entries += TBL_LOAD_RELAXED(&c->entries);
		*bytes += TBL_LOAD_RELAXED(&c->bytes);
	}
}

/* Entries and bytes of one namespace, exact: cells whose earliest expiry has passed are swept first. */
static void ns_totals(tbl_t *t, tbl_ns_t ns, uint64_t *entries, uint64_t *bytes)
{
	uint32_t id = tbl_ns_id(ns);

	*entries = *bytes = 0;
	if (id >= tbl_ns_count_created(t)) {
		return;
	}
	tbl_stripes_settle(t);
	if (tbl_slot_ensure(t) == TBL_OK) {
		tbl_expire_due(t, (int)id, tbl_clock_now().sec);
	}
	sum_ns(t, id, entries, bytes);
	/* A handle from before its namespace was recycled names an empty namespace (recycling takes only
	 * empty ones): the counts under its id are the new namespace's. */
	if (!tbl_ns_current(t, ns)) {
		*entries = *bytes = 0;
	}
}

uint64_t tbl_ns_entries(tbl_t *t, tbl_ns_t ns)
{
	uint64_t entries, bytes;

	ns_totals(t, ns, &entries, &bytes);
	return entries;
}

uint64_t tbl_ns_bytes(tbl_t *t, tbl_ns_t ns)
{
	uint64_t entries, bytes;

	ns_totals(t, ns, &entries, &bytes);
	return bytes;
}

/* The longest chain any write has built (the stripes' marks): an upper bound of the longest chain now. */
static uint64_t longest_chain(tbl_t *t)
{
	uint32_t s, max = 0;

	for (s = 0; s < t->hdr->nstripes; s++) {
		uint32_t n = TBL_LOAD_RELAXED(&t->hdr->chain_hwm[s]);
		max = n > max ? n : max;
	}
	return max;
}

/* 1 when `pid` was not in the set yet (it is now); open addressing over `cap` cells (a power of two, more
 * than the slots), no set: always 1. */
static int pid_first_seen(int32_t *set, uint32_t cap, int32_t pid)
{
	uint32_t i;

	if (!set) {
		return 1;
	}
	for (i = ((uint32_t)pid * 0x9E3779B1u) & (cap - 1u); set[i] != 0; i = (i + 1u) & (cap - 1u)) {
		if (set[i] == pid) {
			return 0;
		}
	}
	set[i] = pid;
	return 1;
}

void tbl_get_stats(tbl_t *t, tbl_stats_t *out)
{
	tbl_header_t *h = t->hdr;
	int32_t *pids;
	uint32_t i, hwm, cap;
	unsigned ns, created, reaped;
	int locked;

	memset(out, 0, sizeof(*out));
	tbl_stripes_settle(t);
	if (tbl_slot_ensure(t) == TBL_OK) {
		tbl_expire_due(t, -1, tbl_clock_now().sec);
	}
	/* Count live processes only: first give back the slots, and the holds, of those that are gone. */
	reaped = tbl_slots_reap_gone(t);
	/* The threads of a threaded process have a slot each: processes are the distinct pids (without the
	 * set, when it cannot be had, every slot counts as one). */
	for (cap = 16u; cap < 2u * h->nslots; cap *= 2u) {
	}
	pids = calloc(cap, sizeof(*pids));
	/* The misc lock keeps a gone process's slot from being folded into h->folded while it is summed.
	 * When it cannot be had (its holder stopped past table.lock_timeout, or the lock is unusable), the
	 * counters are summed without it: a slot folded meanwhile counts twice or not at all, an error of
	 * one gone process's counts, where zeros would hide the table just when someone looks at it. */
	locked = tbl_misc_lock(t) == TBL_OK;
	hwm = atomic_load(&h->slots_hwm);
#define TBL_SUM(f) out->f = TBL_LOAD_RELAXED(&h->folded.f)
	TBL_SUM(hits); TBL_SUM(misses); TBL_SUM(sets); TBL_SUM(deletes);
	TBL_SUM(evictions); TBL_SUM(expirations); TBL_SUM(oom); TBL_SUM(zero_copy_reads);
#undef TBL_SUM
	for (i = 0; i < hwm; i++) {
		tbl_slot_t *s = &t->slots[i];
		if (atomic_load(&s->pid) == 0) {
			continue;
		}
		out->slots_used++;
		if (!(atomic_load(&s->flags) & TBL_SLOT_HANDOVER)) {
			out->processes += pid_first_seen(pids, cap, atomic_load(&s->pid));
		}
		out->pins += atomic_load(&s->nholds) != 0;
#define TBL_SUM(f) out->f += TBL_LOAD_RELAXED(&s->stats.f)
		TBL_SUM(hits); TBL_SUM(misses); TBL_SUM(sets); TBL_SUM(deletes);
		TBL_SUM(evictions); TBL_SUM(expirations); TBL_SUM(oom); TBL_SUM(zero_copy_reads);
#undef TBL_SUM
	}
	if (locked) {
		tbl_misc_unlock(t);
	}
	free(pids);

	created = tbl_ns_count_created(t);
	for (ns = 0; ns < created; ns++) {
		uint64_t entries, bytes;
		sum_ns(t, ns, &entries, &bytes);
		out->entries += entries;
		out->entry_bytes += bytes;
	}
	if (tbl_alloc_lock(t) == TBL_OK) {
		if (reaped) {
			tbl_reclaim_locked(t, 0);   /* frees what only the dead held */
		}
		out->free_bytes = h->alloc.free_bytes;
		out->used_bytes = h->alloc.used_bytes;
		out->largest_free = tbl_alloc_largest_free(&h->alloc, t->base);
		out->heap_size = h->alloc.heap_end - h->alloc.heap_off;
		out->retired_blocks = h->retired_blocks;
		out->retired_bytes = h->retired_bytes;
		out->evicted_bytes = h->evicted_bytes;
		out->evict_runs = h->evict_runs;
		out->evict_moves = h->evict_moves;
		out->held_retired_bytes = tbl_held_retired_bytes_locked(t);
		tbl_alloc_unlock(t);
	}
	out->held_entries = atomic_load(&h->held_entries);
	out->held_bytes = atomic_load(&h->held_bytes);
	out->segment_size = h->segment_size;
	out->slots_total = h->nslots;
	out->lock_repairs = atomic_load(&h->lock_repairs);
	out->lock_timeouts = atomic_load(&h->lock_timeouts);
	out->gc_runs = atomic_load(&h->gc_runs);
	out->buckets = h->nbuckets;
	out->stripes = h->nstripes;
	out->max_chain = longest_chain(t);
	out->namespaces = created;
	out->policy = (tbl_policy_t)h->policy;
}
