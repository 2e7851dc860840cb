/*
 * test_hash.c - the key hash: deterministic, seeded by namespace, and spreading similar keys evenly
 * over buckets (so chains stay short for keys like "user:1", "user:2", ...).
 */
#include <stdio.h>
#include "harness.h"
#include "hash.h"
#include "proc.h"
#include <unistd.h>

TBL_TEST(test_deterministic_and_seeded)
{
	CHECK(tbl_hash_bytes("abc", 3, 0) == tbl_hash_bytes("abc", 3, 0));
	CHECK(tbl_hash_bytes("abc", 3, 0) != tbl_hash_bytes("abc", 3, 1));
	CHECK(tbl_hash_bytes("abc", 3, 0) != tbl_hash_bytes("abd", 3, 0));
	CHECK(tbl_hash_bytes("a\0", 2, 0) != tbl_hash_bytes("a", 1, 0));
	CHECK(tbl_hash_bytes("", 0, 0) != tbl_hash_bytes("", 0, 1));
}

TBL_TEST(test_sequential_keys_spread_over_buckets)
{
	enum { BUCKETS = 4096, KEYS = 4096 * 4 };
	static unsigned counts[BUCKETS];
	unsigned i, max = 0, empty = 0;
	char key[32];

	for (i = 0; i < KEYS; i++) {
		int n = snprintf(key, sizeof(key), "user:%u", i);
		counts[tbl_hash_bytes(key, (size_t)n, 0) & (BUCKETS - 1)]++;
	}
	for (i = 0; i < BUCKETS; i++) {
		max = counts[i] > max ? counts[i] : max;
		empty += counts[i] == 0;
	}
	/* A uniform hash puts Poisson(4) keys per bucket: max about 12-14, about 1.8% empty. */
	CHECK(max <= 20);
	CHECK(empty < BUCKETS / 20);
}

TBL_TEST(test_process_identity)
{
	uint64_t start = tbl_proc_start_time(getpid());

	CHECK(start != 0);
	CHECK(tbl_proc_alive(getpid(), start));
	CHECK(!tbl_proc_alive(getpid(), start + 1));   /* same pid, another start time: not us */
	CHECK(!tbl_proc_alive(0, 0));
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_deterministic_and_seeded),
	TBL_TEST_ENTRY(test_sequential_keys_spread_over_buckets),
	TBL_TEST_ENTRY(test_process_identity),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
