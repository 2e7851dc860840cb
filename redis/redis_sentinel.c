/*
 * redis_sentinel.c - the master of a sentinel:// URL, from its Sentinels (redis_sentinel.h), and the
 * connection to it (tbl_redis_sentinel_open, redis_conn.h).
 *
 * Connecting: the Sentinels are asked in turn, starting with the one that answered last. Each gets a
 * share of the call's time ((deadline - now) / Sentinels not yet asked), so a frozen one costs its share,
 * not the call. The first address named is connected to, with ROLE sent along with the handshake: a
 * Sentinel's answer lags a failover by up to its own timeouts, and a server that is not a master is not
 * used (the next Sentinel is asked, and may already know better). An address already tried in this call
 * is not tried twice. Nothing is cached between calls but which Sentinel answered: every connect asks,
 * which is what makes a reconnect follow a failover.
 *
 * A Sentinel's connection is opened for one question and closed: a connect is rare (the first call of a
 * process, a lost connection), and no idle connection to every Sentinel is held by every PHP process.
 */
#include "redis_sentinel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redis_conn.h"

/* A port as a Sentinel writes it: decimal digits, 1 to 65535; -1 otherwise. */
static long strtol_port(const char *s)
{
	long n = 0;
	if (!*s) return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9') return -1;
		n = n * 10 + (*s - '0');
		if (n > 65535) return -1;
	}
	return n > 0 ? n : -1;
}

/* What is left before deadline_ms, shared among `ways` callers: the deadline of the next of them. */
static uint64_t share_of(uint64_t deadline_ms, int ways)
{
	uint64_t now = tbl_redis_now_ms();
	if (now >= deadline_ms || ways <= 1) return deadline_ms;
	return now + (deadline_ms - now) / (uint64_t)ways;
}

/* One Sentinel's answer: OK with the address, or EIO/ENOMEM with the reason in s->err. */
static tbl_redis_status_t ask_one(const tbl_redis_url_t *url, int i, unsigned timeout_ms, uint64_t deadline_ms,
                                  char *host, size_t hostcap, int *port, char *err, size_t errlen)
{
	tbl_redis_url_t surl;
	tbl_redis_conn_t s;
	const tbl_redis_sentinel_addr_t *a = &url->sentinels[i];

	memset(&surl, 0, sizeof(surl));
	snprintf(surl.host, sizeof(surl.host), "%s", a->host);
	surl.port = a->port;
	memcpy(surl.auth, url->sentinel_auth, sizeof(surl.auth));
	/* sentinel+tls://: the Sentinels speak TLS too, checked against the same CAs (and sni=, if given). */
	surl.tls = url->tls;
	surl.tls_verify = url->tls_verify;
	memcpy(surl.tls_cafile, url->tls_cafile, sizeof(surl.tls_cafile));
	memcpy(surl.tls_cert, url->tls_cert, sizeof(surl.tls_cert));
	memcpy(surl.tls_key, url->tls_key, sizeof(surl.tls_key));
	memcpy(surl.tls_sni, url->tls_sni, sizeof(surl.tls_sni));
	tbl_redis_conn_init(&s, &surl, timeout_ms);
	char addr[300];
	tbl_redis_url_describe(&surl, addr, sizeof(addr));
	snprintf(s.where, sizeof(s.where), "Sentinel at %s", addr);   /* "Sentinel at host:port: ..." */

	tbl_redis_status_t st = tbl_redis_conn_open_direct(&s, 0, deadline_ms);
	const char *argv[] = { "SENTINEL", "get-master-addr-by-name", url->master };
	redisReply *reply = NULL;
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_append(&s, 3, argv, NULL);
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_flush(&s, deadline_ms);
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_read(&s, deadline_ms, &reply);
	if (st == TBL_REDIS_OK) {
		if (reply->type == REDIS_REPLY_ERROR) {
			tbl_redis_conn_error_reply(&s, reply);
			st = TBL_REDIS_EIO;
		} else if (reply->type == REDIS_REPLY_NIL) {
			snprintf(s.err, sizeof(s.err), "%s: does not know a master named %s", s.where, url->master);
			st = TBL_REDIS_EIO;
		} else if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2
		           || reply->element[0]->type != REDIS_REPLY_STRING || reply->element[1]->type != REDIS_REPLY_STRING
		           || reply->element[0]->len == 0 || (size_t)reply->element[0]->len >= hostcap) {
			snprintf(s.err, sizeof(s.err), "%s: unexpected reply to SENTINEL get-master-addr-by-name (type %d)",
			         s.where, reply->type);
			st = TBL_REDIS_EIO;
		} else {
			long p = strtol_port(reply->element[1]->str);
			if (p <= 0) {
				snprintf(s.err, sizeof(s.err), "%s: named the master with a bad port \"%.*s\"", s.where,
				         (int)reply->element[1]->len, reply->element[1]->str);
				st = TBL_REDIS_EIO;
			} else {
				memcpy(host, reply->element[0]->str, reply->element[0]->len);
				host[reply->element[0]->len] = '\0';
				*port = (int)p;
			}
		}
		freeReplyObject(reply);
	}
	if (st != TBL_REDIS_OK) snprintf(err, errlen, "%s", s.err);
	tbl_redis_conn_close(&s);
	return st;
}

tbl_redis_status_t tbl_redis_sentinel_master(const tbl_redis_url_t *url, unsigned timeout_ms, uint64_t deadline_ms,
                                             int first, char *host, size_t hostcap, int *port, int *answered,
                                             char *err, size_t errlen)
{
	int n = url->nsentinels;
	sigset_t saved;
	tbl_redis_status_t st = TBL_REDIS_EIO;

	if (errlen > 0) err[0] = '\0';
	if (!url->is_sentinel || n <= 0) {
		snprintf(err, errlen, "not a sentinel:// URL");
		return TBL_REDIS_EIO;
	}
	tbl_redis_sigpipe_block(&saved);
	for (int k = 0; k < n; k++) {
		int i = ((first % n + n) % n + k) % n;
		char why[512];
		st = ask_one(url, i, timeout_ms, share_of(deadline_ms, n - k), host, hostcap, port, why, sizeof(why));
		if (st == TBL_REDIS_OK) {
			if (answered) *answered = i;
			break;
		}
		/* Keep the first reason and count the rest: one message, however many Sentinels. */
		if (k == 0) snprintf(err, errlen, "%s", why);
	}
	tbl_redis_sigpipe_restore(&saved, st != TBL_REDIS_OK);
	if (st != TBL_REDIS_OK && n > 1) {
		size_t len = strlen(err);
		snprintf(err + len, errlen > len ? errlen - len : 0, " (and %d other Sentinel%s did not name it either)",
		         n - 1, n > 2 ? "s" : "");
	}
	return st == TBL_REDIS_OK || st == TBL_REDIS_ENOMEM ? st : TBL_REDIS_EIO;
}

tbl_redis_status_t tbl_redis_sentinel_open(tbl_redis_conn_t *c, int resp3, uint64_t deadline_ms)
{
	int n = c->url.nsentinels;
	char tried[TBL_REDIS_SENTINELS_MAX][sizeof(c->url.host) + 8];
	int ntried = 0;
	char last_err[sizeof(c->err)] = "";
	tbl_redis_status_t st = TBL_REDIS_EIO;

	tbl_redis_conn_close(c);
	for (int k = 0; k < n; k++) {
		int i = (c->sentinel_next + k) % n;
		char host[sizeof(c->url.host)], why[sizeof(c->err)];
		int port;

		st = ask_one(&c->url, i, c->timeout_ms, share_of(deadline_ms, n - k), host, sizeof(host), &port, why,
		             sizeof(why));
		if (st != TBL_REDIS_OK) {
			snprintf(last_err, sizeof(last_err), "%s", why);
			continue;
		}
		char addr[sizeof(tried[0])];
		int seen = 0;
		snprintf(addr, sizeof(addr), "%s:%d", host, port);
		for (int j = 0; j < ntried && !seen; j++) seen = strcmp(tried[j], addr) == 0;
		if (seen) continue;
		memcpy(tried[ntried++], addr, sizeof(addr));

		memcpy(c->url.host, host, sizeof(host));
		c->url.port = port;
		tbl_redis_conn_set_where(c);
		/* The master gets what is left of the call, less a share for each Sentinel still to ask. */
		st = tbl_redis_conn_open_direct(c, resp3, share_of(deadline_ms, n - k));
		if (st == TBL_REDIS_OK) {
			c->sentinel_next = i;
			return st;
		}
		if (st == TBL_REDIS_ENOMEM) return st;
		snprintf(last_err, sizeof(last_err), "%s", c->err);
	}
	/* Where stays the master last named (the messages of later calls say which server failed). */
	/* Precisions keep the compiler's worst case within err (the text is short in practice). */
	snprintf(c->err, sizeof(c->err), "Redis master %.64s: no Sentinel named a master that could be used: %.380s",
	         c->url.master, last_err[0] ? last_err : "no Sentinel answered");
	tbl_redis_conn_close(c);
	return st == TBL_REDIS_ENOMEM ? st : TBL_REDIS_EIO;
}
