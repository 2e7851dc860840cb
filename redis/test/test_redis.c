/*
 * test_redis.c - tbl_redis_* (redis_client.h) against real redis-server processes (server.h): every
 * command's OK / NIL / error answers, binary safety, TTLs, the Lua scripts, AUTH and SELECT, and the
 * failure model: connection refused, a frozen server, a restarted one, a server that hangs up mid-write
 * (SIGPIPE), and fork().
 *
 * Timing checks are loose on purpose (at most 3x the timeout): they catch a hang, not a slow machine.
 * The timeouts they measure are a second, so that 3x leaves a loaded machine seconds of scheduling
 * delay (with 200 ms, 400 ms of delay under ASan on a busy 2-core host failed the check).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "harness.h"
#include "server.h"
#include "../redis_client.h"
#include "../redis_scripts.h"
#include "../redis_conn.h"

static test_server_t server;

/* A fresh client on the shared server over TCP, and its database emptied. */
static tbl_redis_t *client(unsigned timeout_ms)
{
	tbl_redis_url_t url = test_server_tcp_url(&server, NULL);
	tbl_redis_t *r = tbl_redis_new(&url, timeout_ms);
	test_client = r;
	return r;
}

/* A plain hiredis connection for checks that go around the code under test. */
static redisContext *raw(const test_server_t *s)
{
	struct timeval tv = { 30, 0 };   /* a bound for a hang, not a guess at load */
	redisContext *c = redisConnectUnixWithTimeout(s->socket_path, tv);
	if (!c || c->err) {
		fprintf(stderr, "raw connection failed\n");
		exit(2);
	}
	redisSetTimeout(c, tv);
	return c;
}

static void raw_command(redisContext *c, const char *cmd)
{
	redisReply *r = redisCommand(c, cmd);
	if (r) freeReplyObject(r);
}

#define KEY(s) (s), (sizeof(s) - 1)

static void test_ping_get_set(void)
{
	tbl_redis_t *r = client(2000);
	REQUIRE(r);
	CHECK(!tbl_redis_connected(r));
	CHECK(strcmp(tbl_redis_last_error(r), "") == 0);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	CHECK(tbl_redis_connected(r));
	tbl_redis_buf_t b;
	CHECK_ST(tbl_redis_get(r, KEY("t:missing"), &b), TBL_REDIS_NIL);
	CHECK(b.data == NULL && b.len == 0);
	CHECK_ST(tbl_redis_set(r, KEY("t:a"), "hello", 5, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_get(r, KEY("t:a"), &b), TBL_REDIS_OK);
	CHECK(b.len == 5 && memcmp(b.data, "hello", 5) == 0 && b.data[5] == '\0');
	tbl_redis_buf_free(&b);
	CHECK(b.data == NULL);
	/* An empty value is present, not missing. */
	CHECK_ST(tbl_redis_set(r, KEY("t:empty"), "", 0, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_get(r, KEY("t:empty"), &b), TBL_REDIS_OK);
	CHECK(b.data != NULL && b.len == 0);
	tbl_redis_buf_free(&b);
	/* Unix socket too. */
	tbl_redis_url_t url = test_server_unix_url(&server, NULL);
	tbl_redis_t *u = tbl_redis_new(&url, 2000);
	CHECK_ST(tbl_redis_get(u, KEY("t:a"), &b), TBL_REDIS_OK);
	tbl_redis_buf_free(&b);
	tbl_redis_free(u);
	tbl_redis_free(r);
}

static void test_binary_and_large(void)
{
	tbl_redis_t *r = client(5000);
	static const char key[] = "t:bin\0key\r\n*3";
	static const char val[] = "\0\1\2$-1\r\n\0";
	tbl_redis_buf_t b;
	CHECK_ST(tbl_redis_set(r, key, sizeof(key) - 1, val, sizeof(val) - 1, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_get(r, key, sizeof(key) - 1, &b), TBL_REDIS_OK);
	CHECK(b.len == sizeof(val) - 1 && memcmp(b.data, val, b.len) == 0);
	tbl_redis_buf_free(&b);
	/* The key is not cut at its NUL byte. */
	CHECK_ST(tbl_redis_exists(r, KEY("t:bin")), TBL_REDIS_NIL);

	size_t big_len = 1u << 20;
	char *big = malloc(big_len);
	REQUIRE(big);
	for (size_t i = 0; i < big_len; i++) big[i] = (char)(i * 31 + 7);
	CHECK_ST(tbl_redis_set(r, KEY("t:big"), big, big_len, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_get(r, KEY("t:big"), &b), TBL_REDIS_OK);
	CHECK(b.len == big_len && memcmp(b.data, big, big_len) == 0);
	tbl_redis_buf_free(&b);
	free(big);
	tbl_redis_free(r);
}

static void test_nx_ttl_expire(void)
{
	tbl_redis_t *r = client(2000);
	int64_t ms = 0;
	uint64_t n;
	const char *k[] = { "t:nx", "t:ttl" };
	size_t kl[] = { 4, 5 };
	tbl_redis_del(r, 2, k, kl, &n);
	CHECK_ST(tbl_redis_set(r, KEY("t:nx"), "1", 1, 0, 1), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_set(r, KEY("t:nx"), "2", 1, 0, 1), TBL_REDIS_NIL);
	tbl_redis_buf_t b;
	CHECK_ST(tbl_redis_get(r, KEY("t:nx"), &b), TBL_REDIS_OK);
	CHECK(b.len == 1 && b.data[0] == '1');
	tbl_redis_buf_free(&b);

	CHECK_ST(tbl_redis_pttl(r, KEY("t:nx"), &ms), TBL_REDIS_OK);
	CHECK(ms == -1);
	CHECK_ST(tbl_redis_set(r, KEY("t:ttl"), "v", 1, 60000, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_pttl(r, KEY("t:ttl"), &ms), TBL_REDIS_OK);
	CHECK(ms > 50000 && ms <= 60000);
	CHECK_ST(tbl_redis_expire(r, KEY("t:ttl"), 5000), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_pttl(r, KEY("t:ttl"), &ms), TBL_REDIS_OK);
	CHECK(ms > 0 && ms <= 5000);
	CHECK_ST(tbl_redis_expire(r, KEY("t:ttl"), 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_pttl(r, KEY("t:ttl"), &ms), TBL_REDIS_OK);
	CHECK(ms == -1);
	/* PERSIST of a key without expiry is still OK; of a missing key NIL. */
	CHECK_ST(tbl_redis_expire(r, KEY("t:ttl"), 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_expire(r, KEY("t:none"), 0), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_expire(r, KEY("t:none"), 100), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_pttl(r, KEY("t:none"), &ms), TBL_REDIS_NIL);
	/* A short TTL really expires. */
	CHECK_ST(tbl_redis_set(r, KEY("t:short"), "v", 1, 30, 0), TBL_REDIS_OK);
	usleep(80 * 1000);
	CHECK_ST(tbl_redis_exists(r, KEY("t:short")), TBL_REDIS_NIL);
	/* NX with a TTL. */
	CHECK_ST(tbl_redis_set(r, KEY("t:nxttl"), "v", 1, 60000, 1), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_pttl(r, KEY("t:nxttl"), &ms), TBL_REDIS_OK);
	CHECK(ms > 0);
	/* A TTL Redis refuses is its error reply, and the connection stays usable. */
	CHECK_ST(tbl_redis_set(r, KEY("t:badttl"), "v", 1, UINT64_MAX, 0), TBL_REDIS_EREPLY);
	CHECK(strstr(tbl_redis_last_error(r), "ERR") != NULL);
	CHECK(tbl_redis_connected(r));
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	tbl_redis_free(r);
}

static void test_mget_del_exists(void)
{
	tbl_redis_t *r = client(2000);
	const char *keys[] = { "t:m1", "t:m2", "t:m3\0x" };
	size_t klens[] = { 4, 4, 6 };
	const void *vals[] = { "one", "", "th\0ree" };
	size_t vlens[] = { 3, 0, 6 };
	uint64_t n = 99;
	CHECK_ST(tbl_redis_del(r, 3, keys, klens, &n), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_set(r, keys[0], klens[0], vals[0], vlens[0], 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_set(r, keys[2], klens[2], vals[2], vlens[2], 0, 0), TBL_REDIS_OK);
	tbl_redis_buf_t out[3];
	CHECK_ST(tbl_redis_mget(r, 3, keys, klens, out), TBL_REDIS_OK);
	CHECK(out[0].len == 3 && memcmp(out[0].data, "one", 3) == 0);
	CHECK(out[1].data == NULL);
	CHECK(out[2].len == 6 && memcmp(out[2].data, "th\0ree", 6) == 0);
	for (int i = 0; i < 3; i++) tbl_redis_buf_free(&out[i]);
	CHECK_ST(tbl_redis_mget(r, 0, keys, klens, out), TBL_REDIS_OK);

	/* With each key's PTTL: -1 for no expiry and for a missing key, the milliseconds left otherwise. */
	int64_t pttls[3] = { 7, 7, 7 };
	CHECK_ST(tbl_redis_set(r, keys[2], klens[2], vals[2], vlens[2], 30000, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_mget_pttl(r, 3, keys, klens, out, pttls), TBL_REDIS_OK);
	CHECK(out[0].len == 3 && memcmp(out[0].data, "one", 3) == 0 && pttls[0] == -1);
	CHECK(out[1].data == NULL && pttls[1] == -1);
	CHECK(out[2].len == 6 && memcmp(out[2].data, "th\0ree", 6) == 0 && pttls[2] > 0 && pttls[2] <= 30000);
	for (int i = 0; i < 3; i++) tbl_redis_buf_free(&out[i]);
	CHECK_ST(tbl_redis_mget_pttl(r, 0, keys, klens, out, pttls), TBL_REDIS_OK);

	CHECK_ST(tbl_redis_exists(r, keys[0], klens[0]), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_exists(r, keys[1], klens[1]), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_del(r, 3, keys, klens, &n), TBL_REDIS_OK);
	CHECK(n == 2);
	CHECK_ST(tbl_redis_del(r, 3, keys, klens, &n), TBL_REDIS_OK);
	CHECK(n == 0);
	CHECK_ST(tbl_redis_del(r, 0, keys, klens, &n), TBL_REDIS_OK);
	CHECK(n == 0);
	tbl_redis_free(r);
}

static void test_set_many(void)
{
	tbl_redis_t *r = client(2000);
	const char *keys[] = { "t:s1", "t:s2", "t:s3" };
	size_t klens[] = { 4, 4, 4 };
	const void *vals[] = { "a", "bb", "c\0c" };
	size_t vlens[] = { 1, 2, 3 };
	int64_t ms;
	CHECK_ST(tbl_redis_set_many(r, 3, keys, klens, vals, vlens, 0), TBL_REDIS_OK);
	tbl_redis_buf_t out[3];
	CHECK_ST(tbl_redis_mget(r, 3, keys, klens, out), TBL_REDIS_OK);
	for (int i = 0; i < 3; i++) {
		CHECK(out[i].len == vlens[i] && memcmp(out[i].data, vals[i], vlens[i]) == 0);
		tbl_redis_buf_free(&out[i]);
	}
	CHECK_ST(tbl_redis_pttl(r, keys[1], klens[1], &ms), TBL_REDIS_OK);
	CHECK(ms == -1);
	CHECK_ST(tbl_redis_set_many(r, 3, keys, klens, vals, vlens, 30000), TBL_REDIS_OK);
	for (int i = 0; i < 3; i++) {
		CHECK_ST(tbl_redis_pttl(r, keys[i], klens[i], &ms), TBL_REDIS_OK);
		CHECK(ms > 0 && ms <= 30000);
	}
	CHECK_ST(tbl_redis_set_many(r, 0, keys, klens, vals, vlens, 0), TBL_REDIS_OK);
	/* Refused by Redis (a TTL out of range): an error reply, and no SET applied. */
	const char *fresh[] = { "t:s4", "t:s5" };
	CHECK_ST(tbl_redis_set_many(r, 2, fresh, klens, vals, vlens, UINT64_MAX), TBL_REDIS_EREPLY);
	CHECK_ST(tbl_redis_exists(r, fresh[0], 4), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	tbl_redis_free(r);
}

static void test_incrby(void)
{
	tbl_redis_t *r = client(2000);
	redisContext *c = raw(&server);
	int64_t v = 0, ms = 0;
	uint64_t n;
	const char *k[] = { "t:n", "t:s", "t:max", "t:list" };
	size_t kl[] = { 3, 3, 5, 6 };
	tbl_redis_del(r, 4, k, kl, &n);

	CHECK_ST(tbl_redis_incrby(r, KEY("t:n"), 5, 60000, &v), TBL_REDIS_OK);
	CHECK(v == 5);
	CHECK_ST(tbl_redis_pttl(r, KEY("t:n"), &ms), TBL_REDIS_OK);
	CHECK(ms > 50000 && ms <= 60000);
	/* An existing key keeps its expiry: none stays none, whatever ttl is given. */
	CHECK_ST(tbl_redis_expire(r, KEY("t:n"), 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_incrby(r, KEY("t:n"), -7, 1000, &v), TBL_REDIS_OK);
	CHECK(v == -2);
	CHECK_ST(tbl_redis_pttl(r, KEY("t:n"), &ms), TBL_REDIS_OK);
	CHECK(ms == -1);
	/* ttl 0 on a new key: no expiry. */
	tbl_redis_del(r, 1, k, kl, &n);
	CHECK_ST(tbl_redis_incrby(r, KEY("t:n"), 1, 0, &v), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_pttl(r, KEY("t:n"), &ms), TBL_REDIS_OK);
	CHECK(ms == -1);

	CHECK_ST(tbl_redis_set(r, KEY("t:s"), "abc", 3, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_incrby(r, KEY("t:s"), 1, 0, &v), TBL_REDIS_ETYPE);
	tbl_redis_buf_t b;
	CHECK_ST(tbl_redis_get(r, KEY("t:s"), &b), TBL_REDIS_OK);
	CHECK(b.len == 3 && memcmp(b.data, "abc", 3) == 0);
	tbl_redis_buf_free(&b);

	CHECK_ST(tbl_redis_set(r, KEY("t:max"), "9223372036854775807", 19, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_incrby(r, KEY("t:max"), 1, 0, &v), TBL_REDIS_EOVERFLOW);
	CHECK_ST(tbl_redis_incrby(r, KEY("t:max"), INT64_MIN, 0, &v), TBL_REDIS_OK);
	CHECK(v == -1);
	CHECK_ST(tbl_redis_incrby(r, KEY("t:max"), INT64_MIN, 0, &v), TBL_REDIS_EOVERFLOW);
	CHECK_ST(tbl_redis_get(r, KEY("t:max"), &b), TBL_REDIS_OK);
	CHECK(b.len == 2 && memcmp(b.data, "-1", 2) == 0);
	tbl_redis_buf_free(&b);

	raw_command(c, "RPUSH t:list x");
	CHECK_ST(tbl_redis_incrby(r, KEY("t:list"), 1, 0, &v), TBL_REDIS_ETYPE);
	/* A ttl PEXPIRE would refuse is refused before the increment. */
	CHECK_ST(tbl_redis_incrby(r, KEY("t:n"), 1, UINT64_MAX, &v), TBL_REDIS_EREPLY);

	/* The script cache emptied (a restarted server): EVALSHA's NOSCRIPT falls back to EVAL. */
	raw_command(c, "SCRIPT FLUSH");
	CHECK_ST(tbl_redis_incrby(r, KEY("t:n"), 10, 0, &v), TBL_REDIS_OK);
	CHECK(v == 11);
	redisFree(c);
	tbl_redis_free(r);
}

static void test_script_digests(void)
{
	redisContext *c = raw(&server);
	static const struct { const char *text, *sha1; } scripts[] = {
		{ TBL_REDIS_SCRIPT_INCRBY, TBL_REDIS_SCRIPT_INCRBY_SHA1 },
		{ TBL_REDIS_SCRIPT_REPLACE_IF, TBL_REDIS_SCRIPT_REPLACE_IF_SHA1 },
		{ TBL_REDIS_SCRIPT_DELETE_IF, TBL_REDIS_SCRIPT_DELETE_IF_SHA1 },
	};
	for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
		redisReply *reply = redisCommand(c, "SCRIPT LOAD %s", scripts[i].text);
		CHECK(reply && reply->type == REDIS_REPLY_STRING && strcmp(reply->str, scripts[i].sha1) == 0);
		if (reply && reply->type == REDIS_REPLY_STRING && strcmp(reply->str, scripts[i].sha1) != 0) {
			fprintf(stderr, "  redis_scripts.h: digest %s should be %s\n", scripts[i].sha1, reply->str);
		}
		if (reply) freeReplyObject(reply);
	}
	redisFree(c);
}

static void test_replace_delete_if(void)
{
	tbl_redis_t *r = client(2000);
	int64_t ms;
	tbl_redis_buf_t b;
	uint64_t n;
	const char *k[] = { "t:cas" };
	size_t kl[] = { 5 };
	tbl_redis_del(r, 1, k, kl, &n);
	CHECK_ST(tbl_redis_replace_if(r, KEY("t:cas"), "a", 1, "b", 1), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_exists(r, KEY("t:cas")), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_set(r, KEY("t:cas"), "o\0ld", 4, 60000, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_replace_if(r, KEY("t:cas"), "o\0lD", 4, "new", 3), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_replace_if(r, KEY("t:cas"), "o", 1, "new", 3), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_replace_if(r, KEY("t:cas"), "o\0ld", 4, "n\0w", 3), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_get(r, KEY("t:cas"), &b), TBL_REDIS_OK);
	CHECK(b.len == 3 && memcmp(b.data, "n\0w", 3) == 0);
	tbl_redis_buf_free(&b);
	CHECK_ST(tbl_redis_pttl(r, KEY("t:cas"), &ms), TBL_REDIS_OK);
	CHECK(ms > 50000);

	CHECK_ST(tbl_redis_delete_if(r, KEY("t:cas"), "new", 3), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_exists(r, KEY("t:cas")), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_delete_if(r, KEY("t:cas"), "n\0w", 3), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_exists(r, KEY("t:cas")), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_delete_if(r, KEY("t:cas"), "n\0w", 3), TBL_REDIS_NIL);
	/* An empty expected value is not a missing key. */
	CHECK_ST(tbl_redis_replace_if(r, KEY("t:cas"), "", 0, "x", 1), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_set(r, KEY("t:cas"), "", 0, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_replace_if(r, KEY("t:cas"), "", 0, "x", 1), TBL_REDIS_OK);
	tbl_redis_free(r);
}

static void test_del_prefix(void)
{
	tbl_redis_t *r = client(5000);
	/* The prefix has every glob character and a NUL byte; keys that an unescaped pattern would match
	 * must survive. */
	static const char prefix[] = "p*?[ab]\\\0:";
	size_t plen = sizeof(prefix) - 1;
	enum { INSIDE = 2500 };
	char **keys = malloc(INSIDE * sizeof(*keys));
	size_t *klens = malloc(INSIDE * sizeof(*klens));
	const void **vals = malloc(INSIDE * sizeof(*vals));
	size_t *vlens = malloc(INSIDE * sizeof(*vlens));
	REQUIRE(keys && klens && vals && vlens);
	for (int i = 0; i < INSIDE; i++) {
		keys[i] = malloc(plen + 16);
		memcpy(keys[i], prefix, plen);
		klens[i] = plen + (size_t)sprintf(keys[i] + plen, "%d", i);
		vals[i] = "v";
		vlens[i] = 1;
	}
	CHECK_ST(tbl_redis_set_many(r, INSIDE, (const char *const *)keys, klens, vals, vlens, 0), TBL_REDIS_OK);
	static const char *const outside[] = { "pX?[ab]\\\0:1", "p*?a\\\0:1", "p*?[ab]\\", "p*?[ab]\\\0", "q*?[ab]\\\0:1",
		                                   "P*?[ab]\\\0:1" };
	static const size_t outside_lens[] = { 11, 9, 8, 9, 11, 11 };
	for (size_t i = 0; i < 6; i++) {
		CHECK_ST(tbl_redis_set(r, outside[i], outside_lens[i], "o", 1, 0, 0), TBL_REDIS_OK);
	}
	uint64_t deleted = 0;
	CHECK_ST(tbl_redis_del_prefix(r, prefix, plen, &deleted), TBL_REDIS_OK);
	CHECK(deleted == INSIDE);
	CHECK_ST(tbl_redis_exists(r, keys[0], klens[0]), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_exists(r, keys[INSIDE - 1], klens[INSIDE - 1]), TBL_REDIS_NIL);
	for (size_t i = 0; i < 6; i++) {
		CHECK_ST(tbl_redis_exists(r, outside[i], outside_lens[i]), TBL_REDIS_OK);
	}
	CHECK_ST(tbl_redis_del_prefix(r, prefix, plen, &deleted), TBL_REDIS_OK);
	CHECK(deleted == 0);
	for (int i = 0; i < INSIDE; i++) free(keys[i]);
	free(keys);
	free(klens);
	free(vals);
	free(vlens);
	tbl_redis_free(r);
}

static void test_auth_and_db(void)
{
	static const char *const args[] = { "--requirepass", "s3cret&x", NULL };
	test_server_t locked;
	REQUIRE(test_server_start(&locked, args) == 0);
	tbl_redis_buf_t b;

	tbl_redis_url_t url = test_server_tcp_url(&locked, NULL);
	tbl_redis_t *r = tbl_redis_new(&url, 2000);
	test_client = r;
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EREPLY);   /* NOAUTH */
	tbl_redis_free(r);

	url = test_server_tcp_url(&locked, "?auth=wrong");
	r = tbl_redis_new(&url, 2000);
	test_client = r;
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EREPLY);
	CHECK(strstr(tbl_redis_last_error(r), "AUTH refused") != NULL);
	CHECK(!tbl_redis_connected(r));
	tbl_redis_free(r);

	url = test_server_unix_url(&locked, "?auth=s3cret%26x&db=5");
	r = tbl_redis_new(&url, 2000);
	test_client = r;
	CHECK_ST(tbl_redis_set(r, KEY("t:db5"), "five", 4, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_get(r, KEY("t:db5"), &b), TBL_REDIS_OK);
	tbl_redis_buf_free(&b);

	/* db 0 does not have it; db 5 does. */
	tbl_redis_url_t url0 = test_server_tcp_url(&locked, "?auth=s3cret%26x");
	tbl_redis_t *r0 = tbl_redis_new(&url0, 2000);
	CHECK_ST(tbl_redis_exists(r0, KEY("t:db5")), TBL_REDIS_NIL);

	/* An ACL user. */
	redisContext *c = raw(&locked);
	raw_command(c, "AUTH s3cret&x");
	raw_command(c, "ACL SETUSER app on >app-pw ~* +@all");
	redisFree(c);
	tbl_redis_url_t url_user = test_server_tcp_url(&locked, "?user=app&auth=app-pw&db=5");
	tbl_redis_t *ru = tbl_redis_new(&url_user, 2000);
	test_client = ru;
	CHECK_ST(tbl_redis_exists(ru, KEY("t:db5")), TBL_REDIS_OK);
	tbl_redis_free(ru);
	url_user = test_server_tcp_url(&locked, "?user=app&auth=nope");
	ru = tbl_redis_new(&url_user, 2000);
	CHECK_ST(tbl_redis_ping(ru), TBL_REDIS_EREPLY);
	tbl_redis_free(ru);

	tbl_redis_free(r0);
	tbl_redis_free(r);
	test_server_destroy(&locked);
}

static void test_connection_refused(void)
{
	tbl_redis_url_t url;
	char err[64];
	char text[64];
	snprintf(text, sizeof(text), "tcp://127.0.0.1:%d", test_free_port());
	REQUIRE(tbl_redis_url_parse(text, strlen(text), &url, err, sizeof(err)) == 0);
	tbl_redis_t *r = tbl_redis_new(&url, 1000);
	test_client = r;
	uint64_t t0 = tbl_redis_now_ms();
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EIO);
	CHECK(tbl_redis_now_ms() - t0 < 3000);
	CHECK(strstr(tbl_redis_last_error(r), "Redis at 127.0.0.1:") != NULL);
	CHECK(strstr(tbl_redis_last_error(r), "refused") != NULL);
	/* Again: each call tries to connect anew. */
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EIO);
	tbl_redis_free(r);

	url = test_server_unix_url(&server, NULL);
	snprintf(url.path, sizeof(url.path), "%s/no-such.sock", server.dir);
	r = tbl_redis_new(&url, 300);
	test_client = r;
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EIO);
	tbl_redis_free(r);
}

/* A host name is looked up within the call's deadline (getaddrinfo_a), and each of its addresses is
 * tried in turn: "localhost" may give ::1 first, where the server (bound to 127.0.0.1) refuses. A name
 * that does not resolve fails the call with the lookup named, whatever the resolver does (it may take
 * its own time without DNS at hand: the deadline cuts it). */
static void test_host_name_lookup(void)
{
	tbl_redis_url_t url;
	char err[64];
	char text[96];
	snprintf(text, sizeof(text), "tcp://localhost:%d", server.port);
	REQUIRE(tbl_redis_url_parse(text, strlen(text), &url, err, sizeof(err)) == 0);
	tbl_redis_t *r = tbl_redis_new(&url, 5000);
	test_client = r;
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	tbl_redis_free(r);

	snprintf(text, sizeof(text), "tcp://no-such-host.invalid:%d", server.port);
	REQUIRE(tbl_redis_url_parse(text, strlen(text), &url, err, sizeof(err)) == 0);
	r = tbl_redis_new(&url, 300);
	test_client = r;
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EIO);
	CHECK(strstr(tbl_redis_last_error(r), "looking up no-such-host.invalid") != NULL);
	fprintf(stderr, "  no-such-host.invalid: %s\n", tbl_redis_last_error(r));
	tbl_redis_free(r);
}

static void test_frozen_server(void)
{
	const unsigned timeout = 1000;
	tbl_redis_t *r = client(timeout);
	tbl_redis_buf_t b;
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	test_server_freeze(&server);
	uint64_t t0 = tbl_redis_now_ms();
	CHECK_ST(tbl_redis_get(r, KEY("t:a"), &b), TBL_REDIS_EIO);
	uint64_t took = tbl_redis_now_ms() - t0;
	CHECK(took >= timeout - 5 && took < 3 * timeout);
	CHECK(strstr(tbl_redis_last_error(r), "timed out after 1000 ms") != NULL);
	CHECK(!tbl_redis_connected(r));
	/* A new connection to a frozen server: the kernel accepts it, the handshake-free PING times out. */
	t0 = tbl_redis_now_ms();
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EIO);
	took = tbl_redis_now_ms() - t0;
	CHECK(took < 3 * timeout);
	/* A 1 MB write to a frozen server fills the socket buffers: SO_SNDTIMEO bounds the write. */
	size_t big_len = 1u << 20;
	char *big = calloc(1, big_len);
	t0 = tbl_redis_now_ms();
	CHECK_ST(tbl_redis_set(r, KEY("t:frozen-big"), big, big_len, 0, 0), TBL_REDIS_EIO);
	took = tbl_redis_now_ms() - t0;
	CHECK(took < 3 * 2 * timeout);   /* connect + one reply at most */
	free(big);
	fprintf(stderr, "  frozen server: EIO after %" PRIu64 " ms (timeout %u ms)\n", took, timeout);
	test_server_thaw(&server);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	tbl_redis_free(r);
}

static void test_server_restarted(void)
{
	tbl_redis_t *r = client(1000);
	CHECK_ST(tbl_redis_set(r, KEY("t:before"), "1", 1, 0, 0), TBL_REDIS_OK);
	test_server_kill(&server);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EIO);
	CHECK(!tbl_redis_connected(r));
	REQUIRE(test_server_restart(&server) == 0);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	/* No persistence: the restarted server is empty. */
	CHECK_ST(tbl_redis_exists(r, KEY("t:before")), TBL_REDIS_NIL);
	/* And once more, killed while the client is idle and connected: the next command fails once. */
	test_server_kill(&server);
	REQUIRE(test_server_restart(&server) == 0);
	tbl_redis_status_t st = tbl_redis_ping(r);
	CHECK(st == TBL_REDIS_EIO || st == TBL_REDIS_OK);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	tbl_redis_free(r);
}

static int sigpipe_delivered;
static void on_sigpipe(int sig)
{
	(void)sig;
	sigpipe_delivered = 1;
}

/* A "server" that accepts one connection and resets it: the client's write gets EPIPE/ECONNRESET. */
static void test_sigpipe_not_delivered(void)
{
	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	REQUIRE(lfd >= 0 && bind(lfd, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(lfd, 4) == 0);
	REQUIRE(getsockname(lfd, (struct sockaddr *)&a, &alen) == 0);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		int fd = accept(lfd, NULL, NULL);
		usleep(100 * 1000);   /* while the client is blocked writing */
		struct linger hard = { 1, 0 };
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
		close(fd);
		_exit(0);
	}
	close(lfd);
	struct sigaction sa = { .sa_handler = on_sigpipe }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, &old);
	sigpipe_delivered = 0;

	char text[64], err[64];
	tbl_redis_url_t url;
	snprintf(text, sizeof(text), "tcp://127.0.0.1:%d", ntohs(a.sin_port));
	REQUIRE(tbl_redis_url_parse(text, strlen(text), &url, err, sizeof(err)) == 0);
	tbl_redis_t *r = tbl_redis_new(&url, 1000);
	test_client = r;
	size_t big_len = 8u << 20;
	char *big = calloc(1, big_len);
	/* 8 MB do not fit the socket buffers: the write is still going when the reset arrives, and the next
	 * write() gets EPIPE, which raises SIGPIPE. */
	CHECK_ST(tbl_redis_set(r, KEY("t:x"), big, big_len, 0, 0), TBL_REDIS_EIO);
	waitpid(pid, NULL, 0);
	CHECK(!sigpipe_delivered);
	sigset_t pending;
	sigpending(&pending);
	CHECK(!sigismember(&pending, SIGPIPE));
	fprintf(stderr, "  hung-up server: %s\n", tbl_redis_last_error(r));
	free(big);
	tbl_redis_free(r);
	sigaction(SIGPIPE, &old, NULL);
}

static void test_fork(void)
{
	tbl_redis_t *r = client(2000);
	CHECK_ST(tbl_redis_set(r, KEY("t:fork"), "parent", 6, 0, 0), TBL_REDIS_OK);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		tbl_redis_forget(r);
		int ok = !tbl_redis_connected(r) && tbl_redis_set(r, KEY("t:fork"), "child", 5, 0, 0) == TBL_REDIS_OK &&
		         tbl_redis_ping(r) == TBL_REDIS_OK;
		tbl_redis_free(r);
		_exit(ok ? 0 : 1);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The parent's connection was neither written to nor shut down by the child. */
	CHECK(tbl_redis_connected(r));
	tbl_redis_buf_t b;
	CHECK_ST(tbl_redis_get(r, KEY("t:fork"), &b), TBL_REDIS_OK);
	CHECK(b.len == 5 && memcmp(b.data, "child", 5) == 0);
	tbl_redis_buf_free(&b);
	CHECK(tbl_redis_connected(r));
	tbl_redis_free(r);
}

static const test_case_t tests[] = {
	TEST_ENTRY(test_ping_get_set),
	TEST_ENTRY(test_binary_and_large),
	TEST_ENTRY(test_nx_ttl_expire),
	TEST_ENTRY(test_mget_del_exists),
	TEST_ENTRY(test_set_many),
	TEST_ENTRY(test_incrby),
	TEST_ENTRY(test_script_digests),
	TEST_ENTRY(test_replace_delete_if),
	TEST_ENTRY(test_del_prefix),
	TEST_ENTRY(test_auth_and_db),
	TEST_ENTRY(test_connection_refused),
	TEST_ENTRY(test_host_name_lookup),
	TEST_ENTRY(test_frozen_server),
	TEST_ENTRY(test_server_restarted),
	TEST_ENTRY(test_sigpipe_not_delivered),
	TEST_ENTRY(test_fork),
};

int main(int argc, char **argv)
{
	(void)argc;
	if (test_server_start(&server, NULL) != 0) {
		fprintf(stderr, "could not start redis-server\n");
		printf("test_redis: 0 passed, 1 failed\n");
		return 1;
	}
	int rc = test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
	test_server_destroy(&server);
	return rc;
}
