/*
 * segment.h - the layout of the shared segment and the process-local handle onto it.
 *
 * Internal to the core (the binding only sees table_core.h). Every structure here lives in shared
 * memory and refers to others by offset from the segment base, never by pointer; the typed helpers at the
 * bottom turn offsets into pointers. core/DESIGN.md draws the whole picture; in short:
 *
 *   +--------------------+  0
 *   | tbl_header_t       |  geometry, global epoch, allocator state, retire queue, folded stats
 *   +--------------------+  off_locks
 *   | tbl_lock_t[...]    |  nstripes stripe locks, then the allocator, namespace and misc locks
 *   +--------------------+  off_claims
 *   | tbl_claim_t[...]   |  remember() claims
 *   +--------------------+  off_buckets
 *   | bucket heads       |  _Atomic uint64_t[nbuckets]: offset of the first entry of each chain
 *   +--------------------+  heap_off
 *   | heap               |  entries (tbl_entry_t + key + value), managed by alloc.c
 *   +--------------------+  segment_size (table.memory)
 *   | tbl_slot_t[nslots] |  one per process: read epoch, pid + start time, counters, nholds
 *   +--------------------+  off_holds
 *   | hold lists         |  TBL_HOLD_MAX entry offsets per slot (zero-copy holds, epoch.c)
 *   +--------------------+  off_nscounts
 *   | tbl_nscount_t      |  [nstripes][max_ns]: entries, bytes and earliest expiry per stripe and namespace
 *   +--------------------+  off_nsrecs / off_nsindex
 *   | namespace names    |  tbl_nsrec_t[max_ns] by id, and an open-addressed index name hash -> id
 *   +--------------------+  map_size
 * Everything after segment_size is faulted in only where used: ids are handed out in order, so the
 * namespace pages a table touches grow with the namespaces it has, not with max_ns (every possible id).
 * A named segment's file gets blocks for the slots and the namespace index when it is made, and for a
 * hold list or a namespace's counters and record when first used (tbl_seg_reserve): no SIGBUS when its
 * file system is full.
 */
#ifndef TBL_SEGMENT_H
#define TBL_SEGMENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "alloc.h"
#include "hash.h"
#include "lock.h"
#include "platform.h"
#include "shm.h"
#include "table_types.h"

#define TBL_MAGIC          0x3162615474686853ull   /* "ShmTab1" */
#define TBL_NSTRIPES       32u
#define TBL_NCLAIMS        64u
#define TBL_MIN_MEMORY     (1024u * 1024u)
#define TBL_TIER_GENS      2048u   /* power of two */

/* Lock indexes after the stripes. Lock order: stripe (ascending) -> ns -> alloc -> misc. */
#define TBL_LOCK_NS(h)     ((h)->nstripes + 0u)
#define TBL_LOCK_ALLOC(h)  ((h)->nstripes + 1u)
#define TBL_LOCK_MISC(h)   ((h)->nstripes + 2u)
#define TBL_NLOCKS(h)      ((h)->nstripes + 3u)

/* Per-process counters. Only the owning process writes them (relaxed stores, no RMW on a shared line). */
typedef struct tbl_counters {
	_Atomic uint64_t hits, misses, sets, deletes, evictions, expirations, oom;
	_Atomic uint64_t zero_copy_reads;
} tbl_counters_t;

#define TBL_EPOCH_IDLE 0u

typedef struct tbl_slot {
	_Atomic uint64_t epoch;        /* TBL_EPOCH_IDLE, or the global epoch seen when the read began */
	_Atomic int32_t pid;           /* 0 = free */
	_Atomic uint32_t flags;        /* TBL_SLOT_PINNED, TBL_SLOT_HANDOVER */
	uint64_t start_time;           /* owner's process start time (proc.h) */
	uint64_t handover_ms;          /* TBL_SLOT_HANDOVER: when the parent claimed it (monotonic ms) */
	_Atomic uint32_t nholds;       /* records in this slot's hold list (epoch.c; written by the owner) */
	_Atomic int32_t tid;           /* 0: owned by the whole process; else by this thread of it (a thread
	                                  handle, tbl_thread_open) */
	uint64_t tid_start;            /* that thread's start time (proc.h), with tid */
	_Atomic uint64_t tier_l1_hits; /* the Redis tier's L1 hits of the processes that held this slot (tier.c):
	                                  written by the owner only, never reset (a slot's next owner counts on
	                                  from it), so the sum over the slots is exact. Was reserved (always 0):
	                                  the layout is unchanged */
	uint64_t reserved[1];
	tbl_counters_t stats;          /* second cache line */
} tbl_slot_t;

_Static_assert(sizeof(tbl_slot_t) == 128, "tbl_slot_t must be two cache lines");

#define TBL_SLOT_HANDOVER 2u   /* claimed by a holding parent in fork()'s prepare step for its child */

/* Slots are a fixed number, independent of table.memory, and live (with their hold lists) after the heap,
 * beyond table.memory, in pages that are only faulted in when used. */
#define TBL_NSLOTS_DEFAULT 4096u
#define TBL_HOLD_MAX       1024u   /* zero-copy holds per slot; past them, reads copy */
#define TBL_HOLD_SET_SIZE  (2u * TBL_HOLD_MAX)   /* process-local hold set: power of two */
#define TBL_HELD_CACHE     (8u * TBL_HOLD_MAX)   /* process-local held entries by key hash, 2-way */
/* A hold record is an entry offset (16-aligned) with these flags in its low bits. */
#define TBL_HOLD_PENDING   1u      /* being taken or released: a reaper cannot tell whether it counted */
#define TBL_HOLD_COUNTING  2u      /* (with PENDING) its count may be changing: one dropped so may leave a count
                                    * no record backs (holds_lost; epoch.c's audit) */
#define TBL_HOLD_FLAGS     15u     /* the low bits a record may carry besides the offset */

/* Per stripe and namespace; written under the stripe lock, read with relaxed loads. */
typedef struct tbl_nscount {
	_Atomic uint64_t entries;
	_Atomic uint64_t bytes;
	_Atomic uint32_t min_expire;   /* lower bound of the expiries of this cell's entries, 0 = none */
	uint32_t reserved;
	uint64_t reserved2;
} tbl_nscount_t;

/* A namespace name. `gen` is a sequence count: odd while the record is being rewritten by a recycle,
 * and the generation of the handles that refer to it otherwise (namespace lock for writers). */
typedef struct tbl_nsrec {
	_Atomic uint32_t gen;
	_Atomic uint32_t last_get;     /* unix seconds of the latest tbl_ns_get (recycling keeps clear) */
	_Atomic uint32_t fresh;        /* monotonic ms (low 32 bits) it was created or recycled at, until its
	                                  first write (then 0); recycling skips it for TBL_NS_FRESH_MS */
	uint16_t len;
	char name[TBL_NS_NAME_MAX];
	uint8_t reserved;
} tbl_nsrec_t;

#define TBL_NSINDEX_TOMBSTONE 0xFFFFu   /* a recycled name's index cell: probing continues past it */
#define TBL_NS_FRESH_MS 1000u

/* A claim names its key by the key itself: the first TBL_CLAIM_KEY_INLINE bytes, the full length and
 * the keyed hash (claim.c), so two keys that merely share a hash never share a claim. */
#define TBL_CLAIM_KEY_INLINE 216u

typedef struct tbl_claim {
	uint64_t hash;                 /* tbl_key_hash | 1; 0 = free. Written last when a claim is taken */
	uint32_t ns;
	int32_t pid;
	uint64_t start_time;
	uint64_t deadline_ms;          /* CLOCK_MONOTONIC */
	uint16_t key_len;              /* the whole key's length */
	uint8_t reserved[2];
	int32_t tid;                   /* the claimant's thread (0: the process; see tbl_slot_t.tid) */
	char key[TBL_CLAIM_KEY_INLINE];   /* the key's first min(key_len, TBL_CLAIM_KEY_INLINE) bytes */
} tbl_claim_t;

_Static_assert(sizeof(tbl_claim_t) == 256, "tbl_claim_t must be four cache lines");

typedef struct tbl_header {
	uint64_t magic;
	uint64_t layout_version;
	uint64_t segment_size;
	uint32_t nstripes, nslots, max_ns, policy;
	uint64_t nbuckets;             /* power of two */
	uint64_t off_slots, off_locks, off_nscounts, off_nsrecs, off_nsindex, off_claims, off_buckets;
	uint32_t nsindex_size;         /* power of two, 2 x max_ns at least */
	_Atomic uint32_t holds_lost;   /* hold records dropped mid-count by reapers, not yet audited (epoch.c;
	                                  misc lock). Was reserved0 (always 0), so the layout is unchanged */
	tbl_hash_key_t hash_key;       /* the key hash's secret (hash.h): random, set once at creation */
	uint64_t off_holds;            /* hold lists: TBL_HOLD_MAX offsets per slot, after the slots */
	uint64_t map_size;             /* the whole mapping: segment_size plus the slots and hold lists */
	uint64_t map_ino;              /* the mapping's inode in /proc/<pid>/maps, 0 unknown (proc.h) */

	/* Global epoch, on a line of its own: readers load it, writers advance it on every retire. */
	TBL_ALIGNED(TBL_CACHELINE) _Atomic uint64_t epoch;

	/* Allocator lock. */
	TBL_ALIGNED(TBL_CACHELINE) tbl_alloc_t alloc;
	uint64_t retire_head, retire_tail;   /* FIFO of retired entries, oldest first */
	uint64_t retired_blocks, retired_bytes;
	uint64_t retires_since_reclaim;
	uint64_t evicted_bytes;              /* blocks of live entries evicted to make room (evict.c) */
	uint64_t evict_runs;                 /* runs of neighbouring blocks evicted, one per write that needed it */
	uint64_t evict_moves;                /* entries moved out of such a run instead of evicted (gdsf) */
	_Atomic uint32_t evict_age;          /* lru: age of what gets evicted, moving average, ticks << 8 */
	_Atomic uint32_t inflation;          /* gdsf: the clock entries' worth is stamped from (evict.c) */
	uint64_t held_head;                  /* retired entries still held by zero-copy readers (retire_next) */
	uint64_t holds_reap_ms;              /* last check for dead or exec'd holders (monotonic ms) */

	/* Namespace lock (writers); readers load ns_created with acquire. */
	TBL_ALIGNED(TBL_CACHELINE) _Atomic uint32_t ns_created;

	/* Misc lock. */
	TBL_ALIGNED(TBL_CACHELINE) tbl_counters_t folded;  /* counters of processes that left */
	_Atomic uint32_t slots_hwm;                        /* slots [0, hwm) may be in use */

	/* The longest chain a write has built in each stripe (stripe lock; read relaxed by stats). */
	TBL_ALIGNED(TBL_CACHELINE) _Atomic uint32_t chain_hwm[TBL_NSTRIPES];

	/* Lock-free. */
	TBL_ALIGNED(TBL_CACHELINE) _Atomic uint64_t sweep_cursor;
	_Atomic uint64_t lock_repairs;
	_Atomic uint64_t gc_runs;         /* tbl_gc passes (after a writer died holding a lock) */
	_Atomic uint64_t stuck_epoch;     /* a reader inside since this epoch made a writer wait in vain */
	_Atomic uint32_t gc_needed;       /* a writer died mid-operation: blocks may have leaked */
	_Atomic uint32_t has_ttl;         /* some entry was ever stored with an expiry: sweeps are useful */
	_Atomic uint32_t held_zeroed;     /* a hold count reached 0: the held list has something to free */
	_Atomic uint64_t held_entries;    /* entries with at least one zero-copy hold */
	_Atomic uint64_t held_bytes;      /* and their bytes (what table.zero_copy_budget bounds) */
	_Atomic uint64_t free_hint;       /* alloc.free_bytes when the allocator lock was last released */
	_Atomic uint32_t first_user;      /* 1 + the user id that claimed the table first (tbl_user_claim), 0 =
	                                     none yet. In this line's padding: the layout is unchanged */
	_Atomic uint64_t lock_timeouts;   /* waits for a lock that gave up (lock.h); in the padding too */
	_Atomic uint64_t tier_failovers;  /* the tier's TBL_TIER_FAILOVERS (tier.h), which has no room beside the
	                                     other tier counts; in the padding too */

	/* The Redis tier's bookkeeping (tier.c), lock-free. */
	TBL_ALIGNED(TBL_CACHELINE) _Atomic uint64_t tier_fresh_ms;   /* monotonic ms: every invalidation Redis
	                                                                sent before it is applied; 0 = not fresh */
	_Atomic uint64_t tier_epoch;        /* advanced by every flush of the tiered namespaces */
	_Atomic int32_t tier_helper_pid;    /* the invalidation helper, or the process starting it; 0 = none */
	int32_t tier_creator_pid;           /* the process that created the segment (anonymous ones: its life) */
	_Atomic uint64_t tier_helper_start; /* the helper's process start time (proc.h), 0 while it starts */
	_Atomic uint64_t tier_claim_ms;     /* monotonic ms the helper slot was claimed at; once the helper has
	                                       registered, its heartbeat (tier.c: a helper that stops beating is
	                                       replaced as a dead one is) */
	uint64_t tier_creator_start;
	_Atomic uint64_t tier_invalidations;   /* keys the helper invalidated, counted once the copy is gone */
	_Atomic uint64_t tier_flushes;         /* flushes of the tiered namespaces */
	_Atomic uint64_t tier_helper_starts;   /* helpers started */
	_Atomic uint64_t tier_counts[7];       /* the tier's counters (tier.h: tbl_tier_counter_t), shared so
	                                          that no process's count is lost. In this line's padding: the
	                                          layout is unchanged */
	/* One generation per key hash slot: advanced by every invalidation of a key that hashes there. */
	TBL_ALIGNED(TBL_CACHELINE) _Atomic uint64_t tier_gens[TBL_TIER_GENS];
} tbl_header_t;

/* Entries are immutable once linked, except `next` (relinking), `usage` (advisory), `expire` (touch)
 * and, for TBL_T_LONG, the integer, its seal and `updated` (tbl_incr, integer.h). Key bytes follow the
 * header; the value follows the key, 8-byte aligned (16 for an integer). */
typedef struct tbl_entry {
	_Atomic uint64_t next;         /* next entry in the chain, 0 = end */
	uint64_t hash;
	uint64_t retire_next;          /* retire queue link (allocator lock) */
	uint64_t retire_epoch;         /* global epoch at retirement */
	uint16_t ns;
	uint16_t key_len;
	uint8_t type;
	uint8_t flags;
	_Atomic uint16_t holds;        /* zero-copy holds on this entry (epoch.c): freed only at 0 */
	uint32_t val_len;
	_Atomic uint32_t usage;        /* what eviction ranks it by (advisory): lru, the tick of the last read
	                                * (written at most once per tick); gdsf, a stamp of the inflation clock
	                                * and a 2-bit count of reads (evict.h) */
	uint32_t created;
	uint32_t updated;
	_Atomic uint32_t expire;       /* unix seconds, 0 = never */
	uint32_t bytes;                /* block size the entry occupies, header included */
} tbl_entry_t;

_Static_assert(sizeof(tbl_entry_t) == 64, "tbl_entry_t must be one cache line");

/* An entry whose value lies in pieces (split.c) has TBL_T_SPLIT in its type; where its value would be
 * lies its piece directory: a count, then one reference per piece, in value order. Each piece is a
 * block of its own that starts with a tbl_entry_t header (type TBL_T_PIECE, `next` the offset of the
 * entry it belongs to once that is known, `hash` that entry's hash, `val_len` the bytes it carries,
 * `bytes` its block) followed by those bytes. The entry's `bytes` counts its own block and every piece. */
#define TBL_T_PIECE 0x7Fu

typedef struct tbl_piece_dir {
	uint32_t n;
	uint32_t reserved;
} tbl_piece_dir_t;

typedef struct tbl_piece_ref {
	uint64_t off;                  /* the piece's block (payload offset) */
	uint32_t len;                  /* value bytes it carries */
	uint32_t reserved;
} tbl_piece_ref_t;

/* The process-local handle. */
struct tbl {
	unsigned char *base;
	tbl_header_t *hdr;
	tbl_slot_t *slots;
	tbl_slot_t *slot;              /* this process's, NULL until claimed (reset in a forked child) */
	tbl_lock_t *locks;
	tbl_nscount_t *nscounts;
	tbl_nsrec_t *nsrecs;
	_Atomic uint16_t *nsindex;
	tbl_claim_t *claims;
	_Atomic uint64_t *buckets;
	uint64_t bucket_mask;
	tbl_hasher_t hasher;           /* derived from hdr->hash_key (hash.h), next to bucket_mask for the read path */
	tbl_hooks_t hooks;
	const tbl_shm_ops_t *shm_ops;
	tbl_shm_t shm;
	uint64_t rng;                  /* xorshift state for eviction sampling */
	uint32_t store_count;          /* drives incremental TTL sweeps */
	uint64_t evict_looked;         /* blocks this process's evictions looked at (core/bench/eviction_replay) */
	pid_t pid;                     /* owner of `slot` */
	pid_t tid;                     /* a thread handle (tbl_thread_open): its thread; 0: the process's handle */
	tbl_t *thread_next;            /* thread handles of this process (epoch.c, for fork) */
	tbl_t *thread_prev;
	uint32_t lock_wait_ms;         /* the longest wait for a lock another process holds (tbl_config_t) */
	int room_lock_failed;          /* tbl_room_alloc found no room because the allocator lock failed */
	_Atomic uint64_t *holds;       /* all slots' hold lists (TBL_HOLD_MAX each) */
	uint64_t *hold_set;            /* process-local: offsets this process holds, open addressing */
	uint64_t *held_cache;          /* process-local: held offsets by key hash (tbl_lookup_held) */
	tbl_slot_t *handover;          /* between fork()'s prepare step and the child: the child's slot */
	const tbl_slot_t *holds_ready; /* the slot whose hold list this process reserved (tbl_seg_reserve) */
	int handed_over;               /* forked while holding: tbl_release_holds looks for slots no child took */
	uint64_t slot_retry_ms;        /* no free slot: don't scan for one again before then (monotonic ms) */
	tbl_segment_info_t seg;        /* named or anonymous, same base or not (tbl_segment_info) */
#define TBL_HANDOVER_GRACE_MS 1000u    /* a child adopts its slot right after fork(); later, it never will */
	char errstr[256];
};

/* ---- typed offset helpers ------------------------------------------------------------------------ */
static inline tbl_entry_t *tbl_entry_at(const tbl_t *t, uint64_t off)
{
	return (tbl_entry_t *)(void *)(t->base + off);
}

static inline uint64_t tbl_offset_of(const tbl_t *t, const void *p)
{
	return (uint64_t)((const unsigned char *)p - t->base);
}

static inline const char *tbl_entry_key(const tbl_entry_t *e)
{
	return (const char *)(e + 1);
}

/* Where the value starts after the key: 8-aligned, and 16-aligned for an integer, whose value is the
 * pair of words (the integer, then its seal) that tbl_incr updates with one 16-byte compare-and-swap
 * (integer.h). The seal is room after val_len's 8 bytes: readers never see it. */
#define TBL_LONG_ROOM 16u

static inline uint32_t tbl_entry_val_offset(uint32_t key_len, uint8_t type)
{
	return (uint32_t)TBL_ALIGN_UP(key_len, type == TBL_T_LONG ? 16u : 8u);
}

static inline const void *tbl_entry_value(const tbl_entry_t *e)
{
	return (const unsigned char *)(e + 1) + tbl_entry_val_offset(e->key_len, e->type);
}

/* The block payload an entry of this key length, type and value length needs. */
static inline uint64_t tbl_entry_alloc_size(size_t key_len, uint8_t type, size_t val_len)
{
	return sizeof(tbl_entry_t) + tbl_entry_val_offset((uint32_t)key_len, type)
	       + (type == TBL_T_LONG ? TBL_LONG_ROOM : val_len);
}

/* What the entry itself occupies of its block (its pieces aside). */
static inline uint64_t tbl_entry_size(const tbl_entry_t *e)
{
	return tbl_entry_alloc_size(e->key_len, e->type, e->val_len);
}

static inline int tbl_entry_split(const tbl_entry_t *e)
{
	return (e->type & TBL_T_SPLIT) != 0;
}

/* The directory of a split entry: its piece count in *n, its references returned. */
static inline const tbl_piece_ref_t *tbl_entry_pieces(const tbl_entry_t *e, uint32_t *n)
{
	const tbl_piece_dir_t *d = (const tbl_piece_dir_t *)tbl_entry_value(e);

	*n = d->n;
	return (const tbl_piece_ref_t *)(const void *)(d + 1);
}

static inline uint32_t tbl_piece_dir_size(uint32_t n)
{
	return (uint32_t)(sizeof(tbl_piece_dir_t) + (size_t)n * sizeof(tbl_piece_ref_t));
}

/* The bytes a piece block carries, after its header. */
static inline void *tbl_piece_data(const tbl_t *t, uint64_t off)
{
	return tbl_entry_at(t, off) + 1;
}

/* The entry piece block `p` belongs to: NULL while it has none yet (its writer is still allocating, or
 * died doing so) or when what `next` names is not a split entry of the same hash. Read under the
 * allocator lock by eviction, which then checks that entry is linked. */
static inline tbl_entry_t *tbl_piece_owner(const tbl_t *t, const tbl_entry_t *p)
{
	const tbl_alloc_t *a = &t->hdr->alloc;
	uint64_t o = atomic_load_explicit(&((tbl_entry_t *)p)->next, memory_order_relaxed);
	tbl_entry_t *e;

	if (o < a->heap_off + TBL_ALLOC_HDR || o + sizeof(tbl_entry_t) > a->heap_end || (o % TBL_ALLOC_ALIGN) != 0) {
		return NULL;
	}
	e = tbl_entry_at(t, o);
	return tbl_entry_split(e) && e->hash == p->hash ? e : NULL;
}

/* The hold list of slot `s`. */
static inline _Atomic uint64_t *tbl_slot_holds(const tbl_t *t, const tbl_slot_t *s)
{
	return t->holds + (size_t)(s - t->slots) * TBL_HOLD_MAX;
}

static inline tbl_nscount_t *tbl_nscount(const tbl_t *t, uint32_t stripe, uint32_t ns_id)
{
	return &t->nscounts[(size_t)stripe * t->hdr->max_ns + ns_id];
}

/* Before the first store to a part of the mapping after the reader slots (a slot's hold list, a new
 * namespace's counters and record): a named segment gives it blocks in its file now, so that a full
 * file system is TBL_ESYS here, errstr saying what could not be had where, and never a SIGBUS at the
 * store (shm_file.c). The caller owns [off, off + len) (no one else writes it meanwhile). Anonymous
 * segments have nothing to reserve. */
static inline tbl_status_t tbl_seg_reserve(tbl_t *t, uint64_t off, uint64_t len, const char *what)
{
	if (!t->shm_ops || !t->shm_ops->reserve) {
		return TBL_OK;
	}
	return t->shm_ops->reserve(&t->shm, off, len, what, t->errstr, sizeof(t->errstr));
}

/* Namespace ids handed out so far, the default one included: ids below it have counters and a record
 * (ns.c creates them; the lock repairs and eviction only loop over them). */
static inline unsigned tbl_ns_created(const tbl_t *t)
{
	return atomic_load_explicit(&t->hdr->ns_created, memory_order_acquire);
}

/* The generation a handle carries. */
static inline uint32_t tbl_ns_gen(tbl_ns_t ns)
{
	return ns >> 16;
}

/* Whether `ns` still names the namespace it was looked up as (the default namespace always does). */
static inline int tbl_ns_current(const tbl_t *t, tbl_ns_t ns)
{
	return tbl_ns_id(ns) == 0
	       || (atomic_load_explicit(&t->nsrecs[tbl_ns_id(ns)].gen, memory_order_acquire) & 0xFFFFu) == tbl_ns_gen(ns);
}

static inline uint32_t tbl_stripe_of_bucket(const tbl_t *t, uint64_t bucket)
{
	return (uint32_t)(bucket & (t->hdr->nstripes - 1u));
}

/* The hash of a key in namespace `ns_id`: the index, the checker and the claims all use this one. */
TBL_INLINE uint64_t tbl_key_hash(const tbl_t *t, const char *key, size_t klen, uint16_t ns_id)
{
	return tbl_hash_key(&t->hasher, key, klen, ns_id);
}

static inline uint64_t tbl_bucket_of_hash(const tbl_t *t, uint64_t hash)
{
	return hash & t->bucket_mask;
}

/* An entry set with a TTL of N seconds at second s has expire = s + N and lives through all of second
 * s + N: at least N seconds, at most N + 1, never less than asked for (the clock has whole seconds). */
static inline int tbl_entry_expired(const tbl_entry_t *e, uint32_t now_sec)
{
	uint32_t exp = TBL_LOAD_RELAXED(&((tbl_entry_t *)e)->expire);
	return exp != 0 && exp < now_sec;
}

static inline tbl_lock_t *tbl_lock_at(const tbl_t *t, uint32_t index)
{
	return &t->locks[index];
}

#endif
