/*
 * test_redis_tracker.c - the invalidation listener (redis_tracker.h) against a real redis-server, in
 * the build's wiring and, on hiredis >= 1.0, in the resp2-redirect wiring as well: a write by another
 * client reaches on_key with exactly that key, keys outside the prefix do not, FLUSHALL reaches on_flush,
 * freshness advances and is never later than the PING that produced it, and a killed or frozen server
 * makes poll() return EIO, after which start() works again once the server is back.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "harness.h"
#include "server.h"
#include "../redis_tracker.h"

static test_server_t server;
static int force_resp2;

typedef struct seen {
	char keys[64][64];
	size_t klens[64];
	int nkeys;
	int flushes;
} seen_t;

static void on_key(void *ctx, const char *key, size_t klen)
{
	seen_t *s = ctx;
	if (s->nkeys < 64 && klen < 64) {
		memcpy(s->keys[s->nkeys], key, klen);
		s->klens[s->nkeys++] = klen;
	}
}

static void on_flush(void *ctx)
{
	((seen_t *)ctx)->flushes++;
}

static int saw(const seen_t *s, const char *key, size_t klen)
{
	for (int i = 0; i < s->nkeys; i++) {
		if (s->klens[i] == klen && memcmp(s->keys[i], key, klen) == 0) return 1;
	}
	return 0;
}

static tbl_redis_tracker_t *tracker(const char *prefix, size_t plen, unsigned timeout_ms)
{
	tbl_redis_url_t url = test_server_tcp_url(&server, NULL);
	tbl_redis_tracker_t *t = tbl_redis_tracker_new(&url, timeout_ms, prefix, plen);
	if (t && force_resp2) tbl_redis_tracker_force_resp2(t);
	return t;
}

static redisContext *raw(void)
{
	struct timeval tv = { 30, 0 };   /* a bound for a hang, not a guess at load */
	redisContext *c = redisConnectUnixWithTimeout(server.socket_path, tv);
	if (!c || c->err) exit(2);
	return c;
}

static void raw_command(redisContext *c, const char *fmt, const char *arg, size_t len)
{
	redisReply *r = arg ? redisCommand(c, fmt, arg, len) : redisCommand(c, fmt);
	if (r) freeReplyObject(r);
}

/* How long a test waits for something Redis sends (a PONG, an invalidation, a dropped connection): far
 * past what a loaded machine takes, so that only something that never comes reaches it. */
#define WAIT_BOUND_MS 30000

/* Polls until pred holds or WAIT_BOUND_MS pass. */
static int poll_until(tbl_redis_tracker_t *t, const tbl_redis_tracker_events_t *ev, uint64_t *fresh,
                      int (*pred)(const seen_t *, const void *), const void *arg)
{
	uint64_t until = tbl_redis_monotonic_ms() + WAIT_BOUND_MS;
	while (tbl_redis_monotonic_ms() < until) {
		if (pred(ev->ctx, arg)) return 1;
		if (tbl_redis_tracker_poll(t, 100, 50, ev, fresh) != TBL_REDIS_OK) {
			fprintf(stderr, "  poll failed: %s\n", tbl_redis_tracker_last_error(t));
			return 0;
		}
	}
	return pred(ev->ctx, arg);
}

/* Polls (waiting up to 100 ms each, a PING every ping_ms) until *fresh is no longer `from`, a poll fails,
 * or WAIT_BOUND_MS pass: a PONG comes when the machine lets Redis and this process run. */
static void poll_for_pong(tbl_redis_tracker_t *t, const tbl_redis_tracker_events_t *ev, unsigned ping_ms,
                          uint64_t *fresh, uint64_t from)
{
	uint64_t until = tbl_redis_monotonic_ms() + WAIT_BOUND_MS;
	while (*fresh == from && tbl_redis_monotonic_ms() < until) {
		if (!CHECK_ST(tbl_redis_tracker_poll(t, 100, ping_ms, ev, fresh), TBL_REDIS_OK)) return;
	}
}

static int saw_key(const seen_t *s, const void *key)
{
	return saw(s, key, strlen(key));
}

static int saw_flush(const seen_t *s, const void *unused)
{
	(void)unused;
	return s->flushes > 0;
}

static void test_keys_and_prefix(void)
{
	seen_t seen = { 0 };
	tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
	static const char prefix[] = "app\0:";
	tbl_redis_tracker_t *t = tracker(prefix, sizeof(prefix) - 1, 1000);
	REQUIRE(t);
	REQUIRE_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK);
	uint64_t fresh = 0;
	/* The first poll pings at once; wait for its PONG so the tracking is surely on. */
	poll_for_pong(t, &ev, 1000, &fresh, 0);
	CHECK(fresh > 0);

	redisContext *c = raw();
	raw_command(c, "SET other:k1 x", NULL, 0);
	raw_command(c, "SET app:k0 x", NULL, 0);   /* "app:" is not the prefix: the prefix has a NUL byte */
	raw_command(c, "SET %b x", "app\0:k1", 7);
	raw_command(c, "DEL %b", "app\0:k2", 7);   /* a DEL of a missing key changes nothing: no invalidation */
	raw_command(c, "SET %b x", "app\0:k3", 7);
	uint64_t until = tbl_redis_monotonic_ms() + WAIT_BOUND_MS;
	while ((!saw(&seen, "app\0:k1", 7) || !saw(&seen, "app\0:k3", 7)) && tbl_redis_monotonic_ms() < until) {
		REQUIRE_ST(tbl_redis_tracker_poll(t, 100, 50, &ev, &fresh), TBL_REDIS_OK);
	}
	CHECK(saw(&seen, "app\0:k1", 7));
	CHECK(saw(&seen, "app\0:k3", 7));
	CHECK(!saw(&seen, "other:k1", 8));
	CHECK(!saw(&seen, "app:k0", 6));
	CHECK(seen.flushes == 0);
	for (int i = 0; i < seen.nkeys; i++) CHECK(seen.klens[i] >= 5 && memcmp(seen.keys[i], prefix, 5) == 0);

	/* FLUSHALL: a null key list. */
	raw_command(c, "FLUSHALL", NULL, 0);
	CHECK(poll_until(t, &ev, &fresh, saw_flush, NULL));
	redisFree(c);
	tbl_redis_tracker_free(t);
}

static void test_freshness(void)
{
	seen_t seen = { 0 };
	tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
	tbl_redis_tracker_t *t = tracker("f:", 2, 1000);
	REQUIRE_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK);
	uint64_t fresh = 0, before = tbl_redis_monotonic_ms();
	poll_for_pong(t, &ev, 20, &fresh, 0);
	CHECK(fresh >= before && fresh <= tbl_redis_monotonic_ms());
	uint64_t first = fresh;
	/* Nothing to deliver and no PING due: fresh stays as it is. */
	uint64_t unchanged = fresh;
	CHECK_ST(tbl_redis_tracker_poll(t, 0, 60000, &ev, &unchanged), TBL_REDIS_OK);
	CHECK(unchanged == first);
	usleep(30 * 1000);
	poll_for_pong(t, &ev, 20, &fresh, first);
	CHECK(fresh > first);
	/* A write acknowledged before a PING is sent is delivered by the time that PING's PONG is. */
	redisContext *c = raw();
	raw_command(c, "SET f:ordered x", NULL, 0);
	uint64_t acked = tbl_redis_monotonic_ms();
	usleep(25 * 1000);
	uint64_t mark = fresh;
	/* Both are whole milliseconds: the guarantee is for writes acknowledged in a millisecond before
	 * the mark (a PING sent earlier in the same millisecond as the write proves nothing). */
	while (mark <= acked) {
		uint64_t prev = mark;
		CHECK_ST(tbl_redis_tracker_poll(t, 200, 20, &ev, &mark), TBL_REDIS_OK);
		if (mark == prev && tbl_redis_monotonic_ms() > acked + WAIT_BOUND_MS) break;
	}
	CHECK(mark > acked);
	CHECK(saw(&seen, "f:ordered", 9));
	redisFree(c);
	tbl_redis_tracker_free(t);
}

static void test_killed_and_restarted(void)
{
	seen_t seen = { 0 };
	tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
	tbl_redis_tracker_t *t = tracker("k:", 2, 500);
	REQUIRE_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_tracker_poll(t, 50, 10, &ev, NULL), TBL_REDIS_OK);
	test_server_kill(&server);
	uint64_t t0 = tbl_redis_monotonic_ms();
	tbl_redis_status_t st = TBL_REDIS_OK;
	while (st == TBL_REDIS_OK && tbl_redis_monotonic_ms() - t0 < WAIT_BOUND_MS) st = tbl_redis_tracker_poll(t, 100, 10, &ev, NULL);
	CHECK_ST(st, TBL_REDIS_EIO);
	CHECK(tbl_redis_tracker_last_error(t)[0] != '\0');
	/* Stays failed until start. */
	CHECK_ST(tbl_redis_tracker_poll(t, 10, 10, &ev, NULL), TBL_REDIS_EIO);
	/* start while the server is down: EIO, quickly. */
	CHECK_ST(tbl_redis_tracker_start(t), TBL_REDIS_EIO);
	REQUIRE(test_server_restart(&server) == 0);
	REQUIRE_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK);
	uint64_t fresh = 0;
	poll_for_pong(t, &ev, 10, &fresh, 0);
	redisContext *c = raw();
	raw_command(c, "SET k:again x", NULL, 0);
	CHECK(poll_until(t, &ev, NULL, saw_key, "k:again"));
	redisFree(c);
	tbl_redis_tracker_free(t);
}

static void test_frozen_server(void)
{
	/* A second, so that 3x leaves a loaded machine seconds of scheduling delay; and polls that would wait
	 * 10 s for invalidations, so that one that does not hold the PING's timeout takes far longer. */
	const unsigned timeout = 1000;
	seen_t seen = { 0 };
	tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
	tbl_redis_tracker_t *t = tracker("z:", 2, timeout);
	REQUIRE_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK);
	uint64_t fresh = 0;
	poll_for_pong(t, &ev, 10, &fresh, 0);
	test_server_freeze(&server);
	uint64_t t0 = tbl_redis_monotonic_ms(), stale = fresh;
	tbl_redis_status_t st = TBL_REDIS_OK;
	/* A poll returns OK for a PONG that was already on its way; the next sends a PING that goes
	 * unanswered, and must return EIO once it has been for the timeout, whatever its wait. */
	while (st == TBL_REDIS_OK && tbl_redis_monotonic_ms() - t0 < 10 * timeout) {
		st = tbl_redis_tracker_poll(t, 10 * timeout, 10, &ev, &fresh);
	}
	uint64_t took = tbl_redis_monotonic_ms() - t0;
	CHECK_ST(st, TBL_REDIS_EIO);
	CHECK(took < 3 * timeout);
	CHECK(fresh == stale);
	CHECK(strstr(tbl_redis_tracker_last_error(t), "PING unanswered") != NULL);
	fprintf(stderr, "  frozen server: poll EIO after %" PRIu64 " ms (timeout %u ms): %s\n", took, timeout,
	        tbl_redis_tracker_last_error(t));
	test_server_thaw(&server);
	CHECK_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK);
	tbl_redis_tracker_free(t);
}

/* A PING answered while the tracker's process was not running (a loaded host, a CPU quota) is not
 * lost: the next poll reads its PONG before holding it against the timeout. */
static void test_late_poll(void)
{
	const unsigned timeout = 200;
	seen_t seen = { 0 };
	tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
	tbl_redis_tracker_t *t = tracker("l:", 2, timeout);
	REQUIRE_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK);
	uint64_t fresh = 0;
	poll_for_pong(t, &ev, 10, &fresh, 0);
	REQUIRE(fresh != 0);
	usleep(10 * 1000);   /* the next PING is sent in a later millisecond than the last */
	/* No wait and a PING due at once: this poll sends one and returns with it unanswered. */
	uint64_t sent_after = tbl_redis_monotonic_ms(), first = fresh;
	CHECK_ST(tbl_redis_tracker_poll(t, 0, 0, &ev, &fresh), TBL_REDIS_OK);
	CHECK(fresh == first);
	usleep(3 * timeout * 1000);
	/* By now Redis has answered it, unless a loaded machine has not run Redis: two PINGs of our own, one
	 * after the other's reply, make sure. Redis runs one thread; the second is read in an event-loop pass
	 * that begins after the pass that read the tracker's PING has written every reply. */
	redisContext *c = raw();
	raw_command(c, "PING", NULL, 0);
	raw_command(c, "PING", NULL, 0);
	redisFree(c);
	CHECK_ST(tbl_redis_tracker_poll(t, 0, 60000, &ev, &fresh), TBL_REDIS_OK);
	CHECK(fresh >= sent_after && fresh > first);
	CHECK(seen.flushes == 0);
	tbl_redis_tracker_free(t);
}

static void test_not_started(void)
{
	tbl_redis_tracker_t *t = tracker("n:", 2, 100);
	CHECK_ST(tbl_redis_tracker_poll(t, 10, 10, NULL, NULL), TBL_REDIS_EIO);
	CHECK(strstr(tbl_redis_tracker_last_error(t), "not started") != NULL);
	tbl_redis_tracker_free(t);
	tbl_redis_tracker_free(NULL);
}

static const test_case_t tests[] = {
	TEST_ENTRY(test_keys_and_prefix),
	TEST_ENTRY(test_freshness),
	TEST_ENTRY(test_killed_and_restarted),
	TEST_ENTRY(test_frozen_server),
	TEST_ENTRY(test_late_poll),
	TEST_ENTRY(test_not_started),
};

int main(int argc, char **argv)
{
	(void)argc;
	if (test_server_start(&server, NULL) != 0) {
		printf("test_redis_tracker: 0 passed, 1 failed\n");
		return 1;
	}
	size_t n = sizeof(tests) / sizeof(tests[0]);
	const char *mode = tbl_redis_tracker_mode();
	printf("tracker wiring: %s\n", mode);
	int rc = test_main(argv[0], tests, n);
	if (strcmp(mode, "resp3-push") == 0) {
		/* The same tests in the other wiring; the summary line that counts is the last one. */
		force_resp2 = 1;
		printf("tracker wiring: resp2-redirect (forced)\n");
		rc |= test_main(argv[0], tests, n);
	}
	test_server_destroy(&server);
	return rc;
}
