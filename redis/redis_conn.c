/*
 * redis_conn.c - a hiredis connection driven with deadlines (see redis_conn.h for the why).
 *
 * The connection is a redisContext in blocking mode. Reading never blocks in read(): poll() says the
 * socket is readable before redisBufferRead() is called, and poll() is given what is left of the
 * deadline, restarted after EINTR with the time recomputed. Writing relies on SO_SNDTIMEO, which
 * redisSetTimeout() sets to the timeout: a blocking write() returns after at most that long, partially or
 * with EAGAIN, and the loop gives up once the deadline has passed.
 *
 * tls:// (redis_tls.c) differs in one way: after its handshake the socket is non-blocking and the context
 * not REDIS_BLOCK, so a write that cannot go on waits in poll(POLLOUT) against the deadline here, a read
 * of a TLS record that carries no data (a session ticket) returns nothing rather than blocking, and
 * tbl_redis_conn_fill also takes what OpenSSL decrypted and still holds, so that poll() on the socket
 * keeps telling the whole truth about what is left to read.
 *
 * Every failure goes through tbl_redis_conn_fail(), which writes the one message ("Redis at <where>:
 * <what>") and frees the context, so "connected" and "usable" are the same thing: ctx != NULL.
 */
#include "redis_conn.h"
#include "redis_tls.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>

uint64_t tbl_redis_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void tbl_redis_conn_set_where(tbl_redis_conn_t *c)
{
	static const char lead[] = "Redis at ";
	memcpy(c->where, lead, sizeof(lead));
	tbl_redis_url_describe(&c->url, c->where + sizeof(lead) - 1, sizeof(c->where) - (sizeof(lead) - 1));
	if (c->url.is_sentinel && c->url.host[0] != '\0') {
		size_t n = strlen(c->where);
		snprintf(c->where + n, sizeof(c->where) - n, " (master %s)", c->url.master);
	}
}

void tbl_redis_conn_init(tbl_redis_conn_t *c, const tbl_redis_url_t *url, unsigned timeout_ms)
{
	memset(c, 0, sizeof(*c));
	c->url = *url;
	c->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
	tbl_redis_conn_set_where(c);
}

void tbl_redis_conn_close(tbl_redis_conn_t *c)
{
	if (c->ctx) {
		/* redisFree only close()s the socket: nothing is written, so this is also right in a forked child,
		 * where the parent still uses the same connection. */
		redisFree(c->ctx);
		c->ctx = NULL;
	}
	if (c->tls) {
		tbl_redis_tls_clear_errors();   /* what a failed read or write left, if that is why it closes */
		c->tls = NULL;
	}
}

int tbl_redis_conn_closed_while_idle(const tbl_redis_conn_t *c)
{
	char byte;
	ssize_t n;
	if (c->tls) return tbl_redis_tls_closed_while_idle(c);
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
	if (c->tls && c->ctx->err == REDIS_ERR_IO) {
		/* hiredis has no text of its own for a TLS failure (it quotes errno, often 0 after an EOF). */
		return tbl_redis_conn_fail(c, "connection lost (%s over TLS): %s", doing,
		                           saved_errno && saved_errno != EAGAIN ? strerror(saved_errno)
		                                                                 : "closed by the server");
	}
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

/* A blocking write() waits at most SO_SNDTIMEO: keep that within what the call has left (a call that
 * connected first has less than timeout_ms), and back at timeout_ms for the calls after it. One
 * setsockopt only when they differ by more than a few ms. */
static void fit_send_timeout(tbl_redis_conn_t *c, uint64_t left)
{
	unsigned want = left < c->timeout_ms ? (unsigned)left : c->timeout_ms;
	if (want == 0) want = 1;
	if (c->sndtimeo_ms > want + 5u || c->sndtimeo_ms + 5u < want) {
		struct timeval tv = { .tv_sec = want / 1000u, .tv_usec = (suseconds_t)(want % 1000u) * 1000 };
		if (setsockopt(c->ctx->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == 0) c->sndtimeo_ms = want;
	}
}

tbl_redis_status_t tbl_redis_conn_flush(tbl_redis_conn_t *c, uint64_t deadline_ms)
{
	int done = 0;
	while (!done) {
		uint64_t now = tbl_redis_now_ms();
		if (now > deadline_ms) {
			return tbl_redis_conn_fail(c, "timed out after %u ms (sending)", c->timeout_ms);
		}
		fit_send_timeout(c, deadline_ms - now);
		errno = 0;
		if (redisBufferWrite(c->ctx, &done) != REDIS_OK) {
			return fail_from_context(c, "sending", errno);
		}
		if (!done && c->tls) {
			/* The TLS socket is non-blocking (redis_tls.c): wait until it takes more. */
			struct pollfd pfd = { .fd = c->ctx->fd, .events = POLLOUT };
			now = tbl_redis_now_ms();
			if (now < deadline_ms && poll(&pfd, 1, (int)(deadline_ms - now)) < 0 && errno != EINTR) {
				return tbl_redis_conn_fail(c, "poll: %s", strerror(errno));
			}
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
	do {
		errno = 0;
		if (redisBufferRead(c->ctx) != REDIS_OK) {
			return fail_from_context(c, "reading", errno);
		}
		/* TLS: what OpenSSL decrypted but could not hand over is taken too, so that poll() on the socket
		 * stays the whole truth about what is left to read. */
	} while (tbl_redis_tls_pending(c) > 0);
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

/* Milliseconds left before deadline_ms (0 when it passed) as a timeval, at least 1 ms so that hiredis never
 * takes it for "no timeout". */
static struct timeval remaining_tv(uint64_t deadline_ms, uint64_t *left_ms)
{
	uint64_t now = tbl_redis_now_ms(), left = deadline_ms > now ? deadline_ms - now : 0;
	struct timeval tv = { .tv_sec = (time_t)(left / 1000u), .tv_usec = (suseconds_t)(left % 1000u) * 1000 };
	if (left == 0) tv.tv_usec = 1000;
	*left_ms = left;
	return tv;
}

#ifdef __GLIBC__
/* Lookups given up on at their deadline that glibc could not cancel: their memory is glibc's to write
 * until they finish, so it is freed by a later lookup that finds them done. */
typedef struct lookup {
	struct gaicb cb;
	struct addrinfo hints;
	struct lookup *next;
	char host[];
} lookup_t;
static lookup_t *abandoned;
static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;

static void lookup_free(lookup_t *l)
{
	if (l->cb.ar_result) freeaddrinfo(l->cb.ar_result);
	free(l);
}

static void reap_abandoned(void)
{
	pthread_mutex_lock(&abandoned_lock);
	for (lookup_t **p = &abandoned; *p;) {
		lookup_t *l = *p;
		if (gai_error(&l->cb) != EAI_INPROGRESS) {
			*p = l->next;
			lookup_free(l);
		} else {
			p = &l->next;
		}
	}
	pthread_mutex_unlock(&abandoned_lock);
}
#endif

/* The host's addresses, looked up before deadline_ms: 0 with *res (freeaddrinfo), or -1 with c->err set
 * (the connection is closed). */
static int resolve(tbl_redis_conn_t *c, uint64_t deadline_ms, struct addrinfo **res)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST };
	int rc;

	*res = NULL;
	/* An address needs no lookup. */
	if (getaddrinfo(c->url.host, NULL, &hints, res) == 0) return 0;
	*res = NULL;
#ifdef __GLIBC__
	reap_abandoned();
	size_t hlen = strlen(c->url.host);
	lookup_t *l = calloc(1, sizeof(*l) + hlen + 1);
	if (!l) {
		tbl_redis_conn_fail(c, "out of memory looking up %s", c->url.host);
		return -1;
	}
	memcpy(l->host, c->url.host, hlen + 1);
	l->hints.ai_family = AF_UNSPEC;
	l->hints.ai_socktype = SOCK_STREAM;
	l->cb.ar_name = l->host;
	l->cb.ar_request = &l->hints;
	struct gaicb *list[1] = { &l->cb };
	if ((rc = getaddrinfo_a(GAI_NOWAIT, list, 1, NULL)) != 0) {
		free(l);
		tbl_redis_conn_fail(c, "looking up %s: %s", c->url.host, gai_strerror(rc));
		return -1;
	}
	for (;;) {
		uint64_t left;
		struct timeval tv = remaining_tv(deadline_ms, &left);
		struct timespec ts = { tv.tv_sec, tv.tv_usec * 1000L };
		if (left == 0 || (rc = gai_suspend((const struct gaicb *const *)list, 1, &ts)) == EAI_AGAIN) {
			if (gai_error(&l->cb) != EAI_INPROGRESS) break;   /* finished as the time ran out */
			if (gai_cancel(&l->cb) == EAI_CANCELED) {
				free(l);
			} else {
				pthread_mutex_lock(&abandoned_lock);
				l->next = abandoned;
				abandoned = l;
				pthread_mutex_unlock(&abandoned_lock);
			}
			tbl_redis_conn_fail(c, "timed out after %u ms (looking up %s)", c->timeout_ms, c->url.host);
			return -1;
		}
		if (gai_error(&l->cb) != EAI_INPROGRESS) break;   /* EAI_INTR, EAI_ALLDONE or done: look again */
	}
	rc = gai_error(&l->cb);
	if (rc != 0) {
		free(l);
		tbl_redis_conn_fail(c, "looking up %s: %s", c->url.host, gai_strerror(rc));
		return -1;
	}
	*res = l->cb.ar_result;
	free(l);
	return 0;
#else
	hints.ai_flags = 0;
	if ((rc = getaddrinfo(c->url.host, NULL, &hints, res)) != 0) {
		*res = NULL;
		tbl_redis_conn_fail(c, "looking up %s: %s", c->url.host, gai_strerror(rc));
		return -1;
	}
	return 0;
#endif
}

/* Connects to the server (each of the host's addresses in turn) before deadline_ms. OK or EIO/ENOMEM. */
static tbl_redis_status_t connect_by_deadline(tbl_redis_conn_t *c, uint64_t deadline_ms)
{
	uint64_t left;
	struct timeval tv;

	if (c->url.is_unix) {
		tv = remaining_tv(deadline_ms, &left);
		c->ctx = redisConnectUnixWithTimeout(c->url.path, tv);
	} else {
		struct addrinfo *res, *ai;
		char addr[INET6_ADDRSTRLEN];
		if (resolve(c, deadline_ms, &res) != 0) return TBL_REDIS_EIO;
		for (ai = res; ai; ai = ai->ai_next) {
			const void *in = ai->ai_family == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr
			                                          : (const void *)&((struct sockaddr_in *)ai->ai_addr)->sin_addr;
			if ((ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			    || !inet_ntop(ai->ai_family, in, addr, sizeof(addr))) {
				continue;
			}
			tbl_redis_conn_close(c);
			tv = remaining_tv(deadline_ms, &left);
			/* An address: hiredis's own lookup of it is no lookup. */
			c->ctx = redisConnectWithTimeout(addr, c->url.port, tv);
			if (!c->ctx || !c->ctx->err || left == 0) break;
		}
		freeaddrinfo(res);
		if (!c->ctx && !ai) {
			return tbl_redis_conn_fail(c, "no address of %s to connect to", c->url.host);
		}
	}
	if (!c->ctx) {
		snprintf(c->err, sizeof(c->err), "%s: out of memory (hiredis context)", c->where);
		return TBL_REDIS_ENOMEM;
	}
	if (c->ctx->err) {
		int timed_out = c->ctx->err == REDIS_ERR_IO && tbl_redis_now_ms() >= deadline_ms;
#ifdef REDIS_ERR_TIMEOUT
		timed_out |= c->ctx->err == REDIS_ERR_TIMEOUT;   /* hiredis >= 1.0 */
#endif
		if (timed_out) {
			return tbl_redis_conn_fail(c, "timed out after %u ms (connecting)", c->timeout_ms);
		}
		return tbl_redis_conn_fail(c, "%s", c->ctx->errstr);
	}
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_conn_open(tbl_redis_conn_t *c, int resp3, uint64_t deadline_ms)
{
	if (c->url.is_sentinel && !c->pinned) {
		return tbl_redis_sentinel_open(c, resp3, deadline_ms);
	}
	return tbl_redis_conn_open_direct(c, resp3, deadline_ms);
}

/* ROLE's reply, the last of the handshake's: a server that is not a master is refused (EIO, closed). A
 * replica the Sentinels still name (their view lags a failover) or a demoted old master would take
 * writes it refuses (-READONLY), or serve reads and invalidations of a copy that stopped following. */
static tbl_redis_status_t expect_master(tbl_redis_conn_t *c, uint64_t deadline_ms)
{
	redisReply *reply;
	tbl_redis_status_t st = tbl_redis_conn_read(c, deadline_ms, &reply);
	if (st != TBL_REDIS_OK) return st;
	if (reply->type == REDIS_REPLY_ERROR) {
		snprintf(c->err, sizeof(c->err), "%s: ROLE refused: %.*s", c->where, (int)reply->len, reply->str);
		freeReplyObject(reply);
		tbl_redis_conn_close(c);
		return TBL_REDIS_EREPLY;
	}
	if (reply->type != REDIS_REPLY_ARRAY || reply->elements < 1
	    || (reply->element[0]->type != REDIS_REPLY_STRING && reply->element[0]->type != REDIS_REPLY_STATUS)) {
		int type = reply->type;
		freeReplyObject(reply);
		return tbl_redis_conn_fail(c, "unexpected reply to ROLE (type %d)", type);
	}
	char role[32];
	snprintf(role, sizeof(role), "%.*s", (int)reply->element[0]->len, reply->element[0]->str);
	freeReplyObject(reply);
	if (strcmp(role, "master") != 0) {
		return tbl_redis_conn_fail(c, "not a master (ROLE: %s): the Sentinels' answer is out of date", role);
	}
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_conn_open_direct(tbl_redis_conn_t *c, int resp3, uint64_t deadline_ms)
{
	struct timeval tv = { .tv_sec = c->timeout_ms / 1000, .tv_usec = (c->timeout_ms % 1000) * 1000 };
	tbl_redis_conn_close(c);
	tbl_redis_status_t st = connect_by_deadline(c, deadline_ms);
	if (st != TBL_REDIS_OK) return st;
	/* SO_SNDTIMEO bounds one blocking write(); tbl_redis_conn_flush lowers it to what a call has left. */
	if (redisSetTimeout(c->ctx, tv) != REDIS_OK) {
		return tbl_redis_conn_fail(c, "setting the socket timeout: %s", c->ctx->errstr);
	}
	c->sndtimeo_ms = c->timeout_ms;
	/* After redisSetTimeout, which hiredis refuses on the non-blocking context TLS leaves. */
	if (c->url.tls && (st = tbl_redis_tls_start(c, deadline_ms)) != TBL_REDIS_OK) return st;

	/* AUTH, SELECT and HELLO go out together: one round trip however many of them there are. */
	char db[16];
	const char *auth_argv[3] = { "AUTH", c->url.user, c->url.auth };
	const char *select_argv[2] = { "SELECT", db };
	const char *hello_argv[2] = { "HELLO", "3" };
	const char *steps[3];
	int nsteps = 0;
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
	const char *role_argv[1] = { "ROLE" };
	int check_role = c->url.is_sentinel;
	if (st == TBL_REDIS_OK && check_role) {
		st = tbl_redis_conn_append(c, 1, role_argv, NULL);
	}
	if (st == TBL_REDIS_OK && (nsteps > 0 || check_role)) {
		st = tbl_redis_conn_flush(c, deadline_ms);
		/* Every reply is read even after a refusal, so the first error is the one reported. */
		for (int i = 0; i < nsteps && st == TBL_REDIS_OK; i++) {
			st = expect_no_error(c, steps[i], deadline_ms);
		}
		if (st == TBL_REDIS_OK && check_role) st = expect_master(c, deadline_ms);
	}
	if (st == TBL_REDIS_OK && c->opens++ > 0 && c->on_reopen) {
		c->on_reopen(c->on_reopen_ctx);
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
