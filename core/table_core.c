/*
 * table_core.c - the facade: creating the segment, the lock-free read path, counters, stats, scans.
 * Writes live in write.c, making room in evict.c, reclamation in epoch.c.
 *
 * The geometry scales with table.memory: one bucket per 256 bytes (power of two). Everything else but
 * the heap is carved out of the front of the segment; see segment.h for the picture. Reader slots are a
 * fixed number (4096) whatever table.memory says, so that no php-fpm pool runs out of them: they and
 * their zero-copy hold lists are mapped after the segment's table.memory bytes. So are the namespaces
 * (counters, names and the name index), sized for every id a namespace can have (TBL_NS_NAMED_MAX), so
 * that a tenant-per-namespace application is never refused by a table sized at start: ids are handed
 * out in order, so N namespaces touch about N x 1.3 KiB of those pages, and the rest stay virtual. The
 * mapping is zero-filled, so only the fields that start non-zero are written here, and the untouched
 * parts (nearly all slots, hold lists and namespace pages) are never faulted in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "epoch.h"
#include "expire.h"
#include "hash.h"
#include "index.h"
#include "crash.h"
#include "proc.h"
#include "sync.h"
#include "table_core.h"
#include "usage.h"

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

static uint64_t pow2_floor(uint64_t v)
{
	uint64_t p = 1;
	while (p * 2 <= v) {
		p *= 2;
	}
	return p;
}

/* Lay the segment out. Returns the heap offset, or 0 when the segment is too small for its own
 * bookkeeping. */
static uint64_t plan_layout(tbl_header_t *h, uint64_t memory, uint32_t nslots, uint32_t namespaces)
{
	uint64_t off;

	h->nstripes = TBL_NSTRIPES;
	h->nslots = nslots ? (uint32_t)clamp_u64(nslots, 1, 65535) : TBL_NSLOTS_DEFAULT;
	/* Named namespaces plus the default one; the index stays at most a quarter full. */
	h->max_ns = (namespaces ? (uint32_t)clamp_u64(namespaces, 1, TBL_NS_NAMED_MAX) : TBL_NS_NAMED_MAX) + 1u;
	h->nsindex_size = (uint32_t)pow2_floor(h->max_ns) * 4u;
	h->nbuckets = pow2_floor(clamp_u64(memory / 256u, 1024, UINT64_MAX / 2));

	/* The slots and hold lists come after the segment's own bytes (TBL_NSLOTS_DEFAULT slots with 8 KiB
	 * of hold list each: ~33 MiB of address space, faulted in only where used), then the namespaces
	 * ([nstripes][max_ns] counters, one record per id, the index: ~82 MiB of address space for every id,
	 * of which a table with N namespaces touches about N x 1.3 KiB). */
	h->off_slots = TBL_ALIGN_UP(memory, 4096);
	h->off_holds = TBL_ALIGN_UP(h->off_slots + (uint64_t)h->nslots * sizeof(tbl_slot_t), 4096);
	off = h->off_holds + (uint64_t)h->nslots * TBL_HOLD_MAX * sizeof(uint64_t);
	h->off_nscounts = off = TBL_ALIGN_UP(off, 4096);
	off += (uint64_t)h->nstripes * h->max_ns * sizeof(tbl_nscount_t);
	h->off_nsrecs = off = TBL_ALIGN_UP(off, 4096);
	off += (uint64_t)h->max_ns * sizeof(tbl_nsrec_t);
	h->off_nsindex = off = TBL_ALIGN_UP(off, 4096);
	off += (uint64_t)h->nsindex_size * sizeof(uint16_t);
	h->map_size = TBL_ALIGN_UP(off, 4096);

	off = TBL_ALIGN_UP(sizeof(tbl_header_t), TBL_CACHELINE);
	h->off_locks = off = TBL_ALIGN_UP(off, TBL_CACHELINE);
	off += (uint64_t)TBL_NLOCKS(h) * sizeof(tbl_lock_t);
	h->off_claims = off = TBL_ALIGN_UP(off, TBL_CACHELINE);
	off += (uint64_t)TBL_NCLAIMS * sizeof(tbl_claim_t);
	h->off_buckets = off = TBL_ALIGN_UP(off, TBL_CACHELINE);
	off += h->nbuckets * sizeof(uint64_t);
	off = TBL_ALIGN_UP(off, 4096);
	return off + 65536u <= memory ? off : 0;
}

static void bind_handle(tbl_t *t)
{
	tbl_header_t *h = t->hdr;

	t->slots = (tbl_slot_t *)(void *)(t->base + h->off_slots);
	t->holds = (_Atomic uint64_t *)(void *)(t->base + h->off_holds);
	t->locks = (tbl_lock_t *)(void *)(t->base + h->off_locks);
	t->nscounts = (tbl_nscount_t *)(void *)(t->base + h->off_nscounts);
	t->nsrecs = (tbl_nsrec_t *)(void *)(t->base + h->off_nsrecs);
	t->nsindex = (_Atomic uint16_t *)(void *)(t->base + h->off_nsindex);
	t->claims = (tbl_claim_t *)(void *)(t->base + h->off_claims);
	t->buckets = (_Atomic uint64_t *)(void *)(t->base + h->off_buckets);
	t->bucket_mask = h->nbuckets - 1u;
	tbl_hasher_init(&t->hasher, &h->hash_key);
}

/* Fill in a zero-filled segment mapped at t->base from the plan. */
static tbl_status_t init_segment(tbl_t *t, const tbl_config_t *cfg, const tbl_header_t *plan_in, uint64_t heap_off,
                                 char *errbuf, size_t errlen)
{
	tbl_header_t plan = *plan_in, *h = t->hdr;
	tbl_status_t st;
	uint32_t i;

	/* The hash key comes first: a table that could not get one must not exist (its chains could be
	 * flooded). Tests may fix it (cfg->hash_key) to make collisions reproducible. */
	if (cfg->fixed_hash_key) {
		plan.hash_key.k0 = cfg->hash_key[0];
		plan.hash_key.k1 = cfg->hash_key[1];
	} else if (tbl_os_random(&plan.hash_key, sizeof(plan.hash_key), errbuf, errlen) != 0) {
		return TBL_ESYS;
	}
	memcpy(h, &plan, sizeof(plan));
	h->magic = TBL_MAGIC;
	h->layout_version = TBL_LAYOUT_VERSION;
	h->segment_size = cfg->memory;
	h->policy = (uint32_t)cfg->policy;
	atomic_store(&h->epoch, 1);
	atomic_store(&h->ns_created, 1);   /* id 0: the default namespace */
	h->map_ino = tbl_proc_mapping_ino(t->base);
	h->tier_creator_pid = (int32_t)tbl_proc_self();
	h->tier_creator_start = tbl_proc_start_time(tbl_proc_self());
	bind_handle(t);
	for (i = 0; i < TBL_NLOCKS(h); i++) {
		if ((st = tbl_lock_init(&t->locks[i], errbuf, errlen)) != TBL_OK) {
			return st;
		}
	}
	tbl_alloc_init(&h->alloc, t->base, heap_off, cfg->memory - heap_off);
	atomic_store(&h->free_hint, h->alloc.free_bytes);
	return TBL_OK;
}

/* An existing named segment's table header, checked before anything in it is believed. */
static int header_sane(const tbl_header_t *h, uint64_t memory, uint64_t map_size)
{
	uint64_t nb = h->nbuckets;

	return h->magic == TBL_MAGIC && h->layout_version == TBL_LAYOUT_VERSION && h->segment_size == memory
	       && h->map_size == map_size && h->nstripes == TBL_NSTRIPES && h->nslots >= 1 && h->nslots <= 65535
	       && h->policy <= TBL_POLICY_GDSF && nb >= 1 && (nb & (nb - 1)) == 0
	       && h->off_buckets + nb * sizeof(uint64_t) <= memory && h->off_slots >= memory
	       && h->off_holds + (uint64_t)h->nslots * TBL_HOLD_MAX * sizeof(uint64_t) <= map_size
	       && h->alloc.heap_end <= memory;
}

static tbl_status_t open_named(tbl_t *t, const tbl_config_t *cfg, const tbl_header_t *plan, uint64_t heap_off,
                               char *errbuf, size_t errlen)
{
	tbl_shm_named_req_t req;
	tbl_shm_named_res_t res;
	tbl_status_t st;

	if (!(t->shm_ops = tbl_shm_file_ops())) {
		snprintf(errbuf, errlen, "named segments are not supported on this platform");
		return TBL_EINVAL;
	}
	memset(&req, 0, sizeof(req));
	req.path = cfg->segment_path;
	req.mode = cfg->segment_mode;
	req.recreate = cfg->segment_recreate;
	req.move = cfg->segment_move;
	req.layout_version = TBL_LAYOUT_VERSION;
	req.app_version = cfg->app_version;
	req.header_size = sizeof(tbl_header_t);
	req.memory = cfg->memory;
	req.map_size = plan->map_size;
	/* The prefix and the table proper are reserved at once; the slots and their hold lists are touched
	 * one process at a time. */
	req.reserve = TBL_SEG_PREFIX_SIZE + plan->off_slots;
	if ((st = t->shm_ops->open_named(&t->shm, &req, &res, errbuf, errlen)) != TBL_OK) {
		return st;
	}
	t->base = t->shm.addr;
	t->hdr = (tbl_header_t *)(void *)t->base;
	if (res.created) {
		if ((st = init_segment(t, cfg, plan, heap_off, errbuf, errlen)) != TBL_OK) {
			t->shm_ops->detach(&t->shm);   /* unpublished: the next opener starts over */
			return st;
		}
		t->hdr->map_ino = res.ino;
		TBL_CRASH_POINT("segment.create.initialised");
		t->shm_ops->publish(&t->shm);
	} else {
		if (!header_sane(t->hdr, res.memory, res.map_size)) {
			snprintf(errbuf, errlen, "%s has a damaged table header; remove the file", cfg->segment_path);
			t->shm_ops->detach(&t->shm);
			return TBL_EINVAL;
		}
		bind_handle(t);
	}
	t->seg.named = 1;
	t->seg.created = res.created;
	t->seg.same_base = res.same_base;
	t->seg.replaced = res.replaced;
	t->seg.memory = res.memory;
	t->seg.requested = cfg->memory;
	t->seg.base_shift = (int64_t)((uint64_t)(uintptr_t)t->base - res.creator_base);
	t->seg.created_at = res.created_at;
	snprintf(t->seg.note, sizeof(t->seg.note), "%s", res.note);
	return TBL_OK;
}

/* A process killed while claiming a slot (misc lock held) may have taken it without raising slots_hwm
 * yet, and the reaper only looks below the mark. A claimer takes the lowest free slot, so such slots
 * follow the mark one after another: raise it past them, and the reaper sees them. */
static void slots_hwm_repair(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	uint32_t hwm, top;

	if (tbl_misc_lock(t) != TBL_OK) {
		return;
	}
	hwm = top = atomic_load(&h->slots_hwm);
	while (top < h->nslots && atomic_load(&t->slots[top].pid) != 0) {
		top++;
	}
	while (hwm < top && !atomic_compare_exchange_weak(&h->slots_hwm, &hwm, top)) {
	}
	tbl_misc_unlock(t);
}

tbl_status_t tbl_create(tbl_t **out, const tbl_config_t *cfg, char *errbuf, size_t errlen)
{
	tbl_header_t plan;
	uint64_t heap_off;
	tbl_status_t st;
	tbl_t *t;

	*out = NULL;
	memset(&plan, 0, sizeof(plan));
	if (cfg->memory < TBL_MIN_MEMORY || (heap_off = plan_layout(&plan, cfg->memory, cfg->slots, cfg->namespaces)) == 0) {
		snprintf(errbuf, errlen, "a segment of %llu bytes is too small (at least %u bytes)",
		         (unsigned long long)cfg->memory, TBL_MIN_MEMORY);
		return TBL_EINVAL;
	}
	if (cfg->policy > TBL_POLICY_GDSF) {
		snprintf(errbuf, errlen, "unknown eviction policy %d", (int)cfg->policy);
		return TBL_EINVAL;
	}
	if (!(t = calloc(1, sizeof(*t)))) {
		snprintf(errbuf, errlen, "calloc(%zu) failed", sizeof(*t));
		return TBL_ESYS;
	}
	t->hooks = cfg->hooks;
	if (cfg->segment_path) {
		if ((st = open_named(t, cfg, &plan, heap_off, errbuf, errlen)) != TBL_OK) {
			free(t);
			return st;
		}
	} else {
		t->shm_ops = tbl_shm_default_ops();
		if ((st = t->shm_ops->create(&t->shm, (size_t)plan.map_size, errbuf, errlen)) != TBL_OK) {
			free(t);
			return st;
		}
		t->base = t->shm.addr;
		t->hdr = (tbl_header_t *)(void *)t->base;
		if ((st = init_segment(t, cfg, &plan, heap_off, errbuf, errlen)) != TBL_OK) {
			t->shm_ops->detach(&t->shm);
			free(t);
			return st;
		}
		t->seg.created = 1;
		t->seg.same_base = 1;
		t->seg.memory = t->seg.requested = cfg->memory;
	}
	tbl_epoch_track_fork(t);
	if (t->seg.named && !t->seg.created) {
		/* Recovery on attach: whoever had the segment mapped may have been killed, every one of them.
		 * Their reader slots (pid + start time; the boot is the segment's) are released now, holds and
		 * all; locks they held are repaired by their next taker, as always. */
		slots_hwm_repair(t);
		tbl_slots_reap(t, 0);
	}
	*out = t;
	return TBL_OK;
}

void tbl_segment_info(const tbl_t *t, tbl_segment_info_t *out)
{
	*out = t->seg;
}

void tbl_detach(tbl_t *t)
{
	if (t) {
		tbl_read_reset(t);
		tbl_slot_release(t);
	}
}

void tbl_destroy(tbl_t *t)
{
	if (!t) {
		return;
	}
	tbl_detach(t);
	tbl_epoch_untrack_fork(t);
	t->shm_ops->detach(&t->shm);
	free(t->hold_set);
	free(t);
}

int tbl_debug_protect(tbl_t *t, int readonly)
{
	return t->shm_ops->protect ? t->shm_ops->protect(&t->shm, readonly) : -1;
}

const char *tbl_errstr(tbl_t *t)
{
	return t->errstr;
}

/* ---- reads --------------------------------------------------------------------------------------------- */

/* Inlined into the lookups below, the read path's hottest calls. */
TBL_INLINE tbl_status_t read_begin(tbl_t *t)
{
	tbl_status_t st = tbl_slot_ensure(t);

	if (TBL_UNLIKELY(st != TBL_OK)) {
		return st;
	}
	tbl_epoch_enter(t);
	return TBL_OK;
}

tbl_status_t tbl_read_begin(tbl_t *t)
{
	return read_begin(t);
}

void tbl_read_end(tbl_t *t)
{
	tbl_epoch_exit(t);
}

void tbl_read_reset(tbl_t *t)
{
	if (t->slot) {
		tbl_epoch_exit(t);
	}
}

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

static inline void fill_view(const tbl_t *t, const tbl_entry_t *e, tbl_view_t *v)
{
	v->entry = tbl_offset_of(t, e);
	v->type = e->type;
	v->data = tbl_entry_value(e);
	v->len = e->val_len;
	v->size = e->bytes;
	v->created = e->created;
	v->updated = e->updated;
	v->expire = TBL_LOAD_RELAXED(&((tbl_entry_t *)e)->expire);
}

static inline tbl_status_t lookup_hashed(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint64_t hash,
                                         tbl_view_t *out, int count)
{
	tbl_entry_t *e = tbl_index_find(t, hash, tbl_ns_id(ns), key, klen);

	/* A handle from before its namespace was recycled must not see the new namespace's entries. */
	if (TBL_LIKELY(e != NULL) && TBL_LIKELY(tbl_ns_current(t, ns))) {
		uint32_t exp = TBL_LOAD_RELAXED(&e->expire);
		uint32_t policy = t->hdr->policy;
		int lru = policy == TBL_POLICY_LRU;

		if (policy == TBL_POLICY_GDSF) {
			tbl_gdsf_note_read(e);
		}
		if (exp || lru) {
			tbl_now_t now = exp ? tbl_clock_now() : tbl_clock_now_coarse();
			if (exp && exp < now.sec) {   /* as tbl_entry_expired() */
				goto miss;
			}
			/* At most one store per entry per 100 ms tick: reads stay off shared lines. */
			if (lru && TBL_LOAD_RELAXED(&e->usage) != now.tick) {
				TBL_STORE_RELAXED(&e->usage, now.tick);
			}
		}
		fill_view(t, e, out);
		if (count) {
			TBL_COUNT(t, hits, 1);
		}
		return TBL_OK;
	}
miss:
	if (count) {
		TBL_COUNT(t, misses, 1);
	}
	return TBL_ENOTFOUND;
}

tbl_status_t tbl_lookup(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, tbl_view_t *out, int count)
{
	return lookup_hashed(t, ns, key, klen, tbl_key_hash(t, key, klen, tbl_ns_id(ns)), out, count);
}

uint64_t tbl_hash_of(const tbl_t *t, tbl_ns_t ns, const char *key, size_t klen)
{
	return tbl_key_hash(t, key, klen, tbl_ns_id(ns));
}

tbl_status_t tbl_read_lookup_hashed(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint64_t hash,
                                    tbl_view_t *out, int count)
{
	tbl_status_t st = read_begin(t);

	if (TBL_UNLIKELY(st != TBL_OK)) {
		return st;
	}
	return lookup_hashed(t, ns, key, klen, hash, out, count);
}

tbl_status_t tbl_read_lookup(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, tbl_view_t *out, int count)
{
	uint64_t hash = tbl_key_hash(t, key, klen, tbl_ns_id(ns));
	tbl_status_t st = read_begin(t);

	if (TBL_UNLIKELY(st != TBL_OK)) {
		return st;
	}
	return lookup_hashed(t, ns, key, klen, hash, out, count);
}

tbl_status_t tbl_lookup_held(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint64_t hash, tbl_view_t *out,
                             int count)
{
	uint64_t off, *cell;
	tbl_entry_t *e;
	uint32_t exp;

	if (!t->held_cache || !t->slot) {
		return TBL_ENOTFOUND;
	}
	cell = &t->held_cache[hash & (TBL_HELD_CACHE - 2u)];
	off = cell[0];
	if (!off) {
		return TBL_ENOTFOUND;
	}
	/* Held by this process, so allocated and an entry; still the key's live entry unless it was
	 * retired (a writer sets retire_epoch under its stripe lock, before its call returns). */
	e = tbl_entry_at(t, off);
	if (e->hash != hash && cell[1]) {
		e = tbl_entry_at(t, cell[1]);
	}
	if (!tbl_entry_matches(e, hash, tbl_ns_id(ns), key, klen)
	    || __atomic_load_n(&e->retire_epoch, __ATOMIC_ACQUIRE) != 0 || !tbl_ns_current(t, ns)) {
		return TBL_ENOTFOUND;
	}
	exp = TBL_LOAD_RELAXED(&e->expire);
	if (exp || t->hdr->policy == TBL_POLICY_LRU) {
		tbl_now_t now = exp ? tbl_clock_now() : tbl_clock_now_coarse();
		if (exp && exp < now.sec) {
			return TBL_ENOTFOUND;   /* the slow path counts the miss */
		}
		if (t->hdr->policy == TBL_POLICY_LRU && TBL_LOAD_RELAXED(&e->usage) != now.tick) {
			TBL_STORE_RELAXED(&e->usage, now.tick);
		}
	}
	if (t->hdr->policy == TBL_POLICY_GDSF) {
		tbl_gdsf_note_read(e);
	}
	fill_view(t, e, out);
	if (count) {
		TBL_COUNT(t, hits, 1);
	}
	return TBL_OK;
}

tbl_status_t tbl_lookup_copy(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, tbl_view_t *out,
                             void **copy)
{
	uint64_t hash = tbl_key_hash(t, key, klen, tbl_ns_id(ns));
	uint32_t stripe = tbl_stripe_of_bucket(t, tbl_bucket_of_hash(t, hash));
	tbl_status_t st;

	*copy = NULL;
	/* Writers unlink (and so retire and free) an entry only under its stripe's lock: while we hold it,
	 * the chain and its entries stay put, with no read section. */
	if ((st = tbl_stripe_lock(t, stripe)) != TBL_OK) {
		return st;
	}
	st = lookup_hashed(t, ns, key, klen, hash, out, 0);
	if (st == TBL_OK && out->len > 0) {
		if ((*copy = malloc(out->len)) == NULL) {
			st = TBL_ESYS;
			snprintf(t->errstr, sizeof(t->errstr), "malloc(%u) failed", out->len);
		} else if (out->type == TBL_T_LONG) {
			int64_t v = tbl_view_long(out);
			memcpy(*copy, &v, sizeof(v));
		} else {
			tbl_view_copy(t, out, *copy);
			out->type &= (uint8_t)~TBL_T_SPLIT;   /* the copy is one piece */
		}
	}
	tbl_stripe_unlock(t, stripe);
	return st;
}

/* ---- counters and stats -------------------------------------------------------------------------------- */

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

void tbl_get_stats(tbl_t *t, tbl_stats_t *out)
{
	tbl_header_t *h = t->hdr;
	uint32_t i, hwm;
	unsigned ns, created, reaped;

	memset(out, 0, sizeof(*out));
	tbl_stripes_settle(t);
	if (tbl_slot_ensure(t) == TBL_OK) {
		tbl_expire_due(t, -1, tbl_clock_now().sec);
	}
	/* Count live processes only: first give back the slots, and the holds, of those that are gone. */
	reaped = tbl_slots_reap_gone(t);
	if (tbl_misc_lock(t) != TBL_OK) {
		return;   /* an unusable lock: the counters stay 0 */
	}
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
		out->processes += !(atomic_load(&s->flags) & TBL_SLOT_HANDOVER);
		out->pins += atomic_load(&s->nholds) != 0;
#define TBL_SUM(f) out->f += TBL_LOAD_RELAXED(&s->stats.f)
		TBL_SUM(hits); TBL_SUM(misses); TBL_SUM(sets); TBL_SUM(deletes);
		TBL_SUM(evictions); TBL_SUM(expirations); TBL_SUM(oom); TBL_SUM(zero_copy_reads);
#undef TBL_SUM
	}
	tbl_misc_unlock(t);

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
	out->gc_runs = atomic_load(&h->gc_runs);
	out->buckets = h->nbuckets;
	out->stripes = h->nstripes;
	out->max_chain = longest_chain(t);
	out->namespaces = created;
	out->policy = (tbl_policy_t)h->policy;
}

/* ---- scans --------------------------------------------------------------------------------------------- */

uint64_t tbl_scan(tbl_t *t, uint32_t ns, uint64_t *cursor, uint64_t max_buckets, tbl_scan_fn fn, void *ctx)
{
	uint64_t b = *cursor, visited = 0;
	uint32_t now_sec;
	int stop = 0;

	if (tbl_read_begin(t) != TBL_OK) {
		*cursor = 0;
		return 0;
	}
	now_sec = tbl_clock_now().sec;
	for (; b < t->hdr->nbuckets && visited < max_buckets && !stop; b++, visited++) {
		uint64_t off = atomic_load_explicit(&t->buckets[b], memory_order_acquire);

		while (off && !stop) {
			tbl_entry_t *e = tbl_entry_at(t, off);
			/* An entry seen through the chain's acquire loads was written after any recycle that
			 * made its namespace, so a handle that is current after loading it owns it. */
			if ((ns == TBL_SCAN_ALL_NS || (e->ns == tbl_ns_id(ns) && tbl_ns_current(t, ns)))
			    && !tbl_entry_expired(e, now_sec)) {
				tbl_view_t v;
				fill_view(t, e, &v);
				stop = fn(ctx, e->ns, tbl_entry_key(e), e->key_len, &v);
			}
			off = atomic_load_explicit(&e->next, memory_order_acquire);
		}
	}
	tbl_read_end(t);
	*cursor = b >= t->hdr->nbuckets ? 0 : b;
	return visited;
}
