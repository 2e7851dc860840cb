/*
 * test_split.c - a write is not refused because held entries or fragmentation left no single hole
 * (core/split.c, issue 19 finding 3).
 *
 * Held entries cannot move or be evicted, so a few of them spread over the heap cut the free memory
 * into holes. These tests build that heap, check that it is real (the largest free block is smaller than
 * the value), and then that the write succeeds, stored in pieces: its bytes read back exactly (copied,
 * never held), cas/delete/replace/incr/scan treat it as any entry, tbl_check holds, and once the holds
 * are released and the entries deleted the heap is back to what it was, to the byte. Then a mixed-size
 * workload of one process that holds what it reads, as a zero-copy CLI script does, must not have a
 * single write refused.
 *
 * TBL_SPLIT_VERBOSE=1 prints each scenario's figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "epoch.h"
#include "split.h"
#include "sync.h"
#include "table_fixture.h"

#define KiB 1024u
#define MiB (1024u * 1024u)

static tbl_stats_t stats(tbl_t *t)
{
	tbl_stats_t st;
	tbl_get_stats(t, &st);
	return st;
}

static void pattern(char *buf, uint32_t len, uint32_t seed)
{
	uint32_t i, x = seed * 2654435761u + 1u;

	for (i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (char)(x >> 24);
	}
}

static tbl_status_t put(tbl_t *t, const char *key, const char *data, uint32_t len)
{
	tbl_value_t v = { TBL_T_STRING, data, len, NULL };
	return tbl_store(t, TBL_NS_DEFAULT, key, strlen(key), &v, 0, TBL_STORE_SET);
}

/* 1 when `key` holds exactly data[0..len) (a string, split or not); *split gets whether it was split. */
static int holds_exactly(tbl_t *t, const char *key, const char *data, uint32_t len, int *split)
{
	tbl_view_t v;
	char *got;
	int ok = 0;

	if (tbl_read_begin(t) != TBL_OK) {
		return 0;
	}
	if (tbl_lookup(t, TBL_NS_DEFAULT, key, strlen(key), &v, 0) == TBL_OK
	    && (v.type & ~TBL_T_SPLIT) == TBL_T_STRING && v.len == len && (got = malloc(len ? len : 1)) != NULL) {
		tbl_view_copy(t, &v, got);
		ok = memcmp(got, data, len) == 0;
		if (split) {
			*split = (v.type & TBL_T_SPLIT) != 0;
		}
		free(got);
	}
	tbl_read_end(t);
	return ok;
}

/* Free what was retired (no other process reads here, so every retired block can go). */
static void reclaim(tbl_t *t)
{
	if (tbl_alloc_lock(t) == TBL_OK) {
		(void)tbl_reclaim_locked(t, 0);
		tbl_alloc_unlock(t);
	}
}

/* Fill a table with `vlen`-byte values "k<i>" (noeviction: until it is full; others: `n` keys). Returns
 * how many were stored. */
static unsigned fill(tbl_t *t, uint32_t vlen, unsigned n, int until_full)
{
	char *val = malloc(vlen), key[32];
	unsigned i, stored = 0;

	pattern(val, vlen, 7);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "k%u", i);
		if (put(t, key, val, vlen) != TBL_OK) {
			if (until_full) {
				break;
			}
			continue;
		}
		stored++;
	}
	free(val);
	return stored;
}

/* The case: a reader holds 7 entries spread over an 8 MB table; everything else is cleared.
 * Free memory is almost all of it, but no hole is as large as a quarter of it. */
static void holds_then_clear(tbl_policy_t policy)
{
	tbl_t *t = fixture_open(8 * MiB, policy);
	unsigned n, i;
	uint64_t removed, used0, free_now, half;
	char key[32], *big;
	int split = 0;

	REQUIRE(t != NULL);
	used0 = stats(t).used_bytes;
	/* Nine tenths of the heap: nothing evicted under lru either, so every key is there to be held. */
	n = fill(t, 2 * KiB, (unsigned)(stats(t).heap_size * 9 / 10 / (2 * KiB + 128)), 0);
	REQUIRE(n > 3000);
	for (i = 0; i < 7; i++) {
		snprintf(key, sizeof(key), "k%u", (n / 7) * i + n / 14);
		CHECK(fixture_hold(t, key) == TBL_OK);
	}
	CHECK(tbl_clear_all(t, &removed) == TBL_OK);
	reclaim(t);
	free_now = stats(t).free_bytes;
	half = free_now / 2;
	/* What made the write fail before: the heap really is cut into holes smaller than the value. */
	CHECK(stats(t).largest_free < 2 * MiB);
	CHECK(free_now > 7 * MiB);

	big = malloc(half);
	REQUIRE(big != NULL);
	pattern(big, 2 * MiB, 1);
	CHECK(put(t, "two-mb", big, 2 * MiB) == TBL_OK);
	CHECK(holds_exactly(t, "two-mb", big, 2 * MiB, &split));
	CHECK(split);
	CHECK_CONSISTENT(t);
	if (getenv("TBL_SPLIT_VERBOSE") && tbl_read_begin(t) == TBL_OK) {
		tbl_view_t v;
		uint32_t pieces = 0;

		if (tbl_lookup(t, TBL_NS_DEFAULT, "two-mb", 6, &v, 0) == TBL_OK) {
			(void)tbl_entry_pieces(tbl_entry_at(t, v.entry), &pieces);
			printf("  2 MiB beside 7 holds: %u pieces, %llu heap bytes (%llu over the value)\n", pieces,
			       (unsigned long long)v.size, (unsigned long long)(v.size - 2 * MiB));
		}
		tbl_read_end(t);
	}
	CHECK(tbl_delete(t, TBL_NS_DEFAULT, "two-mb", 6) == TBL_OK);
	reclaim(t);

	/* The rule: with holds present, a write of half the free memory succeeds. */
	free_now = stats(t).free_bytes;
	half = free_now / 2;
	pattern(big, (uint32_t)half, 2);
	CHECK(put(t, "half", big, (uint32_t)half) == TBL_OK);
	CHECK(holds_exactly(t, "half", big, (uint32_t)half, NULL));
	CHECK_CONSISTENT(t);
	if (getenv("TBL_SPLIT_VERBOSE")) {
		tbl_stats_t s = stats(t);
		printf("  %s: %llu bytes stored beside 7 holds; largest free block now %llu\n",
		       policy == TBL_POLICY_LRU ? "lru" : "noeviction", (unsigned long long)half,
		       (unsigned long long)s.largest_free);
	}

	/* Everything back: holds released, the value deleted, the heap as it started, to the byte. */
	tbl_release_holds(t);
	CHECK(tbl_delete(t, TBL_NS_DEFAULT, "half", 4) == TBL_OK);
	reclaim(t);
	reclaim(t);
	CHECK_EQ_U64(stats(t).used_bytes, used0);
	CHECK_EQ_U64(stats(t).held_entries, 0);
	CHECK_CONSISTENT(t);
	free(big);
	tbl_destroy(t);
}

TBL_TEST(test_holds_and_clear_noeviction) { holds_then_clear(TBL_POLICY_NOEVICTION); }
TBL_TEST(test_holds_and_clear_lru) { holds_then_clear(TBL_POLICY_LRU); }

/* A full lru table whose held entries hem in every window of 2 MB: the write evicts around them, in
 * pieces, and evicts at most twice what it stores plus one entry per piece. */
TBL_TEST(test_holds_in_a_full_lru_table)
{
	tbl_t *t = fixture_open(8 * MiB, TBL_POLICY_LRU);
	uint64_t evicted0, stored;
	unsigned i, n;
	char key[32], *big = malloc(2 * MiB);
	tbl_view_t v;
	uint32_t pieces = 0;

	REQUIRE(t != NULL && big != NULL);
	n = fill(t, 2 * KiB, 2 * 8 * MiB / (2 * KiB), 0);   /* twice the table: it is full and evicting */
	REQUIRE(n > 3000);
	/* Hold 7 of the entries still there, spread evenly over the heap (eviction reuses holes, so key order
	 * says nothing about where an entry lies: pick them by their offsets). */
	{
		uint64_t *live = malloc(8192 * sizeof(*live)), lo, hi;
		unsigned nlive = 0, held = 0, j;
		tbl_view_t w;

		REQUIRE(live != NULL);
		REQUIRE(tbl_read_begin(t) == TBL_OK);
		for (i = 0; i < 8192; i++) {
			snprintf(key, sizeof(key), "k%u", i);
			if (tbl_lookup(t, TBL_NS_DEFAULT, key, strlen(key), &w, 0) == TBL_OK) {
				live[nlive++] = w.entry << 16 | i;   /* offsets are far below 2^48 */
			}
		}
		tbl_read_end(t);
		REQUIRE(nlive > 3000);
		lo = live[0] >> 16;
		hi = lo;
		for (j = 0; j < nlive; j++) {
			lo = live[j] >> 16 < lo ? live[j] >> 16 : lo;
			hi = live[j] >> 16 > hi ? live[j] >> 16 : hi;
		}
		for (i = 0; i < 7; i++) {
			uint64_t target = lo + (hi - lo) / 14 + (hi - lo) / 7 * i, best = 0, dist = UINT64_MAX;

			for (j = 0; j < nlive; j++) {
				uint64_t off = live[j] >> 16, d = off > target ? off - target : target - off;
				if (d < dist) {
					dist = d;
					best = live[j];
				}
			}
			snprintf(key, sizeof(key), "k%u", (unsigned)(best & 0xFFFF));
			held += fixture_hold(t, key) == TBL_OK;
		}
		CHECK(held == 7);
		free(live);
	}
	evicted0 = stats(t).evicted_bytes;
	pattern(big, 2 * MiB, 3);
	CHECK(put(t, "two-mb", big, 2 * MiB) == TBL_OK);
	CHECK(holds_exactly(t, "two-mb", big, 2 * MiB, NULL));
	REQUIRE(tbl_read_begin(t) == TBL_OK);
	REQUIRE(tbl_lookup(t, TBL_NS_DEFAULT, "two-mb", 6, &v, 0) == TBL_OK);
	stored = v.size;
	if (v.type & TBL_T_SPLIT) {
		(void)tbl_entry_pieces(tbl_entry_at(t, v.entry), &pieces);
	}
	tbl_read_end(t);
	CHECK(pieces > 0);   /* no window of 2 MiB avoids the holds */
	/* The bound, per piece: what a write of S heap bytes evicts is less than 2 * S + one entry; the
	 * pieces of a value together take `stored` bytes, and each may evict one entry more. The entries
	 * here take 2 KiB and a bit (tbl_entry_t, key, block header). */
	CHECK(stats(t).evicted_bytes - evicted0 <= 2 * stored + (uint64_t)(pieces + 1) * (2 * KiB + 128));
	if (getenv("TBL_SPLIT_VERBOSE")) {
		printf("  2 MiB stored in %llu heap bytes, %u pieces, evicting %llu bytes\n", (unsigned long long)stored,
		       pieces, (unsigned long long)(stats(t).evicted_bytes - evicted0));
	}
	CHECK_CONSISTENT(t);
	tbl_release_holds(t);
	free(big);
	tbl_destroy(t);
}

/* Every operation on a split entry: read (copied, never held), the copy under a lock, cas and
 * delete_if comparing against it, replace, incr (not an integer), scan; a value with ops (a zero-copy
 * image) is not split but answered TBL_ENOCONTIG, which is not a failed store. */
static int count_cb(void *ctx, tbl_ns_t ns, const char *key, size_t klen, const tbl_view_t *v)
{
	(void)ns;
	if (klen == 3 && memcmp(key, "big", 3) == 0 && (v->type & TBL_T_SPLIT)) {
		++*(int *)ctx;
	}
	return 0;
}

static void image_write(const void *data, void *dst, uint32_t len)
{
	memcpy(dst, data, len);
}

static int image_equals(const void *data, const void *stored, uint32_t len)
{
	return memcmp(data, stored, len) == 0;
}

TBL_TEST(test_operations_on_a_split_entry)
{
	static const tbl_value_ops_t ops = { image_write, image_equals };
	tbl_t *t = fixture_open(4 * MiB, TBL_POLICY_NOEVICTION);
	char key[32], *big = malloc(200 * KiB), *other = malloc(200 * KiB);
	unsigned n, i;
	int split = 0, seen = 0;
	uint64_t cursor = 0, oom0;
	int64_t r;
	void *copy = NULL;
	tbl_view_t v;
	tbl_value_t val = { TBL_T_STRING, NULL, 200 * KiB, NULL }, exp, img;

	REQUIRE(t != NULL && big != NULL && other != NULL);
	n = fill(t, 8 * KiB, 4 * MiB / (8 * KiB), 1);
	for (i = 0; i < n; i += 2) {   /* every other one: 8 KiB holes, none next to another */
		snprintf(key, sizeof(key), "k%u", i);
		CHECK(tbl_delete(t, TBL_NS_DEFAULT, key, strlen(key)) == TBL_OK);
	}
	reclaim(t);
	CHECK(stats(t).largest_free < 200 * KiB);
	pattern(big, 200 * KiB, 4);
	pattern(other, 200 * KiB, 5);
	CHECK(put(t, "big", big, 200 * KiB) == TBL_OK);
	CHECK(holds_exactly(t, "big", big, 200 * KiB, &split));
	CHECK(split);
	CHECK_CONSISTENT(t);

	/* Not held: readers copy it. */
	REQUIRE(tbl_read_begin(t) == TBL_OK);
	REQUIRE(tbl_lookup(t, TBL_NS_DEFAULT, "big", 3, &v, 0) == TBL_OK);
	CHECK(tbl_hold(t, &v, UINT64_MAX) == TBL_ENOMEM);
	tbl_read_end(t);
	CHECK_EQ_U64(tbl_holds(t), 0);

	/* Copied under the stripe lock (a process without a reader slot): in one piece. */
	CHECK(tbl_lookup_copy(t, TBL_NS_DEFAULT, "big", 3, &v, &copy) == TBL_OK);
	CHECK(v.type == TBL_T_STRING && v.len == 200 * KiB && copy && memcmp(copy, big, 200 * KiB) == 0);
	free(copy);

	/* Not an integer. */
	CHECK(tbl_incr(t, TBL_NS_DEFAULT, "big", 3, 1, 0, &r) == TBL_ETYPE);

	/* Scans see it. */
	do {
		(void)tbl_scan(t, TBL_SCAN_ALL_NS, &cursor, 1024, count_cb, &seen);
	} while (cursor != 0);
	CHECK(seen == 1);

	/* cas and delete_if compare the stored bytes, pieces and all. */
	exp = val;
	exp.data = other;
	val.data = other;
	CHECK(tbl_cas(t, TBL_NS_DEFAULT, "big", 3, &exp, &val) == TBL_EMISMATCH);
	CHECK(tbl_delete_if(t, TBL_NS_DEFAULT, "big", 3, &exp) == TBL_EMISMATCH);
	exp.data = big;
	CHECK(tbl_cas(t, TBL_NS_DEFAULT, "big", 3, &exp, &val) == TBL_OK);   /* replaced by `other` */
	CHECK(holds_exactly(t, "big", other, 200 * KiB, NULL));
	CHECK_CONSISTENT(t);
	exp.data = other;
	CHECK(tbl_delete_if(t, TBL_NS_DEFAULT, "big", 3, &exp) == TBL_OK);
	reclaim(t);
	CHECK_CONSISTENT(t);

	/* A value with ops cannot be split: TBL_ENOCONTIG, and no oom counted (the caller stores it again). */
	oom0 = stats(t).oom;
	img.type = TBL_T_IMAGE;
	img.data = big;
	img.len = 200 * KiB;
	img.ops = &ops;
	CHECK(tbl_store(t, TBL_NS_DEFAULT, "img", 3, &img, 0, TBL_STORE_SET) == TBL_ENOCONTIG);
	CHECK_EQ_U64(stats(t).oom, oom0);
	CHECK(put(t, "img", big, 200 * KiB) == TBL_OK);   /* the same bytes without ops */
	CHECK_CONSISTENT(t);
	free(big);
	free(other);
	tbl_destroy(t);
}

/* The second case: one process writes values of 10 B to 200 KiB into a 2 MiB table and holds
 * what it reads, as a zero-copy CLI script does (its request never ends), up to a budget of a quarter
 * of the table. Copy mode refused none of these writes; neither may this. */
TBL_TEST(test_mixed_sizes_beside_holds_refuse_nothing)
{
	tbl_t *t = fixture_open(2 * MiB, TBL_POLICY_LRU);
	char key[32], *val = malloc(200 * KiB);
	uint64_t x = 42, budget = 512 * KiB, refused = 0, split = 0;
	unsigned i;

	REQUIRE(t != NULL && val != NULL);
	pattern(val, 200 * KiB, 6);
	for (i = 0; i < 20000; i++) {
		uint32_t len;
		tbl_value_t v;
		tbl_view_t view;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		/* Sizes spread over 10 B .. 200 KiB on a log scale, as the workload. */
		len = (uint32_t)(10.0 * pow(20480.0, (double)((x >> 11) % 1000) / 1000.0));
		v.type = TBL_T_STRING;
		v.data = val;
		v.len = len;
		v.ops = NULL;
		snprintf(key, sizeof(key), "m%u", (unsigned)((x >> 40) % 500));
		if (tbl_store(t, TBL_NS_DEFAULT, key, strlen(key), &v, 0, TBL_STORE_SET) != TBL_OK) {
			refused++;
		}
		snprintf(key, sizeof(key), "m%u", (unsigned)((x >> 20) % 500));
		if (tbl_read_begin(t) == TBL_OK) {
			if (tbl_lookup(t, TBL_NS_DEFAULT, key, strlen(key), &view, 1) == TBL_OK) {
				split += (view.type & TBL_T_SPLIT) != 0;
				(void)tbl_hold(t, &view, budget);
			}
			tbl_read_end(t);
		}
	}
	if (getenv("TBL_SPLIT_VERBOSE")) {
		printf("  20,000 writes beside up to %llu held bytes: %llu refused, %llu reads of split values\n",
		       (unsigned long long)budget, (unsigned long long)refused, (unsigned long long)split);
	}
	CHECK_EQ_U64(refused, 0);
	CHECK_CONSISTENT(t);
	tbl_release_holds(t);
	free(val);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_holds_and_clear_noeviction),
	TBL_TEST_ENTRY(test_holds_and_clear_lru),
	TBL_TEST_ENTRY(test_holds_in_a_full_lru_table),
	TBL_TEST_ENTRY(test_operations_on_a_split_entry),
	TBL_TEST_ENTRY(test_mixed_sizes_beside_holds_refuse_nothing),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
