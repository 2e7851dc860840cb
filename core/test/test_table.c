/*
 * test_table.c - the facade, one process: every operation, TTL, namespaces, counters, scans, memory
 * pressure under each policy, and the consistency check after each step.
 */
#include <sys/wait.h>
#include <unistd.h>
#include "platform.h"
#include "table_fixture.h"

#define MB (1024u * 1024u)

TBL_TEST(test_create_rejects_tiny_segment)
{
	tbl_config_t cfg;
	char err[256];
	tbl_t *t = NULL;

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = 1000;
	CHECK(tbl_create(&t, &cfg, err, sizeof(err)) == TBL_EINVAL);
	CHECK(t == NULL);
	CHECK(strstr(err, "too small") != NULL);
}

TBL_TEST(test_set_get_replace_delete)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_NOEVICTION);
	char buf[64];

	REQUIRE(t != NULL);
	CHECK(fixture_get(t, 0, "a", buf, sizeof(buf)) == TBL_ENOTFOUND);
	CHECK(fixture_set(t, 0, "a", "one", 0) == TBL_OK);
	CHECK(fixture_get(t, 0, "a", buf, sizeof(buf)) == TBL_OK);
	CHECK(strcmp(buf, "one") == 0);
	CHECK(fixture_set(t, 0, "a", "two", 0) == TBL_OK);
	CHECK(fixture_get(t, 0, "a", buf, sizeof(buf)) == TBL_OK);
	CHECK(strcmp(buf, "two") == 0);
	CHECK_EQ_U64(tbl_ns_entries(t, 0), 1);
	CHECK_CONSISTENT(t);
	CHECK(tbl_delete(t, 0, "a", 1) == TBL_OK);
	CHECK(tbl_delete(t, 0, "a", 1) == TBL_ENOTFOUND);
	CHECK(fixture_get(t, 0, "a", buf, sizeof(buf)) == TBL_ENOTFOUND);
	CHECK_EQ_U64(tbl_ns_entries(t, 0), 0);
	CHECK_EQ_U64(tbl_ns_bytes(t, 0), 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_binary_keys_and_empty_values)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	const char k1[] = { 'a', 0, 'b' }, k2[] = { 'a', 0, 'c' };
	tbl_value_t empty = { TBL_T_STRING, "", 0, NULL }, one = { TBL_T_STRING, "x", 1, NULL };
	tbl_view_t v;

	REQUIRE(t != NULL);
	CHECK(tbl_store(t, 0, k1, 3, &empty, 0, TBL_STORE_SET) == TBL_OK);
	CHECK(tbl_store(t, 0, k2, 3, &one, 0, TBL_STORE_SET) == TBL_OK);
	REQUIRE(tbl_read_begin(t) == TBL_OK);
	CHECK(tbl_lookup(t, 0, k1, 3, &v, 1) == TBL_OK && v.len == 0);
	CHECK(tbl_lookup(t, 0, k2, 3, &v, 1) == TBL_OK && v.len == 1);
	CHECK(tbl_lookup(t, 0, k1, 2, &v, 1) == TBL_ENOTFOUND);
	tbl_read_end(t);
	CHECK(tbl_store(t, 0, "", 0, &one, 0, TBL_STORE_SET) == TBL_EINVAL);
	tbl_destroy(t);
}

TBL_TEST(test_add_only_when_absent)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_value_t a = fixture_str("a"), b = fixture_str("b");
	char buf[8];

	REQUIRE(t != NULL);
	CHECK(tbl_store(t, 0, "k", 1, &a, 0, TBL_STORE_ADD) == TBL_OK);
	CHECK(tbl_store(t, 0, "k", 1, &b, 0, TBL_STORE_ADD) == TBL_EEXIST);
	CHECK(fixture_get(t, 0, "k", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "a") == 0);
	tbl_destroy(t);
}

TBL_TEST(test_incr)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int64_t r = 0;

	REQUIRE(t != NULL);
	CHECK(tbl_incr(t, 0, "n", 1, 5, 0, &r) == TBL_OK && r == 5);
	CHECK(tbl_incr(t, 0, "n", 1, -7, 0, &r) == TBL_OK && r == -2);
	CHECK(tbl_incr(t, 0, "n", 1, INT64_MAX, 0, &r) == TBL_OK && r == INT64_MAX - 2);
	CHECK(tbl_incr(t, 0, "n", 1, 3, 0, &r) == TBL_EOVERFLOW);
	CHECK(tbl_incr(t, 0, "n", 1, 2, 0, &r) == TBL_OK && r == INT64_MAX);
	CHECK(fixture_set(t, 0, "s", "text", 0) == TBL_OK);
	CHECK(tbl_incr(t, 0, "s", 1, 1, 0, &r) == TBL_ETYPE);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_cas)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_value_t a = fixture_str("a"), b = fixture_str("b"), c = fixture_str("c");
	char buf[8];

	REQUIRE(t != NULL);
	CHECK(tbl_cas(t, 0, "k", 1, &a, &b) == TBL_ENOTFOUND);
	CHECK(fixture_set(t, 0, "k", "a", 0) == TBL_OK);
	CHECK(tbl_cas(t, 0, "k", 1, &c, &b) == TBL_EMISMATCH);
	CHECK(tbl_cas(t, 0, "k", 1, &a, &b) == TBL_OK);
	CHECK(fixture_get(t, 0, "k", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "b") == 0);
	tbl_destroy(t);
}

/* deleteIf(): the value is compared as tbl_cas compares it (type and bytes), and only a match deletes. */
TBL_TEST(test_delete_if)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_value_t a = fixture_str("a"), b = fixture_str("b");
	int64_t one = 1;
	tbl_value_t as_long = { TBL_T_LONG, &one, sizeof(one), NULL };
	tbl_ns_t ns;
	char buf[8];

	REQUIRE(t != NULL);
	CHECK(tbl_delete_if(t, 0, "k", 1, &a) == TBL_ENOTFOUND);
	CHECK(fixture_set(t, 0, "k", "a", 0) == TBL_OK);
	CHECK(tbl_delete_if(t, 0, "k", 1, &b) == TBL_EMISMATCH);
	CHECK(fixture_get(t, 0, "k", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "a") == 0);
	CHECK(tbl_delete_if(t, 0, "k", 1, &a) == TBL_OK);
	CHECK(fixture_get(t, 0, "k", buf, sizeof(buf)) == TBL_ENOTFOUND);
	CHECK(tbl_delete_if(t, 0, "k", 1, &a) == TBL_ENOTFOUND);
	/* same bytes, another type: no match */
	CHECK(fixture_set(t, 0, "n", "\1\0\0\0\0\0\0", 0) == TBL_OK);
	CHECK(tbl_delete_if(t, 0, "n", 1, &as_long) == TBL_EMISMATCH);
	/* a namespace of its own */
	REQUIRE(tbl_ns_get(t, "ns", 2, &ns) == TBL_OK);
	CHECK(fixture_set(t, ns, "k", "a", 0) == TBL_OK && fixture_set(t, 0, "k", "a", 0) == TBL_OK);
	CHECK(tbl_delete_if(t, ns, "k", 1, &a) == TBL_OK);
	CHECK(fixture_get(t, 0, "k", buf, sizeof(buf)) == TBL_OK);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_ttl_and_touch)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_view_t v;
	char buf[8];
	uint32_t set_sec, now_sec;
	uint64_t n;

	REQUIRE(t != NULL);
	set_sec = tbl_clock_now().sec;
	CHECK(fixture_set(t, 0, "short", "x", 1) == TBL_OK);
	CHECK(fixture_set(t, 0, "long", "y", 100) == TBL_OK);
	CHECK(fixture_set(t, 0, "never", "z", 0) == TBL_OK);
	CHECK(tbl_touch(t, 0, "never", 5, 50) == TBL_OK);
	CHECK(tbl_touch(t, 0, "missing", 7, 50) == TBL_ENOTFOUND);
	REQUIRE(tbl_read_begin(t) == TBL_OK);
	CHECK(tbl_lookup(t, 0, "never", 5, &v, 0) == TBL_OK && v.expire != 0);
	tbl_read_end(t);
	CHECK(tbl_touch(t, 0, "never", 5, 0) == TBL_OK);
	/* "short" lives through the second after the one it was set in; only a machine that stalled past
	 * that (the clock read after the count says so) may have let it expire: then it is not counted. */
	n = tbl_ns_entries(t, 0);
	now_sec = tbl_clock_now().sec;
	CHECK(n == 3 || (n == 2 && now_sec > set_sec + 1));
	sleep(2);
	CHECK(fixture_get(t, 0, "short", buf, sizeof(buf)) == TBL_ENOTFOUND);
	CHECK(fixture_get(t, 0, "long", buf, sizeof(buf)) == TBL_OK);
	CHECK_EQ_U64(tbl_ns_entries(t, 0), 2);   /* count() never sees an expired entry */
	CHECK_CONSISTENT(t);
	{
		tbl_value_t null_value = { TBL_T_NULL, NULL, 0, NULL };
		CHECK(tbl_store(t, 0, "k", 1, &null_value, TBL_EXPIRE_MAX + 1u, TBL_STORE_SET) == TBL_EINVAL);
	}
	tbl_destroy(t);
}

TBL_TEST(test_namespaces)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_ns_t a, b, again;
	uint64_t removed = 0;
	char buf[8];
	size_t len;

	REQUIRE(t != NULL);
	CHECK(tbl_ns_find(t, "alpha", 5, &a) == TBL_ENOTFOUND);
	CHECK(tbl_ns_get(t, "alpha", 5, &a) == TBL_OK);
	CHECK(tbl_ns_get(t, "beta", 4, &b) == TBL_OK);
	CHECK(tbl_ns_get(t, "alpha", 5, &again) == TBL_OK && again == a);
	CHECK(a != b && a != TBL_NS_DEFAULT && b != TBL_NS_DEFAULT);
	CHECK(strncmp(tbl_ns_name(t, a, &len), "alpha", 5) == 0 && len == 5);
	CHECK(fixture_set(t, a, "k", "A", 0) == TBL_OK);
	CHECK(fixture_set(t, b, "k", "B", 0) == TBL_OK);
	CHECK(fixture_set(t, 0, "k", "D", 0) == TBL_OK);
	CHECK(fixture_get(t, a, "k", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "A") == 0);
	CHECK(fixture_get(t, b, "k", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "B") == 0);
	CHECK(tbl_clear_ns(t, a, &removed) == TBL_OK && removed == 1);
	CHECK(fixture_get(t, a, "k", buf, sizeof(buf)) == TBL_ENOTFOUND);
	CHECK(fixture_get(t, b, "k", buf, sizeof(buf)) == TBL_OK);
	CHECK_EQ_U64(tbl_ns_entries(t, b), 1);
	CHECK(tbl_clear_all(t, &removed) == TBL_OK && removed == 2);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_namespace_limit)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_LRU);
	unsigned i, limit;
	tbl_ns_t ns;
	char name[32];

	REQUIRE(t != NULL);
	limit = tbl_ns_limit(t);
	for (i = 1; i < limit; i++) {
		snprintf(name, sizeof(name), "ns%u", i);
		CHECK(tbl_ns_get(t, name, strlen(name), &ns) == TBL_OK);
		CHECK(fixture_set(t, ns, "k", "v", 0) == TBL_OK && tbl_delete(t, ns, "k", 1) == TBL_OK);
	}
	/* Full, but every namespace is empty: the least recently used one is recycled. */
	CHECK(tbl_ns_get(t, "one-too-many", 12, &ns) == TBL_OK);
	CHECK(tbl_ns_find(t, "ns1", 3, &ns) == TBL_ENOTFOUND);
	tbl_destroy(t);
}

static int count_cb(void *ctx, tbl_ns_t ns, const char *key, size_t klen, const tbl_view_t *v)
{
	(void)ns; (void)key; (void)klen; (void)v;
	(*(uint64_t *)ctx)++;
	return 0;
}

TBL_TEST(test_scan_visits_every_live_entry)
{
	tbl_t *t = fixture_open(8 * MB, TBL_POLICY_LRU);
	uint64_t cursor = 0, seen = 0;
	char key[32];
	int i;

	REQUIRE(t != NULL);
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "key:%d", i);
		CHECK(fixture_set(t, 0, key, "v", 0) == TBL_OK);
	}
	do {
		tbl_scan(t, TBL_SCAN_ALL_NS, &cursor, 100, count_cb, &seen);
	} while (cursor != 0);
	CHECK_EQ_U64(seen, 5000);
	tbl_destroy(t);
}

TBL_TEST(test_noeviction_full_keeps_everything)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_NOEVICTION);
	char key[32], val[200], buf[256];
	tbl_stats_t st;
	int i, stored = 0;

	REQUIRE(t != NULL);
	memset(val, 'v', sizeof(val) - 1);
	val[sizeof(val) - 1] = '\0';
	for (i = 0; i < 100000; i++) {
		snprintf(key, sizeof(key), "key:%d", i);
		if (fixture_set(t, 0, key, val, 0) != TBL_OK) {
			break;
		}
		stored++;
	}
	CHECK(stored > 1000 && stored < 100000);
	CHECK(fixture_set(t, 0, "one-more", val, 0) == TBL_ENOMEM);
	for (i = 0; i < stored; i++) {
		snprintf(key, sizeof(key), "key:%d", i);
		CHECK(fixture_get(t, 0, key, buf, sizeof(buf)) == TBL_OK && strcmp(buf, val) == 0);
	}
	tbl_get_stats(t, &st);
	CHECK(st.oom >= 2);
	CHECK_EQ_U64(st.entries, (uint64_t)stored);
	CHECK(tbl_delete(t, 0, "key:0", 5) == TBL_OK);
	CHECK(tbl_delete(t, 0, "key:1", 5) == TBL_OK);
	CHECK(fixture_set(t, 0, "one-more", val, 0) == TBL_OK);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_expired_entries_make_room_under_noeviction)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_NOEVICTION);
	char key[32], val[200];
	int i, stored = 0;

	REQUIRE(t != NULL);
	memset(val, 'v', sizeof(val) - 1);
	val[sizeof(val) - 1] = '\0';
	/* A long TTL while filling, then every entry touched down to one second: none expires (and makes
	 * room) while the table is still being filled, however slowly a loaded machine runs this. */
	for (i = 0; i < 100000 && fixture_set(t, 0, (snprintf(key, sizeof(key), "t:%d", i), key), val, 1000) == TBL_OK; i++) {
		stored++;
	}
	CHECK(stored > 1000 && stored < 100000);
	CHECK(fixture_set(t, 0, "one-more", val, 0) == TBL_ENOMEM);   /* full */
	for (i = 0; i < stored; i++) {
		snprintf(key, sizeof(key), "t:%d", i);
		CHECK(tbl_touch(t, 0, key, strlen(key), 1) == TBL_OK);
	}
	sleep(2);
	for (i = 0; i < stored; i++) {
		snprintf(key, sizeof(key), "n:%d", i);
		CHECK(fixture_set(t, 0, key, val, 0) == TBL_OK);
	}
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_lru_keeps_hot_entries)
{
	tbl_t *t = fixture_open(2 * MB, TBL_POLICY_LRU);
	char key[32], val[300], buf[512];
	int i, hot_alive = 0;
	uint32_t tick = 0;
	tbl_stats_t st;

	REQUIRE(t != NULL);
	memset(val, 'v', sizeof(val) - 1);
	val[sizeof(val) - 1] = '\0';
	for (i = 0; i < 200; i++) {
		snprintf(key, sizeof(key), "hot:%d", i);
		CHECK(fixture_set(t, 0, key, val, 0) == TBL_OK);
	}
	usleep(250000);
	for (i = 0; i < 30000; i++) {
		uint32_t now;

		if (i % 500 == 0) {
			usleep(110000);   /* let the LRU tick advance: what was written before is older */
		}
		/* Touch the hot set whenever the tick has moved on (after every sleep, and whenever a loaded
		 * machine makes 500 writes span more than one tick): the hot entries are then always read in
		 * the current tick, however slowly the writes go. */
		if ((now = tbl_clock_now().tick) != tick) {
			int j;
			tick = now;
			for (j = 0; j < 200; j++) {
				snprintf(key, sizeof(key), "hot:%d", j);
				fixture_get(t, 0, key, buf, sizeof(buf));
			}
		}
		snprintf(key, sizeof(key), "cold:%d", i);
		CHECK(fixture_set(t, 0, key, val, 0) == TBL_OK);
	}
	for (i = 0; i < 200; i++) {
		snprintf(key, sizeof(key), "hot:%d", i);
		hot_alive += fixture_get(t, 0, key, buf, sizeof(buf)) == TBL_OK;
	}
	tbl_get_stats(t, &st);
	CHECK(st.evictions > 10000);
	CHECK(hot_alive >= 190);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_random_policy_keeps_writing)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_RANDOM);
	char key[32], val[500];
	int i;

	REQUIRE(t != NULL);
	memset(val, 'r', sizeof(val) - 1);
	val[sizeof(val) - 1] = '\0';
	for (i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "k:%d", i);
		CHECK(fixture_set(t, 0, key, val, 0) == TBL_OK);
	}
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_too_big)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_LRU);
	static char big[2 * MB];
	tbl_value_t v = { TBL_T_STRING, big, sizeof(big), NULL };

	REQUIRE(t != NULL);
	CHECK(tbl_store(t, 0, "k", 1, &v, 0, TBL_STORE_SET) == TBL_ETOOBIG);
	tbl_destroy(t);
}

TBL_TEST(test_claims)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);

	REQUIRE(t != NULL);
	CHECK(tbl_claim(t, 0, "k", 1, 1000) == TBL_OK);
	CHECK(tbl_claim(t, 0, "k", 1, 1000) == TBL_OK);   /* re-entrant for its owner */
	tbl_claim_release(t, 0, "k", 1);
	CHECK(tbl_claim(t, 0, "k", 1, 1000) == TBL_OK);
	tbl_claim_release(t, 0, "k", 1);
	tbl_destroy(t);
}

TBL_TEST(test_user_claim_is_the_first_users)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	pid_t pid;
	int status;

	REQUIRE(t != NULL);
	/* A child claims first (root's uid 0 included); the parent and later claimants see its user. */
	pid = fork();
	if (pid == 0) {
		_exit(tbl_user_claim(t, 0) == 0 ? 0 : 1);
	}
	REQUIRE(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(tbl_user_claim(t, 1000) == 0);
	CHECK(tbl_user_claim(t, 0) == 0);
	tbl_destroy(t);

	t = fixture_open(4 * MB, TBL_POLICY_LRU);
	REQUIRE(t != NULL);
	CHECK(tbl_user_claim(t, 4294967294u) == 4294967294u);   /* the largest uid that has a uid + 1 */
	CHECK(tbl_user_claim(t, 33) == 4294967294u);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_create_rejects_tiny_segment),
	TBL_TEST_ENTRY(test_set_get_replace_delete),
	TBL_TEST_ENTRY(test_binary_keys_and_empty_values),
	TBL_TEST_ENTRY(test_add_only_when_absent),
	TBL_TEST_ENTRY(test_incr),
	TBL_TEST_ENTRY(test_cas),
	TBL_TEST_ENTRY(test_delete_if),
	TBL_TEST_ENTRY(test_ttl_and_touch),
	TBL_TEST_ENTRY(test_namespaces),
	TBL_TEST_ENTRY(test_namespace_limit),
	TBL_TEST_ENTRY(test_scan_visits_every_live_entry),
	TBL_TEST_ENTRY(test_noeviction_full_keeps_everything),
	TBL_TEST_ENTRY(test_expired_entries_make_room_under_noeviction),
	TBL_TEST_ENTRY(test_lru_keeps_hot_entries),
	TBL_TEST_ENTRY(test_random_policy_keeps_writing),
	TBL_TEST_ENTRY(test_too_big),
	TBL_TEST_ENTRY(test_claims),
	TBL_TEST_ENTRY(test_user_claim_is_the_first_users),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
