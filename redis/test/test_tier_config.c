/*
 * test_tier_config.c - the tier's settings (tbl_tier_config_parse), which namespaces it covers, and the
 * names of its keys in Redis, there and back (no server needed).
 */
#include <string.h>

#include "harness.h"
#include "../tier_config.h"

static int parse(tbl_tier_config_t *c, const char *url, const char *ns, const char *prefix, long timeout,
                 long stale, char *err, size_t errlen)
{
	return tbl_tier_config_parse(c, url, ns, prefix, timeout, stale, err, errlen);
}

static void test_namespace_lists(void)
{
	tbl_tier_config_t c;
	char err[512];

	CHECK(parse(&c, "tcp://127.0.0.1", " sessions , catalog,x ", "table:", 1000, 1000, err, sizeof(err)) == 0);
	CHECK(strcmp(c.namespaces, "sessions,catalog,x") == 0 && !c.all);
	CHECK(tbl_tier_config_covers(&c, "sessions", 8) && tbl_tier_config_covers(&c, "catalog", 7));
	CHECK(tbl_tier_config_covers(&c, "x", 1));
	CHECK(!tbl_tier_config_covers(&c, "session", 7) && !tbl_tier_config_covers(&c, "", 0));
	CHECK(!tbl_tier_config_covers(&c, "sessions,catalog", 16));
	CHECK(parse(&c, "tcp://127.0.0.1", "*", "table:", 1000, 1000, err, sizeof(err)) == 0);
	CHECK(c.all && tbl_tier_config_covers(&c, "", 0) && tbl_tier_config_covers(&c, "anything", 8));
	CHECK(parse(&c, "tcp://127.0.0.1", "a,*", "table:", 1000, 1000, err, sizeof(err)) == 0 && c.all);
}

static void refused(const char *url, const char *ns, const char *prefix, long timeout, long stale, const char *words)
{
	tbl_tier_config_t c;
	char err[512] = "";

	CHECK(parse(&c, url, ns, prefix, timeout, stale, err, sizeof(err)) == -1);
	if (!strstr(err, words)) {
		printf("    message \"%s\" lacks \"%s\"\n", err, words);
		CHECK(0);
	}
}

static void test_bad_settings(void)
{
	char big[300];

	refused("redis://h", "a", "table:", 1000, 1000, "table.redis=redis://h is not valid");
	refused("tcp://h", "", "table:", 1000, 1000, "table.redis_namespaces is empty");
	refused("tcp://h", "a,,b", "table:", 1000, 1000, "empty name");
	refused("tcp://h", "a,", "table:", 1000, 1000, "ends with a comma");
	refused("tcp://h", " , ", "table:", 1000, 1000, "empty name");
	refused("tcp://h", "a", "table:", 0, 1000, "table.redis_timeout=0");
	refused("tcp://h", "a", "table:", 1000, 9, "table.redis_max_stale=9");
	memset(big, 'n', 256);
	big[256] = '\0';
	refused("tcp://h", big, "table:", 1000, 1000, "longer than 255 bytes");
	memset(big, 'p', 129);
	big[129] = '\0';
	refused("tcp://h", "a", big, 1000, 1000, "table.redis_prefix is longer than 128 bytes");
}

static void test_key_names_round_trip(void)
{
	tbl_tier_config_t c;
	char err[512], out[1024];
	const char *ns, *key;
	size_t nslen, klen, n;

	CHECK(parse(&c, "tcp://h", "*", "table:", 1000, 1000, err, sizeof(err)) == 0);
	n = tbl_tier_redis_key(&c, "sessions", 8, "abc", 3, out, sizeof(out));
	CHECK(n == strlen("table:8:sessions:abc") && memcmp(out, "table:8:sessions:abc", n) == 0);
	CHECK(tbl_tier_redis_key_parse(&c, out, n, &ns, &nslen, &key, &klen) == 1);
	CHECK(nslen == 8 && memcmp(ns, "sessions", 8) == 0 && klen == 3 && memcmp(key, "abc", 3) == 0);
	/* The default namespace; a namespace and a key holding colons and NUL bytes. */
	n = tbl_tier_redis_key(&c, "", 0, "k", 1, out, sizeof(out));
	CHECK(n == 10 && memcmp(out, "table:0::k", n) == 0);
	CHECK(tbl_tier_redis_key_parse(&c, out, n, &ns, &nslen, &key, &klen) == 1 && nslen == 0 && klen == 1);
	n = tbl_tier_redis_key(&c, "a:1\0", 4, "b:\0:c", 5, out, sizeof(out));
	CHECK(tbl_tier_redis_key_parse(&c, out, n, &ns, &nslen, &key, &klen) == 1);
	CHECK(nslen == 4 && memcmp(ns, "a:1\0", 4) == 0 && klen == 5 && memcmp(key, "b:\0:c", 5) == 0);
	/* Too small a buffer: 0. */
	CHECK(tbl_tier_redis_key(&c, "sessions", 8, "abc", 3, out, 10) == 0);
	/* Names that are not a key of this tier. */
	CHECK(tbl_tier_redis_key_parse(&c, "other:8:sessions:abc", 20, &ns, &nslen, &key, &klen) == 0);
	CHECK(tbl_tier_redis_key_parse(&c, "table:lock:8:sessions:abc", 25, &ns, &nslen, &key, &klen) == 0);
	CHECK(tbl_tier_redis_key_parse(&c, "table:8:sessions:", 17, &ns, &nslen, &key, &klen) == 0);   /* no key */
	CHECK(tbl_tier_redis_key_parse(&c, "table:9:sessions:abc", 20, &ns, &nslen, &key, &klen) == 0); /* wrong length */
	CHECK(tbl_tier_redis_key_parse(&c, "table:08:sessions:abc", 21, &ns, &nslen, &key, &klen) == 0);
	CHECK(tbl_tier_redis_key_parse(&c, "table:256:x", 11, &ns, &nslen, &key, &klen) == 0);
	CHECK(tbl_tier_redis_key_parse(&c, "table:", 6, &ns, &nslen, &key, &klen) == 0);
	CHECK(tbl_tier_redis_key_parse(&c, "tab", 3, &ns, &nslen, &key, &klen) == 0);
}

static const test_case_t tests[] = {
	TEST_ENTRY(test_namespace_lists),
	TEST_ENTRY(test_bad_settings),
	TEST_ENTRY(test_key_names_round_trip),
};

int main(int argc, char **argv)
{
	(void)argc;
	return test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
