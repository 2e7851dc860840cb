/*
 * test_stats.c - tbl_get_stats(), the figures Shm\Table::stats() and metrics() are built from: each
 * counter moves with the operation it counts, and gc_runs counts the leak-recovery passes; and
 * tbl_memory_short(), the hint read from the same allocator counters.
 */
#include "harness.h"
#include "table_fixture.h"
#include "gc.h"

TBL_TEST(test_counters_follow_operations)
{
	tbl_t *t = fixture_open(4u << 20, TBL_POLICY_LRU);
	tbl_stats_t s;
	char buf[32];

	REQUIRE(t != NULL);
	tbl_get_stats(t, &s);
	CHECK_EQ_U64(s.hits + s.misses + s.sets + s.deletes, 0);
	CHECK_EQ_U64(s.gc_runs, 0);
	CHECK_EQ_U64(s.entries, 0);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "a", "1", 0) == TBL_OK);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "b", "2", 0) == TBL_OK);
	CHECK(fixture_get(t, TBL_NS_DEFAULT, "a", buf, sizeof(buf)) == TBL_OK);
	CHECK(fixture_get(t, TBL_NS_DEFAULT, "zz", buf, sizeof(buf)) == TBL_ENOTFOUND);
	CHECK(tbl_delete(t, TBL_NS_DEFAULT, "b", 1) == TBL_OK);
	tbl_get_stats(t, &s);
	CHECK_EQ_U64(s.sets, 2);
	CHECK_EQ_U64(s.hits, 1);
	CHECK_EQ_U64(s.misses, 1);
	CHECK_EQ_U64(s.deletes, 1);
	CHECK_EQ_U64(s.entries, 1);
	CHECK(s.largest_free > 0 && s.largest_free <= s.free_bytes);
	CHECK(s.used_bytes + s.free_bytes <= s.heap_size);
	CHECK_EQ_U64(s.segment_size, 4u << 20);
	tbl_destroy(t);
}

TBL_TEST(test_gc_runs_counted)
{
	tbl_t *t = fixture_open(4u << 20, TBL_POLICY_LRU);
	tbl_stats_t s;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "a", "1", 0) == TBL_OK);
	tbl_gc(t);
	tbl_gc(t);
	tbl_get_stats(t, &s);
	CHECK_EQ_U64(s.gc_runs, 2);
	CHECK_EQ_U64(s.entries, 1);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* tbl_memory_short(): false while an eighth of the heap is free, true once a table without eviction is
 * full, false again once it is emptied and its memory reclaimed. */
TBL_TEST(test_memory_short_follows_free_memory)
{
	tbl_t *t = fixture_open(4u << 20, TBL_POLICY_NOEVICTION);
	char key[32], val[1024];
	tbl_status_t st = TBL_OK;
	uint64_t removed, i;
	tbl_stats_t s;

	REQUIRE(t != NULL);
	memset(val, 'v', sizeof(val) - 1);
	val[sizeof(val) - 1] = '\0';
	CHECK(!tbl_memory_short(t));
	for (i = 0; st == TBL_OK; i++) {
		snprintf(key, sizeof(key), "k%llu", (unsigned long long)i);
		st = fixture_set(t, TBL_NS_DEFAULT, key, val, 0);
		tbl_get_stats(t, &s);
		/* Exactly when the allocator's free bytes drop under an eighth of the heap. */
		CHECK(tbl_memory_short(t) == (s.free_bytes < s.heap_size / TBL_MEMORY_SHORT_DIV));
	}
	CHECK(st == TBL_ENOMEM);   /* tbl_store's out of memory */
	CHECK(tbl_memory_short(t));
	CHECK(tbl_clear_all(t, &removed) == TBL_OK);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "after", "1", 0) == TBL_OK);   /* reclaims what clear retired */
	CHECK(!tbl_memory_short(t));
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_counters_follow_operations),
	TBL_TEST_ENTRY(test_gc_runs_counted),
	TBL_TEST_ENTRY(test_memory_short_follows_free_memory),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
