/*
 * read.c - the lock-free read path: a read section, the lookups that find an entry and describe it in a
 * view (tbl_view_t), the zero-copy holder's shortcut (tbl_lookup_held), a locked copy for values that
 * must outlive the section (tbl_lookup_copy), and scans over the buckets.
 *
 * Readers take no lock and store nothing shared beyond their reader slot's epoch and, at most, one
 * conditional store into the entry's usage word (usage.h): what keeps an entry's memory valid while a
 * reader looks at it is the epoch (epoch.c), and what makes a chain safe to follow is that writers
 * change it with single release stores (index.h). A namespace handle from before its namespace was
 * recycled sees nothing (tbl_ns_current).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "epoch.h"
#include "hash.h"
#include "index.h"
#include "sync.h"
#include "table_core.h"
#include "usage.h"

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
			tbl_now_t now = tbl_clock_now();
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
		tbl_now_t now = tbl_clock_now();
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
