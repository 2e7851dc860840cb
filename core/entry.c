/*
 * entry.c - an entry's life in the index below the writers: counting it in, and taking it out.
 *
 * Every path that removes an entry (a writer replacing or deleting it, an expiry, an eviction, a clear)
 * does the same three things with the entry's stripe lock held: unlink it with one store (index.h),
 * take it out of its stripe and namespace counters, and retire it to epoch reclamation (epoch.h), which
 * frees it once no reader can see it. They live here, beneath both the writers (write.c) and the
 * memory layer that makes room (evict.c), so that neither calls the other back: write.c -> evict.c ->
 * entry.c -> epoch.c -> alloc.c, and gc.c -> epoch.c, with no cycle.
 */
#include "crash.h"
#include "entry.h"
#include "epoch.h"
#include "index.h"
#include "sync.h"

#define TBL_RECLAIM_EVERY  32u   /* retires between reclamation passes */

/* ---- accounting -------------------------------------------------------------------------------- */

void tbl_count_add(tbl_t *t, uint32_t stripe, const tbl_entry_t *e)
{
	tbl_nscount_t *c = tbl_nscount(t, stripe, e->ns);
	uint32_t exp = TBL_LOAD_RELAXED(&((tbl_entry_t *)e)->expire);
	uint32_t min = TBL_LOAD_RELAXED(&c->min_expire);

	TBL_STORE_RELAXED(&c->entries, TBL_LOAD_RELAXED(&c->entries) + 1);
	TBL_STORE_RELAXED(&c->bytes, TBL_LOAD_RELAXED(&c->bytes) + e->bytes);
	if (exp && (min == 0 || exp < min)) {
		TBL_STORE_RELAXED(&c->min_expire, exp);
		if (!TBL_LOAD_RELAXED(&t->hdr->has_ttl)) {
			TBL_STORE_RELAXED(&t->hdr->has_ttl, 1);
		}
	}
}

void tbl_count_sub(tbl_t *t, uint32_t stripe, const tbl_entry_t *e)
{
	tbl_nscount_t *c = tbl_nscount(t, stripe, e->ns);

	TBL_STORE_RELAXED(&c->entries, TBL_LOAD_RELAXED(&c->entries) - 1);
	TBL_STORE_RELAXED(&c->bytes, TBL_LOAD_RELAXED(&c->bytes) - e->bytes);
}

void tbl_retire(tbl_t *t, tbl_entry_t *e)
{
	if (TBL_UNLIKELY(tbl_alloc_lock(t) != TBL_OK)) {
		/* Unlinked but not queued: a leak the GC recovers once the allocator lock works again. */
		atomic_store(&t->hdr->gc_needed, 1);
		return;
	}
	tbl_retire_locked(t, tbl_offset_of(t, e));
	TBL_CRASH_POINT("entry.retire.queued");
	if (t->hdr->retires_since_reclaim >= TBL_RECLAIM_EVERY) {
		tbl_reclaim_locked(t, 0);
	}
	tbl_alloc_unlock(t);
}

void tbl_remove_locked(tbl_t *t, uint32_t stripe, _Atomic uint64_t *link, tbl_entry_t *e)
{
	tbl_index_unlink(link, e);
	TBL_CRASH_POINT("entry.remove.unlinked");
	tbl_count_sub(t, stripe, e);
	TBL_CRASH_POINT("entry.remove.uncounted");
	tbl_retire(t, e);
}
