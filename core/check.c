/*
 * check.c - a full consistency check of the table, for tests, fuzzing and the chaos test.
 *
 * It takes every stripe lock (in order) and the allocator lock, so it sees a quiescent table, and
 * verifies: every chain entry is a used heap block of the right size (a split entry: its pieces too),
 * sits in the bucket its hash selects, belongs to a created namespace and is reachable once; the per
 * stripe and namespace counters equal what the chains hold; the retire queue is well formed; the allocator is consistent and its used
 * bytes are exactly the live plus retired entries (no leaked block); then, under the namespace lock, that
 * no namespace record is half-rewritten and every named one is found by its name. A lock that is
 * unusable makes the check fail with the lock's message.
 *
 * Also here, for the tests of what a stuck lock holder does to everyone else: tbl_debug_hold_locks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "segment.h"
#include "gc.h"
#include "split.h"
#include "ns.h"
#include "sync.h"
#include "table_core.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int in_heap(const tbl_t *t, uint64_t off)
{
	const tbl_alloc_t *a = &t->hdr->alloc;
	return off >= a->heap_off + TBL_ALLOC_HDR && off < a->heap_end && (off % TBL_ALLOC_ALIGN) == 0;
}

/* The pieces of split entry `e` at `off` (split.c): used blocks of type TBL_T_PIECE that name `e` as
 * their owner, carrying val_len bytes in all, their blocks and e's own adding up to e->bytes. Adds the
 * number of pieces to *pieces. */
static int check_pieces(tbl_t *t, const tbl_entry_t *e, uint64_t off, uint64_t *pieces, char *err, size_t errlen)
{
	uint32_t n, i;
	const tbl_piece_ref_t *ref = tbl_entry_pieces(e, &n);
	uint64_t bytes = tbl_alloc_block_size(t->base, off), len = 0;

	if (n == 0 || n > TBL_SPLIT_MAX_PIECES) {
		return fail(err, errlen, "split entry at %llu: %u pieces", (unsigned long long)off, n);
	}
	for (i = 0; i < n; i++) {
		const tbl_entry_t *p = tbl_entry_at(t, ref[i].off);

		if (!in_heap(t, ref[i].off) || !tbl_alloc_block_used(t->base, ref[i].off) || p->type != TBL_T_PIECE
		    || atomic_load_explicit(&((tbl_entry_t *)p)->next, memory_order_relaxed) != off
		    || p->hash != e->hash || p->val_len != ref[i].len
		    || p->bytes != tbl_alloc_block_size(t->base, ref[i].off)
		    || (uint64_t)ref[i].len + sizeof(tbl_entry_t) + TBL_ALLOC_HDR > p->bytes) {
			return fail(err, errlen, "split entry at %llu: piece %u (at %llu) is not its piece",
			            (unsigned long long)off, i, (unsigned long long)ref[i].off);
		}
		bytes += p->bytes;
		len += ref[i].len;
	}
	if (bytes != e->bytes || len != e->val_len) {
		return fail(err, errlen, "split entry at %llu: %llu bytes in %llu block bytes, entry says %u / %u",
		            (unsigned long long)off, (unsigned long long)len, (unsigned long long)bytes, e->val_len, e->bytes);
	}
	*pieces += n;
	return 0;
}

static int check_chains(tbl_t *t, uint64_t *counts, uint64_t *pieces, char *err, size_t errlen)
{
	tbl_header_t *h = t->hdr;
	unsigned created = tbl_ns_count_created(t);
	uint64_t b, off;

	for (b = 0; b < h->nbuckets; b++) {
		uint64_t steps = 0;
		uint32_t s = tbl_stripe_of_bucket(t, b);

		for (off = atomic_load(&t->buckets[b]); off; off = atomic_load(&tbl_entry_at(t, off)->next)) {
			tbl_entry_t *e = tbl_entry_at(t, off);
			uint64_t *cell;

			if (!in_heap(t, off)) {
				return fail(err, errlen, "bucket %llu: offset %llu outside the heap",
				            (unsigned long long)b, (unsigned long long)off);
			}
			if (++steps > h->alloc.used_blocks + 1) {
				return fail(err, errlen, "bucket %llu: chain has a cycle", (unsigned long long)b);
			}
			if (e->ns >= created) {
				return fail(err, errlen, "entry at %llu: namespace %u not created",
				            (unsigned long long)off, e->ns);
			}
			if ((e->hash & t->bucket_mask) != b
			    || e->hash != tbl_key_hash(t, tbl_entry_key(e), e->key_len, e->ns)) {
				return fail(err, errlen, "entry at %llu: hash does not match its key or bucket",
				            (unsigned long long)off);
			}
			if (tbl_entry_split(e)) {
				if (check_pieces(t, e, off, pieces, err, errlen) != 0) {
					return -1;
				}
			} else if (e->bytes != tbl_alloc_block_size(t->base, off)) {
				return fail(err, errlen, "entry at %llu: size %u but its block holds %llu",
				            (unsigned long long)off, e->bytes,
				            (unsigned long long)tbl_alloc_block_size(t->base, off));
			}
			cell = &counts[2 * ((size_t)s * created + e->ns)];
			cell[0]++;
			cell[1] += e->bytes;
		}
	}
	return 0;
}

static int check_locked(tbl_t *t, char *err, size_t errlen)
{
	tbl_header_t *h = t->hdr;
	unsigned created = tbl_ns_count_created(t), ns;
	uint64_t live_bytes = 0, live_blocks = 0, off, rb = 0, rn = 0, pieces = 0;
	uint64_t *counts = calloc((size_t)h->nstripes * created * 2, sizeof(uint64_t));
	uint32_t s;

	if (!counts) {
		return fail(err, errlen, "calloc failed");
	}
	if (check_chains(t, counts, &pieces, err, errlen) != 0) {
		free(counts);
		return -1;
	}
	for (s = 0; s < h->nstripes; s++) {
		for (ns = 0; ns < created; ns++) {
			tbl_nscount_t *c = tbl_nscount(t, s, (tbl_ns_t)ns);
			uint64_t *cell = &counts[2 * ((size_t)s * created + ns)];

			if (cell[0] != TBL_LOAD_RELAXED(&c->entries) || cell[1] != TBL_LOAD_RELAXED(&c->bytes)) {
				fail(err, errlen, "stripe %u namespace %u: counters say %llu entries / %llu bytes, "
				     "chains hold %llu / %llu", s, ns,
				     (unsigned long long)TBL_LOAD_RELAXED(&c->entries),
				     (unsigned long long)TBL_LOAD_RELAXED(&c->bytes),
				     (unsigned long long)cell[0], (unsigned long long)cell[1]);
				free(counts);
				return -1;
			}
			live_blocks += cell[0];
			live_bytes += cell[1];
		}
	}
	free(counts);
	for (off = h->retire_head; off; off = tbl_entry_at(t, off)->retire_next) {
		if (!in_heap(t, off)) {
			return fail(err, errlen, "retire queue: offset %llu outside the heap", (unsigned long long)off);
		}
		if (++rn > h->alloc.used_blocks) {
			return fail(err, errlen, "retire queue has a cycle");
		}
		rb += tbl_entry_at(t, off)->bytes;
		if (tbl_entry_split(tbl_entry_at(t, off))
		    && check_pieces(t, tbl_entry_at(t, off), off, &pieces, err, errlen) != 0) {
			return -1;
		}
		if (!tbl_entry_at(t, off)->retire_next && off != h->retire_tail) {
			return fail(err, errlen, "retire queue: tail mismatch");
		}
	}
	if (rn != h->retired_blocks || rb != h->retired_bytes) {
		return fail(err, errlen, "retire queue holds %llu blocks / %llu bytes, header says %llu / %llu",
		            (unsigned long long)rn, (unsigned long long)rb,
		            (unsigned long long)h->retired_blocks, (unsigned long long)h->retired_bytes);
	}
	/* The held list (retired, freed once zero-copy readers let go) is part of the retired memory. */
	for (off = h->held_head; off; off = tbl_entry_at(t, off)->retire_next) {
		if (!in_heap(t, off)) {
			return fail(err, errlen, "held list: offset %llu outside the heap", (unsigned long long)off);
		}
		if (++rn > h->alloc.used_blocks) {
			return fail(err, errlen, "held list has a cycle");
		}
		rb += tbl_entry_at(t, off)->bytes;
		if (tbl_entry_split(tbl_entry_at(t, off))
		    && check_pieces(t, tbl_entry_at(t, off), off, &pieces, err, errlen) != 0) {
			return -1;
		}
	}
	if (tbl_alloc_check(&h->alloc, t->base, err, errlen) != 0) {
		return -1;
	}
	if (h->alloc.used_blocks != live_blocks + rn + pieces || h->alloc.used_bytes != live_bytes + rb) {
		return fail(err, errlen, "allocator has %llu used blocks / %llu bytes; live + retired entries are "
		            "%llu / %llu (leak)", (unsigned long long)h->alloc.used_blocks,
		            (unsigned long long)h->alloc.used_bytes, (unsigned long long)(live_blocks + rn + pieces),
		            (unsigned long long)(live_bytes + rb));
	}
	return 0;
}

/* Namespace lock held: no record is mid-rewrite, the index holds only created ids, and every named
 * record is found by its name. */
static int check_namespaces(tbl_t *t, char *err, size_t errlen)
{
	unsigned created = tbl_ns_count_created(t), id;
	uint32_t i;
	tbl_ns_t h;

	for (i = 0; i < t->hdr->nsindex_size; i++) {
		uint16_t v = atomic_load(&t->nsindex[i]);
		if (v && v != TBL_NSINDEX_TOMBSTONE && v - 1u >= created) {
			return fail(err, errlen, "namespace index cell %u holds id %u, but only %u were created", i,
			            v - 1u, created);
		}
	}
	for (id = 1; id < created; id++) {
		if (atomic_load(&t->nsrecs[id].gen) & 1u) {
			return fail(err, errlen, "namespace %u: record left half-rewritten (odd generation)", id);
		}
	}
	for (id = 1; id < created; id++) {
		const tbl_nsrec_t *r = &t->nsrecs[id];
		if (r->len && (tbl_ns_find(t, r->name, r->len, &h) != TBL_OK || tbl_ns_id(h) != id)) {
			return fail(err, errlen, "namespace %u (\"%.*s\"): not found by its name", id, (int)r->len, r->name);
		}
	}
	return 0;
}

static void unlock_stripes(tbl_t *t, uint32_t n)
{
	while (n-- > 0) {
		tbl_stripe_unlock(t, n);
	}
}

/* Every stripe lock, then the allocator lock; 0, or -1 with nothing held when a lock is unusable. */
static int lock_all(tbl_t *t)
{
	uint32_t s;

	for (s = 0; s < t->hdr->nstripes; s++) {
		if (tbl_stripe_lock(t, s) != TBL_OK) {
			unlock_stripes(t, s);
			return -1;
		}
	}
	if (tbl_alloc_lock(t) != TBL_OK) {
		unlock_stripes(t, t->hdr->nstripes);
		return -1;
	}
	return 0;
}

static void unlock_all(tbl_t *t)
{
	tbl_alloc_unlock(t);
	unlock_stripes(t, t->hdr->nstripes);
}

int tbl_check(tbl_t *t, char *err, size_t errlen)
{
	int rc;

	/* A lock whose holder died is repaired by its next taker; take every lock once so that all
	 * pending repairs (and the leak recovery they call for) happen before judging. The namespace
	 * lock too: its repair fixes records a dead recycler left behind. */
	if (lock_all(t) != 0) {
		return fail(err, errlen, "%s", tbl_errstr(t));
	}
	unlock_all(t);
	if (tbl_ns_lock(t) != TBL_OK) {
		return fail(err, errlen, "%s", tbl_errstr(t));
	}
	tbl_ns_unlock(t);
	tbl_gc_if_needed(t);
	if (lock_all(t) != 0) {
		return fail(err, errlen, "%s", tbl_errstr(t));
	}
	rc = check_locked(t, err, errlen);
	unlock_all(t);
	if (rc == 0) {
		if (tbl_ns_lock(t) != TBL_OK) {
			return fail(err, errlen, "%s", tbl_errstr(t));
		}
		rc = check_namespaces(t, err, errlen);
		tbl_ns_unlock(t);
	}
	return rc;
}

int tbl_debug_hold_locks(tbl_t *t, const char *which, void (*while_held)(void *), void *arg)
{
	if (strcmp(which, "stripes") == 0) {
		if (lock_all(t) != 0) {
			return -1;
		}
		tbl_alloc_unlock(t);   /* lock_all's order, minus the allocator */
		while_held(arg);
		unlock_stripes(t, t->hdr->nstripes);
	} else if (strcmp(which, "allocator") == 0) {
		if (tbl_alloc_lock(t) != TBL_OK) {
			return -1;
		}
		while_held(arg);
		tbl_alloc_unlock(t);
	} else if (strcmp(which, "namespace") == 0) {
		if (tbl_ns_lock(t) != TBL_OK) {
			return -1;
		}
		while_held(arg);
		tbl_ns_unlock(t);
	} else if (strcmp(which, "misc") == 0) {
		if (tbl_misc_lock(t) != TBL_OK) {
			return -1;
		}
		while_held(arg);
		tbl_misc_unlock(t);
	} else {
		snprintf(t->errstr, sizeof(t->errstr), "no lock is named \"%s\"", which);
		return -1;
	}
	return 0;
}
