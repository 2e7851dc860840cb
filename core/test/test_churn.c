/*
 * test_churn.c - fragmentation under churn, through the whole table: random set/delete of values from
 * 16 B to 64 KiB (log-uniform), live data held under 50% of the heap, and not one set may fail.
 *
 * TBL_CHURN_OPS sets the number of operations (default 300,000, which suits the sanitizer build; CI
 * runs the release build with 10,000,000). The worst fragmentation seen, 1 - largest free block / free
 * bytes, is printed.
 */
#include "table_fixture.h"

#define MB (1024u * 1024u)
#define KEYS 4096

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint32_t log_uniform_size(void)
{
	/* 16 .. 65536: pick an octave, then a size inside it */
	uint32_t lo = 16u << (rng() % 12);
	return lo + (uint32_t)(rng() % lo);
}

TBL_TEST(test_churn_never_fails_below_half_full)
{
	static char value[65536 + 16];
	static uint32_t live_len[KEYS];
	uint64_t ops = 300000, i, live = 0, failures = 0, budget;
	double worst = 0.0;
	const char *env = getenv("TBL_CHURN_OPS");
	tbl_stats_t st;
	tbl_t *t = fixture_open(64 * MB, TBL_POLICY_NOEVICTION);

	REQUIRE(t != NULL);
	if (env) {
		ops = strtoull(env, NULL, 10);
	}
	memset(value, 'c', sizeof(value));
	tbl_get_stats(t, &st);
	budget = st.heap_size / 2;
	for (i = 0; i < ops; i++) {
		uint32_t k = (uint32_t)(rng() % KEYS), len;
		char key[24];
		int n = snprintf(key, sizeof(key), "churn:%u", k);

		if (live_len[k] && (rng() & 1)) {
			CHECK(tbl_delete(t, 0, key, (size_t)n) == TBL_OK);
			live -= live_len[k] + 128;
			live_len[k] = 0;
			continue;
		}
		len = log_uniform_size();
		if (live - (live_len[k] ? live_len[k] + 128 : 0) + len + 128 > budget) {
			continue;   /* keep live data under half the heap */
		}
		{
			tbl_value_t v = { TBL_T_STRING, value, len, NULL };
			if (tbl_store(t, 0, key, (size_t)n, &v, 0, TBL_STORE_SET) != TBL_OK) {
				failures++;
				continue;
			}
		}
		live -= live_len[k] ? live_len[k] + 128 : 0;
		live += len + 128;
		live_len[k] = len;
		if (i % 4096 == 0) {
			tbl_get_stats(t, &st);
			if (st.free_bytes) {
				double frag = 1.0 - (double)st.largest_free / (double)st.free_bytes;
				worst = frag > worst ? frag : worst;
			}
		}
	}
	CHECK_EQ_U64(failures, 0);
	CHECK_CONSISTENT(t);
	fprintf(stderr, "  (churn: %llu ops, worst fragmentation %.3f)\n", (unsigned long long)ops, worst);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_churn_never_fails_below_half_full),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
