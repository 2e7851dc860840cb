/*
 * table_core.h - the facade of the Zend-free core: one shared-memory key/value table.
 *
 * A tbl_t is a process-local handle onto one segment. The segment is created once (in the parent,
 * before workers fork) and every forked process uses the same handle; the first call in a new process
 * claims that process's reader slot on its own (an atfork handler marks the handle).
 *
 * Threading model: one thread uses a handle at a time. A process of one thread (PHP NTS) uses the handle
 * tbl_create gave it; a process whose threads each use the table (PHP ZTS) gives every thread a handle of
 * its own (tbl_thread_open): its own reader slot, zero-copy holds, claims and counters, over the one
 * mapping of the process's handle. Processes and threads run concurrently.
 *   - Readers (tbl_lookup between tbl_read_begin/tbl_read_end, the scans) take no lock.
 *   - Writers take a stripe lock (robust, process-shared) and never call back into the caller while
 *     holding it. Before every critical section the core calls hooks.block_signals() and after it
 *     hooks.unblock_signals(); the pairs are balanced on every return path.
 *
 * Values are opaque bytes tagged with a type byte chosen by the caller. The core interprets exactly one
 * type: TBL_T_LONG (an int64 in host order), for tbl_incr() and for cas() of integers.
 *
 * The types are in table_types.h, which every layer of the core includes; this header declares the
 * operations. It is the contract between the core and its embedder, not a layer: a core file includes it
 * only to define (or use, from the top) the public functions it declares (core/DESIGN.md, "Layers").
 */
#ifndef TBL_TABLE_CORE_H
#define TBL_TABLE_CORE_H

#include <stddef.h>
#include <stdint.h>
#include "table_types.h"

/* Copy a view's `len` value bytes to `dst`, contiguous or split (TBL_T_SPLIT), inside the read section
 * that found it (or under the stripe lock, as tbl_lookup_copy). */
void tbl_view_copy(const tbl_t *t, const tbl_view_t *v, void *dst);

/* Create the segment and map it. On failure returns TBL_ESYS/TBL_EINVAL and writes a message that names
 * the failing call into errbuf. */
tbl_status_t tbl_create(tbl_t **out, const tbl_config_t *cfg, char *errbuf, size_t errlen);
/* With cfg->segment_path: open the named segment there, creating it when missing (exactly one of several
 * processes racing initialises it, the others wait and attach), and attach to it after releasing the
 * reader slots of processes that died. Refuses a symlink, a file of another owner, and (TBL_EINVAL) a
 * segment of another layout or version unless cfg->segment_recreate. An existing segment of another size
 * is attached at its own size (tbl_segment_info says so), or replaced with cfg->segment_recreate. One from
 * a previous boot is replaced. */
void tbl_segment_info(const tbl_t *t, tbl_segment_info_t *out);
/* Whether the named segment's path still names the file this handle maps (one lstat(); anonymous:
 * always current). When it does not, every process that opens the path from now on uses another table:
 * the caller should tbl_destroy() this handle (holding nothing of it: no zero-copy view outlives it) and
 * tbl_create() again, with cfg->segment_keep_versions and without cfg->segment_recreate, so that a process
 * of an older build never replaces the newer build's segment back. Safe at any time; no lock. */
tbl_segment_state_t tbl_segment_current(const tbl_t *t);
/* The user the table belongs to: the first `uid` ever passed here (an atomic claim, for the life of the
 * segment). The embedder decides what a process of another user may see (php_table_state.c: the
 * namespaces of an anonymous table are partitioned by user). */
uint32_t tbl_user_claim(tbl_t *t, uint32_t uid);
/* Release this process's slot (folding its stats) and unmap. Safe in any process. */
void tbl_destroy(tbl_t *t);
/* Release this process's slot without unmapping (call at process/module shutdown in every process). */
void tbl_detach(tbl_t *t);
/* Threads. A handle for the calling thread over `proc`'s mapping (which must outlive it): its slot is
 * claimed on its first read and owned by (pid, this thread's id), so that a thread that ends without
 * tbl_thread_close (killed, or gone without its cleanup) is found dead by the reaper and its slot, holds
 * and claims are released. TBL_ENOMEM. Use the handle from its thread only. */
tbl_status_t tbl_thread_open(tbl_t *proc, tbl_t **out);
/* Release the thread handle's slot (folding its stats), its holds, and free it; the mapping stays. */
void tbl_thread_close(tbl_t *t);
/* Free a thread handle whose segment is unmapped already (process shutdown before the thread's end):
 * touches nothing of the segment. */
void tbl_thread_forget(tbl_t *t);

/* ---- namespaces ---------------------------------------------------------------------------------- */
/* Find a namespace by name. TBL_ENOTFOUND when it has never been created. */
tbl_status_t tbl_ns_find(tbl_t *t, const char *name, size_t len, tbl_ns_t *out);
/* Find or create (takes the namespace lock when creating). When every id is taken, the id of an empty
 * namespace is recycled; TBL_ENSFULL when every namespace holds entries; TBL_ESYS when a named segment's
 * file system has no room for a new one's pages (tbl_errstr says so). */
tbl_status_t tbl_ns_get(tbl_t *t, const char *name, size_t len, tbl_ns_t *out);
/* Name of a namespace (not NUL-terminated). The default namespace has length 0. */
const char *tbl_ns_name(tbl_t *t, tbl_ns_t ns, size_t *len);
/* Number of namespaces ever created, the default included; valid handles are 0 .. n-1. */
unsigned tbl_ns_count_created(tbl_t *t);
/* The most namespaces this table can hold, the default included (scales with the segment size). */
unsigned tbl_ns_limit(tbl_t *t);
/* The current handle of namespace id `id` (0 .. tbl_ns_count_created() - 1), for loops over every
 * namespace: the counters and scans take handles, and a handle from before a recycle counts nothing. */
tbl_ns_t tbl_ns_handle(tbl_t *t, unsigned id);

/* ---- reads (lock-free) --------------------------------------------------------------------------- */
/* Enter / leave a read section. Lookups and the data they return are only valid inside one. Sections
 * do not nest. A section left open by a longjmp is closed by the next tbl_read_begin or by
 * tbl_read_reset (call it at request end). */
tbl_status_t tbl_read_begin(tbl_t *t);
void tbl_read_end(tbl_t *t);
void tbl_read_reset(tbl_t *t);

/* Zero-copy holds: keep one entry's bytes valid past tbl_read_end(), until tbl_release_holds(), so the
 * caller may hand out pointers into it. Call inside the read section that found `v`. Only that entry is
 * held back: if it is replaced or deleted meanwhile, it is retired as usual but freed only once no
 * process holds it; everything else is reclaimed at normal epochs. TBL_OK: held (also when this process
 * already held it); TBL_ENOMEM: refused, copy instead, because this process's hold list is full
 * (TBL_HOLD_MAX), or the held bytes of all processes would pass `budget`. A forked child gets its own
 * copy of its parent's holds before fork() returns; a dead process's holds, and those of a process that
 * exec'd another program or unmapped the segment, are released by the reaper. */
tbl_status_t tbl_hold(tbl_t *t, const tbl_view_t *v, uint64_t budget);
/* A lookup that takes no read section: finds the key only when this process holds its live entry
 * (tbl_hold), which stays valid without one. TBL_ENOTFOUND means "not held": do a normal lookup, with the
 * same `hash` (tbl_hash_of). */
tbl_status_t tbl_lookup_held(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint64_t hash, tbl_view_t *out,
                             int count);
/* Release every hold of this process (the binding: once its request's memory is gone). */
void tbl_release_holds(tbl_t *t);
/* Entries this process holds right now. */
uint32_t tbl_holds(const tbl_t *t);
/* Bytes retired and not yet freed (what pins and readers hold back): a racy but cheap read. */
uint64_t tbl_retired_bytes(tbl_t *t);
/* Count a read served without copying (stats: zero_copy_reads). */
void tbl_count_zero_copy_read(tbl_t *t);
/* Count a store the caller gave up on because the value can never fit (stats: oom), as a store that
 * failed for lack of memory counts itself. */
void tbl_count_failed_store(tbl_t *t);

/* Find a live entry. Counts a hit or a miss in this process's stats when `count` is non-zero. */
tbl_status_t tbl_lookup(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, tbl_view_t *out, int count);
/* tbl_read_begin and tbl_lookup in one call, for the single-key read path: the key is hashed before the
 * section's fence, so the hash's latency overlaps it. TBL_OK and TBL_ENOTFOUND leave the section open
 * (close it with tbl_read_end); any other status comes from tbl_read_begin and opened nothing. */
tbl_status_t tbl_read_lookup(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, tbl_view_t *out, int count);
/* The same with the key's hash already computed (tbl_hash_of), for a path that also tried
 * tbl_lookup_held: the key is hashed once. */
tbl_status_t tbl_read_lookup_hashed(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint64_t hash,
                                    tbl_view_t *out, int count);
/* The key hash of `key` in `ns`, keyed per segment. */
uint64_t tbl_hash_of(const tbl_t *t, tbl_ns_t ns, const char *key, size_t klen);

/* For a process that has no reader slot (tbl_read_begin said TBL_ENOSLOT: every slot is held by a live
 * process): look the key up under its stripe lock and copy the value out. Takes no read section and
 * counts nothing. On TBL_OK, *copy holds out->len bytes from malloc() (NULL when empty; the caller
 * free()s it), out->type has no TBL_T_SPLIT (the copy is in one piece), and out->data still names where
 * they were in the segment, which only the binding's image relocation may use, as an address to
 * subtract. Never calls back into the caller. */
tbl_status_t tbl_lookup_copy(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, tbl_view_t *out,
                             void **copy);

/* ---- writes ---------------------------------------------------------------------------------------- */
/* ttl: seconds from now, 0 = never expires. A value for which no single free block can be made is
 * stored in pieces (TBL_T_SPLIT) when it has no ops; one with ops (a zero-copy image, which must be
 * contiguous) gets TBL_ENOCONTIG instead, not counted as oom: store it again in a form without ops. */
tbl_status_t tbl_store(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, const tbl_value_t *val,
                       uint32_t ttl, tbl_store_mode_t mode);
/* Replace only when the stored value's type and bytes equal `expected` (or, for a value with ops,
 * when ops->equals says so; TBL_EMISMATCH otherwise, TBL_ENOTFOUND when missing). Keeps the expiry.
 * Out of memory is TBL_EFULL here and in tbl_incr, whose other answers must not be mistaken for it
 * (tbl_store: TBL_ENOMEM). */
tbl_status_t tbl_cas(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, const tbl_value_t *expected,
                     const tbl_value_t *val);
tbl_status_t tbl_delete(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen);
/* Delete only when the stored value equals `expected` as tbl_cas compares (TBL_EMISMATCH otherwise,
 * TBL_ENOTFOUND when missing or expired), checked and unlinked under one hold of the stripe lock. */
tbl_status_t tbl_delete_if(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, const tbl_value_t *expected);
/* Add `delta` to an integer entry; a missing key starts from 0 and gets `ttl` (0 = never). The expiry
 * of an existing entry is kept. TBL_ETYPE / TBL_EOVERFLOW leave the entry unchanged. */
tbl_status_t tbl_incr(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, int64_t delta, uint32_t ttl,
                      int64_t *result);
/* Set a new TTL (0 = never) on a live entry. */
tbl_status_t tbl_touch(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint32_t ttl);
/* Remove every entry of one namespace; *removed gets the count. Readers are never blocked. */
tbl_status_t tbl_clear_ns(tbl_t *t, tbl_ns_t ns, uint64_t *removed);
/* Remove every entry of every namespace. */
tbl_status_t tbl_clear_all(tbl_t *t, uint64_t *removed);

/* The largest value (in bytes) a key of `klen` bytes could ever hold: the whole heap as one entry. */
uint64_t tbl_value_max(tbl_t *t, size_t klen);

/* Whether free memory is short: less than 1/TBL_MEMORY_SHORT_DIV of the heap was free when the allocator
 * lock was last released (a relaxed read, no lock: a hint, possibly a moment old). A full cache is short
 * for good, since eviction frees only what each write needs. The binding then stores arrays in their
 * compact encoding rather than as zero-copy images more than twice that size. */
#define TBL_MEMORY_SHORT_DIV 8u
int tbl_memory_short(const tbl_t *t);

/* ---- counters ---------------------------------------------------------------------------------------- */
uint64_t tbl_ns_entries(tbl_t *t, tbl_ns_t ns);    /* O(stripes) */
uint64_t tbl_ns_bytes(tbl_t *t, tbl_ns_t ns);

typedef struct tbl_stats {
	uint64_t hits, misses, sets, deletes, evictions, expirations, oom;
	uint64_t zero_copy_reads;           /* hits handed out without a copy (part of hits) */
	uint64_t pins;                      /* slots holding zero-copy entries right now (tbl_hold) */
	uint64_t held_entries, held_bytes;  /* entries held by zero-copy readers, and their bytes */
	uint64_t held_retired_bytes;        /* of those, retired ones: memory held back from reuse */
	uint64_t entries, entry_bytes;      /* live entries and the bytes they hold */
	uint64_t segment_size, heap_size;   /* whole mapping; the part usable for entries */
	uint64_t free_bytes, used_bytes;    /* allocator view (retired-but-unfreed blocks count as used) */
	uint64_t largest_free;              /* biggest payload one allocation could get right now */
	uint64_t retired_blocks, retired_bytes;
	uint64_t evicted_bytes;             /* block bytes of the live entries evicted to make room, in all */
	uint64_t evict_runs;                /* evictions of a run of neighbouring blocks (one per write that evicted) */
	uint64_t evict_moves;               /* entries moved out of such a run rather than evicted (gdsf) */
	uint64_t slots_total, slots_used;
	uint64_t processes;                 /* live processes attached (the distinct pids of the slots in use, fork
	                                       handovers aside: a threaded process has a slot per thread) */
	uint64_t lock_repairs;              /* EOWNERDEAD recoveries */
	uint64_t lock_timeouts;             /* waits for a lock that gave up: its holder is stopped or stuck */
	uint64_t gc_runs;                   /* tbl_gc passes (leak recovery after a dead writer) */
	uint64_t buckets, stripes;
	uint64_t max_chain;                 /* the longest bucket chain any write has built (high-water mark) */
	uint64_t namespaces;                /* created, the default included */
	tbl_policy_t policy;
} tbl_stats_t;
void tbl_get_stats(tbl_t *t, tbl_stats_t *out);

/* ---- scans ----------------------------------------------------------------------------------------- */
/* Visit the live entries of buckets [*cursor, *cursor + max_buckets) inside a read section the scan opens
 * and closes itself; the callback must not call into the table. ns = TBL_SCAN_ALL_NS visits every
 * namespace. *cursor advances; it is 0 again when the scan has wrapped (done). Returns the number of
 * buckets visited. The callback returns non-zero to stop early (the cursor then points after the
 * bucket being visited). */
#define TBL_SCAN_ALL_NS 0xFFFFFFFFu
typedef int (*tbl_scan_fn)(void *ctx, tbl_ns_t ns, const char *key, size_t klen, const tbl_view_t *v);
uint64_t tbl_scan(tbl_t *t, uint32_t ns, uint64_t *cursor, uint64_t max_buckets, tbl_scan_fn fn, void *ctx);

/* ---- remember(): at most one computer per key across processes ---------------------------------- */
/* TBL_OK: the caller is the computer and must call tbl_claim_release() when done (even on failure).
 * TBL_EBUSY: a live process is computing it; poll lookups and retry until the caller's bound.
 * A claim whose owner died or whose deadline passed is taken over. */
tbl_status_t tbl_claim(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint32_t deadline_ms);
void tbl_claim_release(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen);

/* ---- the Redis tier's bookkeeping (tier.c) -------------------------------------------------------
 * A tiered namespace's entries are copies of Redis keys (the L1). One helper process per table applies
 * Redis's invalidations: for each key it advances the key's generation, then deletes the copy. A miss
 * that reads Redis takes the key's stamp before the read and fills the L1 with tbl_fill, which stores
 * only if the stamp has not moved, checked under the stripe lock: an invalidation that raced the read
 * either stops the fill or deletes what it stored. */
/* The key's stamp: its generation plus the tier epoch (both only grow, so equal sums mean neither moved). */
uint64_t tbl_tier_stamp(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen);
/* tbl_store (set) only while the key's stamp is still `stamp`: TBL_EMISMATCH when it moved. */
tbl_status_t tbl_fill(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, const tbl_value_t *val, uint32_t ttl,
                      uint64_t stamp);
/* Advance the key's generation, then delete its copy (TBL_OK, or TBL_ENOTFOUND when there was none).
 * A writer's own copy, after its Redis write. */
tbl_status_t tbl_tier_invalidate(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen);
/* The helper's: tbl_tier_invalidate, then count it in tbl_tier_stats' invalidations (release: whoever
 * reads the count with acquire and sees it move finds the copy gone). */
tbl_status_t tbl_tier_apply_invalidation(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen);
/* Advance the tier epoch: every fill in flight fails. A flush calls it, then clears the namespaces. */
void tbl_tier_advance_all(tbl_t *t);
/* Freshness: the monotonic ms before which every invalidation is applied (0: none is known to be). */
uint64_t tbl_tier_fresh_ms(const tbl_t *t);
void tbl_tier_set_fresh_ms(tbl_t *t, uint64_t ms);
/* Start a helper? 1 when this process took the helper's place (no live helper holds it, and nobody
 * claimed it in the last `claim_ms`): it must start one, which calls tbl_tier_helper_register. */
int tbl_tier_helper_claim(tbl_t *t, uint64_t claim_ms);
/* In the helper: take the place over (from the claimer). */
void tbl_tier_helper_register(tbl_t *t);
/* In the helper: 1 while it is still the table's helper (no other took the place). */
int tbl_tier_helper_current(tbl_t *t);
/* In the helper: leave the place (it exits). */
void tbl_tier_helper_leave(tbl_t *t);
/* 1 while some process other than this one still uses the table: the creator of an anonymous segment
 * while it lives and maps it, or a live process holding a reader slot. */
int tbl_tier_others_alive(tbl_t *t);
typedef struct tbl_tier_stats {
	uint64_t fresh_ms, invalidations, flushes, helper_starts;
	int32_t helper_pid;
} tbl_tier_stats_t;
void tbl_tier_stats(const tbl_t *t, tbl_tier_stats_t *out);

/* ---- maintenance and debugging ------------------------------------------------------------------ */
/* Run a full consistency check (chains, counters, allocator). 0 when consistent; -1 and a message. */
int tbl_check(tbl_t *t, char *err, size_t errlen);
/* Tests only: make this process's view of the segment read-only (non-zero) or writable again, so that a
 * stray write outside the table's own calls faults. No table call may run while it is read-only.
 * 0 on success, -1 when the backend cannot. */
int tbl_debug_protect(tbl_t *t, int readonly);
/* Tests only: take the table's locks named by `which` ("stripes": every stripe lock; "allocator",
 * "namespace", "misc"), run while_held(arg) holding them, release them. 0, or -1 (an unknown name, or a
 * lock that could not be taken: tbl_errstr says which) with nothing held and while_held not run. */
int tbl_debug_hold_locks(tbl_t *t, const char *which, void (*while_held)(void *), void *arg);
/* Message of the last TBL_ESYS from this handle. */
const char *tbl_errstr(tbl_t *t);
/* Version of the segment layout and of what its contents mean (2: the key hash of hash.h, multilinear
 * with SipHash-1-3 for long keys; 5: an integer's value is 16-aligned and followed by its seal, and the
 * binding's native array encoding keeps a hash array's keys in one block, apart from its values; 6: the
 * header holds the Redis tier's block, tier.c). */
#ifndef TBL_LAYOUT_VERSION
#define TBL_LAYOUT_VERSION 6
#endif
/* Tests only: -DTBL_LAYOUT_VERSION=N builds a table whose named segments say layout N (stress/fpm/run.sh
 * part 8 builds one to play the previous release in an upgrade). Never in a release build. */

#endif
