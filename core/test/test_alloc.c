/*
 * test_alloc.c - unit tests for core/alloc.c.
 *
 * Every test works on a private heap: a 16-aligned malloc'd buffer used as the segment base, with the
 * heap at HEAP_OFF (non-zero, like behind the real segment header) and the rest filled with garbage so
 * nothing relies on zeroed memory. test_crash_fork uses a MAP_SHARED mapping and SIGKILLs a child
 * in the middle of its allocator calls to exercise the crash contract for real.
 *
 * TBL_CHURN_OPS=<n> changes the operation count of the big churn tests (default 2M each).
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include "harness.h"
#include "alloc.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HEAP_OFF  4096u
#define KiB       ((uint64_t)1024)
#define MiB       (KiB * KiB)

/* ---- helpers ----------------------------------------------------------------------------------- */

typedef struct heap {
	tbl_alloc_t a;
	void *base;
	uint64_t heap_size;
} heap_t;

static void heap_open(heap_t *h, uint64_t heap_size)
{
	uint64_t total = (HEAP_OFF + heap_size + 63) & ~(uint64_t)63;

	h->base = aligned_alloc(64, total);
	if (!h->base) {
		perror("aligned_alloc");
		exit(2);
	}
	memset(h->base, 0xA5, total);
	h->heap_size = heap_size;
	tbl_alloc_init(&h->a, h->base, HEAP_OFF, heap_size);
}

static void heap_close(heap_t *h)
{
	free(h->base);
	h->base = NULL;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t rng_range(uint64_t lo, uint64_t hi)   /* inclusive */
{
	return lo + rng() % (hi - lo + 1);
}

static uint64_t block_for(uint64_t size)
{
	uint64_t need = (size + TBL_ALLOC_HDR + 15) & ~(uint64_t)15;
	return need < 32 ? 32 : need;
}

static int check_heap_at(const char *file, int line, const tbl_alloc_t *a, const void *base)
{
	char err[256], what[320];

	if (tbl_alloc_check(a, base, err, sizeof(err)) == 0)
		return 1;
	snprintf(what, sizeof(what), "tbl_alloc_check: %s", err);
	tbl_test_fail(file, line, what);
	return 0;
}
#define CHECK_HEAP(h) check_heap_at(__FILE__, __LINE__, &(h)->a, (h)->base)

/* The invariant that must hold at every instant, crash or not: head words tile the heap exactly. */
static int heap_tiles(const tbl_alloc_t *a, const void *base)
{
	uint64_t off = a->heap_off;

	while (off < a->heap_end) {
		uint64_t size = *(const uint64_t *)((const char *)base + off) & ~(uint64_t)15;

		if (size < 32 || size > a->heap_end - off)
			return 0;
		off += size;
	}
	return off == a->heap_end;
}

typedef struct census {
	uint64_t blocks, free_blocks, used_blocks, free_bytes, used_bytes, largest_free;
	uint64_t last_end;      /* payload offset + size - 16 of the previous block, for the order check */
	int out_of_order;
} census_t;

static void census_visit(void *ctx, uint64_t off, uint64_t size, int used)
{
	census_t *c = ctx;

	if (c->last_end && off - TBL_ALLOC_HDR != c->last_end)
		c->out_of_order = 1;
	c->last_end = off - TBL_ALLOC_HDR + size;
	c->blocks++;
	if (used) {
		c->used_blocks++;
		c->used_bytes += size;
	} else {
		c->free_blocks++;
		c->free_bytes += size;
		if (size - TBL_ALLOC_HDR > c->largest_free)
			c->largest_free = size - TBL_ALLOC_HDR;
	}
}

static census_t census(const heap_t *h)
{
	census_t c;

	memset(&c, 0, sizeof(c));
	tbl_alloc_walk(&h->a, h->base, census_visit, &c);
	return c;
}

static unsigned char *payload(const heap_t *h, uint64_t off)
{
	return (unsigned char *)h->base + off;
}

/* Fill the whole usable payload with one byte and verify it later: catches any overlap. */
static void fill(const heap_t *h, uint64_t off, unsigned char byte)
{
	memset(payload(h, off), byte, tbl_alloc_block_size(h->base, off) - TBL_ALLOC_HDR);
}

static int filled(const heap_t *h, uint64_t off, unsigned char byte)
{
	uint64_t i, n = tbl_alloc_block_size(h->base, off) - TBL_ALLOC_HDR;
	const unsigned char *p = payload(h, off);

	for (i = 0; i < n; i++)
		if (p[i] != byte)
			return 0;
	return 1;
}

/* ---- basics ------------------------------------------------------------------------------------ */

TBL_TEST(test_init)
{
	heap_t h;
	census_t c;

	heap_open(&h, 1 * MiB);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.heap_off, HEAP_OFF);
	CHECK_EQ_U64(h.a.heap_end, HEAP_OFF + 1 * MiB);
	CHECK_EQ_U64(h.a.free_bytes, 1 * MiB);
	CHECK_EQ_U64(h.a.used_bytes, 0);
	CHECK_EQ_U64(h.a.used_blocks, 0);
	CHECK_EQ_U64(tbl_alloc_max_payload(&h.a), 1 * MiB - 16);
	CHECK_EQ_U64(tbl_alloc_largest_free(&h.a, h.base), 1 * MiB - 16);
	c = census(&h);
	CHECK_EQ_U64(c.blocks, 1);
	CHECK_EQ_U64(c.free_bytes, 1 * MiB);
	heap_close(&h);
}

TBL_TEST(test_init_small_and_odd_sizes)
{
	heap_t h;
	uint64_t o;

	heap_open(&h, 64);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(tbl_alloc_max_payload(&h.a), 48);
	o = tbl_alloc(&h.a, h.base, 48);
	CHECK(o != 0);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, o), 64);
	CHECK_EQ_U64(tbl_alloc(&h.a, h.base, 0), 0);
	tbl_free(&h.a, h.base, o);
	CHECK_HEAP(&h);
	heap_close(&h);

	/* Not a multiple of 16: the tail is not part of the heap. */
	heap_open(&h, 100);
	CHECK_EQ_U64(h.a.heap_end, HEAP_OFF + 96);
	CHECK_EQ_U64(h.a.free_bytes, 96);
	CHECK_HEAP(&h);
	heap_close(&h);

	/* Too small for one block: an empty heap that refuses everything but stays consistent. */
	heap_open(&h, 31);
	CHECK_EQ_U64(h.a.heap_end, h.a.heap_off);
	CHECK_EQ_U64(tbl_alloc_max_payload(&h.a), 0);
	CHECK_EQ_U64(tbl_alloc_largest_free(&h.a, h.base), 0);
	CHECK_EQ_U64(tbl_alloc(&h.a, h.base, 0), 0);
	CHECK_HEAP(&h);
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	heap_close(&h);
}

TBL_TEST(test_alloc_sizes_and_alignment)
{
	heap_t h;
	static uint64_t offs[4000];
	uint64_t n = 0, size, used = 0, i;

	heap_open(&h, 16 * MiB);
	for (size = 0; size < 3000; size += (size < 600 ? 1 : 7)) {
		uint64_t o = tbl_alloc(&h.a, h.base, size);

		REQUIRE(o != 0);
		CHECK_EQ_U64(o % 16, 0);
		CHECK(o >= h.a.heap_off + 16 && o + size <= h.a.heap_end);
		CHECK_EQ_U64(tbl_alloc_block_size(h.base, o), block_for(size));
		fill(&h, o, (unsigned char)n);
		used += block_for(size);
		offs[n++] = o;
		if (n % 64 == 0)
			CHECK_HEAP(&h);
	}
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.used_bytes, used);
	CHECK_EQ_U64(h.a.used_blocks, n);
	CHECK_EQ_U64(h.a.free_bytes, 16 * MiB - used);
	for (i = 0; i < n; i++)
		CHECK(filled(&h, offs[i], (unsigned char)i));
	/* Free every other one, then the rest. */
	for (i = 0; i < n; i += 2)
		tbl_free(&h.a, h.base, offs[i]);
	CHECK_HEAP(&h);
	for (i = 1; i < n; i += 2) {
		CHECK(filled(&h, offs[i], (unsigned char)i));
		tbl_free(&h.a, h.base, offs[i]);
	}
	CHECK_HEAP(&h);
	CHECK_EQ_U64(census(&h).blocks, 1);
	CHECK_EQ_U64(h.a.free_bytes, 16 * MiB);
	heap_close(&h);
}

TBL_TEST(test_exhaustion)
{
	heap_t h;
	uint64_t max, o;

	heap_open(&h, 1 * MiB);
	max = tbl_alloc_max_payload(&h.a);
	CHECK_EQ_U64(tbl_alloc(&h.a, h.base, (size_t)max + 1), 0);
	CHECK_EQ_U64(tbl_alloc(&h.a, h.base, SIZE_MAX), 0);
	CHECK_EQ_U64(tbl_alloc(&h.a, h.base, SIZE_MAX - 15), 0);
	CHECK_HEAP(&h);
	o = tbl_alloc(&h.a, h.base, (size_t)max);
	REQUIRE(o != 0);
	CHECK_EQ_U64(o, HEAP_OFF + 16);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, o), 1 * MiB);
	CHECK_EQ_U64(h.a.free_bytes, 0);
	CHECK_EQ_U64(tbl_alloc_largest_free(&h.a, h.base), 0);
	CHECK_EQ_U64(tbl_alloc(&h.a, h.base, 0), 0);
	CHECK_EQ_U64(tbl_alloc(&h.a, h.base, 1), 0);
	CHECK_HEAP(&h);
	tbl_free(&h.a, h.base, o);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.free_bytes, 1 * MiB);
	heap_close(&h);
}

TBL_TEST(test_split_leaves_no_tiny_remainder)
{
	heap_t h;
	uint64_t o, g1, g2, mid;

	/* A 48-byte heap and a 32-byte request: the 16-byte rest cannot be a block. */
	heap_open(&h, 48);
	o = tbl_alloc(&h.a, h.base, 1);
	REQUIRE(o != 0);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, o), 48);
	CHECK_EQ_U64(h.a.free_bytes, 0);
	CHECK_HEAP(&h);
	heap_close(&h);

	/* A 64-byte hole between used blocks, then requests of 48 (rest 16: whole block) and 32 (split). */
	heap_open(&h, 4 * KiB);
	g1 = tbl_alloc(&h.a, h.base, 100);
	mid = tbl_alloc(&h.a, h.base, 48);
	g2 = tbl_alloc(&h.a, h.base, 100);
	REQUIRE(g1 && mid && g2);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, mid), 64);
	/* Use up the rest so the hole is the only free space. */
	REQUIRE(tbl_alloc(&h.a, h.base, (size_t)tbl_alloc_largest_free(&h.a, h.base)) != 0);
	tbl_free(&h.a, h.base, mid);
	CHECK_HEAP(&h);
	o = tbl_alloc(&h.a, h.base, 17);     /* needs 48 */
	CHECK_EQ_U64(o, mid);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, o), 64);
	CHECK_EQ_U64(h.a.free_bytes, 0);
	tbl_free(&h.a, h.base, o);
	o = tbl_alloc(&h.a, h.base, 16);     /* needs 32: the hole splits in two 32-byte blocks */
	REQUIRE(o != 0);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, o), 32);
	CHECK_EQ_U64(h.a.free_bytes, 32);
	CHECK_HEAP(&h);
	CHECK(tbl_alloc(&h.a, h.base, 16) != 0);
	CHECK_EQ_U64(h.a.free_bytes, 0);
	CHECK_HEAP(&h);
	heap_close(&h);
}

TBL_TEST(test_exact_bin_reuse)
{
	heap_t h;
	uint64_t a1, a2, g, b;

	heap_open(&h, 64 * KiB);
	a1 = tbl_alloc(&h.a, h.base, 40);
	g = tbl_alloc(&h.a, h.base, 40);
	a2 = tbl_alloc(&h.a, h.base, 40);
	REQUIRE(a1 && g && a2);
	tbl_free(&h.a, h.base, a1);
	CHECK_HEAP(&h);
	b = tbl_alloc(&h.a, h.base, 33);    /* same 64-byte class: the freed block comes back */
	CHECK_EQ_U64(b, a1);
	CHECK_HEAP(&h);
	heap_close(&h);
}

/* Free n blocks in every order; after each step the heap must be consistent, at the end one block. */
static void free_all_orders(uint64_t heap_size, const uint64_t *sizes, unsigned n, int fill_heap)
{
	unsigned perm[6], i, k;
	unsigned long count = 0;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (;;) {
		heap_t h;
		uint64_t offs[6];

		heap_open(&h, heap_size);
		for (i = 0; i < n; i++) {
			offs[i] = tbl_alloc(&h.a, h.base, (size_t)sizes[i]);
			if (!offs[i]) {
				CHECK(offs[i] != 0);
				heap_close(&h);
				return;
			}
		}
		if (fill_heap && h.a.free_bytes) {
			CHECK(tbl_alloc(&h.a, h.base, (size_t)tbl_alloc_largest_free(&h.a, h.base)) != 0);
			CHECK_EQ_U64(h.a.free_bytes, 0);
		}
		for (i = 0; i < n; i++) {
			tbl_free(&h.a, h.base, offs[perm[i]]);
			if (!CHECK_HEAP(&h)) {
				heap_close(&h);
				return;
			}
		}
		if (fill_heap) {
			CHECK_EQ_U64(h.a.used_blocks, 1);
			CHECK_EQ_U64(census(&h).free_blocks, 1);
		} else {
			CHECK_EQ_U64(census(&h).blocks, 1);
			CHECK_EQ_U64(h.a.free_bytes, heap_size);
		}
		heap_close(&h);
		count++;

		/* next permutation (lexicographic) */
		for (k = n - 1; k > 0 && perm[k - 1] > perm[k]; k--)
			;
		if (k == 0)
			break;
		for (i = n - 1; perm[i] < perm[k - 1]; i--)
			;
		{ unsigned t = perm[i]; perm[i] = perm[k - 1]; perm[k - 1] = t; }
		for (i = k, k = n - 1; i < k; i++, k--) {
			unsigned t = perm[i]; perm[i] = perm[k]; perm[k] = t;
		}
	}
	CHECK_EQ_U64(count, n == 5 ? 120 : n == 6 ? 720 : count);
}

TBL_TEST(test_coalesce_every_order)
{
	/* Sizes across exact bins, range bins and the last bin, so merges change bins. */
	static const uint64_t small[5] = { 16, 100, 480, 40, 2000 };
	static const uint64_t mixed[6] = { 600, 16, 200000, 5000, 530, 70000 };

	free_all_orders(64 * KiB, small, 5, 0);
	free_all_orders(64 * KiB, small, 5, 1);
	free_all_orders(1 * MiB, mixed, 6, 0);
	free_all_orders(1 * MiB, mixed, 6, 1);
}

TBL_TEST(test_coalesce_neighbours)
{
	heap_t h;
	uint64_t b[5], sz, i;
	census_t c;

	heap_open(&h, 5 * 1024);
	for (i = 0; i < 5; i++)
		b[i] = tbl_alloc(&h.a, h.base, 1024 - 16);
	REQUIRE(b[0] && b[1] && b[2] && b[3] && b[4]);
	CHECK_EQ_U64(h.a.free_bytes, 0);
	/* Allocation carves from the top: b[0] is the highest block. */
	CHECK(b[0] > b[1] && b[1] > b[2] && b[2] > b[3] && b[3] > b[4]);

	tbl_free(&h.a, h.base, b[1]);
	tbl_free(&h.a, h.base, b[3]);
	CHECK_HEAP(&h);
	c = census(&h);
	CHECK_EQ_U64(c.free_blocks, 2);
	tbl_free(&h.a, h.base, b[2]);       /* merges with both neighbours */
	CHECK_HEAP(&h);
	c = census(&h);
	CHECK_EQ_U64(c.free_blocks, 1);
	CHECK_EQ_U64(c.largest_free, 3 * 1024 - 16);
	CHECK_EQ_U64(tbl_alloc_largest_free(&h.a, h.base), 3 * 1024 - 16);
	tbl_free(&h.a, h.base, b[4]);       /* lowest block: merges up */
	CHECK_HEAP(&h);
	CHECK_EQ_U64(census(&h).free_blocks, 1);
	tbl_free(&h.a, h.base, b[0]);       /* highest block: merges down */
	CHECK_HEAP(&h);
	c = census(&h);
	CHECK_EQ_U64(c.blocks, 1);
	sz = h.a.free_bytes;
	CHECK_EQ_U64(sz, 5 * 1024);
	heap_close(&h);
}

TBL_TEST(test_max_payload_and_largest_free)
{
	heap_t h;
	uint64_t o[64], i, lf;
	census_t c;

	heap_open(&h, 256 * KiB);
	CHECK_EQ_U64(tbl_alloc_max_payload(&h.a), 256 * KiB - 16);
	for (i = 0; i < 64; i++) {
		o[i] = tbl_alloc(&h.a, h.base, (size_t)(100 + i * 37));
		REQUIRE(o[i] != 0);
	}
	/* Keep a contiguous tail used so no free space touches the end. */
	REQUIRE(tbl_alloc(&h.a, h.base, (size_t)tbl_alloc_largest_free(&h.a, h.base)) != 0);
	for (i = 0; i < 64; i += 3)
		tbl_free(&h.a, h.base, o[i]);
	CHECK_HEAP(&h);
	c = census(&h);
	lf = tbl_alloc_largest_free(&h.a, h.base);
	CHECK_EQ_U64(lf, c.largest_free);
	CHECK_EQ_U64(tbl_alloc_max_payload(&h.a), 256 * KiB - 16);   /* does not depend on the state */
	CHECK_EQ_U64(tbl_alloc(&h.a, h.base, (size_t)lf + 1), 0);
	CHECK(tbl_alloc(&h.a, h.base, (size_t)lf) != 0);
	CHECK_HEAP(&h);
	heap_close(&h);
}

/* Many blocks of one range bin, the only fitting one deepest in its list, nothing free elsewhere:
 * the bounded probe misses it, the fallback must find it. */
TBL_TEST(test_range_bin_deep_fit)
{
	heap_t h;
	enum { N = 40 };
	uint64_t big, small_blk[N], guard[N + 1], i, o, total;

	total = 624 + N * 528 + (N + 1) * 32;
	heap_open(&h, total);
	guard[0] = tbl_alloc(&h.a, h.base, 16);
	big = tbl_alloc(&h.a, h.base, 624 - 16);
	for (i = 0; i < N; i++) {
		guard[i + 1] = tbl_alloc(&h.a, h.base, 16);
		small_blk[i] = tbl_alloc(&h.a, h.base, 528 - 16);
		REQUIRE(guard[i + 1] && small_blk[i]);
	}
	REQUIRE(guard[0] && big);
	CHECK_EQ_U64(h.a.free_bytes, 0);
	tbl_free(&h.a, h.base, big);           /* LIFO: ends up last in the bin */
	for (i = 0; i < N; i++)
		tbl_free(&h.a, h.base, small_blk[i]);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(tbl_alloc_largest_free(&h.a, h.base), 624 - 16);
	o = tbl_alloc(&h.a, h.base, 624 - 16);
	CHECK_EQ_U64(o, big);
	CHECK_HEAP(&h);
	/* Best fit within the probe window: a 528 request takes a 528 block, not a bigger one. */
	tbl_free(&h.a, h.base, o);
	o = tbl_alloc(&h.a, h.base, 528 - 16);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, o), 528);
	CHECK_HEAP(&h);
	heap_close(&h);
}

/* Block sizes on and around every kind of bin boundary, separated by guards, freed and asked for again:
 * each request must get back exactly its own block. */
TBL_TEST(test_bin_boundaries)
{
	static const uint64_t blocks[] = {
		32, 48, 496, 512, 528, 544, 624, 640, 656, 1008, 1024, 1040, 1280, 4096, 65536,
		114688, 131056, 131072, 131088, 262144, 1048576
	};
	enum { N = sizeof(blocks) / sizeof(blocks[0]) };
	heap_t h;
	uint64_t offs[N], i;

	heap_open(&h, 4 * MiB);
	for (i = 0; i < N; i++) {
		offs[i] = tbl_alloc(&h.a, h.base, (size_t)(blocks[i] - 16));
		REQUIRE(offs[i] != 0);
		CHECK_EQ_U64(tbl_alloc_block_size(h.base, offs[i]), blocks[i]);
		REQUIRE(tbl_alloc(&h.a, h.base, 16) != 0);    /* guard */
	}
	REQUIRE(tbl_alloc(&h.a, h.base, (size_t)tbl_alloc_largest_free(&h.a, h.base)) != 0);
	for (i = 0; i < N; i++) {
		tbl_free(&h.a, h.base, offs[i]);
		CHECK_HEAP(&h);
	}
	for (i = N; i-- > 0;) {
		uint64_t o = tbl_alloc(&h.a, h.base, (size_t)(blocks[i] - 16));

		CHECK_EQ_U64(o, offs[i]);
		CHECK_HEAP(&h);
	}
	CHECK_EQ_U64(h.a.free_bytes, 0);
	heap_close(&h);
}

TBL_TEST(test_invalid_free_is_ignored)
{
	heap_t h;
	uint64_t a1, a2, before_free, before_used;

	heap_open(&h, 64 * KiB);
	a1 = tbl_alloc(&h.a, h.base, 100);
	a2 = tbl_alloc(&h.a, h.base, 100);
	REQUIRE(a1 && a2);
	tbl_free(&h.a, h.base, a1);
	before_free = h.a.free_bytes;
	before_used = h.a.used_blocks;
	tbl_free(&h.a, h.base, a1);                          /* double free */
	tbl_free(&h.a, h.base, 0);
	tbl_free(&h.a, h.base, h.a.heap_off);                /* a header, not a payload */
	tbl_free(&h.a, h.base, a2 + 8);                      /* misaligned */
	tbl_free(&h.a, h.base, h.a.heap_end);
	tbl_free(&h.a, h.base, h.a.heap_end + 4096);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.free_bytes, before_free);
	CHECK_EQ_U64(h.a.used_blocks, before_used);
	heap_close(&h);
}

typedef struct walk_model {
	uint64_t n, offs[16], sizes[16];
	int used[16];
} walk_model_t;

static void walk_record(void *ctx, uint64_t off, uint64_t size, int used)
{
	walk_model_t *m = ctx;

	if (m->n < 16) {
		m->offs[m->n] = off;
		m->sizes[m->n] = size;
		m->used[m->n] = used;
	}
	m->n++;
}

TBL_TEST(test_walk)
{
	heap_t h;
	uint64_t a1, a2, a3;
	walk_model_t m;

	heap_open(&h, 8 * KiB);
	a1 = tbl_alloc(&h.a, h.base, 100);    /* 128 at the top */
	a2 = tbl_alloc(&h.a, h.base, 1000);   /* 1024 below it */
	a3 = tbl_alloc(&h.a, h.base, 10);     /* 32 below that */
	REQUIRE(a1 && a2 && a3);
	tbl_free(&h.a, h.base, a2);
	memset(&m, 0, sizeof(m));
	tbl_alloc_walk(&h.a, h.base, walk_record, &m);
	REQUIRE(m.n == 4);
	CHECK_EQ_U64(m.offs[0], HEAP_OFF + 16);
	CHECK_EQ_U64(m.sizes[0], 8 * KiB - 128 - 1024 - 32);
	CHECK(!m.used[0]);
	CHECK_EQ_U64(m.offs[1], a3);
	CHECK_EQ_U64(m.sizes[1], 32);
	CHECK(m.used[1]);
	CHECK_EQ_U64(m.offs[2], a2);
	CHECK_EQ_U64(m.sizes[2], 1024);
	CHECK(!m.used[2]);
	CHECK_EQ_U64(m.offs[3], a1);
	CHECK_EQ_U64(m.sizes[3], 128);
	CHECK(m.used[3]);
	heap_close(&h);
}

/* ---- crash repair ------------------------------------------------------------------------------- */

/* Raw access to a block header, the way a crashed process would have left it. */
static uint64_t *hdr(const heap_t *h, uint64_t header_off)
{
	return (uint64_t *)((char *)h->base + header_off);
}

/* Build a random mix of used and free blocks; returns the number of live offsets in offs. */
static uint64_t random_state(heap_t *h, uint64_t *offs, uint64_t cap, uint64_t ops)
{
	uint64_t n = 0, i;

	for (i = 0; i < ops; i++) {
		if (n < cap && (n == 0 || rng() % 3 != 0)) {
			uint64_t o = tbl_alloc(&h->a, h->base, (size_t)rng_range(0, 3000));

			if (o)
				offs[n++] = o;
		} else {
			uint64_t k = rng() % n;

			tbl_free(&h->a, h->base, offs[k]);
			offs[k] = offs[--n];
		}
	}
	return n;
}

typedef struct used_list {
	uint64_t n, cap;
	uint64_t *offs, *sizes;
} used_list_t;

static void used_visit(void *ctx, uint64_t off, uint64_t size, int used)
{
	used_list_t *u = ctx;

	if (used && u->n < u->cap) {
		u->offs[u->n] = off;
		u->sizes[u->n] = size;
		u->n++;
	}
}

static used_list_t used_blocks(const heap_t *h, uint64_t cap)
{
	used_list_t u;

	u.n = 0;
	u.cap = cap;
	u.offs = calloc(cap, sizeof(uint64_t));
	u.sizes = calloc(cap, sizeof(uint64_t));
	tbl_alloc_walk(&h->a, h->base, used_visit, &u);
	return u;
}

static int used_equal(const used_list_t *x, const used_list_t *y)
{
	return x->n == y->n && !memcmp(x->offs, y->offs, x->n * sizeof(uint64_t))
	       && !memcmp(x->sizes, y->sizes, x->n * sizeof(uint64_t));
}

static void used_drop(used_list_t *u)
{
	free(u->offs);
	free(u->sizes);
}

TBL_TEST(test_rebuild_after_scrambled_metadata)
{
	heap_t h;
	static uint64_t offs[2000];
	uint64_t n, i, fb, ub, nb, f;
	used_list_t before, after;
	int round;

	for (round = 0; round < 20; round++) {
		census_t c;

		heap_open(&h, 2 * MiB);
		n = random_state(&h, offs, 2000, 5000);
		REQUIRE(CHECK_HEAP(&h));
		fb = h.a.free_bytes;
		ub = h.a.used_bytes;
		nb = h.a.used_blocks;
		before = used_blocks(&h, 2000);
		CHECK_EQ_U64(before.n, n);

		/* Everything rebuild must not trust: bins, bitmap, counters, boundary tags, list links. */
		for (i = 0; i < TBL_ALLOC_NBINS; i++)
			h.a.bins[i] = rng();
		h.a.bin_map = rng();
		h.a.free_bytes = rng();
		h.a.used_bytes = rng();
		h.a.used_blocks = rng();
		for (f = h.a.heap_off; f < h.a.heap_end; f += *hdr(&h, f) & ~(uint64_t)15) {
			hdr(&h, f)[1] = rng();
			if (!(*hdr(&h, f) & 1)) {
				hdr(&h, f)[2] = rng();
				hdr(&h, f)[3] = rng();
			}
		}
		CHECK(tbl_alloc_check(&h.a, h.base, NULL, 0) != 0);
		tbl_alloc_rebuild(&h.a, h.base);
		CHECK_HEAP(&h);
		CHECK_EQ_U64(h.a.free_bytes, fb);
		CHECK_EQ_U64(h.a.used_bytes, ub);
		CHECK_EQ_U64(h.a.used_blocks, nb);
		after = used_blocks(&h, 2000);
		CHECK(used_equal(&before, &after));
		c = census(&h);
		CHECK_EQ_U64(tbl_alloc_largest_free(&h.a, h.base), c.largest_free);
		/* Rebuild is idempotent and the heap keeps working. */
		tbl_alloc_rebuild(&h.a, h.base);
		CHECK_HEAP(&h);
		for (i = 0; i < n; i++)
			tbl_free(&h.a, h.base, offs[i]);
		CHECK_HEAP(&h);
		CHECK_EQ_U64(census(&h).blocks, 1);
		used_drop(&before);
		used_drop(&after);
		heap_close(&h);
	}
}

TBL_TEST(test_rebuild_merges_adjacent_free)
{
	heap_t h;
	uint64_t b[8], i;

	heap_open(&h, 8 * 256);
	for (i = 0; i < 8; i++)
		b[i] = tbl_alloc(&h.a, h.base, 256 - 16);
	REQUIRE(h.a.free_bytes == 0);
	/* Clear USED on b[1..3] and b[5] by hand (free blocks side by side, never produced by the API). */
	*hdr(&h, b[1] - 16) &= ~(uint64_t)1;
	*hdr(&h, b[2] - 16) &= ~(uint64_t)1;
	*hdr(&h, b[3] - 16) &= ~(uint64_t)1;
	*hdr(&h, b[5] - 16) &= ~(uint64_t)1;
	CHECK(heap_tiles(&h.a, h.base));
	CHECK(tbl_alloc_check(&h.a, h.base, NULL, 0) != 0);
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.used_blocks, 4);
	CHECK_EQ_U64(census(&h).free_blocks, 2);
	CHECK_EQ_U64(tbl_alloc_largest_free(&h.a, h.base), 3 * 256 - 16);
	/* b[3] is the lowest of the three (allocation carves from the top). */
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, b[3]), 3 * 256);
	heap_close(&h);
}

/* A split is "write the tail header, then shrink the head". Stop a split by hand at each point. */
TBL_TEST(test_rebuild_mid_split)
{
	heap_t h;
	uint64_t g1, hole, g2, hole_h, hole_size, need = 320, tail;

	heap_open(&h, 16 * KiB);
	g1 = tbl_alloc(&h.a, h.base, 100);
	hole = tbl_alloc(&h.a, h.base, 2000);
	g2 = tbl_alloc(&h.a, h.base, 100);
	REQUIRE(g1 && hole && g2);
	tbl_free(&h.a, h.base, hole);
	CHECK_HEAP(&h);
	hole_h = hole - 16;
	hole_size = tbl_alloc_block_size(h.base, hole);
	CHECK_EQ_U64(hole_size, 2016);
	tail = hole_h + hole_size - need;

	/* Point 1: tail header written, head not shrunk yet, hole already unlinked from its bin. */
	hdr(&h, tail)[0] = need | 1;
	hdr(&h, tail)[1] = hole_size - need;
	memset(h.a.bins, 0, sizeof(h.a.bins));
	h.a.bin_map = 0;
	CHECK(heap_tiles(&h.a, h.base));
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, hole), hole_size);   /* still one free block */
	CHECK_EQ_U64(h.a.used_blocks, 2);

	/* Point 2: head shrunk with its one store; lists, counters, next block's tag not updated yet. */
	hdr(&h, tail)[0] = need | 1;
	hdr(&h, tail)[1] = hole_size - need;
	hdr(&h, hole_h)[0] = hole_size - need;
	CHECK(heap_tiles(&h.a, h.base));
	CHECK(tbl_alloc_check(&h.a, h.base, NULL, 0) != 0);
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.used_blocks, 3);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, tail + 16), need);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, hole), hole_size - need);
	/* The block "allocated" by the dead process is leaked until its owner frees it: here, we do. */
	tbl_free(&h.a, h.base, tail + 16);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, hole), hole_size);
	heap_close(&h);
}

/* A free is "unlink the free neighbours, then one store grows the lowest block". */
TBL_TEST(test_rebuild_mid_free)
{
	heap_t h;
	uint64_t b[5], i, p, mid, nx, size;

	heap_open(&h, 5 * 512);
	for (i = 0; i < 5; i++)
		b[i] = tbl_alloc(&h.a, h.base, 512 - 16);
	REQUIRE(h.a.free_bytes == 0);
	/* Address order: b[4] < b[3] < b[2] < b[1] < b[0]. Free b[3] and b[1] around b[2]. */
	tbl_free(&h.a, h.base, b[3]);
	tbl_free(&h.a, h.base, b[1]);
	CHECK_HEAP(&h);
	p = b[3] - 16;
	mid = b[2] - 16;
	nx = b[1] - 16;
	size = 512;

	/* Point 1: both neighbours unlinked (lists empty), the grow store not done. */
	memset(h.a.bins, 0, sizeof(h.a.bins));
	h.a.bin_map = 0;
	CHECK(heap_tiles(&h.a, h.base));
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.used_blocks, 3);
	CHECK_EQ_U64(census(&h).free_blocks, 2);

	/* Point 2: the grow store done (USED cleared, size covers all three); nothing after it. */
	memset(h.a.bins, 0, sizeof(h.a.bins));
	h.a.bin_map = 0;
	hdr(&h, p)[0] = 3 * size;
	CHECK(heap_tiles(&h.a, h.base));
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.used_blocks, 2);
	CHECK_EQ_U64(census(&h).free_blocks, 1);
	CHECK_EQ_U64(tbl_alloc_largest_free(&h.a, h.base), 3 * size - 16);
	(void)mid;
	(void)nx;
	heap_close(&h);
}

/* Stray writes (outside the crash contract) must not make rebuild loop or read outside the heap. */
TBL_TEST(test_rebuild_survives_broken_tiling)
{
	heap_t h;
	uint64_t b[6], i, end;

	/* A zero size in the middle: the rest is sealed as one used block. */
	heap_open(&h, 6 * 256);
	for (i = 0; i < 6; i++)
		b[i] = tbl_alloc(&h.a, h.base, 256 - 16);
	tbl_free(&h.a, h.base, b[5]);                       /* lowest block free */
	*hdr(&h, b[2] - 16) = 0;
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, b[2]), 3 * 256);
	CHECK_EQ_U64(h.a.free_bytes, 256);
	heap_close(&h);

	/* A size running past the end. */
	heap_open(&h, 6 * 256);
	for (i = 0; i < 6; i++)
		b[i] = tbl_alloc(&h.a, h.base, 256 - 16);
	*hdr(&h, b[3] - 16) = (100 * 256) | 1;
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.used_blocks, 3);                  /* b[5], b[4], and the seal from b[3] up */
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, b[3]), 4 * 256);
	heap_close(&h);

	/* The walk lands 16 bytes before the end: that sliver joins the block below (used, then free). */
	heap_open(&h, 6 * 256);
	end = h.a.heap_end;
	for (i = 0; i < 6; i++)
		b[i] = tbl_alloc(&h.a, h.base, 256 - 16);
	*hdr(&h, b[0] - 16) = 240 | 1;                      /* top block claims 240 of its 256 */
	*hdr(&h, end - 16) = 0;
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(tbl_alloc_block_size(h.base, b[0]), 256);
	CHECK_EQ_U64(h.a.used_blocks, 6);
	*hdr(&h, b[0] - 16) = 240;                          /* same, top block free */
	*hdr(&h, end - 16) = 7;
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	CHECK_EQ_U64(h.a.used_blocks, 5);
	CHECK_EQ_U64(h.a.free_bytes, 256);
	heap_close(&h);

	/* Unknown flag bits are dropped. */
	heap_open(&h, 4 * KiB);
	b[0] = tbl_alloc(&h.a, h.base, 100);
	*hdr(&h, b[0] - 16) |= 6;
	CHECK(tbl_alloc_check(&h.a, h.base, NULL, 0) != 0);
	tbl_alloc_rebuild(&h.a, h.base);
	CHECK_HEAP(&h);
	heap_close(&h);
}

/* The real thing: a child process churns on a MAP_SHARED heap and is SIGKILLed at a random moment;
 * the parent must always find the heap tiled, and consistent after rebuild. */
typedef struct crash_shared {
	tbl_alloc_t a;
	volatile uint64_t ops;          /* child progress, for the report */
} crash_shared_t;

#define CRASH_HEAP_OFF   (64 * KiB)
#define CRASH_HEAP_SIZE  (1 * MiB)
#define CRASH_LIVE_MAX   2048

static void crash_child(crash_shared_t *s, void *base, uint64_t seed)
{
	/* The child's own idea of what it holds; lost on the kill, which is the point. */
	static uint64_t offs[CRASH_LIVE_MAX];
	uint64_t n = 0;
	tbl_alloc_t *a = &s->a;

	rng_state = seed;
	/* Adopt whatever is in use (the parent left the heap consistent). */
	{
		uint64_t h = a->heap_off;
		while (h < a->heap_end && n < CRASH_LIVE_MAX) {
			uint64_t w = *(uint64_t *)((char *)base + h);
			if (w & 1)
				offs[n++] = h + 16;
			h += w & ~(uint64_t)15;
		}
	}
	for (;;) {
		if (n < CRASH_LIVE_MAX && (n == 0 || rng() % 2 == 0)) {
			uint64_t sz = (rng() & 1) ? rng_range(0, 600) : rng_range(0, 20000);
			uint64_t o = tbl_alloc(a, base, (size_t)sz);

			if (o)
				offs[n++] = o;
		} else {
			uint64_t k = rng() % n, o = offs[k];

			offs[k] = offs[--n];
			tbl_free(a, base, o);
		}
		s->ops++;
	}
}

/* Wait (polling, for up to a minute: a generous bound that only a hung child reaches) until the child
 * has done an operation since the counter read ops_before. 1 if it has, 0 if the bound passed. */
static int crash_wait_started(crash_shared_t *s, uint64_t ops_before)
{
	struct timespec nap = { 0, 100000 }, start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (s->ops == ops_before) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > 60) {
			fprintf(stderr, "crash child did no operation within 60 s\n");
			return 0;
		}
		nanosleep(&nap, NULL);
	}
	return 1;
}

TBL_TEST(test_crash_fork)
{
	size_t len = CRASH_HEAP_OFF + CRASH_HEAP_SIZE;
	void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	crash_shared_t *s = base;
	unsigned round, rounds = 300, caught = 0;
	char err[256];

	REQUIRE(base != MAP_FAILED);
	memset(base, 0x5A, len);
	s->ops = 0;
	tbl_alloc_init(&s->a, base, CRASH_HEAP_OFF, CRASH_HEAP_SIZE);
	for (round = 0; round < rounds; round++) {
		struct timespec ts;
		uint64_t ops_before = s->ops;
		int status, started;
		pid_t pid;

		fflush(NULL);
		pid = fork();
		REQUIRE(pid >= 0);
		if (pid == 0) {
			crash_child(s, base, 1000 + round);
			_exit(0);
		}
		/* Kill it only once it has done an operation: how soon a new process runs on a loaded machine
		 * is not something to leave to the random sleep below (which only picks the moment after). */
		started = crash_wait_started(s, ops_before);
		CHECK(started);
		ts.tv_sec = 0;
		ts.tv_nsec = (long)rng_range(200, 3000) * 1000;
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

		if (!heap_tiles(&s->a, base)) {
			CHECK(!"heap does not tile after SIGKILL");
			break;
		}
		if (tbl_alloc_check(&s->a, base, err, sizeof(err)) != 0)
			caught++;
		tbl_alloc_rebuild(&s->a, base);
		if (tbl_alloc_check(&s->a, base, err, sizeof(err)) != 0) {
			fprintf(stderr, "after rebuild, round %u: %s\n", round, err);
			CHECK(!"inconsistent after rebuild");
			break;
		}
	}
	printf("     crash: %u kills, %llu child ops, %u caught mid-call (inconsistent before rebuild)\n", rounds,
	       (unsigned long long)s->ops, caught);
	CHECK(s->ops >= rounds);   /* every child was killed after at least one operation */
	munmap(base, len);
}

/* ---- fill and churn ----------------------------------------------------------------------------- */

TBL_TEST(test_fill_to_full)
{
	heap_t h;
	static uint64_t offs[(256 * 1024) / 32];
	uint64_t n = 0, i;

	/* Minimum blocks: exactly heap / 32 of them. */
	heap_open(&h, 256 * KiB);
	for (;;) {
		uint64_t o = tbl_alloc(&h.a, h.base, 16);

		if (!o)
			break;
		offs[n++] = o;
	}
	CHECK_EQ_U64(n, 256 * KiB / 32);
	CHECK_EQ_U64(h.a.free_bytes, 0);
	CHECK_EQ_U64(h.a.bin_map, 0);
	CHECK_EQ_U64(tbl_alloc_largest_free(&h.a, h.base), 0);
	CHECK_HEAP(&h);
	for (i = n; i > 1; i--) {          /* free in random order */
		uint64_t k = rng() % i, t = offs[k];
		offs[k] = offs[i - 1];
		offs[i - 1] = t;
	}
	for (i = 0; i < n; i++) {
		tbl_free(&h.a, h.base, offs[i]);
		if (i % 97 == 0)
			CHECK_HEAP(&h);
	}
	CHECK_HEAP(&h);
	CHECK_EQ_U64(census(&h).blocks, 1);
	heap_close(&h);

	/* Random sizes until even the smallest request fails: then not one byte may be left. */
	heap_open(&h, 256 * KiB);
	n = 0;
	for (;;) {
		uint64_t want = rng_range(0, 5000), o;

		while ((o = tbl_alloc(&h.a, h.base, (size_t)want)) == 0 && want > 0) {
			CHECK(want > tbl_alloc_largest_free(&h.a, h.base));
			want /= 2;
		}
		if (!o)
			break;
		offs[n++] = o;
		fill(&h, o, (unsigned char)n);
	}
	CHECK_EQ_U64(h.a.free_bytes, 0);
	CHECK_HEAP(&h);
	for (i = 0; i < n; i++)
		CHECK(filled(&h, offs[i], (unsigned char)(i + 1)));
	heap_close(&h);
}

/* Small heap, check after every single operation, and the allocator's promises checked exactly:
 * a request fails if and only if it is larger than tbl_alloc_largest_free(). */
TBL_TEST(test_churn_checked)
{
	heap_t h;
	enum { CAP = 4096 };
	static uint64_t offs[CAP];
	static unsigned char tags[CAP];
	uint64_t n = 0, i, fails = 0, ops = 200000;

	rng_state = 42;
	heap_open(&h, 512 * KiB);
	for (i = 0; i < ops; i++) {
		if (n < CAP && (n == 0 || rng() % 100 < 55)) {
			uint64_t want = (rng() & 3) ? rng_range(0, 700) : rng_range(0, 40000);
			uint64_t lf = tbl_alloc_largest_free(&h.a, h.base);
			uint64_t o = tbl_alloc(&h.a, h.base, (size_t)want);

			if (o) {
				CHECK(want <= lf);
				tags[n] = (unsigned char)i;
				offs[n++] = o;
				fill(&h, o, (unsigned char)i);
			} else {
				CHECK(want > lf);
				fails++;
			}
		} else {
			uint64_t k = rng() % n;

			CHECK(filled(&h, offs[k], tags[k]));
			tbl_free(&h.a, h.base, offs[k]);
			offs[k] = offs[--n];
			tags[k] = tags[n];
		}
		if (!CHECK_HEAP(&h))
			break;
	}
	printf("     churn_checked: %llu ops, %llu refused allocations (heap full)\n", (unsigned long long)ops,
	       (unsigned long long)fails);
	heap_close(&h);
}

typedef struct live {
	uint64_t off, len, tag;
} live_t;

static void stamp(const heap_t *h, const live_t *l)
{
	unsigned char *p = payload(h, l->off);
	uint64_t t2 = ~l->tag;

	/* len >= 16; the three stamps must not overlap. */
	memcpy(p, &l->tag, 8);
	if (l->len >= 24)
		memcpy(p + l->len / 2 - 4, &t2, 8);
	memcpy(p + l->len - 8, &l->tag, 8);
}

static int stamped(const heap_t *h, const live_t *l)
{
	const unsigned char *p = payload(h, l->off);
	uint64_t x, y = ~l->tag, z;

	memcpy(&x, p, 8);
	if (l->len >= 24)
		memcpy(&y, p + l->len / 2 - 4, 8);
	memcpy(&z, p + l->len - 8, 8);
	return x == l->tag && y == ~l->tag && z == l->tag;
}

/* Random alloc/free with sizes 16 B .. 64 KiB, live bytes (headers included) kept under 50% of the heap
 * and pushed against that limit; no allocation may fail. Reports the worst fragmentation seen,
 * 1 - largest free block / free bytes. */
static void churn(const char *label, int log_sizes, uint64_t seed)
{
	const uint64_t heap_size = 64 * MiB, limit = heap_size / 2;
	const char *env = getenv("TBL_CHURN_OPS");
	uint64_t ops = env ? strtoull(env, NULL, 10) : 2000000;
	enum { CAP = 200000 };
	live_t *live = calloc(CAP, sizeof(live_t));
	uint64_t n = 0, live_bytes = 0, i, fails = 0, allocs = 0, min_largest = UINT64_MAX;
	double worst = 0, frag;
	heap_t h;
	clock_t t0;

	REQUIRE(live != NULL);
	rng_state = seed;
	heap_open(&h, heap_size);
	t0 = clock();
	for (i = 0; i < ops; i++) {
		uint64_t want;

		if (log_sizes)   /* log-uniform: as many 16..32 B values as 32..64 KiB ones */
			want = (uint64_t)1 << rng_range(4, 15), want = rng_range(want, want * 2);
		else
			want = rng_range(16, 65536);
		if (want > 65536)
			want = 65536;

		if (n < CAP && live_bytes + block_for(want) <= limit && (n == 0 || rng() % 100 < 60)) {
			live_t *l = &live[n];

			l->off = tbl_alloc(&h.a, h.base, (size_t)want);
			if (!l->off) {
				fails++;
				if (fails < 5)
					fprintf(stderr, "%s: alloc(%llu) failed at op %llu, free %llu, largest %llu\n", label,
					        (unsigned long long)want, (unsigned long long)i,
					        (unsigned long long)h.a.free_bytes,
					        (unsigned long long)tbl_alloc_largest_free(&h.a, h.base));
				continue;
			}
			l->len = want;
			l->tag = rng() | 1;
			stamp(&h, l);
			live_bytes += tbl_alloc_block_size(h.base, l->off);
			n++;
			allocs++;
		} else if (n) {
			uint64_t k = rng() % n;

			if (!stamped(&h, &live[k])) {
				CHECK(!"payload overwritten");
				break;
			}
			live_bytes -= tbl_alloc_block_size(h.base, live[k].off);
			tbl_free(&h.a, h.base, live[k].off);
			live[k] = live[--n];
		}
		if ((i & 255) == 0 && h.a.free_bytes) {
			uint64_t lf = tbl_alloc_largest_free(&h.a, h.base) + TBL_ALLOC_HDR;

			frag = 1.0 - (double)lf / (double)h.a.free_bytes;
			if (frag > worst)
				worst = frag;
			if (lf < min_largest)
				min_largest = lf;
		}
		if ((i & 0xFFFF) == 0) {
			CHECK_EQ_U64(h.a.used_bytes, live_bytes);
			CHECK_EQ_U64(h.a.used_blocks, n);
			if (!CHECK_HEAP(&h))
				break;
		}
	}
	CHECK_EQ_U64(fails, 0);
	CHECK_HEAP(&h);
	for (i = 0; i < n; i++)
		CHECK(stamped(&h, &live[i]));
	printf("     %s: %llu ops (%llu allocs), %llu live blocks at end, %.1f%% of heap live at end, "
	       "max fragmentation %.4f, smallest largest-free block %llu KiB, %.0f ns/op (incl. test overhead)\n",
	       label, (unsigned long long)ops, (unsigned long long)allocs, (unsigned long long)n,
	       100.0 * (double)h.a.used_bytes / (double)heap_size, worst, (unsigned long long)(min_largest / 1024),
	       1e9 * (double)(clock() - t0) / CLOCKS_PER_SEC / (double)ops);
	heap_close(&h);
	free(live);
}

TBL_TEST(test_churn_uniform)
{
	churn("churn uniform 16B..64KiB", 0, 7);
}

TBL_TEST(test_churn_log_uniform)
{
	churn("churn log-uniform 16B..64KiB", 1, 11);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_init),
	TBL_TEST_ENTRY(test_init_small_and_odd_sizes),
	TBL_TEST_ENTRY(test_alloc_sizes_and_alignment),
	TBL_TEST_ENTRY(test_exhaustion),
	TBL_TEST_ENTRY(test_split_leaves_no_tiny_remainder),
	TBL_TEST_ENTRY(test_exact_bin_reuse),
	TBL_TEST_ENTRY(test_coalesce_every_order),
	TBL_TEST_ENTRY(test_coalesce_neighbours),
	TBL_TEST_ENTRY(test_max_payload_and_largest_free),
	TBL_TEST_ENTRY(test_range_bin_deep_fit),
	TBL_TEST_ENTRY(test_bin_boundaries),
	TBL_TEST_ENTRY(test_invalid_free_is_ignored),
	TBL_TEST_ENTRY(test_walk),
	TBL_TEST_ENTRY(test_rebuild_after_scrambled_metadata),
	TBL_TEST_ENTRY(test_rebuild_merges_adjacent_free),
	TBL_TEST_ENTRY(test_rebuild_mid_split),
	TBL_TEST_ENTRY(test_rebuild_mid_free),
	TBL_TEST_ENTRY(test_rebuild_survives_broken_tiling),
	TBL_TEST_ENTRY(test_crash_fork),
	TBL_TEST_ENTRY(test_fill_to_full),
	TBL_TEST_ENTRY(test_churn_checked),
	TBL_TEST_ENTRY(test_churn_uniform),
	TBL_TEST_ENTRY(test_churn_log_uniform),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
