/*
 * test_redis_sentinel.c - sentinel:// URLs (redis_url.h) and finding and following the master through
 * the Sentinels (redis_sentinel.h, redis_conn.c's connect, redis_client.c's -READONLY).
 *
 * The masters and replicas are real redis-server processes (server.h). The Sentinels are fakes, one thread
 * each, that answer `SENTINEL get-master-addr-by-name` with whatever the test set (an address, nil, an
 * error, or nothing at all: a frozen Sentinel), and AUTH with +OK or -WRONGPASS: what a Sentinel answers
 * is the test's to choose, which a real one (tests/15_redis_tier/sentinel_failover.phpt) never lets it do.
 * No test waits a fixed time; a bound of seconds only tells a hang from slowness.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "fake_server.h"
#include "harness.h"
#include "server.h"
#include "../redis_client.h"
#include "../redis_sentinel.h"
#include "../redis_tracker.h"
#include "../redis_url.h"

#define KEY(s) (s), (sizeof(s) - 1)

/* ---- a fake Sentinel --------------------------------------------------------------------------------- */

typedef struct fake_sentinel {
	fake_server_t srv;
	char answer[256];        /* the raw RESP reply to SENTINEL ...; "" = never answer (frozen) */
	char password[64];       /* AUTH must give this; "" = any */
	atomic_int asked;        /* SENTINEL commands received */
} fake_sentinel_t;

/* fake_server.h's answer function: *authed is the connection's AUTH. */
static void sentinel_answer(fake_server_t *srv, const char *cmd, size_t clen, const char *a0, size_t a0len,
                            int *authed, char *reply, size_t cap)
{
	fake_sentinel_t *f = srv->ctx;
	if (a0len == 4 && strncasecmp(a0, "AUTH", 4) == 0) {
		/* The password is the last argument: the command ends with it and its CRLF. */
		size_t plen = strlen(f->password);
		int ok = plen == 0 || (clen >= plen + 2 && memcmp(cmd + clen - plen - 2, f->password, plen) == 0);
		snprintf(reply, cap, "%s", ok ? "+OK\r\n" : "-WRONGPASS invalid password\r\n");
		*authed = ok;
	} else if (f->password[0] && !*authed) {
		snprintf(reply, cap, "-NOAUTH Authentication required.\r\n");
	} else if (a0len == 8 && strncasecmp(a0, "SENTINEL", 8) == 0) {
		atomic_fetch_add(&f->asked, 1);
		snprintf(reply, cap, "%s", f->answer);
	} else {
		snprintf(reply, cap, "-ERR unknown command\r\n");
	}
}

/* One connection at a time is all the client makes of a Sentinel. */
static void fake_start(fake_sentinel_t *f)
{
	memset(f, 0, sizeof(*f));
	fake_server_start(&f->srv, sentinel_answer, f);
}

static void fake_stop(fake_sentinel_t *f)
{
	fake_server_stop(&f->srv);
}

static void fake_answer(fake_sentinel_t *f, const char *resp)
{
	fake_server_lock(&f->srv);
	snprintf(f->answer, sizeof(f->answer), "%s", resp);
	fake_server_unlock(&f->srv);
}

/* The Sentinel names 127.0.0.1:port. */
static void fake_names(fake_sentinel_t *f, int port)
{
	char resp[128], p[16];
	snprintf(p, sizeof(p), "%d", port);
	snprintf(resp, sizeof(resp), "*2\r\n$9\r\n127.0.0.1\r\n$%zu\r\n%s\r\n", strlen(p), p);
	fake_answer(f, resp);
}

/* ---- helpers ----------------------------------------------------------------------------------------- */

static int parse(const char *text, tbl_redis_url_t *u, char *err, size_t errlen)
{
	return tbl_redis_url_parse(text, strlen(text), u, err, errlen);
}

/* sentinel://127.0.0.1:<p1>,...?master=m<query> */
static tbl_redis_url_t sentinel_url(const int *ports, int n, const char *query)
{
	char text[512];
	size_t len = (size_t)snprintf(text, sizeof(text), "sentinel://");
	for (int i = 0; i < n; i++) {
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s127.0.0.1:%d", i ? "," : "", ports[i]);
	}
	snprintf(text + len, sizeof(text) - len, "?master=m%s", query ? query : "");
	tbl_redis_url_t u;
	char err[256];
	if (parse(text, &u, err, sizeof(err)) != 0) {
		fprintf(stderr, "test URL %s: %s\n", text, err);
		exit(2);
	}
	return u;
}

static uint64_t now_ms(void)
{
	return tbl_redis_monotonic_ms();
}

static int raw_command(const test_server_t *s, const char *cmd)
{
	struct timeval tv = { 30, 0 };
	redisContext *c = redisConnectUnixWithTimeout(s->socket_path, tv);
	int ok = 0;
	if (c && !c->err) {
		redisReply *r = redisCommand(c, cmd);
		ok = r && r->type != REDIS_REPLY_ERROR;
		if (r) freeReplyObject(r);
	}
	if (c) redisFree(c);
	return ok;
}

/* ---- URL tests --------------------------------------------------------------------------------------- */

static void test_url_sentinel_parses(void)
{
	tbl_redis_url_t u;
	char err[256] = "";
	REQUIRE(parse("sentinel://10.0.0.1:26380,s2,[::1]:26381?master=my%2Dm&auth=pw&sentinel_auth=spw&db=3&user=u",
	              &u, err, sizeof(err)) == 0);
	CHECK(u.is_sentinel == 1 && u.is_unix == 0);
	CHECK(u.nsentinels == 3);
	CHECK(strcmp(u.sentinels[0].host, "10.0.0.1") == 0 && u.sentinels[0].port == 26380);
	CHECK(strcmp(u.sentinels[1].host, "s2") == 0 && u.sentinels[1].port == 26379);
	CHECK(strcmp(u.sentinels[2].host, "::1") == 0 && u.sentinels[2].port == 26381);
	CHECK(strcmp(u.master, "my-m") == 0);
	CHECK(strcmp(u.auth, "pw") == 0 && strcmp(u.user, "u") == 0);
	CHECK(strcmp(u.sentinel_auth, "spw") == 0);
	CHECK(u.db == 3);
	CHECK(u.host[0] == '\0');   /* no master until the Sentinels name one */
	char d[300];
	tbl_redis_url_describe(&u, d, sizeof(d));
	CHECK(strcmp(d, "master my-m via Sentinel 10.0.0.1:26380,s2:26379,[::1]:26381") == 0);
}

static void expect_refused(const char *text, const char *needle)
{
	tbl_redis_url_t u;
	char err[256] = "";
	int rc = parse(text, &u, err, sizeof(err));
	if (rc == 0 || !strstr(err, needle)) {
		fprintf(stderr, "  %s: rc %d, message \"%s\", expected one with \"%s\"\n", text, rc, err, needle);
		CHECK(rc != 0 && strstr(err, needle));
	}
	CHECK(!strstr(err, "s3cret"));   /* a password is never quoted */
}

static void test_url_sentinel_refused(void)
{
	expect_refused("sentinel://h1:26379", "no master name");
	expect_refused("sentinel://h1:26379?db=1", "no master name");
	expect_refused("sentinel://h1?master=", "master= is empty");
	expect_refused("sentinel://?master=m", "no Sentinel hosts");
	expect_refused("sentinel://h1,,h2?master=m", "Sentinel 2: empty host");
	expect_refused("sentinel://h1,?master=m", "Sentinel 2: empty host");
	expect_refused("sentinel://h1:0?master=m", "Sentinel 1: bad port 0");
	expect_refused("sentinel://h1,h2:99999?master=m", "Sentinel 2: bad port");
	expect_refused("sentinel://h1:x?master=m", "bad port \"x\"");
	expect_refused("sentinel://h1?master=m&mastr=n", "unknown parameter \"mastr\"");
	expect_refused("sentinel://h1?master=m&master=n", "master= is given twice");
	expect_refused("sentinel://h1?master=m&sentinel_auth=%zzs3cret", "sentinel_auth=: not a valid value");
	expect_refused("sentinel://a,b,c,d,e,f,g,h,i?master=m", "too many Sentinels (at most 8)");
	expect_refused("tcp://h1:6379?master=m", "master= is only for sentinel://");
	expect_refused("unix:///tmp/r.sock?sentinel_auth=s3cret", "sentinel_auth= is only for sentinel://");
	expect_refused("sentinal://h1?master=m", "expected tcp://, tls://, unix://, sentinel://, sentinel+tls://, cluster:// or cluster+tls://");
}

/* ---- finding the master ------------------------------------------------------------------------------ */

static test_server_t master, replica;
static fake_sentinel_t s1, s2;

/* The first Sentinel is down (nothing listens), the second names the master: the client connects there. */
static void test_master_found_through_second_sentinel(void)
{
	int ports[] = { test_free_port(), s2.srv.port };
	fake_names(&s2, master.port);
	tbl_redis_url_t u = sentinel_url(ports, 2, NULL);
	tbl_redis_t *r = tbl_redis_new(&u, 2000);
	test_client = r;
	REQUIRE(r != NULL);
	CHECK_ST(tbl_redis_set(r, KEY("sentinel:k"), "v1", 2, 0, 0), TBL_REDIS_OK);
	tbl_redis_buf_t b = { 0 };
	CHECK_ST(tbl_redis_get(r, KEY("sentinel:k"), &b), TBL_REDIS_OK);
	CHECK(b.len == 2 && memcmp(b.data, "v1", 2) == 0);
	tbl_redis_buf_free(&b);
	tbl_redis_free(r);

	char host[256], err[512];
	int port = 0, answered = -1;
	CHECK_ST(tbl_redis_sentinel_master(&u, 2000, now_ms() + 2000, 0, host, sizeof(host), &port, &answered, err,
	                                   sizeof(err)), TBL_REDIS_OK);
	CHECK(strcmp(host, "127.0.0.1") == 0 && port == master.port && answered == 1);
}

/* A Sentinel that still names the replica (its view lags a failover): ROLE says so, the next Sentinel is
 * asked; with only that Sentinel, the call fails with a message that says why. */
static void test_replica_is_not_used(void)
{
	int ports[] = { s1.srv.port, s2.srv.port };
	fake_names(&s1, replica.port);
	fake_names(&s2, master.port);
	tbl_redis_url_t u = sentinel_url(ports, 2, NULL);
	tbl_redis_t *r = tbl_redis_new(&u, 2000);
	test_client = r;
	REQUIRE(r != NULL);
	CHECK_ST(tbl_redis_set(r, KEY("sentinel:role"), "m", 1, 0, 0), TBL_REDIS_OK);
	tbl_redis_free(r);

	tbl_redis_url_t only = sentinel_url(ports, 1, NULL);
	r = tbl_redis_new(&only, 2000);
	test_client = NULL;
	REQUIRE(r != NULL);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EIO);
	const char *e = tbl_redis_last_error(r);
	if (!strstr(e, "not a master (ROLE: slave)") || !strstr(e, "Redis master m")) {
		fprintf(stderr, "  message: %s\n", e);
		CHECK(0);
	}
	tbl_redis_free(r);
}

/* Nil (an unknown master name), an error reply, a wrong Sentinel password: each a clear EIO. */
static void test_sentinel_answers_no_master(void)
{
	int ports[] = { s1.srv.port };
	tbl_redis_url_t u = sentinel_url(ports, 1, NULL);
	char host[256], err[512];
	int port;

	fake_answer(&s1, "*-1\r\n");
	CHECK_ST(tbl_redis_sentinel_master(&u, 2000, now_ms() + 2000, 0, host, sizeof(host), &port, NULL, err, sizeof(err)),
	         TBL_REDIS_EIO);
	CHECK(strstr(err, "does not know a master named m") != NULL);
	char lead[64];
	snprintf(lead, sizeof(lead), "Sentinel at 127.0.0.1:%d: ", s1.srv.port);
	CHECK(strncmp(err, lead, strlen(lead)) == 0);

	fake_answer(&s1, "-IDONTKNOW not ready\r\n");
	CHECK_ST(tbl_redis_sentinel_master(&u, 2000, now_ms() + 2000, 0, host, sizeof(host), &port, NULL, err, sizeof(err)),
	         TBL_REDIS_EIO);
	CHECK(strstr(err, "IDONTKNOW") != NULL);

	fake_names(&s1, master.port);
	fake_server_lock(&s1.srv);
	snprintf(s1.password, sizeof(s1.password), "spw");
	fake_server_unlock(&s1.srv);
	CHECK_ST(tbl_redis_sentinel_master(&u, 2000, now_ms() + 2000, 0, host, sizeof(host), &port, NULL, err, sizeof(err)),
	         TBL_REDIS_EIO);
	CHECK(strstr(err, "NOAUTH") != NULL);
	tbl_redis_url_t wrong = sentinel_url(ports, 1, "&sentinel_auth=s3cret");
	CHECK_ST(tbl_redis_sentinel_master(&wrong, 2000, now_ms() + 2000, 0, host, sizeof(host), &port, NULL, err,
	                                   sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "AUTH refused") != NULL && strstr(err, "s3cret") == NULL);
	tbl_redis_url_t authed = sentinel_url(ports, 1, "&sentinel_auth=spw");
	CHECK_ST(tbl_redis_sentinel_master(&authed, 2000, now_ms() + 2000, 0, host, sizeof(host), &port, NULL, err,
	                                   sizeof(err)), TBL_REDIS_OK);
	CHECK(port == master.port);
	fake_server_lock(&s1.srv);
	s1.password[0] = '\0';
	fake_server_unlock(&s1.srv);
}

/* A frozen Sentinel (accepts, never answers) costs its share of the timeout, not the call: the next one
 * is still asked in time. Without another, the call ends near its timeout (bound generous: a loaded host). */
static void test_frozen_sentinel_is_bounded(void)
{
	int ports[] = { s1.srv.port, s2.srv.port };
	fake_answer(&s1, "");
	fake_names(&s2, master.port);
	tbl_redis_url_t u = sentinel_url(ports, 2, NULL);
	tbl_redis_t *r = tbl_redis_new(&u, 1000);
	test_client = r;
	REQUIRE(r != NULL);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	tbl_redis_free(r);

	tbl_redis_url_t only = sentinel_url(ports, 1, NULL);
	r = tbl_redis_new(&only, 500);
	test_client = NULL;
	REQUIRE(r != NULL);
	uint64_t t0 = now_ms();
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EIO);
	CHECK(now_ms() - t0 < 500 + 5000);
	CHECK(strstr(tbl_redis_last_error(r), "timed out") != NULL);
	tbl_redis_free(r);
	fake_names(&s1, master.port);
}

/* A failover as the client sees it: the master it uses becomes a replica (REPLICAOF), the Sentinels name
 * the other server. The next write is refused (-READONLY, or the connection closed by the role change):
 * EIO, nothing applied; the one after asks the Sentinels again and lands on the new master. */
static void test_client_follows_a_switch(void)
{
	test_server_t a, b;
	REQUIRE(test_server_start(&a, NULL) == 0);
	if (test_server_start(&b, NULL) != 0) {
		test_server_destroy(&a);
		REQUIRE(0);
	}
	int ports[] = { s1.srv.port };
	fake_names(&s1, a.port);
	tbl_redis_url_t u = sentinel_url(ports, 1, NULL);
	tbl_redis_t *r = tbl_redis_new(&u, 2000);
	test_client = r;
	CHECK_ST(tbl_redis_set(r, KEY("switch:k"), "on-a", 4, 0, 0), TBL_REDIS_OK);

	char cmd[64];
	snprintf(cmd, sizeof(cmd), "REPLICAOF 127.0.0.1 %d", b.port);
	CHECK(raw_command(&a, cmd));
	fake_names(&s1, b.port);
	tbl_redis_status_t st = tbl_redis_set(r, KEY("switch:k"), "after", 5, 0, 0);
	if (st != TBL_REDIS_OK) {
		CHECK_ST(st, TBL_REDIS_EIO);
		CHECK_ST(tbl_redis_set(r, KEY("switch:k"), "after", 5, 0, 0), TBL_REDIS_OK);
	}
	/* Written on b, the new master, whichever call carried it. */
	tbl_redis_url_t bu = test_server_tcp_url(&b, NULL);
	tbl_redis_t *direct = tbl_redis_new(&bu, 2000);
	tbl_redis_buf_t v = { 0 };
	CHECK_ST(tbl_redis_get(direct, KEY("switch:k"), &v), TBL_REDIS_OK);
	CHECK(v.len == 5 && memcmp(v.data, "after", 5) == 0);
	tbl_redis_buf_free(&v);
	tbl_redis_free(direct);
	tbl_redis_free(r);
	test_server_destroy(&a);
	test_server_destroy(&b);
	fake_names(&s1, master.port);
}

/* The tracker finds the master through the Sentinels too, and says which server it tracks. */
static void run_tracker(int force_resp2)
{
	int ports[] = { s1.srv.port, s2.srv.port };
	fake_names(&s1, replica.port);
	fake_names(&s2, master.port);
	tbl_redis_url_t u = sentinel_url(ports, 2, NULL);
	tbl_redis_tracker_t *t = tbl_redis_tracker_new(&u, 2000, "sentinel:", 9);
	REQUIRE(t != NULL);
	if (force_resp2) tbl_redis_tracker_force_resp2(t);
	tbl_redis_status_t st = tbl_redis_tracker_start(t);
	if (st != TBL_REDIS_OK) fprintf(stderr, "  start: %s\n", tbl_redis_tracker_last_error(t));
	CHECK_ST(st, TBL_REDIS_OK);
	char want[64];
	snprintf(want, sizeof(want), "127.0.0.1:%d", master.port);
	CHECK(strcmp(tbl_redis_tracker_server(t), want) == 0);
	uint64_t fresh = 0, t0 = now_ms();
	while (fresh == 0 && now_ms() - t0 < 30000) {
		if (tbl_redis_tracker_poll(t, 100, 0, NULL, &fresh) != TBL_REDIS_OK) break;
	}
	CHECK(fresh != 0);
	tbl_redis_tracker_free(t);
	fake_names(&s1, master.port);
}

static void test_tracker_finds_the_master(void)
{
	run_tracker(0);
}

static void test_tracker_finds_the_master_resp2(void)
{
	run_tracker(1);
}

int main(int argc, char **argv)
{
	(void)argc;
	static const test_case_t url_tests[] = {
		TEST_ENTRY(test_url_sentinel_parses),
		TEST_ENTRY(test_url_sentinel_refused),
	};
	static const test_case_t tests[] = {
		TEST_ENTRY(test_url_sentinel_parses),
		TEST_ENTRY(test_url_sentinel_refused),
		TEST_ENTRY(test_master_found_through_second_sentinel),
		TEST_ENTRY(test_replica_is_not_used),
		TEST_ENTRY(test_sentinel_answers_no_master),
		TEST_ENTRY(test_frozen_sentinel_is_bounded),
		TEST_ENTRY(test_client_follows_a_switch),
		TEST_ENTRY(test_tracker_finds_the_master),
		TEST_ENTRY(test_tracker_finds_the_master_resp2),
	};
	if (test_server_start(&master, NULL) != 0) {
		fprintf(stderr, "no redis-server: only the URL tests\n");
		return test_main(argv[0], url_tests, sizeof(url_tests) / sizeof(url_tests[0]));
	}
	char replicaof[32];
	snprintf(replicaof, sizeof(replicaof), "%d", master.port);
	const char *extra[] = { "--replicaof", "127.0.0.1", replicaof, NULL };
	if (test_server_start(&replica, extra) != 0) {
		test_server_destroy(&master);
		return 1;
	}
	fake_start(&s1);
	fake_start(&s2);
	int rc = test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
	fake_stop(&s1);
	fake_stop(&s2);
	test_server_destroy(&replica);
	test_server_destroy(&master);
	return rc;
}
