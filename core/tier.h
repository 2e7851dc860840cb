/*
 * tier.h - what write.c needs of the Redis tier's bookkeeping (tier.c): a key's stamp by its hash, for
 * tbl_fill's check under the stripe lock; and the tier's counters and the helper's heartbeat, which only
 * the tier's own code (the binding's php_table_tier.c, redis/tier_helper.c) uses. The rest of tier.c is
 * declared in table_core.h.
 */
#ifndef TBL_TIER_H
#define TBL_TIER_H

#include <stdint.h>
#include "table_types.h"

uint64_t tbl_tier_stamp_of_hash(tbl_t *t, uint64_t hash);

/* The tier's counters: in the segment's header, shared by every process of the table, each added to with
 * one atomic add, so none is lost when a process dies (stats()['redis']; docs/redis-tier.md). */
typedef enum tbl_tier_counter {
	TBL_TIER_READS = 0,    /* read calls (get, exists, getMany, ttl, getWithMeta) that went to Redis */
	TBL_TIER_L1_HITS,      /* keys a read found in the L1 while it was fresh */
	TBL_TIER_MISSES,       /* keys a read found neither in the L1 nor in Redis (or, on_error=miss, failed) */
	TBL_TIER_FILLS,        /* copies of Redis values stored into the L1 */
	TBL_TIER_ERRORS,       /* calls of PHP processes to Redis that failed (connection, timeout, protocol,
	                        * error reply); the helper's losses show as flushes and reconnects */
	TBL_TIER_RECONNECTS,   /* connections opened again after one was lost (processes and the helper) */
	TBL_TIER_BYPASSES,     /* reads that went to Redis because the L1 was not fresh */
	TBL_TIER_FAILOVERS,    /* masters the helper followed to another server (sentinel://) */
	TBL_TIER_NCOUNTERS
} tbl_tier_counter_t;

/* Add n to a counter (relaxed: a count, ordered with nothing). */
void tbl_tier_count(tbl_t *t, tbl_tier_counter_t c, uint64_t n);
/* Count one L1 hit, in this process's reader slot (no shared line written; tier.c says why). */
void tbl_tier_count_l1_hit(tbl_t *t);
/* Every counter, in tbl_tier_counter_t's order. */
void tbl_tier_counters(const tbl_t *t, uint64_t out[TBL_TIER_NCOUNTERS]);

/* In the helper: "still running", at least once per turn of its loop. A registered helper whose beat is
 * older than a claimer's `hang_ms` is hung (stopped, stuck) and is replaced as a dead one is. */
void tbl_tier_helper_beat(tbl_t *t);
/* tbl_tier_helper_claim, which also takes the place of a live helper that has not beaten for hang_ms.
 * Then *hung is its pid and *hung_start its start time (proc.h), for the caller to end it; otherwise
 * *hung is 0. */
int tbl_tier_helper_claim_hung(tbl_t *t, uint64_t claim_ms, uint64_t hang_ms, int32_t *hung, uint64_t *hung_start);

#endif
