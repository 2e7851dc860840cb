/*
 * write.c - every operation that changes the table: store (set/add), fill (the Redis tier's store, tier.c),
 * cas, delete, incr, touch, clear.
 *
 * Each one follows the same shape: validate, hash, take the key's stripe lock, look the key up (an
 * expired entry found on the way is removed and counts as absent), build the new entry completely in a
 * fresh block, publish it with one release store, account for it, retire what it replaced, unlock.
 * Nothing in between can call back into the embedding program, so nothing can longjmp out of a lock.
 * The value bytes were produced by the caller before the call: serialization (which runs user code)
 * never happens under a lock.
 *
 * The TBL_CRASH_POINTs mark the places between the steps where a SIGKILL may land (core/crash.h): at
 * every one of them the chain is well formed, and what is left over (a stripe's counters, a block
 * allocated but not linked or unlinked but not retired) is the stripe repair's and the GC's to fix.
 */
#include <stdlib.h>
#include <string.h>
#include "entry.h"
#include "epoch.h"
#include "expire.h"
#include "gc.h"
#include "hash.h"
#include "index.h"
#include "integer.h"
#include "room.h"
#include "split.h"
#include "sync.h"
#include "table_core.h"
#include "tier.h"
#include "usage.h"
#include "write.h"
#include "crash.h"

#define TBL_SWEEP_EVERY    64u   /* stores between incremental TTL sweeps */
#define TBL_SWEEP_BUCKETS  32u

/* ---- the common shape ---------------------------------------------------------------------------- */

typedef struct write_ctx {
	uint16_t ns;                   /* the namespace id */
	const char *key;
	size_t klen;
	uint64_t hash, bucket;
	uint32_t stripe;
	tbl_now_t now;
} write_ctx_t;

static tbl_status_t write_begin(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, write_ctx_t *w)
{
	tbl_status_t st;

	if (klen == 0 || klen > TBL_KEY_MAX || tbl_ns_id(ns) >= tbl_ns_count_created(t)) {
		return TBL_EINVAL;
	}
	if ((st = tbl_slot_ensure(t)) != TBL_OK) {
		return st;
	}
	tbl_gc_if_needed(t);
	w->ns = tbl_ns_id(ns);
	w->key = key;
	w->klen = klen;
	w->hash = tbl_key_hash(t, key, klen, w->ns);
	w->bucket = tbl_bucket_of_hash(t, w->hash);
	w->stripe = tbl_stripe_of_bucket(t, w->bucket);
	w->now = tbl_clock_now();
	if ((st = tbl_stripe_lock(t, w->stripe)) != TBL_OK) {
		return st;
	}
	/* A recycle holds every stripe lock, so under ours the namespace's generation is stable. */
	if (TBL_UNLIKELY(!tbl_ns_current(t, ns))) {
		tbl_stripe_unlock(t, w->stripe);
		return TBL_ESTALE;
	}
	if (w->ns != 0 && TBL_UNLIKELY(TBL_LOAD_RELAXED(&t->nsrecs[w->ns].fresh) != 0)) {
		/* First write since the namespace was made: from now on an empty one may be recycled. */
		TBL_STORE_RELAXED(&t->nsrecs[w->ns].fresh, 0);
	}
	return TBL_OK;
}

static void write_end(tbl_t *t, write_ctx_t *w)
{
	tbl_stripe_unlock(t, w->stripe);
}

/* The live entry for the key and the link to it; an expired one is removed on the way. */
static _Atomic uint64_t *find_live(tbl_t *t, write_ctx_t *w, tbl_entry_t **out)
{
	_Atomic uint64_t *link = tbl_index_find_link(t, w->hash, w->ns, w->key, w->klen, out);

	if (*out && tbl_entry_expired(*out, w->now.sec)) {
		tbl_remove_locked(t, w->stripe, link, *out);
		TBL_COUNT(t, expirations, 1);
		*out = NULL;
		return NULL;
	}
	return link;
}

/* Build the entry in its block; `sp` non-NULL: the value goes into the pieces allocated with the block.
 * Always inlined, so that the common call (sp a constant NULL) has no test of it left. */
TBL_INLINE tbl_entry_t *build_entry(tbl_t *t, write_ctx_t *w, uint64_t off, const tbl_value_t *v,
                                    uint32_t created, uint32_t expire, const tbl_split_t *sp)
{
	tbl_entry_t *e = tbl_entry_at(t, off);

	atomic_store_explicit(&e->next, 0, memory_order_relaxed);
	e->hash = w->hash;
	e->retire_next = 0;
	e->retire_epoch = 0;
	e->ns = w->ns;
	e->key_len = (uint16_t)w->klen;
	e->type = sp ? (uint8_t)(v->type | TBL_T_SPLIT) : v->type;
	e->flags = 0;
	atomic_store_explicit(&e->holds, 0, memory_order_relaxed);
	e->val_len = v->len;
	atomic_store_explicit(&e->usage, tbl_usage_new(t, w->now), memory_order_relaxed);
	e->created = created;
	e->updated = w->now.sec;
	atomic_store_explicit(&e->expire, expire, memory_order_relaxed);
	e->bytes = (uint32_t)(sp ? sp->bytes : tbl_alloc_block_size(t->base, off));
	TBL_CRASH_POINT("write.build.header");
	memcpy((char *)tbl_entry_key(e), w->key, w->klen);
	if (sp) {
		tbl_split_write(t, e, sp, v->data);
	} else if (v->ops) {
		v->ops->write(v->data, (void *)tbl_entry_value(e), v->len);
	} else if (v->type == TBL_T_LONG) {
		int64_t i;

		memcpy(&i, v->data, sizeof(i));
		tbl_long_init(e, i);
	} else if (v->len) {
		memcpy((void *)tbl_entry_value(e), v->data, v->len);
	}
	return e;
}

/* Insert or replace the key's entry (stripe lock held). `keep_created` keeps the replaced entry's
 * creation time, which is the normal case; `expire` is absolute. */
static tbl_status_t put_locked(tbl_t *t, write_ctx_t *w, const tbl_value_t *v, uint32_t expire)
{
	uint64_t off = tbl_room_alloc(t, w->stripe, tbl_entry_alloc_size(w->klen, v->type, v->len), w->now);
	_Atomic uint64_t *link;
	tbl_entry_t *old, *n;
	tbl_split_t *sp = NULL;

	if (TBL_UNLIKELY(!off)) {
		if (TBL_UNLIKELY(t->room_lock_failed)) {
			t->room_lock_failed = 0;
			return TBL_ESYS;   /* t->errstr names the allocator lock */
		}
		/* No single block: the value goes in pieces (split.c) if it can. An image cannot; the caller
		 * stores it again without ops, so this is not yet a failed store. */
		if (tbl_split_worth(v->len) && v->ops) {
			return TBL_ENOCONTIG;
		}
		if (tbl_split_worth(v->len) && (sp = malloc(sizeof(*sp))) != NULL
		    && !(off = tbl_split_alloc(t, w->stripe, w->hash, w->klen, v->len, w->now, sp))) {
			free(sp);
			sp = NULL;
		}
		if (!off) {
			if (t->room_lock_failed) {
				t->room_lock_failed = 0;
				return TBL_ESYS;
			}
			TBL_COUNT(t, oom, 1);
			return TBL_ENOMEM;
		}
	}
	TBL_CRASH_POINT("write.put.allocated");
	/* Making room may have evicted or expired entries of this very stripe: look again. */
	link = find_live(t, w, &old);
	if (TBL_LIKELY(sp == NULL)) {
		n = build_entry(t, w, off, v, old ? old->created : w->now.sec, expire, NULL);
	} else {
		n = build_entry(t, w, off, v, old ? old->created : w->now.sec, expire, sp);
		free(sp);
	}
	TBL_CRASH_POINT("write.put.built");
	if (old) {
		tbl_index_replace(t, link, old, n);
		TBL_CRASH_POINT("write.replace.linked");
		tbl_count_sub(t, w->stripe, old);
		tbl_count_add(t, w->stripe, n);
		TBL_CRASH_POINT("write.replace.counted");
		tbl_retire(t, old);
	} else {
		tbl_index_push(t, w->bucket, n);
		TBL_CRASH_POINT("write.insert.linked");
		tbl_index_note_length(t, w->bucket);
		tbl_count_add(t, w->stripe, n);
	}
	TBL_COUNT(t, sets, 1);
	return TBL_OK;
}

uint64_t tbl_value_max(tbl_t *t, size_t klen)
{
	uint64_t max = tbl_alloc_max_payload(&t->hdr->alloc), overhead = tbl_entry_alloc_size(klen, TBL_T_STRING, 0);

	max = max > overhead ? max - overhead : 0;
	return max < UINT32_MAX - 4096u ? max : UINT32_MAX - 4096u;
}

int tbl_memory_short(const tbl_t *t)
{
	const tbl_header_t *h = t->hdr;

	return TBL_LOAD_RELAXED(&h->free_hint) < (h->alloc.heap_end - h->alloc.heap_off) / TBL_MEMORY_SHORT_DIV;
}

static tbl_status_t check_size(tbl_t *t, size_t klen, const tbl_value_t *v)
{
	if (v->type == TBL_T_LONG && v->len != sizeof(int64_t)) {
		return TBL_EINVAL;   /* an integer is its 8 bytes (integer.h keeps them in place) */
	}
	if (v->len > tbl_value_max(t, klen)) {
		return TBL_ETOOBIG;
	}
	return TBL_OK;
}

static uint32_t expire_at(tbl_now_t now, uint32_t ttl)
{
	return ttl ? now.sec + ttl : 0;
}

static void maybe_sweep(tbl_t *t, tbl_now_t now)
{
	if ((++t->store_count % TBL_SWEEP_EVERY) == 0) {
		tbl_sweep_step(t, TBL_SWEEP_BUCKETS, now.sec);
	}
}

/* ---- operations ---------------------------------------------------------------------------------- */

tbl_status_t tbl_store(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, const tbl_value_t *val,
                       uint32_t ttl, tbl_store_mode_t mode)
{
	write_ctx_t w;
	tbl_entry_t *old;
	tbl_status_t st;

	if (ttl > TBL_EXPIRE_MAX) {
		return TBL_EINVAL;
	}
	if ((st = check_size(t, klen, val)) != TBL_OK || (st = write_begin(t, ns, key, klen, &w)) != TBL_OK) {
		return st;
	}
	if (mode == TBL_STORE_ADD && (find_live(t, &w, &old), old != NULL)) {
		st = TBL_EEXIST;
	} else {
		st = put_locked(t, &w, val, expire_at(w.now, ttl));
		if (st == TBL_ENOMEM && mode == TBL_STORE_ADD) {
			st = TBL_EFULL;   /* add()'s false means "someone has it" (a lock taken): no room must not look so */
		}
	}
	write_end(t, &w);
	maybe_sweep(t, w.now);
	return st;
}

tbl_status_t tbl_fill(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, const tbl_value_t *val, uint32_t ttl,
                      uint64_t stamp)
{
	write_ctx_t w;
	tbl_status_t st;

	if (ttl > TBL_EXPIRE_MAX) {
		return TBL_EINVAL;
	}
	if ((st = check_size(t, klen, val)) != TBL_OK || (st = write_begin(t, ns, key, klen, &w)) != TBL_OK) {
		return st;
	}
	/* Under the stripe lock, which an invalidation takes only after it advanced the generation (tier.c). */
	if (tbl_tier_stamp_of_hash(t, w.hash) != stamp) {
		st = TBL_EMISMATCH;
	} else {
		st = put_locked(t, &w, val, expire_at(w.now, ttl));
	}
	write_end(t, &w);
	maybe_sweep(t, w.now);
	return st;
}

static int value_equals(const tbl_t *t, const tbl_entry_t *e, const tbl_value_t *v)
{
	/* The same value, whether one of the two lies in pieces or not. */
	if ((e->type & ~TBL_T_SPLIT) != (v->type & ~TBL_T_SPLIT)) {
		return 0;
	}
	if (TBL_UNLIKELY(tbl_entry_split(e))) {
		return !v->ops && tbl_split_equals(t, e, v->data, v->len);
	}
	if (v->ops) {
		return v->ops->equals(v->data, tbl_entry_value(e), e->val_len);
	}
	return e->val_len == v->len && (v->len == 0 || memcmp(tbl_entry_value(e), v->data, v->len) == 0);
}

/* value_equals for a writer that replaces or removes the entry when it matches: an integer is sealed
 * by the comparison, so that no lock-free increment can land between it and the unlink; when it does
 * not match, the seal is cleared and the integer goes on counting. */
static int compare_locked(const tbl_t *t, const tbl_entry_t *e, const tbl_value_t *v)
{
	int64_t want;

	if (e->type != TBL_T_LONG || v->type != TBL_T_LONG || v->len != sizeof(want)) {
		return value_equals(t, e, v);
	}
	memcpy(&want, v->data, sizeof(want));
	if (tbl_long_seal(e) == want) {
		return 1;
	}
	tbl_long_unseal(e);
	return 0;
}

/* After a put that failed (out of memory), the entry it would have replaced keeps counting. Making room
 * may have evicted it, so look it up again rather than trust the pointer. */
static void unseal_after_failed_put(tbl_t *t, write_ctx_t *w)
{
	tbl_entry_t *e;

	find_live(t, w, &e);
	if (e && e->type == TBL_T_LONG) {
		tbl_long_unseal(e);
	}
}

tbl_status_t tbl_cas(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, const tbl_value_t *expected,
                     const tbl_value_t *val)
{
	write_ctx_t w;
	tbl_entry_t *old;
	tbl_status_t st;

	if ((st = check_size(t, klen, val)) != TBL_OK || (st = write_begin(t, ns, key, klen, &w)) != TBL_OK) {
		return st;
	}
	find_live(t, &w, &old);
	if (!old) {
		st = TBL_ENOTFOUND;
	} else if (!compare_locked(t, old, expected)) {
		st = TBL_EMISMATCH;
	} else {
		st = put_locked(t, &w, val, TBL_LOAD_RELAXED(&old->expire));
		if (st != TBL_OK) {
			unseal_after_failed_put(t, &w);
		}
		if (st == TBL_ENOMEM) {
			st = TBL_EFULL;   /* cas()'s false means "changed": out of memory must not look like it */
		}
	}
	write_end(t, &w);
	return st;
}

/* Delete, or with `expected` delete only the value tbl_cas would replace: the comparison and the unlink
 * happen under one hold of the stripe lock, so no other writer's value can slip in between. */
static tbl_status_t delete_if(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, const tbl_value_t *expected)
{
	write_ctx_t w;
	_Atomic uint64_t *link;
	tbl_entry_t *old;
	tbl_status_t st;

	if ((st = write_begin(t, ns, key, klen, &w)) != TBL_OK) {
		return st;
	}
	link = find_live(t, &w, &old);
	if (!old) {
		st = TBL_ENOTFOUND;
	} else if (expected && !compare_locked(t, old, expected)) {
		st = TBL_EMISMATCH;
	} else {
		tbl_remove_locked(t, w.stripe, link, old);
		TBL_COUNT(t, deletes, 1);
	}
	write_end(t, &w);
	return st;
}

tbl_status_t tbl_delete(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen)
{
	return delete_if(t, ns, key, klen, NULL);
}

tbl_status_t tbl_delete_if(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, const tbl_value_t *expected)
{
	return delete_if(t, ns, key, klen, expected);
}

/* The lock-free increment (integer.h): a live integer that is already linked gets `delta` with one
 * 16-byte compare-and-swap inside a read section. Returns 1 when that settled it (*st: TBL_OK with
 * *result, or TBL_EOVERFLOW), 0 when the stripe lock must decide: no such key, expired, not an integer,
 * sealed by a writer, a stale namespace handle, no slot yet. */
static int incr_in_place(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, int64_t delta, int64_t *result,
                         tbl_status_t *st)
{
#if TBL_HAVE_CAS16
	uint16_t id = tbl_ns_id(ns);
	tbl_entry_t *e;
	uint64_t hash;
	int done = 0;

	if (klen == 0 || klen > TBL_KEY_MAX || tbl_slot_ensure(t) != TBL_OK
	    || (id != 0 && id >= atomic_load_explicit(&t->hdr->ns_created, memory_order_acquire))) {
		return 0;
	}
	hash = tbl_key_hash(t, key, klen, id);
	tbl_epoch_enter(t);
	e = tbl_index_find(t, hash, id, key, klen);
	if (e && e->type == TBL_T_LONG && TBL_LIKELY(tbl_ns_current(t, ns))) {
		uint32_t now = tbl_clock_seconds();

		if (!tbl_entry_expired(e, now)) {
			switch (tbl_long_add(e, delta, 0, result)) {
				case TBL_LONG_ADDED:
					TBL_CRASH_POINT("write.incr.added");
					if (__atomic_load_n(&e->updated, __ATOMIC_RELAXED) != now) {
						__atomic_store_n(&e->updated, now, __ATOMIC_RELAXED);
					}
					if (t->hdr->policy == TBL_POLICY_GDSF) {
						tbl_gdsf_note_read(e);
					}
					TBL_COUNT(t, sets, 1);
					*st = TBL_OK;
					done = 1;
					break;
				case TBL_LONG_OVERFLOW:
					*st = TBL_EOVERFLOW;
					done = 1;
					break;
				case TBL_LONG_SEALED:
					break;
			}
		}
	}
	tbl_epoch_exit(t);
	return done;
#else
	(void)t, (void)ns, (void)key, (void)klen, (void)delta, (void)result, (void)st;
	return 0;
#endif
}

tbl_status_t tbl_incr(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, int64_t delta, uint32_t ttl,
                      int64_t *result)
{
	write_ctx_t w;
	tbl_entry_t *old;
	tbl_status_t st;
	int64_t next;
	tbl_value_t v;

	if (ttl > TBL_EXPIRE_MAX) {
		return TBL_EINVAL;
	}
	if (incr_in_place(t, ns, key, klen, delta, result, &st)) {
		return st;
	}
	if ((st = write_begin(t, ns, key, klen, &w)) != TBL_OK) {
		return st;
	}
	find_live(t, &w, &old);
	if (old) {
		if (old->type != TBL_T_LONG) {
			st = TBL_ETYPE;
		} else if (tbl_long_add(old, delta, 1, result) == TBL_LONG_OVERFLOW) {
			st = TBL_EOVERFLOW;
		} else {
			/* In place, as the lock-free path does (and clearing a dead writer's seal): readers see the
			 * old or the new integer, and no block is allocated or retired. */
			TBL_CRASH_POINT("write.incr.stored");
			__atomic_store_n(&old->updated, w.now.sec, __ATOMIC_RELAXED);
			if (t->hdr->policy == TBL_POLICY_GDSF) {
				tbl_gdsf_note_read(old);
			}
			TBL_COUNT(t, sets, 1);
		}
		goto done;
	}
	next = delta;   /* a missing key counts from 0 */
	v.type = TBL_T_LONG;
	v.data = &next;
	v.len = sizeof(next);
	v.ops = NULL;
	st = put_locked(t, &w, &v, expire_at(w.now, ttl));
	if (st == TBL_OK) {
		*result = next;
	} else if (st == TBL_ENOMEM) {
		st = TBL_EFULL;   /* increment() returns an int or throws: there is no "false" to give */
	}
done:
	write_end(t, &w);
	return st;
}

tbl_status_t tbl_touch(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint32_t ttl)
{
	write_ctx_t w;
	tbl_entry_t *old;
	tbl_status_t st;

	if (ttl > TBL_EXPIRE_MAX) {
		return TBL_EINVAL;
	}
	if ((st = write_begin(t, ns, key, klen, &w)) != TBL_OK) {
		return st;
	}
	find_live(t, &w, &old);
	if (old) {
		/* expire is the one field a linked entry may change: readers see the old or the new value. */
		atomic_store_explicit(&old->expire, expire_at(w.now, ttl), memory_order_relaxed);
		TBL_CRASH_POINT("write.touch.stored");
		tbl_count_sub(t, w.stripe, old);
		tbl_count_add(t, w.stripe, old);
	} else {
		st = TBL_ENOTFOUND;
	}
	write_end(t, &w);
	return st;
}

/* Remove every entry of namespace handle `ns` (or all when `all`), stripe by stripe, so readers and
 * writers of other stripes never wait on it. The handle's generation is checked under each stripe lock
 * (a recycle holds them all): once the namespace was recycled, its entries are gone and the ones with
 * its id belong to the new namespace, so the clear stops there. */
static tbl_status_t clear_entries(tbl_t *t, tbl_ns_t ns, int all, uint64_t *removed)
{
	tbl_header_t *h;
	uint32_t s, now_sec;
	uint64_t n = 0, b;
	tbl_status_t st;

	if ((st = tbl_slot_ensure(t)) != TBL_OK) {
		return st;
	}
	h = t->hdr;
	now_sec = tbl_clock_now().sec;
	for (s = 0; s < h->nstripes; s++) {
		if ((st = tbl_stripe_lock(t, s)) != TBL_OK) {
			break;
		}
		if (!all && !tbl_ns_current(t, ns)) {
			tbl_stripe_unlock(t, s);
			break;
		}
		for (b = s; b < h->nbuckets; b += h->nstripes) {
			_Atomic uint64_t *link = &t->buckets[b];
			uint64_t off;

			while ((off = atomic_load_explicit(link, memory_order_relaxed)) != 0) {
				tbl_entry_t *e = tbl_entry_at(t, off);
				if (!all && e->ns != tbl_ns_id(ns)) {
					link = &e->next;
					continue;
				}
				if (!tbl_entry_expired(e, now_sec)) {
					n++;
				}
				tbl_remove_locked(t, s, link, e);
			}
		}
		tbl_stripe_unlock(t, s);
		TBL_CRASH_POINT("write.clear.stripe_done");
	}
	if (removed) {
		*removed = n;
	}
	return st;
}

tbl_status_t tbl_clear_ns(tbl_t *t, tbl_ns_t ns, uint64_t *removed)
{
	if (tbl_ns_id(ns) >= tbl_ns_count_created(t)) {
		return TBL_EINVAL;
	}
	return clear_entries(t, ns, 0, removed);
}

tbl_status_t tbl_clear_all(tbl_t *t, uint64_t *removed)
{
	return clear_entries(t, TBL_NS_DEFAULT, 1, removed);
}
