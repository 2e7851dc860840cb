/*
 * test_redis_idle.c - a connection the server closed while the client sat idle (issue 33, finding 7).
 *
 * A php-fpm worker keeps its connection between requests; Redis's `timeout`, a proxy's idle timeout or
 * CLIENT KILL close it meanwhile. The next call must notice before it sends (nothing went out, so nothing
 * is ambiguous) and go on a fresh connection instead of failing with "server closed the connection".
 *
 * No test waits a fixed time: each waits for the event itself (the server no longer lists the client, or
 * the client's socket turned readable with the EOF), bounded by 30 s only to tell a hang from slowness.
 * The end-to-end tests use the unix socket, where the server's close() has made the EOF visible to the
 * client by the time it returns; over TCP the FIN may still be on its way through the loopback device,
 * so the TCP test waits for it on the socket before asking.
 */
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <hiredis/hiredis.h>

#include "harness.h"
#include "server.h"
#include "../redis_client.h"
#include "../redis_conn.h"

#define KEY(s) (s), (sizeof(s) - 1)
#define WAIT_BOUND_MS 30000u   /* a hang, not a guess at load */

static test_server_t server;

static redisContext *raw(void)
{
	struct timeval tv = { 30, 0 };
	redisContext *c = redisConnectUnixWithTimeout(server.socket_path, tv);
	if (!c || c->err) {
		fprintf(stderr, "raw connection failed\n");
		exit(2);
	}
	redisSetTimeout(c, tv);
	return c;
}

static int raw_ok(redisContext *c, const char *cmd)
{
	redisReply *r = redisCommand(c, cmd);
	int ok = r && r->type != REDIS_REPLY_ERROR;
	if (r) freeReplyObject(r);
	return ok;
}

/* How many clients the server lists (the raw connection asking included); -1 on failure. */
static int clients_listed(redisContext *c)
{
	redisReply *r = redisCommand(c, "CLIENT LIST");
	int n = -1;
	if (r && r->type == REDIS_REPLY_STRING) {
		n = 0;
		for (const char *p = r->str; (p = strstr(p, "id=")) != NULL; p += 3) n++;
	}
	if (r) freeReplyObject(r);
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Polls CLIENT LIST until only the raw connection is left: the server has closed every other one. */
static int wait_only_raw_left(redisContext *c)
{
	uint64_t end = tbl_redis_now_ms() + WAIT_BOUND_MS;
	while (tbl_redis_now_ms() < end) {
		if (clients_listed(c) == 1) return 1;
		sleep_ms(10);
	}
	return 0;
}

static tbl_redis_t *unix_client(void)
{
	tbl_redis_url_t url = test_server_unix_url(&server, NULL);
	tbl_redis_t *r = tbl_redis_new(&url, 2000);
	test_client = r;
	return r;
}

/* CLIENT KILL while idle: the next command reconnects instead of failing, and so does every command kind
 * (a pipelined one too). */
static void test_killed_while_idle(void)
{
	redisContext *admin = raw();
	tbl_redis_t *r = unix_client();
	REQUIRE(r);
	REQUIRE_ST(tbl_redis_set(r, KEY("idle:a"), "1", 1, 0, 0), TBL_REDIS_OK);
	REQUIRE(tbl_redis_connected(r));

	REQUIRE(raw_ok(admin, "CLIENT KILL TYPE normal SKIPME yes"));
	REQUIRE(wait_only_raw_left(admin));
	CHECK(tbl_redis_connected(r));   /* the client has not looked yet */
	CHECK_ST(tbl_redis_set(r, KEY("idle:a"), "2", 1, 0, 0), TBL_REDIS_OK);
	tbl_redis_buf_t b;
	CHECK_ST(tbl_redis_get(r, KEY("idle:a"), &b), TBL_REDIS_OK);
	CHECK(b.len == 1 && b.data && b.data[0] == '2');
	tbl_redis_buf_free(&b);

	/* Again, with a pipelined command (MGET + PTTLs) as the first after the kill. */
	REQUIRE(raw_ok(admin, "CLIENT KILL TYPE normal SKIPME yes"));
	REQUIRE(wait_only_raw_left(admin));
	const char *keys[] = { "idle:a", "idle:missing" };
	size_t lens[] = { 6, 12 };
	tbl_redis_buf_t out[2];
	int64_t pttls[2];
	CHECK_ST(tbl_redis_mget_pttl(r, 2, keys, lens, out, pttls), TBL_REDIS_OK);
	CHECK(out[0].len == 1 && out[0].data && out[0].data[0] == '2' && out[1].data == NULL);
	tbl_redis_buf_free(&out[0]);
	tbl_redis_buf_free(&out[1]);
	tbl_redis_free(r);
	redisFree(admin);
}

/* Redis's own idle timeout (CONFIG SET timeout 1) closes the connection; the next command still works. */
static void test_server_timeout_while_idle(void)
{
	redisContext *admin = raw();
	tbl_redis_t *r = unix_client();
	REQUIRE(r);
	REQUIRE_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	REQUIRE(raw_ok(admin, "CONFIG SET timeout 1"));
	/* The admin connection asks every 10 ms, so only the client's idles past the second. */
	int closed = wait_only_raw_left(admin);
	REQUIRE(raw_ok(admin, "CONFIG SET timeout 0"));
	REQUIRE(closed);
	CHECK_ST(tbl_redis_set(r, KEY("idle:t"), "x", 1, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_exists(r, KEY("idle:t")), TBL_REDIS_OK);
	tbl_redis_free(r);
	redisFree(admin);
}

/* The check itself, over TCP: quiet while the connection is up, closed once the FIN has arrived. */
static void test_closed_while_idle_tcp(void)
{
	redisContext *admin = raw();
	tbl_redis_conn_t c;
	tbl_redis_url_t url = test_server_tcp_url(&server, NULL);
	tbl_redis_conn_init(&c, &url, 2000);
	REQUIRE_ST(tbl_redis_conn_open(&c, 0, tbl_redis_now_ms() + c.timeout_ms), TBL_REDIS_OK);
	CHECK(!tbl_redis_conn_closed_while_idle(&c));
	REQUIRE(raw_ok(admin, "CLIENT KILL TYPE normal SKIPME yes"));
	struct pollfd pfd = { .fd = c.ctx->fd, .events = POLLIN };
	CHECK(poll(&pfd, 1, (int)WAIT_BOUND_MS) == 1);
	CHECK(tbl_redis_conn_closed_while_idle(&c));
	tbl_redis_conn_close(&c);
	redisFree(admin);
}

/* A failure after the command went out is still a failure (EIO), never retried: a frozen server. */
static void test_failure_after_sending_not_retried(void)
{
	tbl_redis_url_t url = test_server_unix_url(&server, NULL);
	tbl_redis_t *r = tbl_redis_new(&url, 300);
	test_client = r;
	REQUIRE_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	test_server_freeze(&server);
	CHECK_ST(tbl_redis_set(r, KEY("idle:f"), "1", 1, 0, 0), TBL_REDIS_EIO);
	CHECK(!tbl_redis_connected(r));
	test_server_thaw(&server);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	tbl_redis_free(r);
}

static const test_case_t tests[] = {
	TEST_ENTRY(test_killed_while_idle),
	TEST_ENTRY(test_server_timeout_while_idle),
	TEST_ENTRY(test_closed_while_idle_tcp),
	TEST_ENTRY(test_failure_after_sending_not_retried),
};

int main(int argc, char **argv)
{
	(void)argc;
	if (test_server_start(&server, NULL) != 0) {
		fprintf(stderr, "could not start redis-server\n");
		printf("test_redis_idle: 0 passed, 1 failed\n");
		return 1;
	}
	int rc = test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
	test_server_destroy(&server);
	return rc;
}
