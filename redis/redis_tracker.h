/*
 * redis_tracker.h - the invalidation listener: Redis client-side caching ("client tracking") in
 * broadcast mode for one key prefix, so that one helper process per host hears about every write to a
 * key under that prefix, by anyone, and can drop the local copies.
 *
 * Two wirings, chosen at build time by the hiredis version (tbl_redis_tracker_mode() says which):
 *   "resp2-redirect" (hiredis < 1.0, which cannot parse RESP3): connection B runs CLIENT ID and SUBSCRIBEs
 *       to __redis__:invalidate; connection A sends CLIENT TRACKING on REDIRECT <B's id> BCAST PREFIX p.
 *       Invalidations reach B as pub/sub messages; PINGs go to B (answered ["pong", ""] there). A carries
 *       nothing afterwards, but is watched: if it closes, Redis has turned tracking off.
 *   "resp3-push" (hiredis >= 1.0): one connection, HELLO 3, CLIENT TRACKING on BCAST PREFIX p;
 *       invalidations are RESP3 push messages ["invalidate", keys|null] on it, between the replies.
 *
 * Freshness: invalidations and the PONG travel on the same connection, in the order Redis produced
 * them. Redis (6 and 7: beforeSleep) queues broadcast invalidations before it sends the reply of the write
 * that caused them, so once the PONG of a PING sent at time T has arrived, every write acknowledged to
 * its writer before T has had its invalidation delivered. poll() reports T, in whole milliseconds
 * rounded down, as *fresh_as_of_ms: the guarantee covers writes acknowledged at a millisecond strictly
 * less than it (a write in the same millisecond may have come after the PING).
 *
 * cluster:// (redis_cluster.h): the same on every master, each master on a connection (or two) of its
 * own; the freshness is the minimum over the masters, and a change of the cluster's topology (checked
 * once a second) fails poll() like a lost connection. redis_tracker.c's top comment says what bound on
 * staleness follows.
 *
 * Not thread-safe; one tracker per thread. The callbacks must not call back into the tracker.
 */
#ifndef TBL_REDIS_TRACKER_H
#define TBL_REDIS_TRACKER_H

#include <stddef.h>
#include <stdint.h>

#include "redis_client.h"
#include "redis_url.h"

typedef struct tbl_redis_tracker tbl_redis_tracker_t;

/* The longest tbl_redis_tracker_server() may be (with its NUL). */
#define TBL_REDIS_TRACKER_SERVER_MAX 4096

typedef struct tbl_redis_tracker_events {
	void *ctx;
	void (*on_key)(void *ctx, const char *key, size_t klen);   /* one invalidated key (matches the prefix) */
	void (*on_flush)(void *ctx);                               /* every key may have changed: FLUSHALL/FLUSHDB (Redis sends a null key list), or tracking-redir-broken */
} tbl_redis_tracker_events_t;

/* No I/O. Copies url and prefix (plen 0 = every key). NULL only when out of memory. timeout_ms (> 0)
 * bounds connecting, each handshake reply, and how long a PING may go unanswered. */
tbl_redis_tracker_t *tbl_redis_tracker_new(const tbl_redis_url_t *url, unsigned timeout_ms, const char *prefix,
                                           size_t plen);

/*
 * Connect and turn on broadcast tracking for the prefix (the wiring is described above). OK, or
 * EIO/EREPLY (ENOMEM) with tbl_redis_tracker_last_error. (Re)starting after an error closes whatever was
 * open first. Invalidations of writes made before start returns are not reported: the caller flushes
 * what it cached before calling start.
 */
tbl_redis_status_t tbl_redis_tracker_start(tbl_redis_tracker_t *t);

/*
 * Wait up to wait_ms for invalidations and deliver them through ev (NULL callbacks are skipped). Also
 * sends a PING on the connection that carries the invalidations whenever ping_ms have passed since the
 * last PING was answered (at once after start; ping_ms 0 = again as soon as the last one is answered),
 * and when the PONG arrives sets *fresh_as_of_ms (may be NULL) to the CLOCK_MONOTONIC milliseconds
 * (tbl_redis_monotonic_ms) at which that PING was SENT; *fresh_as_of_ms is left unchanged otherwise.
 *
 * Returns OK as soon as something was delivered (keys, a flush, or a PONG), after delivering everything
 * already received, or when wait_ms have passed with nothing. Returns EIO when a connection dropped, a
 * PING went unanswered for timeout_ms (a frozen server), or start was never called / failed: the caller
 * must assume invalidations were lost, flush, and call start again. Never blocks longer than
 * max(wait_ms, timeout_ms) + a little.
 */
tbl_redis_status_t tbl_redis_tracker_poll(tbl_redis_tracker_t *t, unsigned wait_ms, unsigned ping_ms,
                                          const tbl_redis_tracker_events_t *ev, uint64_t *fresh_as_of_ms);

/* The last failure's message; "" before any. Never NULL. */
const char *tbl_redis_tracker_last_error(const tbl_redis_tracker_t *t);

/* Closes the connections (nothing is sent) and frees t. NULL is fine. */
void tbl_redis_tracker_free(tbl_redis_tracker_t *t);

/* The server the last successful start connected to ("host:port", "[v6]:port" or the socket's path; ""
 * before one). With sentinel:// it is the master the Sentinels named then: a start on another server
 * than the one before is a failover followed. With cluster:// the masters tracked, "h1:p1,h2:p2,..."
 * sorted (cut to TBL_REDIS_TRACKER_SERVER_MAX): a start on another set of masters is a failover (or a
 * master added or removed). */
const char *tbl_redis_tracker_server(const tbl_redis_tracker_t *t);

/* "resp2-redirect" or "resp3-push": what this build uses. */
const char *tbl_redis_tracker_mode(void);

/* Use "resp2-redirect" even in a build whose default is "resp3-push" (the tests run both wirings on
 * hiredis 1.x this way). Takes effect at the next start. */
void tbl_redis_tracker_force_resp2(tbl_redis_tracker_t *t);

/* CLOCK_MONOTONIC in milliseconds: the clock of *fresh_as_of_ms. */
uint64_t tbl_redis_monotonic_ms(void);

#endif
