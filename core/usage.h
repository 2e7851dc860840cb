/*
 * usage.h - what eviction ranks an entry by: each policy's usage word (tbl_entry_t.usage), what a new
 * entry starts with, and what a read writes there. Header only, beneath eviction (window.c ranks by it),
 * the writers (write.c stamps new entries) and the read path (read.c marks reads).
 */
#ifndef TBL_USAGE_H
#define TBL_USAGE_H

#include "segment.h"

/* gdsf's usage word: a stamp of the inflation clock (its high 29 bits), taken when the entry is stored
 * and when the eviction sweep passes it after a read; whether it has been read since the sweep last
 * passed (TBL_GDSF_SEEN); and how many reads it has had, saturating at 3 (TBL_GDSF_READS). */
#define TBL_GDSF_READS 3u
#define TBL_GDSF_SEEN  4u
#define TBL_GDSF_LOW   7u

/* The usage a new entry starts with. lru: `now` less 3/4 of the age at which entries get evicted, so an
 * entry that is written and never read is evicted before one read since (midpoint insertion). gdsf: the
 * inflation clock, no reads. */
static inline uint32_t tbl_usage_new(const tbl_t *t, tbl_now_t now)
{
	const tbl_header_t *h = t->hdr;

	if (h->policy == TBL_POLICY_GDSF) {
		return TBL_LOAD_RELAXED(&((tbl_header_t *)h)->inflation) & ~TBL_GDSF_LOW;
	}
	return now.tick - (uint32_t)(((uint64_t)TBL_LOAD_RELAXED(&((tbl_header_t *)h)->evict_age) * 3u) >> 10);
}

/* A read under gdsf: mark it read and count it, with at most one store, none once both are done (a hot
 * entry's reads then write nothing until the sweep passes it again). No clock, nothing shared. */
static inline void tbl_gdsf_note_read(tbl_entry_t *e)
{
	uint32_t u = TBL_LOAD_RELAXED(&e->usage);

	if ((u & TBL_GDSF_LOW) != TBL_GDSF_LOW) {
		TBL_STORE_RELAXED(&e->usage, (u | TBL_GDSF_SEEN) + ((u & TBL_GDSF_READS) != TBL_GDSF_READS));
	}
}

/* gdsf's rank (window.c): one read of one byte is worth TBL_GDSF_SCALE ticks of the inflation clock, and
 * a stamp further behind the clock than TBL_GDSF_OLDEST counts as that far (tbl_gdsf_pass brings such
 * stamps up, so that they never wrap round to look new). */
#define TBL_GDSF_SCALE         (1u << 22)   /* one read of one byte, in units of the inflation clock */
#define TBL_GDSF_OLDEST        (1u << 30)   /* stamps further behind the clock count as this far */

#endif
