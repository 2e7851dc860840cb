/*
 * redis_tracker.c - the invalidation listener (the wirings and the freshness argument are in
 * redis_tracker.h).
 *
 * State: `tracking` is the connection CLIENT TRACKING was sent on; `carrier` is the one invalidations
 * and PONGs arrive on. In resp3-push mode they are the same connection; in resp2-redirect mode the
 * carrier is a second, subscribed connection. At most one PING is outstanding, on the carrier: its send
 * time is remembered, and its PONG makes that time the new freshness mark. A PING older than timeout_ms
 * means the server (or the path to it) is frozen, which is reported like a dropped connection: the
 * invalidations it may have held back are lost to us either way.
 *
 * poll() loop: deliver whatever is already parsed; if anything was delivered, return; otherwise send the
 * PING that is due, then poll() both sockets (the tracking connection too, in resp2 mode: it must stay
 * silent, and its EOF means tracking is off) until the earliest of the caller's deadline, the PING's
 * expiry, and the next PING's due time. The socket wait uses redis_conn.c's helpers, so the same
 * SIGPIPE and EINTR rules apply as for the client.
 *
 * cluster:// (redis_cluster.h): start learns the masters (CLUSTER SLOTS) and starts one plain tracker per
 * master (its host and port, the URL's auth and TLS, the same wiring: with resp2-redirect the subscriber
 * and the tracking connection are on that master, so the redirect target is on the same node). poll()
 * drives them all: one poll() over every socket, each master's PINGs and timeouts its own, and the
 * freshness reported is the MINIMUM over the masters of the send time of their last answered PING, so
 * the L1 counts as fresh only while every master's tracking is; none is reported until every master has
 * answered one. Any master's failure fails the whole (EIO): the caller flushes and starts again, which
 * learns the masters again.
 *
 * Topology: once a second (TOPOLOGY_CHECK_MS) poll() asks the cluster for its map again (CLUSTER SLOTS of
 * the masters tracked, or the seeds) and fails (EIO, "topology changed") when the map differs from the one
 * tracking started on: a failover (a new master), a slot moved, a master demoted to a replica while its
 * connection stays open. A write acknowledged by a master this tracker does not listen to can therefore
 * go unnoticed for at most about a second plus one timeout_ms after the node asked reports the new map
 * (Redis Cluster spreads a change by gossip; a failover itself takes cluster-node-timeout and more). No
 * answer to that question is no news: an unreachable master shows as its own tracker's failure.
 */
#include "redis_tracker.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redis_cluster.h"
#include "redis_conn.h"

#define TBL_REDIS_INVALIDATE_CHANNEL "__redis__:invalidate"
#define TOPOLOGY_CHECK_MS 1000u

struct tbl_redis_tracker {
	tbl_redis_conn_t tracking;
	tbl_redis_conn_t subscriber;   /* resp2-redirect only */
	int resp3;                     /* the wiring of the next start */
	int started;                   /* the wiring of the running start: 0 none, else 2 or 3 */
	int ping_outstanding;
	uint64_t ping_sent_ms;
	uint64_t pong_received_ms;     /* 0: no PING answered since start */
	char *prefix;
	size_t plen;
	char err[sizeof(((tbl_redis_conn_t *)0)->err)];
	char server[TBL_REDIS_TRACKER_SERVER_MAX];   /* the server of the last successful start ("" before one) */
	/* cluster:// */
	tbl_redis_url_t url;           /* as given */
	tbl_redis_cluster_t *cluster;  /* the topology (its own connections, for CLUSTER SLOTS) */
	tbl_redis_tracker_t **masters; /* one plain tracker per master while started */
	uint64_t *masters_fresh;       /* each one's last freshness, 0 before its first PONG */
	int nmasters;
	uint64_t map_hash;             /* of the map tracking started on */
	uint64_t next_topology_check;
	uint64_t fresh_reported;       /* the minimum reported last */
	struct pollfd *fds;            /* 2 per master */
};

uint64_t tbl_redis_monotonic_ms(void)
{
	return tbl_redis_now_ms();
}

const char *tbl_redis_tracker_mode(void)
{
#if HIREDIS_MAJOR >= 1
	return "resp3-push";
#else
	return "resp2-redirect";
#endif
}

tbl_redis_tracker_t *tbl_redis_tracker_new(const tbl_redis_url_t *url, unsigned timeout_ms, const char *prefix,
                                           size_t plen)
{
	tbl_redis_tracker_t *t = calloc(1, sizeof(*t));
	if (!t) return NULL;
	t->prefix = malloc(plen + 1);
	if (!t->prefix) {
		free(t);
		return NULL;
	}
	if (plen) memcpy(t->prefix, prefix, plen);
	t->prefix[plen] = '\0';
	t->plen = plen;
	tbl_redis_conn_init(&t->tracking, url, timeout_ms);
	tbl_redis_conn_init(&t->subscriber, url, timeout_ms);
	t->resp3 = HIREDIS_MAJOR >= 1;
	t->url = *url;
	if (url->is_cluster && !(t->cluster = tbl_redis_cluster_new(url, timeout_ms))) {
		free(t->prefix);
		free(t);
		return NULL;
	}
	return t;
}

void tbl_redis_tracker_force_resp2(tbl_redis_tracker_t *t)
{
	t->resp3 = 0;
}

/* cluster://: the masters' trackers freed (the map is kept for the next start to ask first). */
static void stop_masters(tbl_redis_tracker_t *t)
{
	for (int i = 0; i < t->nmasters; i++) tbl_redis_tracker_free(t->masters[i]);
	free(t->masters);
	free(t->masters_fresh);
	free(t->fds);
	t->masters = NULL;
	t->masters_fresh = NULL;
	t->fds = NULL;
	t->nmasters = 0;
	t->started = 0;
	t->fresh_reported = 0;
}

void tbl_redis_tracker_free(tbl_redis_tracker_t *t)
{
	if (!t) return;
	stop_masters(t);
	tbl_redis_cluster_free(t->cluster);
	tbl_redis_conn_close(&t->tracking);
	tbl_redis_conn_close(&t->subscriber);
	free(t->prefix);
	free(t);
}

const char *tbl_redis_tracker_last_error(const tbl_redis_tracker_t *t)
{
	return t->err;
}

static void stop(tbl_redis_tracker_t *t)
{
	tbl_redis_conn_close(&t->tracking);
	tbl_redis_conn_close(&t->subscriber);
	t->started = 0;
	t->ping_outstanding = 0;
	t->pong_received_ms = 0;
}

/* Records a failure of connection c (its message is in c->err) and stops everything. */
static tbl_redis_status_t failed(tbl_redis_tracker_t *t, const tbl_redis_conn_t *c, tbl_redis_status_t st)
{
	memcpy(t->err, c->err, sizeof(t->err));
	stop(t);
	return st;
}

static tbl_redis_status_t fail_now(tbl_redis_tracker_t *t, tbl_redis_conn_t *c, const char *what)
{
	tbl_redis_conn_fail(c, "%s", what);
	return failed(t, c, TBL_REDIS_EIO);
}

static tbl_redis_conn_t *carrier(tbl_redis_tracker_t *t)
{
	return t->started == 3 ? &t->tracking : &t->subscriber;
}

/* Sends one command on c and reads its reply (caller frees it). Error replies are returned as EREPLY. */
static tbl_redis_status_t call(tbl_redis_tracker_t *t, tbl_redis_conn_t *c, int argc, const char **argv,
                               const size_t *lens, redisReply **reply)
{
	uint64_t deadline = tbl_redis_now_ms() + c->timeout_ms;
	tbl_redis_status_t st = tbl_redis_conn_append(c, argc, argv, lens);
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_flush(c, deadline);
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_read(c, deadline, reply);
	if (st != TBL_REDIS_OK) return failed(t, c, st);
	if ((*reply)->type == REDIS_REPLY_ERROR) {
		st = tbl_redis_conn_error_reply(c, *reply);
		freeReplyObject(*reply);
		*reply = NULL;
		return failed(t, c, st);
	}
	return TBL_REDIS_OK;
}

static tbl_redis_status_t enable_tracking(tbl_redis_tracker_t *t, const char *redirect_id)
{
	const char *argv[8] = { "CLIENT", "TRACKING", "on", "BCAST" };
	size_t lens[8] = { 6, 8, 2, 5 };
	int argc = 4;
	if (t->plen > 0) {
		argv[argc] = "PREFIX", lens[argc++] = 6;
		argv[argc] = t->prefix, lens[argc++] = t->plen;
	}
	if (redirect_id) {
		argv[argc] = "REDIRECT", lens[argc++] = 8;
		argv[argc] = redirect_id, lens[argc++] = strlen(redirect_id);
	}
	redisReply *reply;
	tbl_redis_status_t st = call(t, &t->tracking, argc, argv, lens, &reply);
	if (st != TBL_REDIS_OK) return st;
	int ok = reply->type == REDIS_REPLY_STATUS;
	freeReplyObject(reply);
	return ok ? TBL_REDIS_OK : fail_now(t, &t->tracking, "unexpected reply to CLIENT TRACKING");
}

static tbl_redis_status_t start_resp3(tbl_redis_tracker_t *t)
{
	tbl_redis_status_t st = tbl_redis_conn_open(&t->tracking, 1, tbl_redis_now_ms() + t->tracking.timeout_ms);
	if (st != TBL_REDIS_OK) return failed(t, &t->tracking, st);
	return enable_tracking(t, NULL);
}

static tbl_redis_status_t start_resp2(tbl_redis_tracker_t *t)
{
	redisReply *reply;
	tbl_redis_status_t st = tbl_redis_conn_open(&t->subscriber, 0, tbl_redis_now_ms() + t->subscriber.timeout_ms);
	if (st != TBL_REDIS_OK) return failed(t, &t->subscriber, st);

	const char *id_argv[] = { "CLIENT", "ID" };
	st = call(t, &t->subscriber, 2, id_argv, NULL, &reply);
	if (st != TBL_REDIS_OK) return st;
	char id[24];
	int ok = reply->type == REDIS_REPLY_INTEGER;
	if (ok) snprintf(id, sizeof(id), "%lld", reply->integer);
	freeReplyObject(reply);
	if (!ok) return fail_now(t, &t->subscriber, "unexpected reply to CLIENT ID");

	const char *sub_argv[] = { "SUBSCRIBE", TBL_REDIS_INVALIDATE_CHANNEL };
	st = call(t, &t->subscriber, 2, sub_argv, NULL, &reply);
	if (st != TBL_REDIS_OK) return st;
	ok = reply->type == REDIS_REPLY_ARRAY && reply->elements == 3 && reply->element[0]->type == REDIS_REPLY_STRING &&
	     strcmp(reply->element[0]->str, "subscribe") == 0;
	freeReplyObject(reply);
	if (!ok) return fail_now(t, &t->subscriber, "unexpected reply to SUBSCRIBE");

	/* sentinel://: the redirect must reach the server the subscriber is on, not whichever master the
	 * Sentinels name a moment later (a client id there may be somebody else's). */
	t->tracking.url.port = t->subscriber.url.port;
	memcpy(t->tracking.url.host, t->subscriber.url.host, sizeof(t->tracking.url.host));
	t->tracking.pinned = 1;
	tbl_redis_conn_set_where(&t->tracking);
	st = tbl_redis_conn_open(&t->tracking, 0, tbl_redis_now_ms() + t->tracking.timeout_ms);
	t->tracking.pinned = 0;
	if (st != TBL_REDIS_OK) return failed(t, &t->tracking, st);
	return enable_tracking(t, id);
}

/* cluster://: learn the masters, then start a tracker on each. */
static tbl_redis_status_t start_cluster(tbl_redis_tracker_t *t)
{
	tbl_redis_conn_t *conns[TBL_REDIS_CLUSTER_NODES_MAX];
	stop_masters(t);
	t->err[0] = '\0';
	tbl_redis_status_t st = tbl_redis_cluster_discover(t->cluster, tbl_redis_now_ms() + t->tracking.timeout_ms, t->err,
	                                                   sizeof(t->err));
	if (st != TBL_REDIS_OK) return st;
	int n = tbl_redis_cluster_masters(t->cluster, conns, TBL_REDIS_CLUSTER_NODES_MAX);
	t->masters = calloc((size_t)n, sizeof(*t->masters));
	t->masters_fresh = calloc((size_t)n, sizeof(*t->masters_fresh));
	t->fds = calloc((size_t)n * 2, sizeof(*t->fds));
	if (!t->masters || !t->masters_fresh || !t->fds) {
		snprintf(t->err, sizeof(t->err), "%s: out of memory starting tracking on %d masters", t->tracking.where, n);
		stop_masters(t);
		return TBL_REDIS_ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		tbl_redis_tracker_t *m = tbl_redis_tracker_new(&conns[i]->url, t->tracking.timeout_ms, t->prefix, t->plen);
		if (!m) {
			snprintf(t->err, sizeof(t->err), "%s: out of memory starting tracking on %d masters", t->tracking.where, n);
			stop_masters(t);
			return TBL_REDIS_ENOMEM;
		}
		m->resp3 = t->resp3;
		t->masters[t->nmasters++] = m;
		if ((st = tbl_redis_tracker_start(m)) != TBL_REDIS_OK) {
			memcpy(t->err, m->err, sizeof(t->err));
			stop_masters(t);
			return st;
		}
	}
	t->map_hash = tbl_redis_cluster_describe(t->cluster, t->server, sizeof(t->server));
	t->next_topology_check = tbl_redis_now_ms() + TOPOLOGY_CHECK_MS;
	t->started = 1;
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_tracker_start(tbl_redis_tracker_t *t)
{
	sigset_t saved;
	if (t->cluster) return start_cluster(t);
	stop(t);
	t->err[0] = '\0';
	tbl_redis_sigpipe_block(&saved);
	tbl_redis_status_t st = t->resp3 ? start_resp3(t) : start_resp2(t);
	tbl_redis_sigpipe_restore(&saved, st != TBL_REDIS_OK);
	if (st == TBL_REDIS_OK) {
		t->started = t->resp3 ? 3 : 2;
		tbl_redis_url_describe(&carrier(t)->url, t->server, sizeof(t->server));
	}
	return st;
}

const char *tbl_redis_tracker_server(const tbl_redis_tracker_t *t)
{
	return t->server;
}

static int is_string(const redisReply *r, const char *s)
{
	size_t n = strlen(s);
	return (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS) && r->len == n &&
	       memcmp(r->str, s, n) == 0;
}

/* The key list of an invalidation: an array of keys, one key, or null (a flush). 0, or -1 if malformed. */
static int deliver_keys(tbl_redis_tracker_t *t, const redisReply *keys, const tbl_redis_tracker_events_t *ev)
{
	if (keys->type == REDIS_REPLY_NIL) {
		if (ev && ev->on_flush) ev->on_flush(ev->ctx);
		return 0;
	}
	const redisReply *const *list = (const redisReply *const *)keys->element;
	size_t n = keys->elements;
	if (keys->type == REDIS_REPLY_STRING) {
		list = &keys;
		n = 1;
	} else if (keys->type != REDIS_REPLY_ARRAY) {
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const redisReply *k = list[i];
		if (k->type != REDIS_REPLY_STRING) return -1;
		if ((size_t)k->len >= t->plen && memcmp(k->str, t->prefix, t->plen) == 0 && ev && ev->on_key) {
			ev->on_key(ev->ctx, k->str, k->len);
		}
	}
	return 0;
}

/* One message from the carrier. 1 delivered something, 0 nothing to deliver, -1 not understood. */
static int handle_message(tbl_redis_tracker_t *t, const redisReply *m, const tbl_redis_tracker_events_t *ev,
                          uint64_t *fresh_as_of_ms)
{
	int pong = 0;
#if HIREDIS_MAJOR >= 1
	if (m->type == REDIS_REPLY_PUSH && m->elements >= 1) {
		if (is_string(m->element[0], "invalidate") && m->elements == 2) {
			return deliver_keys(t, m->element[1], ev) == 0 ? 1 : -1;
		}
		if (is_string(m->element[0], "tracking-redir-broken")) {
			if (ev && ev->on_flush) ev->on_flush(ev->ctx);
			return 1;
		}
		return 0;   /* some other push (pub/sub, a future type): not ours */
	}
#endif
	if (t->started == 3) {
		pong = m->type == REDIS_REPLY_STATUS && is_string(m, "PONG");
	} else if (m->type == REDIS_REPLY_ARRAY && m->elements >= 1) {
		const redisReply *kind = m->element[0];
		if (is_string(kind, "message") && m->elements == 3 && is_string(m->element[1], TBL_REDIS_INVALIDATE_CHANNEL)) {
			return deliver_keys(t, m->element[2], ev) == 0 ? 1 : -1;
		}
		pong = is_string(kind, "pong");
	}
	if (!pong || !t->ping_outstanding) return -1;
	t->ping_outstanding = 0;
	t->pong_received_ms = tbl_redis_now_ms();
	if (fresh_as_of_ms) *fresh_as_of_ms = t->ping_sent_ms;
	return 1;
}

/* Delivers every message already parsed on the carrier. 1 something delivered, 0 nothing, or EIO. */
static int deliver_buffered(tbl_redis_tracker_t *t, const tbl_redis_tracker_events_t *ev, uint64_t *fresh_as_of_ms,
                            tbl_redis_status_t *st)
{
	int delivered = 0;
	for (;;) {
		redisReply *m;
		*st = tbl_redis_conn_next_buffered(carrier(t), &m);
		if (*st != TBL_REDIS_OK) {
			*st = failed(t, carrier(t), *st);
			return 0;
		}
		if (!m) return delivered;
		int handled = handle_message(t, m, ev, fresh_as_of_ms);
		int type = m->type;
		freeReplyObject(m);
		if (handled < 0) {
			char what[80];
			snprintf(what, sizeof(what), "unexpected message (type %d) on the invalidation connection", type);
			*st = fail_now(t, carrier(t), what);
			return 0;
		}
		delivered |= handled;
	}
}

static tbl_redis_status_t send_ping(tbl_redis_tracker_t *t)
{
	tbl_redis_conn_t *c = carrier(t);
	const char *argv[] = { "PING" };
	t->ping_sent_ms = tbl_redis_now_ms();
	tbl_redis_status_t st = tbl_redis_conn_append(c, 1, argv, NULL);
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_flush(c, t->ping_sent_ms + c->timeout_ms);
	if (st != TBL_REDIS_OK) return failed(t, c, st);
	t->ping_outstanding = 1;
	return TBL_REDIS_OK;
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Whether the connection has something to read now (no wait). */
static int readable_now(const tbl_redis_conn_t *c)
{
	struct pollfd pfd = { .fd = c->ctx->fd, .events = POLLIN };
	int ready;

	do {
		ready = poll(&pfd, 1, 0);
	} while (ready < 0 && errno == EINTR);
	return ready > 0;
}

static tbl_redis_status_t poll_started(tbl_redis_tracker_t *t, unsigned wait_ms, unsigned ping_ms,
                                       const tbl_redis_tracker_events_t *ev, uint64_t *fresh_as_of_ms)
{
	uint64_t deadline = tbl_redis_now_ms() + wait_ms;
	unsigned timeout_ms = t->tracking.timeout_ms;
	tbl_redis_status_t st = TBL_REDIS_OK;
	int drained = 0;
	for (;;) {
		if (deliver_buffered(t, ev, fresh_as_of_ms, &st) || st != TBL_REDIS_OK) return st;

		uint64_t now = tbl_redis_now_ms();
		if (!t->ping_outstanding && (t->pong_received_ms == 0 || now - t->pong_received_ms >= ping_ms)) {
			if ((st = send_ping(t)) != TBL_REDIS_OK) return st;
		}
		/* Added, not subtracted: a PING sent just now may carry a later millisecond than `now`. */
		if (t->ping_outstanding && t->ping_sent_ms + timeout_ms <= now) {
			/* Its PONG may be in the socket, unread: this process may not have run for a while (a loaded
			 * host, a CPU quota), and a frozen server is no reason to drop every copy. Read what has
			 * arrived, once per call, before calling the PING lost. */
			if (!drained && readable_now(carrier(t))) {
				drained = 1;
				if ((st = tbl_redis_conn_fill(carrier(t))) != TBL_REDIS_OK) return failed(t, carrier(t), st);
				continue;
			}
			char what[96];
			snprintf(what, sizeof(what), "PING unanswered for %u ms (timed out)", timeout_ms);
			return fail_now(t, carrier(t), what);
		}
		if (now >= deadline) return TBL_REDIS_OK;

		uint64_t wake = deadline;
		if (t->ping_outstanding) wake = earliest(wake, t->ping_sent_ms + timeout_ms);
		else wake = earliest(wake, t->pong_received_ms + ping_ms);
		struct pollfd fds[2] = { { .fd = carrier(t)->ctx->fd, .events = POLLIN } };
		nfds_t nfds = 1;
		if (t->started == 2) {
			fds[1] = (struct pollfd){ .fd = t->tracking.ctx->fd, .events = POLLIN };
			nfds = 2;
		}
		int ready = poll(fds, nfds, wake > now ? (int)(wake - now) : 0);
		if (ready < 0) {
			if (errno == EINTR) continue;
			char what[96];
			snprintf(what, sizeof(what), "poll: %s", strerror(errno));
			return fail_now(t, carrier(t), what);
		}
		if (nfds == 2 && fds[1].revents) {
			/* The tracking connection of the resp2 wiring never receives anything: data is a surprise,
			 * and EOF means Redis dropped it, tracking with it. */
			if ((st = tbl_redis_conn_fill(&t->tracking)) != TBL_REDIS_OK) return failed(t, &t->tracking, st);
			return fail_now(t, &t->tracking, "unexpected data on the tracking connection");
		}
		if (fds[0].revents) {
			tbl_redis_conn_t *c = carrier(t);
			if ((st = tbl_redis_conn_fill(c)) != TBL_REDIS_OK) return failed(t, c, st);
		}
	}
}

/* cluster://: master i's failure (its message in its err) fails the whole. */
static tbl_redis_status_t master_failed(tbl_redis_tracker_t *t, int i, tbl_redis_status_t st)
{
	memcpy(t->err, t->masters[i]->err, sizeof(t->err));
	stop_masters(t);
	return st;
}

/* cluster://: whether the cluster's map is still the one tracking started on (no answer: yes). */
static int topology_changed(tbl_redis_tracker_t *t)
{
	char err[512], now_masters[TBL_REDIS_TRACKER_SERVER_MAX];
	uint64_t deadline = tbl_redis_now_ms() + t->tracking.timeout_ms;
	if (tbl_redis_cluster_discover(t->cluster, deadline, err, sizeof(err)) != TBL_REDIS_OK) return 0;
	if (tbl_redis_cluster_describe(t->cluster, now_masters, sizeof(now_masters)) == t->map_hash) return 0;
	snprintf(t->err, sizeof(t->err), "%.150s: the cluster's topology changed (masters then: %.150s; now: %.150s)",
	         t->tracking.where, t->server, now_masters);
	return 1;
}

/* cluster://: one master's tracker, without waiting: what is parsed delivered, the PING due sent, an
 * expired PING failed. 1 when something was delivered, 0 nothing, -1 failed (*st). *wake: when it needs
 * attention next. */
static int service_master(tbl_redis_tracker_t *m, unsigned ping_ms, const tbl_redis_tracker_events_t *ev,
                          uint64_t *fresh, uint64_t *wake, tbl_redis_status_t *st)
{
	*st = TBL_REDIS_OK;
	int delivered = deliver_buffered(m, ev, fresh, st);
	if (*st != TBL_REDIS_OK) return -1;
	uint64_t now = tbl_redis_now_ms();
	if (!m->ping_outstanding && (m->pong_received_ms == 0 || now - m->pong_received_ms >= ping_ms)) {
		if ((*st = send_ping(m)) != TBL_REDIS_OK) return -1;
	}
	if (m->ping_outstanding && m->ping_sent_ms + m->tracking.timeout_ms <= now) {
		/* As in poll_started: what has arrived is read before the PING is called lost. */
		if (readable_now(carrier(m))) {
			if ((*st = tbl_redis_conn_fill(carrier(m))) != TBL_REDIS_OK) {
				*st = failed(m, carrier(m), *st);
				return -1;
			}
			delivered |= deliver_buffered(m, ev, fresh, st);
			if (*st != TBL_REDIS_OK) return -1;
		}
		if (m->ping_outstanding && m->ping_sent_ms + m->tracking.timeout_ms <= now) {
			char what[96];
			snprintf(what, sizeof(what), "PING unanswered for %u ms (timed out)", m->tracking.timeout_ms);
			*st = fail_now(m, carrier(m), what);
			return -1;
		}
	}
	*wake = m->ping_outstanding ? m->ping_sent_ms + m->tracking.timeout_ms : m->pong_received_ms + ping_ms;
	return delivered;
}

static tbl_redis_status_t poll_cluster(tbl_redis_tracker_t *t, unsigned wait_ms, unsigned ping_ms,
                                       const tbl_redis_tracker_events_t *ev, uint64_t *fresh_as_of_ms)
{
	uint64_t deadline = tbl_redis_now_ms() + wait_ms;
	tbl_redis_status_t st;
	for (;;) {
		int delivered = 0;
		uint64_t wake = deadline;
		for (int i = 0; i < t->nmasters; i++) {
			uint64_t fresh = 0, when = deadline;
			int got = service_master(t->masters[i], ping_ms, ev, &fresh, &when, &st);
			if (got < 0) return master_failed(t, i, st);
			if (fresh) t->masters_fresh[i] = fresh;
			delivered |= got;
			wake = earliest(wake, when);
		}
		/* The minimum over the masters, once every one has answered. */
		uint64_t least = UINT64_MAX;
		for (int i = 0; i < t->nmasters; i++) least = earliest(least, t->masters_fresh[i]);
		if (least != 0 && least != UINT64_MAX && least > t->fresh_reported) {
			t->fresh_reported = least;
			if (fresh_as_of_ms) *fresh_as_of_ms = least;
		}
		uint64_t now = tbl_redis_now_ms();
		if (now >= t->next_topology_check) {
			if (topology_changed(t)) {
				stop_masters(t);
				return TBL_REDIS_EIO;
			}
			t->next_topology_check = tbl_redis_now_ms() + TOPOLOGY_CHECK_MS;
		}
		if (delivered || now >= deadline) return TBL_REDIS_OK;

		wake = earliest(wake, t->next_topology_check);
		nfds_t nfds = 0;
		for (int i = 0; i < t->nmasters; i++) {
			tbl_redis_tracker_t *m = t->masters[i];
			t->fds[nfds++] = (struct pollfd){ .fd = carrier(m)->ctx->fd, .events = POLLIN };
			t->fds[nfds++] = (struct pollfd){ .fd = m->started == 2 ? m->tracking.ctx->fd : -1, .events = POLLIN };
		}
		int ready = poll(t->fds, nfds, wake > now ? (int)(wake - now) : 0);
		if (ready < 0) {
			if (errno == EINTR) continue;
			snprintf(t->err, sizeof(t->err), "%s: poll: %s", t->tracking.where, strerror(errno));
			stop_masters(t);
			return TBL_REDIS_EIO;
		}
		for (int i = 0; i < t->nmasters && ready > 0; i++) {
			tbl_redis_tracker_t *m = t->masters[i];
			if (t->fds[2 * i + 1].revents) {
				/* resp2: the tracking connection never receives anything; EOF means tracking is off. */
				if ((st = tbl_redis_conn_fill(&m->tracking)) != TBL_REDIS_OK) {
					failed(m, &m->tracking, st);
					return master_failed(t, i, st);
				}
				fail_now(m, &m->tracking, "unexpected data on the tracking connection");
				return master_failed(t, i, TBL_REDIS_EIO);
			}
			if (t->fds[2 * i].revents && (st = tbl_redis_conn_fill(carrier(m))) != TBL_REDIS_OK) {
				failed(m, carrier(m), st);
				return master_failed(t, i, st);
			}
		}
	}
}

tbl_redis_status_t tbl_redis_tracker_poll(tbl_redis_tracker_t *t, unsigned wait_ms, unsigned ping_ms,
                                          const tbl_redis_tracker_events_t *ev, uint64_t *fresh_as_of_ms)
{
	if (t->cluster && t->started) {
		sigset_t saved;
		tbl_redis_sigpipe_block(&saved);
		tbl_redis_status_t st = poll_cluster(t, wait_ms, ping_ms, ev, fresh_as_of_ms);
		tbl_redis_sigpipe_restore(&saved, st != TBL_REDIS_OK);
		return st;
	}
	if (!t->started) {
		if (t->err[0] == '\0') {
			snprintf(t->err, sizeof(t->err), "%s: the invalidation listener is not started", t->tracking.where);
		}
		return TBL_REDIS_EIO;
	}
	sigset_t saved;
	tbl_redis_sigpipe_block(&saved);
	tbl_redis_status_t st = poll_started(t, wait_ms, ping_ms, ev, fresh_as_of_ms);
	tbl_redis_sigpipe_restore(&saved, st != TBL_REDIS_OK);
	return st;
}
