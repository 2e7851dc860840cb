/*
 * redis_conn.h - internal to redis/: one hiredis connection driven with a deadline, shared by the client
 * (redis_client.c) and the invalidation listener (redis_tracker.c). Not part of the API the binding uses.
 *
 * hiredis's blocking calls (redisCommand, redisGetReply) wait as long as SO_RCVTIMEO lets each read()
 * wait, so a server that trickles bytes can hold them for many times the timeout. Here hiredis only
 * buffers and parses: the socket is waited on with poll() up to an absolute CLOCK_MONOTONIC deadline, then
 * read once (redisBufferRead) or written once (redisBufferWrite), and parsed replies are taken with
 * redisGetReplyFromReader. SO_RCVTIMEO/SO_SNDTIMEO (redisSetTimeout) stay set as well, which bounds the one
 * write() that may block on a full socket buffer.
 *
 * Any failure (connect, timeout, EOF, protocol error, a reply of the wrong shape) closes the connection
 * and leaves a message in err; the owner reconnects on its next call. A Redis error reply is not a
 * failure of the connection: it is handed to the caller like any other reply.
 *
 * SIGPIPE: hiredis writes with write(), which raises SIGPIPE on a socket the server has closed, and
 * PHP-FPM workers do not ignore it. Every command therefore runs between tbl_redis_sigpipe_block() and
 * tbl_redis_sigpipe_restore(), which block SIGPIPE in the calling thread and, when a write failed,
 * consume the SIGPIPE that write raised, so it is never delivered.
 */
#ifndef TBL_REDIS_CONN_H
#define TBL_REDIS_CONN_H

#include <signal.h>
#include <stdint.h>

#include <hiredis/hiredis.h>

#include "redis_client.h"
#include "redis_url.h"

typedef struct tbl_redis_conn {
	redisContext *ctx;         /* NULL when not connected */
	tbl_redis_url_t url;
	unsigned timeout_ms;
	unsigned sndtimeo_ms;      /* SO_SNDTIMEO now on the socket (tbl_redis_conn_flush keeps it within the
	                              call's deadline) */
	unsigned long opens;       /* connections opened (handshake done) */
	int pinned;                /* sentinel://: connect to url.host:port as it is, without asking the Sentinels
	                              (the tracker's second connection must reach the first one's server) */
	void *tls;                 /* tls://: the connection's SSL object (hiredis frees it with ctx), NULL otherwise */
	int sentinel_next;         /* sentinel://: the Sentinel asked first next time (the last that answered) */
	void (*on_reopen)(void *ctx);   /* called when a connection is opened after an earlier one (a reconnect) */
	void *on_reopen_ctx;
	char where[320];           /* "Redis at host:port" */
	char err[512];             /* the last failure or error reply, "" at first */
} tbl_redis_conn_t;

/* Milliseconds of CLOCK_MONOTONIC. */
uint64_t tbl_redis_now_ms(void);

void tbl_redis_conn_init(tbl_redis_conn_t *c, const tbl_redis_url_t *url, unsigned timeout_ms);

/*
 * Connects, then AUTH [user] pass when the URL has auth=, SELECT db when db != 0, and HELLO 3 when resp3,
 * all of it before deadline_ms (CLOCK_MONOTONIC): the host name's lookup (getaddrinfo_a, waited for with
 * gai_suspend; with a libc without it, getaddrinfo, unbounded), the connect and the handshake. OK, or
 * EIO / EREPLY (AUTH refused, HELLO unknown) with the connection closed and the reason in c->err. ENOMEM
 * when hiredis could not allocate its context.
 */
tbl_redis_status_t tbl_redis_conn_open(tbl_redis_conn_t *c, int resp3, uint64_t deadline_ms);

/*
 * sentinel:// (unless pinned): tbl_redis_conn_open asks the Sentinels for the master (redis_sentinel.c),
 * sets url.host/port and where to it, and opens it with tbl_redis_conn_open_direct, all before deadline_ms.
 * open_direct connects to url.host:port (or the socket) as tbl_redis_conn_open describes; with sentinel://
 * it also sends ROLE with the handshake and refuses (EIO) a server that is not a master.
 */
tbl_redis_status_t tbl_redis_conn_open_direct(tbl_redis_conn_t *c, int resp3, uint64_t deadline_ms);
tbl_redis_status_t tbl_redis_sentinel_open(tbl_redis_conn_t *c, int resp3, uint64_t deadline_ms);

/* "Redis at host:port (master NAME)" into c->where, after the Sentinels named the master. */
void tbl_redis_conn_set_where(tbl_redis_conn_t *c);

/*
 * Whether an open, idle connection was closed by the server (its `timeout`, a proxy's idle timeout, a
 * restart, CLIENT KILL): one recv(MSG_PEEK | MSG_DONTWAIT), no waiting. 1 when the peer sent EOF or an
 * error is pending, and also when unasked-for bytes wait (a server's goodbye, or a stream out of step):
 * either way nothing can be sent on it. 0 when the socket is open and quiet. Call it only between calls,
 * when no reply is outstanding; nothing is read or written.
 */
int tbl_redis_conn_closed_while_idle(const tbl_redis_conn_t *c);

/* Closes the socket and frees the context without writing anything (also right after fork()). */
void tbl_redis_conn_close(tbl_redis_conn_t *c);

/* Sets c->err from a printf format (prefixed with c->where), closes the connection, returns EIO. */
tbl_redis_status_t tbl_redis_conn_fail(tbl_redis_conn_t *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Appends one command to the output buffer (nothing is sent yet). ENOMEM, or OK. */
tbl_redis_status_t tbl_redis_conn_append(tbl_redis_conn_t *c, int argc, const char **argv, const size_t *argvlen);

/* Writes the whole output buffer before deadline_ms. OK, or EIO (closed). */
tbl_redis_status_t tbl_redis_conn_flush(tbl_redis_conn_t *c, uint64_t deadline_ms);

/*
 * The next reply, waiting until deadline_ms. OK with *reply set (the caller frees it with
 * freeReplyObject), or EIO (closed: timed out, EOF, protocol error).
 */
tbl_redis_status_t tbl_redis_conn_read(tbl_redis_conn_t *c, uint64_t deadline_ms, redisReply **reply);

/* One read() of whatever the socket has (call it when poll() said readable). OK, or EIO (closed). */
tbl_redis_status_t tbl_redis_conn_fill(tbl_redis_conn_t *c);

/* A reply already buffered, without reading: OK with *reply (NULL when none is complete), or EIO. */
tbl_redis_status_t tbl_redis_conn_next_buffered(tbl_redis_conn_t *c, redisReply **reply);

/* Copies an error reply's text into c->err (prefixed with c->where); returns EREPLY. */
tbl_redis_status_t tbl_redis_conn_error_reply(tbl_redis_conn_t *c, const redisReply *reply);

/* SIGPIPE blocked for the calling thread; see the comment at the top. */
void tbl_redis_sigpipe_block(sigset_t *saved);
void tbl_redis_sigpipe_restore(const sigset_t *saved, int io_failed);

#endif
