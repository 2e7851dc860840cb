/*
 * ns.c - namespaces: a name <-> small integer id map in the segment.
 *
 * Entries carry a 16-bit namespace id, which keeps them small and lets the counters be a flat
 * [stripe][namespace] array, so count() and memory() per namespace are a handful of loads. Names are
 * stored once, by id (tbl_nsrec_t), and found through an open-addressed index of id + 1 values keyed by
 * the name's hash.
 *
 * Readers look names up without a lock: a creator writes the record first, then publishes the index
 * cell with a release store, then bumps ns_created; a reader that sees the cell also sees the record.
 * Creation takes the namespace lock, so two processes can never create the same name twice. Namespaces
 * are never removed (a cleared namespace keeps its id); the limit, max_ns, scales with table.memory.
 * Id 0 is the default namespace and is not in the index.
 */
#include <string.h>
#include "hash.h"
#include "segment.h"
#include "sync.h"

static uint32_t name_slot(const tbl_t *t, const char *name, size_t len)
{
	return (uint32_t)(tbl_hash_bytes(name, len, 0x6E73u) & (t->hdr->nsindex_size - 1u));
}

/* Probe for `name`. Returns its id, or -1 with *empty set to the first free cell. */
static int probe(tbl_t *t, const char *name, size_t len, uint32_t *empty)
{
	uint32_t mask = t->hdr->nsindex_size - 1u, i = name_slot(t, name, len), n;

	for (n = 0; n <= mask; n++, i = (i + 1u) & mask) {
		uint16_t v = atomic_load_explicit(&t->nsindex[i], memory_order_acquire);
		const tbl_nsrec_t *r;

		if (v == 0) {
			*empty = i;
			return -1;
		}
		r = &t->nsrecs[v - 1u];
		if (r->len == len && memcmp(r->name, name, len) == 0) {
			return (int)(v - 1u);
		}
	}
	*empty = UINT32_MAX;
	return -1;
}

tbl_status_t tbl_ns_find(tbl_t *t, const char *name, size_t len, tbl_ns_t *out)
{
	uint32_t empty;
	int id;

	if (len == 0 || len > TBL_NS_NAME_MAX) {
		return TBL_EINVAL;
	}
	id = probe(t, name, len, &empty);
	if (id < 0) {
		return TBL_ENOTFOUND;
	}
	*out = (tbl_ns_t)id;
	return TBL_OK;
}

tbl_status_t tbl_ns_get(tbl_t *t, const char *name, size_t len, tbl_ns_t *out)
{
	tbl_header_t *h = t->hdr;
	tbl_status_t st = tbl_ns_find(t, name, len, out);
	uint32_t empty, id;
	int found;

	if (st != TBL_ENOTFOUND) {
		return st;
	}
	tbl_ns_lock(t);
	found = probe(t, name, len, &empty);
	if (found >= 0) {
		*out = (tbl_ns_t)found;
		tbl_ns_unlock(t);
		return TBL_OK;
	}
	id = atomic_load(&h->ns_created);
	if (id >= h->max_ns || empty == UINT32_MAX) {
		tbl_ns_unlock(t);
		return TBL_ENSFULL;
	}
	t->nsrecs[id].len = (uint16_t)len;
	memcpy(t->nsrecs[id].name, name, len);
	atomic_store_explicit(&t->nsindex[empty], (uint16_t)(id + 1u), memory_order_release);
	atomic_store_explicit(&h->ns_created, id + 1u, memory_order_release);
	tbl_ns_unlock(t);
	*out = (tbl_ns_t)id;
	return TBL_OK;
}

const char *tbl_ns_name(tbl_t *t, tbl_ns_t ns, size_t *len)
{
	if (ns >= atomic_load_explicit(&t->hdr->ns_created, memory_order_acquire)) {
		*len = 0;
		return NULL;
	}
	*len = t->nsrecs[ns].len;
	return t->nsrecs[ns].name;
}

unsigned tbl_ns_count_created(tbl_t *t)
{
	return atomic_load_explicit(&t->hdr->ns_created, memory_order_acquire);
}

unsigned tbl_ns_limit(tbl_t *t)
{
	return t->hdr->max_ns;
}
