/*
 * redis_conn.c - a hiredis connection driven with deadlines (see redis_conn.h for the why).
 *
 * The connection is a redisContext in blocking mode. Reading never blocks in read(): poll() says the
 * socket is readable before redisBufferRead() is called, and poll() is given what is left of the
 * deadline, restarted after EINTR with the time recomputed. Writing relies on SO_SNDTIMEO, which
 * redisSetTimeout() sets to the timeout: a blocking write() returns after at most that long, partially or
 * with EAGAIN, and the loop gives up once the deadline has passed.
 *
 * Every failure goes through tbl_redis_conn_fail(), which writes the one message ("Redis at <where>:
 * <what>") and frees the context, so "connected" and "usable" are the same thing: ctx != NULL.
 */
#include "redis_conn.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

uint64_t tbl_redis_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void tbl_redis_conn_init(tbl_redis_conn_t *c, const tbl_redis_url_t *url, unsigned timeout_ms)
{
	static const char lead[] = "Redis at ";
	memset(c, 0, sizeof(*c));
	c->url = *url;
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
	memcpy(c->where, lead, sizeof(lead));
	tbl_redis_url_describe(url, c->where + sizeof(lead) - 1, sizeof(c->where) - (sizeof(lead) - 1));
}

void tbl_redis_conn_close(tbl_redis_conn_t *c)
{
	if (c->ctx) {
		/* redisFree only close()s the socket: nothing is written, so this is also right in a forked child,
		 * where the parent still uses the same connection. */
		redisFree(c->ctx);
		c->ctx = NULL;
	}
}

int tbl_redis_conn_closed_while_idle(const tbl_redis_conn_t *c)
{
	char byte;
	ssize_t n;
	do {
		n = recv(c->ctx->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		return errno != EAGAIN && errno != EWOULDBLOCK;   /* ECONNRESET, ...: gone */
	}
	return 1;   /* 0: EOF; > 0: bytes no command asked for */
}

tbl_redis_status_t tbl_redis_conn_fail(tbl_redis_conn_t *c, const char *fmt, ...)
{
	size_t lead = strlen(c->where) + 2;
	va_list ap;
	/* where is far shorter than err, so the message always has room after it. */
	snprintf(c->err, sizeof(c->err), "%s: ", c->where);
	va_start(ap, fmt);
	vsnprintf(c->err + lead, sizeof(c->err) - lead, fmt, ap);
	va_end(ap);
	/* hiredis capitalises strerror()'s text ("Connection refused"); mid-sentence it reads better lower. */
	char *what = c->err + lead;
	if (isupper((unsigned char)what[0]) && !isupper((unsigned char)what[1])) {
		what[0] = (char)tolower((unsigned char)what[0]);
	}
	tbl_redis_conn_close(c);
	return TBL_REDIS_EIO;
}

tbl_redis_status_t tbl_redis_conn_error_reply(tbl_redis_conn_t *c, const redisReply *reply)
{
	snprintf(c->err, sizeof(c->err), "%s: %.*s", c->where, (int)reply->len, reply->str ? reply->str : "");
	return TBL_REDIS_EREPLY;
}

/* hiredis's message for the failed call, told apart from a timeout (EAGAIN is SO_*TIMEO expiring). */
static tbl_redis_status_t fail_from_context(tbl_redis_conn_t *c, const char *doing, int saved_errno)
{
	if (c->ctx->err == REDIS_ERR_IO && (saved_errno == EAGAIN || saved_errno == EWOULDBLOCK)) {
		return tbl_redis_conn_fail(c, "timed out after %u ms (%s)", c->timeout_ms, doing);
	}
	return tbl_redis_conn_fail(c, "%s", c->ctx->errstr[0] ? c->ctx->errstr : doing);
}

tbl_redis_status_t tbl_redis_conn_append(tbl_redis_conn_t *c, int argc, const char **argv, const size_t *argvlen)
{
	if (redisAppendCommandArgv(c->ctx, argc, argv, argvlen) != REDIS_OK) {
		tbl_redis_conn_fail(c, "out of memory building a command");
		return TBL_REDIS_ENOMEM;
	}
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_conn_flush(tbl_redis_conn_t *c, uint64_t deadline_ms)
{
	int done = 0;
	while (!done) {
		if (tbl_redis_now_ms() > deadline_ms) {
			return tbl_redis_conn_fail(c, "timed out after %u ms (sending)", c->timeout_ms);
		}
		errno = 0;
		if (redisBufferWrite(c->ctx, &done) != REDIS_OK) {
			return fail_from_context(c, "sending", errno);
		}
	}
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_conn_next_buffered(tbl_redis_conn_t *c, redisReply **reply)
{
	void *parsed = NULL;
	*reply = NULL;
	if (redisGetReplyFromReader(c->ctx, &parsed) != REDIS_OK) {
		return tbl_redis_conn_fail(c, "protocol error: %s", c->ctx->errstr);
	}
	*reply = parsed;
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_conn_fill(tbl_redis_conn_t *c)
{
	errno = 0;
	if (redisBufferRead(c->ctx) != REDIS_OK) {
		return fail_from_context(c, "reading", errno);
	}
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_conn_read(tbl_redis_conn_t *c, uint64_t deadline_ms, redisReply **reply)
{
	for (;;) {
		tbl_redis_status_t st = tbl_redis_conn_next_buffered(c, reply);
		if (st != TBL_REDIS_OK || *reply) {
			return st;
		}
		uint64_t now = tbl_redis_now_ms();
		if (now >= deadline_ms) {
			return tbl_redis_conn_fail(c, "timed out after %u ms (waiting for a reply)", c->timeout_ms);
		}
		struct pollfd pfd = { .fd = c->ctx->fd, .events = POLLIN };
		int ready = poll(&pfd, 1, (int)(deadline_ms - now));
		if (ready < 0) {
			if (errno == EINTR) continue;
			return tbl_redis_conn_fail(c, "poll: %s", strerror(errno));
		}
		if (ready == 0) continue;   /* the deadline check above ends it */
		st = tbl_redis_conn_fill(c);
		if (st != TBL_REDIS_OK) return st;
	}
}

/* One command during the handshake: its reply must not be an error (the text goes into c->err). */
static tbl_redis_status_t expect_no_error(tbl_redis_conn_t *c, const char *what, uint64_t deadline_ms)
{
	redisReply *reply;
	tbl_redis_status_t st = tbl_redis_conn_read(c, deadline_ms, &reply);
	if (st != TBL_REDIS_OK) return st;
	if (reply->type == REDIS_REPLY_ERROR) {
		snprintf(c->err, sizeof(c->err), "%s: %s refused: %.*s", c->where, what, (int)reply->len, reply->str);
		freeReplyObject(reply);
		tbl_redis_conn_close(c);
		return TBL_REDIS_EREPLY;
	}
	freeReplyObject(reply);
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_conn_open(tbl_redis_conn_t *c, int resp3)
{
	struct timeval tv = { .tv_sec = c->timeout_ms / 1000, .tv_usec = (c->timeout_ms % 1000) * 1000 };
	tbl_redis_conn_close(c);
	c->ctx = c->url.is_unix ? redisConnectUnixWithTimeout(c->url.path, tv)
	                        : redisConnectWithTimeout(c->url.host, c->url.port, tv);
	if (!c->ctx) {
		snprintf(c->err, sizeof(c->err), "%s: out of memory (hiredis context)", c->where);
		return TBL_REDIS_ENOMEM;
	}
	if (c->ctx->err) {
		return tbl_redis_conn_fail(c, "%s", c->ctx->errstr);
	}
	if (redisSetTimeout(c->ctx, tv) != REDIS_OK) {
		return tbl_redis_conn_fail(c, "setting the socket timeout: %s", c->ctx->errstr);
	}

	/* AUTH, SELECT and HELLO go out together: one round trip however many of them there are. */
	char db[16];
	const char *auth_argv[3] = { "AUTH", c->url.user, c->url.auth };
	const char *select_argv[2] = { "SELECT", db };
	const char *hello_argv[2] = { "HELLO", "3" };
	const char *steps[3];
	int nsteps = 0;
	tbl_redis_status_t st = TBL_REDIS_OK;
	if (c->url.auth[0] != '\0') {
		if (c->url.user[0] != '\0') {
			st = tbl_redis_conn_append(c, 3, auth_argv, NULL);
		} else {
			auth_argv[1] = c->url.auth;
			st = tbl_redis_conn_append(c, 2, auth_argv, NULL);
		}
		steps[nsteps++] = "AUTH";
	}
	if (st == TBL_REDIS_OK && c->url.db != 0) {
		snprintf(db, sizeof(db), "%d", c->url.db);
		st = tbl_redis_conn_append(c, 2, select_argv, NULL);
		steps[nsteps++] = "SELECT";
	}
	if (st == TBL_REDIS_OK && resp3) {
		st = tbl_redis_conn_append(c, 2, hello_argv, NULL);
		steps[nsteps++] = "HELLO 3";
	}
	if (st != TBL_REDIS_OK || nsteps == 0) return st;
	uint64_t deadline = tbl_redis_now_ms() + c->timeout_ms;
	st = tbl_redis_conn_flush(c, deadline);
	/* Every reply is read even after a refusal, so the first error is the one reported. */
	for (int i = 0; i < nsteps && st == TBL_REDIS_OK; i++) {
		st = expect_no_error(c, steps[i], deadline);
	}
	return st;
}

void tbl_redis_sigpipe_block(sigset_t *saved)
{
	sigset_t pipe_only;
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_only, saved);
}

void tbl_redis_sigpipe_restore(const sigset_t *saved, int io_failed)
{
	/* A failed write to a closed socket left a SIGPIPE pending on this thread: take it before unblocking.
	 * When the caller had SIGPIPE blocked already, a pending one may be theirs: leave it. */
	if (io_failed && !sigismember(saved, SIGPIPE)) {
		sigset_t pending;
		if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE)) {
			sigset_t pipe_only;
			struct timespec no_wait = { 0, 0 };
			sigemptyset(&pipe_only);
			sigaddset(&pipe_only, SIGPIPE);
			while (sigtimedwait(&pipe_only, NULL, &no_wait) < 0 && errno == EINTR) {
			}
		}
	}
	pthread_sigmask(SIG_SETMASK, saved, NULL);
}
