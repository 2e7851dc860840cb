/*
 * table_core.c - the table's life: creating or opening the segment, detaching, destroying.
 * Reads live in read.c, writes in write.c, counters and stats in stats.c, making room in room.c,
 * reclamation in epoch.c.
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
#include "hash.h"
#include "crash.h"
#include "ns.h"
#include "proc.h"
#include "sync.h"
#include "table_core.h"

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
	req.keep_versions = cfg->segment_keep_versions;
	req.move = cfg->segment_move;
	req.layout_version = TBL_LAYOUT_VERSION;
	req.app_version = cfg->app_version;
	req.header_size = sizeof(tbl_header_t);
	req.memory = cfg->memory;
	req.map_size = plan->map_size;
	req.lock_wait_ms = t->lock_wait_ms;
	/* Blocks for the prefix, the table proper and the reader slots, and for the namespace index (probed
	 * anywhere), at once; a hold list and a namespace's pages when first used (tbl_seg_reserve). */
	req.reserve = TBL_SEG_PREFIX_SIZE + plan->off_holds;
	req.reserve_tail = plan->map_size - plan->off_nsindex;
	if ((st = t->shm_ops->open_named(&t->shm, &req, &res, errbuf, errlen)) != TBL_OK) {
		return st;
	}
	t->base = t->shm.addr;
	t->hdr = (tbl_header_t *)(void *)t->base;
	if (res.created) {
		if ((st = init_segment(t, cfg, plan, heap_off, errbuf, errlen)) != TBL_OK
		    || (st = tbl_ns_reserve(t, 0)) != TBL_OK) {
			if (st == TBL_ESYS && t->errstr[0]) {
				snprintf(errbuf, errlen, "%s", t->errstr);
			}
			t->shm_ops->detach(&t->shm);   /* unpublished: the file is removed, the next opener starts over */
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
	t->seg.replaced_version = res.replaced == TBL_SEG_REPLACED_VERSION;
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
	/* Bounded: a lock may be held by a stopped process. A bigger segment takes its creator longer to size
	 * (posix_fallocate of table.memory) and a repair longer to walk, so the bound grows with it. */
	if (!(t->lock_wait_ms = cfg->lock_wait_ms)) {
		uint64_t gib = cfg->memory >> 30;
		t->lock_wait_ms = 10000u + 1000u * (uint32_t)(gib < 3600u ? gib : 3600u);
	}
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

tbl_segment_state_t tbl_segment_current(const tbl_t *t)
{
	if (!t->seg.named || !t->shm_ops->current) {
		return TBL_SEGMENT_CURRENT;
	}
	switch (t->shm_ops->current(&t->shm)) {
	case TBL_SHM_PATH_REMOVED:
		return TBL_SEGMENT_REMOVED;
	case TBL_SHM_PATH_REPLACED:
		return TBL_SEGMENT_REPLACED;
	default:
		return TBL_SEGMENT_CURRENT;
	}
}

uint32_t tbl_user_claim(tbl_t *t, uint32_t uid)
{
	uint32_t seen = 0;

	/* Stored as uid + 1, so that a zeroed segment reads "nobody yet" and root (uid 0) can claim it. */
	if (atomic_compare_exchange_strong(&t->hdr->first_user, &seen, uid + 1)) {
		return uid;
	}
	return seen - 1;
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

tbl_status_t tbl_thread_open(tbl_t *proc, tbl_t **out)
{
	tbl_t *t;

	*out = NULL;
	if (!(t = malloc(sizeof(*t)))) {
		return TBL_ENOMEM;
	}
	/* The mapping and everything derived from it are the process handle's; the rest is this thread's. */
	*t = *proc;
	t->slot = NULL;
	t->pid = 0;
	t->tid = tbl_proc_thread_self();
	t->rng = 0;
	t->store_count = 0;
	t->evict_looked = 0;
	t->hold_set = NULL;
	t->held_cache = NULL;
	t->handover = NULL;
	t->holds_ready = NULL;
	t->handed_over = 0;
	t->slot_retry_ms = 0;
	t->room_lock_failed = 0;
	t->errstr[0] = '\0';
	tbl_epoch_track_thread(t);
	*out = t;
	return TBL_OK;
}

void tbl_thread_close(tbl_t *t)
{
	if (!t) {
		return;
	}
	tbl_epoch_untrack_thread(t);
	/* In a forked child, the handle of a thread that did not fork has no slot (epoch.c): nothing to give back. */
	tbl_detach(t);
	free(t->hold_set);
	free(t);
}

void tbl_thread_forget(tbl_t *t)
{
	if (!t) {
		return;
	}
	tbl_epoch_untrack_thread(t);
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
