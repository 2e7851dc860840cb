/*
 * test_redis_url.c - tbl_redis_url_parse on good and bad table.redis values (no server needed).
 */
#include <limits.h>
#include <string.h>

#include "harness.h"
#include "../redis_url.h"

static int parse(const char *s, tbl_redis_url_t *u, char *err, size_t errlen)
{
	return tbl_redis_url_parse(s, strlen(s), u, err, errlen);
}

static void test_tcp(void)
{
	tbl_redis_url_t u;
	char err[256];
	CHECK(parse("tcp://127.0.0.1:6380", &u, err, sizeof(err)) == 0);
	CHECK(!u.is_unix && strcmp(u.host, "127.0.0.1") == 0 && u.port == 6380 && u.db == 0);
	CHECK(u.user[0] == '\0' && u.auth[0] == '\0');
	CHECK(parse("tcp://redis.example-1.internal", &u, err, sizeof(err)) == 0);
	CHECK(strcmp(u.host, "redis.example-1.internal") == 0 && u.port == 6379);
	CHECK(parse("tcp://[::1]:7000", &u, err, sizeof(err)) == 0);
	CHECK(strcmp(u.host, "::1") == 0 && u.port == 7000);
	CHECK(parse("tcp://[fe80::1%25eth0]", &u, err, sizeof(err)) == 0 || 1);   /* zone ids: parsed or refused, never a crash */
	CHECK(parse("tcp://h:65535?db=2147483647", &u, err, sizeof(err)) == 0);
	CHECK(u.port == 65535 && u.db == INT_MAX);
	char describe[300];
	CHECK(parse("tcp://[::1]:7000", &u, err, sizeof(err)) == 0);
	tbl_redis_url_describe(&u, describe, sizeof(describe));
	CHECK(strcmp(describe, "[::1]:7000") == 0);
}

static void test_unix_and_query(void)
{
	tbl_redis_url_t u;
	char err[256];
	CHECK(parse("unix:///run/redis/redis.sock?db=3", &u, err, sizeof(err)) == 0);
	CHECK(u.is_unix && strcmp(u.path, "/run/redis/redis.sock") == 0 && u.db == 3);
	CHECK(parse("tcp://h?user=app&auth=p%40ss%2Fw%3d%26rd", &u, err, sizeof(err)) == 0);
	CHECK(strcmp(u.user, "app") == 0 && strcmp(u.auth, "p@ss/w=&rd") == 0);
	CHECK(parse("tcp://h?auth=only-a-password&db=0", &u, err, sizeof(err)) == 0);
	CHECK(u.user[0] == '\0' && strcmp(u.auth, "only-a-password") == 0);
	/* The input is length-delimited: bytes after len are not looked at. */
	CHECK(tbl_redis_url_parse("tcp://h:1234garbage", 12, &u, err, sizeof(err)) == 0 && u.port == 1234);
}

/* Each bad value is refused, and the message contains the given words. */
static void expect_refused(const char *s, size_t len, const char *words)
{
	tbl_redis_url_t u;
	char err[256] = "unchanged";
	int rc = tbl_redis_url_parse(s, len, &u, err, sizeof(err));
	if (rc != -1 || !strstr(err, words)) {
		fprintf(stderr, "  \"%.*s\": rc %d, message \"%s\" (expected -1 and \"%s\")\n", (int)len, s, rc, err, words);
		test_failures++;
	}
}
#define REFUSED(s, words) expect_refused(s, strlen(s), words)

static void test_refused(void)
{
	REFUSED("", "empty");
	REFUSED("http://h:80", "unknown scheme \"http\"");
	REFUSED("redis://h", "unknown scheme");
	REFUSED("127.0.0.1:6379", "no scheme");
	REFUSED("tcp://", "empty host");
	REFUSED("tcp://:6379", "empty host");
	REFUSED("tcp://[]:6379", "empty host");
	REFUSED("tcp://[::1", "']'");
	REFUSED("tcp://h:", "bad port");
	REFUSED("tcp://h:0", "bad port");
	REFUSED("tcp://h:65536", "bad port");
	REFUSED("tcp://h:12x", "bad port");
	REFUSED("tcp://h:-1", "bad port");
	REFUSED("tcp://h:1/path", "bad port");
	REFUSED("tcp://h h", "bad character");
	REFUSED("tcp://h?timeout=1", "unknown parameter \"timeout\"");
	REFUSED("tcp://h?db", "no '=value'");
	REFUSED("tcp://h?db=1&", "empty parameter");
	REFUSED("tcp://h?db=", "db=");
	REFUSED("tcp://h?db=-1", "db=-1");
	REFUSED("tcp://h?db=2147483648", "out of range");
	REFUSED("tcp://h?db=1&db=2", "twice");
	REFUSED("tcp://h?auth=%zz", "percent");
	REFUSED("tcp://h?auth=ab%4", "two hex digits");
	REFUSED("tcp://h?auth=a%00b", "NUL");
	REFUSED("tcp://h?user=u", "user= needs auth=");
	REFUSED("unix://relative.sock", "absolute");
	REFUSED("unix://", "empty unix socket path");
	expect_refused("tcp://h\0x", 9, "NUL");

	char long_host[400] = "tcp://";
	memset(long_host + 6, 'a', 300);
	long_host[306] = '\0';
	REFUSED(long_host, "too long");
	char long_path[300] = "unix:///";
	memset(long_path + 8, 'p', 200);
	long_path[208] = '\0';
	REFUSED(long_path, "too long");
	char long_auth[400] = "tcp://h?auth=";
	memset(long_auth + 13, 'x', 300);
	long_auth[313] = '\0';
	REFUSED(long_auth, "auth= is too long");

	/* A message never overflows a small buffer, and is NUL-terminated. */
	tbl_redis_url_t u;
	char tiny[8];
	memset(tiny, 'z', sizeof(tiny));
	CHECK(parse("http://x", &u, tiny, sizeof(tiny)) == -1 && memchr(tiny, '\0', sizeof(tiny)) != NULL);
	CHECK(parse("http://x", &u, NULL, 0) == -1);
}

static void test_cluster(void)
{
	tbl_redis_url_t u;
	char err[256];
	CHECK(parse("cluster://10.0.0.1:7000,10.0.0.2,[::1]:7002", &u, err, sizeof(err)) == 0);
	CHECK(u.is_cluster && !u.is_sentinel && !u.is_unix && !u.tls && u.nseeds == 3);
	CHECK(strcmp(u.seeds[0].host, "10.0.0.1") == 0 && u.seeds[0].port == 7000);
	CHECK(strcmp(u.seeds[1].host, "10.0.0.2") == 0 && u.seeds[1].port == 6379);
	CHECK(strcmp(u.seeds[2].host, "::1") == 0 && u.seeds[2].port == 7002);
	/* The first seed stands for the cluster where one address is wanted. */
	CHECK(strcmp(u.host, "10.0.0.1") == 0 && u.port == 7000 && u.db == 0);
	char describe[300];
	tbl_redis_url_describe(&u, describe, sizeof(describe));
	CHECK(strcmp(describe, "cluster 10.0.0.1:7000,10.0.0.2:6379,[::1]:7002") == 0);
	CHECK(parse("cluster://h?user=app&auth=s3cret&db=0", &u, err, sizeof(err)) == 0);
	CHECK(u.nseeds == 1 && strcmp(u.user, "app") == 0 && strcmp(u.auth, "s3cret") == 0 && u.db == 0);
	CHECK(parse("cluster+tls://h1:7000,h2:7001?verify=0&sni=redis.example", &u, err, sizeof(err)) == 0);
	CHECK(u.is_cluster && u.tls && !u.tls_verify && u.nseeds == 2 && strcmp(u.tls_sni, "redis.example") == 0);
	char many[512] = "cluster://";
	for (int i = 0; i < TBL_REDIS_CLUSTER_SEEDS_MAX; i++) {
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%sh%d:%d", i ? "," : "", i, 7000 + i);
	}
	CHECK(parse(many, &u, err, sizeof(err)) == 0 && u.nseeds == TBL_REDIS_CLUSTER_SEEDS_MAX);
	CHECK(u.seeds[TBL_REDIS_CLUSTER_SEEDS_MAX - 1].port == 7000 + TBL_REDIS_CLUSTER_SEEDS_MAX - 1);
	snprintf(many + strlen(many), sizeof(many) - strlen(many), ",one-more");
	REFUSED(many, "too many seed nodes (at most 16)");

	REFUSED("cluster://", "no seed node hosts");
	REFUSED("cluster://h1,,h2", "seed node 2: empty host");
	REFUSED("cluster://h1,", "seed node 2: empty host");
	REFUSED("cluster://h1:0", "seed node 1: bad port");
	REFUSED("cluster://h1,h 2", "seed node 2: bad character");
	REFUSED("cluster://h?db=1", "a Redis Cluster has only database 0");
	REFUSED("cluster://h?master=m", "only for sentinel://");
	REFUSED("cluster://h?sentinel_auth=x", "only for sentinel://");
	REFUSED("cluster://h?cafile=/ca.pem", "cafile= is only for cluster+tls://");
	REFUSED("cluster://u:p@h", "user info");
	REFUSED("cluster://h?user=u", "user= needs auth=");
	REFUSED("clusters://h", "unknown scheme");
}

static const test_case_t tests[] = {
	TEST_ENTRY(test_tcp),
	TEST_ENTRY(test_unix_and_query),
	TEST_ENTRY(test_refused),
	TEST_ENTRY(test_cluster),
};

int main(int argc, char **argv)
{
	(void)argc;
	return test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
