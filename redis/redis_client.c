/*
 * redis_client.c - the commands of redis_client.h over one tbl_redis_conn_t.
 *
 * Every command goes through tbl_redis_run_on() (by way of run_keyed): connect if needed, append the
 * command(s) to hiredis's output buffer, write them all, then read exactly one reply per command, all
 * against one deadline (now + timeout_ms, taken before connecting: the host's lookup, the connect and the
 * handshake count against it too).
 * Pipelined commands (MULTI/SET.../EXEC, EXISTS+PERSIST) therefore cost one round trip. The replies come
 * back unchecked; each command then checks the shape it expects, and anything else (an integer where a
 * string belongs, an array of the wrong length) is treated as a broken connection: the context is closed
 * and EIO returned, since replies that no longer match their commands mean the stream is out of step.
 *
 * Error replies are not shape errors: they become EREPLY (or ETYPE/EOVERFLOW for INCRBY) with the text in
 * last_error, and the connection stays open.
 *
 * The atomic read-modify-write commands are Lua scripts (redis_scripts.h), sent with EVALSHA; when the
 * server does not have the script yet (NOSCRIPT: a new or restarted server, SCRIPT FLUSH), EVAL sends its
 * text, which also caches it for the next EVALSHA.
 *
 * cluster:// (redis_cluster.h): every command goes through run_keyed(), which hands it to
 * redis_client_cluster.c to reach its key's master (redirections followed there); the multi-key calls, PING
 * and del_prefix have their cluster side there too. The functions both files share are in
 * redis_client_internal.h.
 */
#include "redis_client.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redis_client_internal.h"
#include "redis_cluster.h"
#include "redis_conn.h"
#include "redis_scripts.h"

void tbl_redis_buf_free(tbl_redis_buf_t *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
}

const char *tbl_redis_status_str(tbl_redis_status_t st)
{
	switch (st) {
	case TBL_REDIS_OK:        return "ok";
	case TBL_REDIS_NIL:       return "nil";
	case TBL_REDIS_EIO:       return "I/O error";
	case TBL_REDIS_EREPLY:    return "error reply";
	case TBL_REDIS_ETYPE:     return "not an integer";
	case TBL_REDIS_EOVERFLOW: return "integer overflow";
	case TBL_REDIS_ENOMEM:    return "out of memory";
	}
	return "unknown status";
}

tbl_redis_t *tbl_redis_new(const tbl_redis_url_t *url, unsigned timeout_ms)
{
	tbl_redis_t *r = malloc(sizeof(*r));
	if (!r) return NULL;
	tbl_redis_conn_init(&r->conn, url, timeout_ms);
	r->cur = &r->conn;
	r->cluster = NULL;
	r->deadline = 0;
	if (url->is_cluster && !(r->cluster = tbl_redis_cluster_new(url, timeout_ms))) {
		free(r);
		return NULL;
	}
	return r;
}

void tbl_redis_free(tbl_redis_t *r)
{
	if (!r) return;
	tbl_redis_conn_close(&r->conn);
	tbl_redis_cluster_free(r->cluster);
	free(r);
}

void tbl_redis_on_reconnect(tbl_redis_t *r, void (*fn)(void *ctx), void *ctx)
{
	r->conn.on_reopen = fn;
	r->conn.on_reopen_ctx = ctx;
	if (r->cluster) tbl_redis_cluster_on_reconnect(r->cluster, fn, ctx);
}

void tbl_redis_forget(tbl_redis_t *r)
{
	tbl_redis_conn_close(&r->conn);
	if (r->cluster) tbl_redis_cluster_forget(r->cluster);
}

const char *tbl_redis_last_error(const tbl_redis_t *r)
{
	return r->cur->err;
}

int tbl_redis_connected(const tbl_redis_t *r)
{
	if (r->cluster) return tbl_redis_cluster_has_map(r->cluster) && r->cur->ctx != NULL;
	return r->conn.ctx != NULL;
}

void tbl_redis_free_replies(size_t n, redisReply **replies)
{
	for (size_t i = 0; i < n; i++) {
		if (replies[i]) freeReplyObject(replies[i]);
		replies[i] = NULL;
	}
}

/* ASK (cluster://): ASKING lets only the next command at the importing node, so it goes before each
 * command of a pipeline; inside MULTI ... EXEC the flag lasts until EXEC, and an ASKING there would be
 * queued, so a block gets one, before MULTI. Whether cmd gets one; *in_multi follows the block. */
static int asking_before(const tbl_redis_cmd_t *cmd, int *in_multi)
{
	int before = !*in_multi;
	if (cmd->argc == 1 && strcmp(cmd->argv[0], "MULTI") == 0) *in_multi = 1;
	else if (cmd->argc == 1 && strcmp(cmd->argv[0], "EXEC") == 0) *in_multi = 0;
	return before;
}

/* Sends n commands on c and reads their n replies into replies[] (all NULL on failure), before deadline
 * (0: now + timeout_ms, taken after the idle check). asking: ASKING before them (asking_before), its
 * replies dropped. */
tbl_redis_status_t tbl_redis_run_on(tbl_redis_t *r, tbl_redis_conn_t *c, uint64_t deadline, int asking, size_t n,
                                 const tbl_redis_cmd_t *cmds, redisReply **replies)
{
	sigset_t saved;
	tbl_redis_status_t st = TBL_REDIS_OK;
	for (size_t i = 0; i < n; i++) replies[i] = NULL;

	r->cur = c;
	tbl_redis_sigpipe_block(&saved);
	/* A connection the server closed while it sat idle (between requests of a php-fpm worker, its
	 * `timeout` or a proxy's idle timeout may pass) is replaced before anything is sent on it: nothing
	 * went out, so the new connection carries the commands unambiguously. One recv() per round trip; a
	 * close that lands after this check still fails the call (EIO), as any failure after sending does. */
	if (c->ctx && tbl_redis_conn_closed_while_idle(c)) tbl_redis_conn_close(c);
	/* One deadline for the whole call: the lookup, the connect and the handshake when it connects, then
	 * the commands and their replies. */
	if (deadline == 0) deadline = tbl_redis_now_ms() + c->timeout_ms;
	if (!c->ctx) st = tbl_redis_conn_open(c, 0, deadline);
	int in_multi = 0;
	for (size_t i = 0; i < n && st == TBL_REDIS_OK; i++) {
		if (asking && asking_before(&cmds[i], &in_multi)) {
			const char *asking_argv[] = { "ASKING" };
			st = tbl_redis_conn_append(c, 1, asking_argv, NULL);
		}
		if (st == TBL_REDIS_OK) st = tbl_redis_conn_append(c, cmds[i].argc, cmds[i].argv, cmds[i].lens);
	}
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_flush(c, deadline);
	in_multi = 0;
	for (size_t i = 0; i < n && st == TBL_REDIS_OK; i++) {
		if (asking && asking_before(&cmds[i], &in_multi)) {
			redisReply *reply;
			st = tbl_redis_conn_read(c, deadline, &reply);
			if (st != TBL_REDIS_OK) break;
			int type = reply->type;
			freeReplyObject(reply);
			if (type != REDIS_REPLY_STATUS) {
				st = tbl_redis_conn_fail(c, "unexpected reply to ASKING (type %d)", type);
				break;
			}
		}
		st = tbl_redis_conn_read(c, deadline, &replies[i]);
	}
	/* sentinel://: a -READONLY reply means the server became a replica (a failover demoted it). The
	 * command was refused, not applied; the connection is dropped so that the next call asks the
	 * Sentinels again. */
	for (size_t i = 0; i < n && st == TBL_REDIS_OK && c->url.is_sentinel; i++) {
		if (replies[i]->type == REDIS_REPLY_ERROR && replies[i]->len >= 8 && memcmp(replies[i]->str, "READONLY", 8) == 0) {
			st = tbl_redis_conn_fail(c, "%.*s (a replica now: the Sentinels are asked again on the next call)",
			                         (int)(replies[i]->len > 200 ? 200 : replies[i]->len), replies[i]->str);
		}
	}
	tbl_redis_sigpipe_restore(&saved, st != TBL_REDIS_OK);
	if (st != TBL_REDIS_OK) tbl_redis_free_replies(n, replies);
	return st;
}

/* n commands about one key (or keys of one slot, key being one of them): to its master with cluster://,
 * else to the one server. */
static tbl_redis_status_t run_keyed(tbl_redis_t *r, const char *key, size_t klen, size_t n, const tbl_redis_cmd_t *cmds,
                                    redisReply **replies)
{
	if (r->cluster) return tbl_redis_cl_run_slot(r, tbl_redis_cluster_key_slot(key, klen), n, cmds, replies);
	return tbl_redis_run_on(r, &r->conn, 0, 0, n, cmds, replies);
}

/* One command whose argv[1] is its key (every command sent with run_one). */
static tbl_redis_status_t run_one(tbl_redis_t *r, int argc, const char **argv, const size_t *lens, redisReply **reply)
{
	tbl_redis_cmd_t cmd = { argc, argv, lens };
	return run_keyed(r, argv[1], lens[1], 1, &cmd, reply);
}

/* A reply of a type the command never answers with: the stream is out of step, so drop it. */
tbl_redis_status_t tbl_redis_unexpected(tbl_redis_t *r, const char *command, redisReply *reply)
{
	int type = reply ? reply->type : -1;
	if (reply) freeReplyObject(reply);
	return tbl_redis_conn_fail(r->cur, "unexpected reply to %s (type %d)", command, type);
}

/* The reply is an error: EREPLY with its text (the reply is freed). */
static tbl_redis_status_t error_reply(tbl_redis_t *r, redisReply *reply)
{
	tbl_redis_status_t st = tbl_redis_conn_error_reply(r->cur, reply);
	freeReplyObject(reply);
	return st;
}

/* Copies a string reply into a malloc'd, NUL-terminated buffer. */
static tbl_redis_status_t copy_string(tbl_redis_t *r, const redisReply *reply, tbl_redis_buf_t *out)
{
	out->data = malloc(reply->len + 1);
	if (!out->data) {
		snprintf(r->cur->err, sizeof(r->cur->err), "%s: out of memory for a %zu-byte value", r->cur->where,
		         (size_t)reply->len);
		return TBL_REDIS_ENOMEM;
	}
	memcpy(out->data, reply->str, reply->len);
	out->data[reply->len] = '\0';
	out->len = reply->len;
	return TBL_REDIS_OK;
}

/* A command answered with an integer (or an error). */
static tbl_redis_status_t run_integer(tbl_redis_t *r, const char *name, int argc, const char **argv,
                                      const size_t *lens, long long *value)
{
	redisReply *reply;
	tbl_redis_status_t st = run_one(r, argc, argv, lens, &reply);
	if (st != TBL_REDIS_OK) return st;
	if (reply->type == REDIS_REPLY_ERROR) return error_reply(r, reply);
	if (reply->type != REDIS_REPLY_INTEGER) return tbl_redis_unexpected(r, name, reply);
	*value = reply->integer;
	freeReplyObject(reply);
	return TBL_REDIS_OK;
}

/* PING on connection c (the one server, or a cluster's master). */
tbl_redis_status_t tbl_redis_ping_on(tbl_redis_t *r, tbl_redis_conn_t *c, uint64_t deadline)
{
	const char *argv[] = { "PING" };
	tbl_redis_cmd_t cmd = { 1, argv, NULL };
	redisReply *reply;
	tbl_redis_status_t st = tbl_redis_run_on(r, c, deadline, 0, 1, &cmd, &reply);
	if (st != TBL_REDIS_OK) return st;
	if (reply->type == REDIS_REPLY_ERROR) return error_reply(r, reply);
	if (reply->type != REDIS_REPLY_STATUS) return tbl_redis_unexpected(r, "PING", reply);
	freeReplyObject(reply);
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_ping(tbl_redis_t *r)
{
	if (r->cluster) return tbl_redis_cl_ping(r);
	return tbl_redis_ping_on(r, &r->conn, 0);
}

tbl_redis_status_t tbl_redis_get(tbl_redis_t *r, const char *key, size_t klen, tbl_redis_buf_t *out)
{
	const char *argv[] = { "GET", key };
	size_t lens[] = { 3, klen };
	redisReply *reply;
	out->data = NULL;
	out->len = 0;
	tbl_redis_status_t st = run_one(r, 2, argv, lens, &reply);
	if (st != TBL_REDIS_OK) return st;
	if (reply->type == REDIS_REPLY_ERROR) return error_reply(r, reply);
	if (reply->type == REDIS_REPLY_NIL) st = TBL_REDIS_NIL;
	else if (reply->type == REDIS_REPLY_STRING) st = copy_string(r, reply, out);
	else return tbl_redis_unexpected(r, "GET", reply);
	freeReplyObject(reply);
	return st;
}

tbl_redis_status_t tbl_redis_get_pttl(tbl_redis_t *r, const char *key, size_t klen, tbl_redis_buf_t *out,
                                      int64_t *pttl_ms)
{
	const char *get_argv[] = { "GET", key }, *pttl_argv[] = { "PTTL", key };
	size_t get_lens[] = { 3, klen }, pttl_lens[] = { 4, klen };
	tbl_redis_cmd_t cmds[] = { { 2, get_argv, get_lens }, { 2, pttl_argv, pttl_lens } };
	redisReply *replies[2];
	tbl_redis_status_t st;

	out->data = NULL;
	out->len = 0;
	*pttl_ms = -1;
	if ((st = run_keyed(r, key, klen, 2, cmds, replies)) != TBL_REDIS_OK) {
		return st;
	}
	if (replies[0]->type == REDIS_REPLY_ERROR) {
		freeReplyObject(replies[1]);
		return error_reply(r, replies[0]);
	}
	if (replies[1]->type != REDIS_REPLY_INTEGER || (replies[0]->type != REDIS_REPLY_NIL
	                                                && replies[0]->type != REDIS_REPLY_STRING)) {
		freeReplyObject(replies[1]);
		return tbl_redis_unexpected(r, "GET/PTTL", replies[0]);
	}
	if (replies[0]->type == REDIS_REPLY_NIL || replies[1]->integer == -2) {
		st = TBL_REDIS_NIL;   /* missing, or expired between the two */
	} else {
		st = copy_string(r, replies[0], out);
		*pttl_ms = replies[1]->integer < 0 ? -1 : (int64_t)replies[1]->integer;
	}
	tbl_redis_free_replies(2, replies);
	return st;
}

/* The replies of an MGET of n keys and, when pttls is not NULL, of the n PTTLs behind it, into out and
 * pttls; the replies are freed (the array is the caller's). */
tbl_redis_status_t tbl_redis_mget_replies(tbl_redis_t *r, size_t n, redisReply **replies, tbl_redis_buf_t *out,
                                       int64_t *pttls)
{
	size_t ncmds = pttls ? n + 1 : 1;
	tbl_redis_status_t st = TBL_REDIS_OK;
	redisReply *reply = replies[0];
	for (size_t i = 1; i < ncmds && st == TBL_REDIS_OK; i++) {
		if (replies[i]->type != REDIS_REPLY_INTEGER) {
			st = tbl_redis_unexpected(r, "PTTL", replies[i]);
			replies[i] = NULL;
		}
	}
	if (st == TBL_REDIS_OK && reply->type == REDIS_REPLY_ERROR) {
		st = error_reply(r, reply);
		replies[0] = NULL;
	} else if (st == TBL_REDIS_OK && (reply->type != REDIS_REPLY_ARRAY || reply->elements != n)) {
		st = tbl_redis_unexpected(r, "MGET", reply);
		replies[0] = NULL;
	}
	for (size_t i = 0; i < n && st == TBL_REDIS_OK; i++) {
		const redisReply *e = reply->element[i];
		if (e->type == REDIS_REPLY_STRING) {
			/* A key that expired between MGET and its PTTL (-2) is missing, as in GET/PTTL. */
			if (pttls && replies[i + 1]->integer == -2) continue;
			st = copy_string(r, e, &out[i]);
			if (pttls) pttls[i] = replies[i + 1]->integer < 0 ? -1 : (int64_t)replies[i + 1]->integer;
		} else if (e->type != REDIS_REPLY_NIL) {
			st = tbl_redis_unexpected(r, "MGET", reply);
			replies[0] = NULL;
		}
	}
	tbl_redis_free_replies(ncmds, replies);
	if (st != TBL_REDIS_OK) {
		for (size_t i = 0; i < n; i++) {
			tbl_redis_buf_free(&out[i]);
			if (pttls) pttls[i] = -1;
		}
	}
	return st;
}

/* MGET's arguments, then two (PTTL key) for each key when with_pttl: n + 1 + (with_pttl ? 2n : 0) in argv
 * and lens, and 1 + (with_pttl ? n : 0) commands in cmds. */
void tbl_redis_mget_commands(size_t n, const char *const *keys, const size_t *klens, int with_pttl, const char **argv,
                          size_t *lens, tbl_redis_cmd_t *cmds)
{
	argv[0] = "MGET";
	lens[0] = 4;
	for (size_t i = 0; i < n; i++) {
		argv[i + 1] = keys[i];
		lens[i + 1] = klens[i];
	}
	cmds[0] = (tbl_redis_cmd_t){ (int)(n + 1), argv, lens };
	for (size_t i = 0; with_pttl && i < n; i++) {
		const char **pargv = argv + n + 1 + 2 * i;
		size_t *plens = lens + n + 1 + 2 * i;
		pargv[0] = "PTTL";
		plens[0] = 4;
		pargv[1] = keys[i];
		plens[1] = klens[i];
		cmds[i + 1] = (tbl_redis_cmd_t){ 2, pargv, plens };
	}
}

/* MGET of n keys and, when pttls is not NULL, a PTTL of each behind it in the same pipeline. */
tbl_redis_status_t tbl_redis_mget_slot(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                               tbl_redis_buf_t *out, int64_t *pttls)
{
	size_t ncmds = pttls ? n + 1 : 1;
	for (size_t i = 0; i < n; i++) {
		out[i].data = NULL;
		out[i].len = 0;
		if (pttls) pttls[i] = -1;
	}
	if (n == 0) return TBL_REDIS_OK;
	if (n >= (size_t)INT32_MAX / 2) {
		snprintf(r->cur->err, sizeof(r->cur->err), "%s: MGET of %zu keys is too many", r->cur->where, n);
		return TBL_REDIS_EREPLY;
	}
	/* MGET's arguments, then two (PTTL key) for each key when its expiry is asked for too. */
	size_t nargs = (n + 1) + (pttls ? 2 * n : 0);
	const char **argv = malloc(nargs * sizeof(*argv));
	size_t *lens = malloc(nargs * sizeof(*lens));
	tbl_redis_cmd_t *cmds = malloc(ncmds * sizeof(*cmds));
	redisReply **replies = malloc(ncmds * sizeof(*replies));
	tbl_redis_status_t st = TBL_REDIS_ENOMEM;
	if (argv && lens && cmds && replies) {
		tbl_redis_mget_commands(n, keys, klens, pttls != NULL, argv, lens, cmds);
		st = run_keyed(r, keys[0], klens[0], ncmds, cmds, replies);
	} else {
		snprintf(r->cur->err, sizeof(r->cur->err), "%s: out of memory building MGET", r->cur->where);
	}
	free(argv);
	free(lens);
	free(cmds);
	if (st == TBL_REDIS_OK) st = tbl_redis_mget_replies(r, n, replies, out, pttls);
	free(replies);
	return st;
}


tbl_redis_status_t tbl_redis_mget(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                  tbl_redis_buf_t *out)
{
	if (r->cluster) return tbl_redis_cl_mget(r, n, keys, klens, out, NULL);
	return tbl_redis_mget_slot(r, n, keys, klens, out, NULL);
}

tbl_redis_status_t tbl_redis_mget_pttl(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                       tbl_redis_buf_t *out, int64_t *pttls_ms)
{
	if (r->cluster) return tbl_redis_cl_mget(r, n, keys, klens, out, pttls_ms);
	return tbl_redis_mget_slot(r, n, keys, klens, out, pttls_ms);
}

/* SET's arguments: SET key val [PX ms] [NX], in argv/lens (room for 6); returns argc. */
static int set_arguments(const char **argv, size_t *lens, char *ttl_text, size_t ttl_cap, const char *key,
                         size_t klen, const void *val, size_t vlen, uint64_t ttl_ms, int only_if_absent)
{
	int argc = 0;
	argv[argc] = "SET", lens[argc++] = 3;
	argv[argc] = key, lens[argc++] = klen;
	argv[argc] = val, lens[argc++] = vlen;
	if (ttl_ms > 0) {
		argv[argc] = "PX", lens[argc++] = 2;
		lens[argc] = (size_t)snprintf(ttl_text, ttl_cap, "%" PRIu64, ttl_ms);
		argv[argc++] = ttl_text;
	}
	if (only_if_absent) {
		argv[argc] = "NX", lens[argc++] = 2;
	}
	return argc;
}

tbl_redis_status_t tbl_redis_set(tbl_redis_t *r, const char *key, size_t klen, const void *val, size_t vlen,
                                 uint64_t ttl_ms, int only_if_absent)
{
	const char *argv[6];
	size_t lens[6];
	char ttl_text[24];
	int argc = set_arguments(argv, lens, ttl_text, sizeof(ttl_text), key, klen, val, vlen, ttl_ms, only_if_absent);
	redisReply *reply;
	tbl_redis_status_t st = run_one(r, argc, argv, lens, &reply);
	if (st != TBL_REDIS_OK) return st;
	if (reply->type == REDIS_REPLY_ERROR) return error_reply(r, reply);
	if (reply->type == REDIS_REPLY_NIL && only_if_absent) st = TBL_REDIS_NIL;
	else if (reply->type != REDIS_REPLY_STATUS) return tbl_redis_unexpected(r, "SET", reply);
	freeReplyObject(reply);
	return st;
}

/* The n SETs in one MULTI/EXEC (with cluster://, keys of one slot). */
tbl_redis_status_t tbl_redis_set_many_slot(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                   const void *const *vals, const size_t *vlens, uint64_t ttl_ms)
{
	if (n == 0) return TBL_REDIS_OK;
	static const char *multi_argv[] = { "MULTI" }, *exec_argv[] = { "EXEC" };
	size_t ncmd = n + 2;
	tbl_redis_cmd_t *cmds = malloc(ncmd * sizeof(*cmds));
	const char **argv = malloc(n * 5 * sizeof(*argv));
	size_t *lens = malloc(n * 5 * sizeof(*lens));
	redisReply **replies = malloc(ncmd * sizeof(*replies));
	char ttl_text[24];
	tbl_redis_status_t st = TBL_REDIS_ENOMEM;
	if (!cmds || !argv || !lens || !replies) {
		snprintf(r->cur->err, sizeof(r->cur->err), "%s: out of memory building MULTI/EXEC", r->cur->where);
		goto out;
	}
	cmds[0] = (tbl_redis_cmd_t){ 1, multi_argv, NULL };
	for (size_t i = 0; i < n; i++) {
		const char **a = argv + 5 * i;
		size_t *l = lens + 5 * i;
		cmds[i + 1].argc = set_arguments(a, l, ttl_text, sizeof(ttl_text), keys[i], klens[i], vals[i], vlens[i],
		                                 ttl_ms, 0);
		cmds[i + 1].argv = a;
		cmds[i + 1].lens = l;
	}
	cmds[n + 1] = (tbl_redis_cmd_t){ 1, exec_argv, NULL };
	st = run_keyed(r, keys[0], klens[0], ncmd, cmds, replies);
	if (st != TBL_REDIS_OK) goto out;

	/* MULTI +OK, each SET +QUEUED (or an error, which makes EXEC abort), EXEC an array of n +OK. */
	const redisReply *refused = NULL;
	for (size_t i = 0; i + 1 < ncmd && st == TBL_REDIS_OK; i++) {
		if (replies[i]->type == REDIS_REPLY_ERROR) {
			if (!refused) refused = replies[i];
		} else if (replies[i]->type != REDIS_REPLY_STATUS) {
			st = tbl_redis_unexpected(r, i == 0 ? "MULTI" : "SET (queued)", NULL);
		}
	}
	const redisReply *exec = replies[n + 1];
	if (st == TBL_REDIS_OK) {
		if (refused) {
			st = tbl_redis_conn_error_reply(r->cur, refused);
		} else if (exec->type == REDIS_REPLY_ERROR) {
			st = tbl_redis_conn_error_reply(r->cur, exec);
		} else if (exec->type != REDIS_REPLY_ARRAY || exec->elements != n) {
			st = tbl_redis_unexpected(r, "EXEC", NULL);
		} else {
			for (size_t i = 0; i < n && st == TBL_REDIS_OK; i++) {
				if (exec->element[i]->type == REDIS_REPLY_ERROR) {
					st = tbl_redis_conn_error_reply(r->cur, exec->element[i]);
				}
			}
		}
	}
	tbl_redis_free_replies(ncmd, replies);
out:
	free(cmds);
	free(argv);
	free(lens);
	free(replies);
	return st;
}

tbl_redis_status_t tbl_redis_set_many(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                      const void *const *vals, const size_t *vlens, uint64_t ttl_ms)
{
	if (r->cluster && n > 0) return tbl_redis_cl_set_many(r, n, keys, klens, vals, vlens, ttl_ms);
	return tbl_redis_set_many_slot(r, n, keys, klens, vals, vlens, ttl_ms);
}

/* One DEL of n keys (with cluster://, keys of one slot). */
tbl_redis_status_t tbl_redis_del_slot(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                              uint64_t *deleted)
{
	*deleted = 0;
	if (n == 0) return TBL_REDIS_OK;
	if (n >= (size_t)INT32_MAX) {
		snprintf(r->cur->err, sizeof(r->cur->err), "%s: DEL of %zu keys is too many", r->cur->where, n);
		return TBL_REDIS_EREPLY;
	}
	const char **argv = malloc((n + 1) * sizeof(*argv));
	size_t *lens = malloc((n + 1) * sizeof(*lens));
	tbl_redis_status_t st = TBL_REDIS_ENOMEM;
	long long count = 0;
	if (argv && lens) {
		argv[0] = "DEL";
		lens[0] = 3;
		for (size_t i = 0; i < n; i++) {
			argv[i + 1] = keys[i];
			lens[i + 1] = klens[i];
		}
		st = run_integer(r, "DEL", (int)(n + 1), argv, lens, &count);
	} else {
		snprintf(r->cur->err, sizeof(r->cur->err), "%s: out of memory building DEL", r->cur->where);
	}
	free(argv);
	free(lens);
	if (st == TBL_REDIS_OK) *deleted = count > 0 ? (uint64_t)count : 0;
	return st;
}

tbl_redis_status_t tbl_redis_del(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                 uint64_t *deleted)
{
	if (r->cluster && n > 0) return tbl_redis_cl_del(r, n, keys, klens, deleted);
	return tbl_redis_del_slot(r, n, keys, klens, deleted);
}

tbl_redis_status_t tbl_redis_exists(tbl_redis_t *r, const char *key, size_t klen)
{
	const char *argv[] = { "EXISTS", key };
	size_t lens[] = { 6, klen };
	long long count = 0;
	tbl_redis_status_t st = run_integer(r, "EXISTS", 2, argv, lens, &count);
	if (st != TBL_REDIS_OK) return st;
	return count > 0 ? TBL_REDIS_OK : TBL_REDIS_NIL;
}

tbl_redis_status_t tbl_redis_pttl(tbl_redis_t *r, const char *key, size_t klen, int64_t *ms)
{
	const char *argv[] = { "PTTL", key };
	size_t lens[] = { 4, klen };
	long long left = 0;
	tbl_redis_status_t st = run_integer(r, "PTTL", 2, argv, lens, &left);
	if (st != TBL_REDIS_OK) return st;
	if (left == -2) return TBL_REDIS_NIL;
	*ms = left;
	return TBL_REDIS_OK;
}

tbl_redis_status_t tbl_redis_expire(tbl_redis_t *r, const char *key, size_t klen, uint64_t ttl_ms)
{
	if (ttl_ms > 0) {
		char ttl_text[24];
		const char *argv[] = { "PEXPIRE", key, ttl_text };
		size_t lens[] = { 7, klen, (size_t)snprintf(ttl_text, sizeof(ttl_text), "%" PRIu64, ttl_ms) };
		long long applied = 0;
		tbl_redis_status_t st = run_integer(r, "PEXPIRE", 3, argv, lens, &applied);
		if (st != TBL_REDIS_OK) return st;
		return applied ? TBL_REDIS_OK : TBL_REDIS_NIL;
	}
	/* PERSIST answers 0 both for a missing key and for one without expiry: EXISTS tells them apart. */
	const char *exists_argv[] = { "EXISTS", key }, *persist_argv[] = { "PERSIST", key };
	size_t exists_lens[] = { 6, klen }, persist_lens[] = { 7, klen };
	tbl_redis_cmd_t cmds[] = { { 2, exists_argv, exists_lens }, { 2, persist_argv, persist_lens } };
	redisReply *replies[2];
	tbl_redis_status_t st = run_keyed(r, key, klen, 2, cmds, replies);
	if (st != TBL_REDIS_OK) return st;
	for (int i = 0; i < 2 && st == TBL_REDIS_OK; i++) {
		if (replies[i]->type == REDIS_REPLY_ERROR) {
			st = tbl_redis_conn_error_reply(r->cur, replies[i]);
		} else if (replies[i]->type != REDIS_REPLY_INTEGER) {
			st = tbl_redis_unexpected(r, i == 0 ? "EXISTS" : "PERSIST", NULL);
		}
	}
	if (st == TBL_REDIS_OK && replies[0]->integer == 0) st = TBL_REDIS_NIL;
	tbl_redis_free_replies(2, replies);
	return st;
}

/* EVALSHA of a script from redis_scripts.h, or EVAL when the server does not have it. args are the
 * script's KEYS[1] then its ARGV. */
static tbl_redis_status_t run_script(tbl_redis_t *r, const char *sha1, const char *text, int nargs,
                                     const char **args, const size_t *arglens, redisReply **reply)
{
	const char *argv[8];
	size_t lens[8];
	argv[0] = "EVALSHA", lens[0] = 7;
	argv[1] = sha1, lens[1] = strlen(sha1);
	argv[2] = "1", lens[2] = 1;
	for (int i = 0; i < nargs; i++) {
		argv[3 + i] = args[i];
		lens[3 + i] = arglens[i];
	}
	tbl_redis_cmd_t cmd = { 3 + nargs, argv, lens };
	tbl_redis_status_t st = run_keyed(r, args[0], arglens[0], 1, &cmd, reply);
	if (st != TBL_REDIS_OK) return st;
	if ((*reply)->type == REDIS_REPLY_ERROR && (*reply)->len >= 8 && memcmp((*reply)->str, "NOSCRIPT", 8) == 0) {
		freeReplyObject(*reply);
		argv[0] = "EVAL", lens[0] = 4;
		argv[1] = text, lens[1] = strlen(text);
		st = run_keyed(r, args[0], arglens[0], 1, &cmd, reply);
	}
	return st;
}

static int reply_mentions(const redisReply *reply, const char *needle)
{
	size_t nlen = strlen(needle);
	for (size_t i = 0; i + nlen <= reply->len; i++) {
		if (memcmp(reply->str + i, needle, nlen) == 0) return 1;
	}
	return 0;
}

/* PEXPIRE refuses a time past the year ~292 million (ms since the epoch overflowing int64); refusing such
 * a ttl before the script runs keeps INCRBY from being applied without its expiry. */
#define TBL_REDIS_TTL_MS_MAX ((uint64_t)1 << 52)

tbl_redis_status_t tbl_redis_incrby(tbl_redis_t *r, const char *key, size_t klen, int64_t by, uint64_t ttl_ms,
                                    int64_t *result)
{
	if (ttl_ms > TBL_REDIS_TTL_MS_MAX) {
		snprintf(r->cur->err, sizeof(r->cur->err), "%s: ttl of %" PRIu64 " ms is too large (at most %" PRIu64 ")",
		         r->cur->where, ttl_ms, TBL_REDIS_TTL_MS_MAX);
		return TBL_REDIS_EREPLY;
	}
	char by_text[24], ttl_text[24];
	const char *args[] = { key, by_text, ttl_text };
	size_t lens[] = { klen, (size_t)snprintf(by_text, sizeof(by_text), "%" PRId64, by),
		              (size_t)snprintf(ttl_text, sizeof(ttl_text), "%" PRIu64, ttl_ms) };
	redisReply *reply;
	tbl_redis_status_t st =
		run_script(r, TBL_REDIS_SCRIPT_INCRBY_SHA1, TBL_REDIS_SCRIPT_INCRBY, 3, args, lens, &reply);
	if (st != TBL_REDIS_OK) return st;
	if (reply->type == REDIS_REPLY_ERROR) {
		st = tbl_redis_conn_error_reply(r->cur, reply);
		if (reply_mentions(reply, "overflow")) st = TBL_REDIS_EOVERFLOW;
		else if (reply_mentions(reply, "not an integer") || reply_mentions(reply, "WRONGTYPE")) st = TBL_REDIS_ETYPE;
		freeReplyObject(reply);
		return st;
	}
	if (reply->type != REDIS_REPLY_INTEGER) return tbl_redis_unexpected(r, "the INCRBY script", reply);
	*result = reply->integer;
	freeReplyObject(reply);
	return TBL_REDIS_OK;
}

/* A compare-and-something script: 1 -> OK, 0 -> NIL. */
static tbl_redis_status_t run_conditional(tbl_redis_t *r, const char *name, const char *sha1, const char *text,
                                          int nargs, const char **args, const size_t *lens)
{
	redisReply *reply;
	tbl_redis_status_t st = run_script(r, sha1, text, nargs, args, lens, &reply);
	if (st != TBL_REDIS_OK) return st;
	if (reply->type == REDIS_REPLY_ERROR) return error_reply(r, reply);
	if (reply->type != REDIS_REPLY_INTEGER) return tbl_redis_unexpected(r, name, reply);
	st = reply->integer == 1 ? TBL_REDIS_OK : TBL_REDIS_NIL;
	freeReplyObject(reply);
	return st;
}

tbl_redis_status_t tbl_redis_replace_if(tbl_redis_t *r, const char *key, size_t klen, const void *expect,
                                        size_t elen, const void *val, size_t vlen)
{
	const char *args[] = { key, expect, val };
	size_t lens[] = { klen, elen, vlen };
	return run_conditional(r, "the replace_if script", TBL_REDIS_SCRIPT_REPLACE_IF_SHA1, TBL_REDIS_SCRIPT_REPLACE_IF,
	                       3, args, lens);
}

tbl_redis_status_t tbl_redis_delete_if(tbl_redis_t *r, const char *key, size_t klen, const void *expect,
                                       size_t elen)
{
	const char *args[] = { key, expect };
	size_t lens[] = { klen, elen };
	return run_conditional(r, "the delete_if script", TBL_REDIS_SCRIPT_DELETE_IF_SHA1, TBL_REDIS_SCRIPT_DELETE_IF, 2,
	                       args, lens);
}

/* prefix with the glob's special characters backslash-escaped, then '*'. Caller frees. */
static char *prefix_pattern(const char *prefix, size_t plen, size_t *pattern_len)
{
	char *pattern = malloc(plen * 2 + 2);
	size_t n = 0;
	if (!pattern) return NULL;
	for (size_t i = 0; i < plen; i++) {
		char c = prefix[i];
		if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') pattern[n++] = '\\';
		pattern[n++] = c;
	}
	pattern[n++] = '*';
	pattern[n] = '\0';
	*pattern_len = n;
	return pattern;
}

/* UNLINK of the keys of one SCAN batch (a string array). */
static tbl_redis_status_t unlink_batch(tbl_redis_t *r, const redisReply *keys, uint64_t *deleted)
{
	if (keys->elements == 0) return TBL_REDIS_OK;
	const char **argv = malloc((keys->elements + 1) * sizeof(*argv));
	size_t *lens = malloc((keys->elements + 1) * sizeof(*lens));
	tbl_redis_status_t st = TBL_REDIS_ENOMEM;
	long long count = 0;
	if (argv && lens) {
		argv[0] = "UNLINK";
		lens[0] = 6;
		for (size_t i = 0; i < keys->elements; i++) {
			argv[i + 1] = keys->element[i]->str;
			lens[i + 1] = keys->element[i]->len;
		}
		st = run_integer(r, "UNLINK", (int)keys->elements + 1, argv, lens, &count);
		if (st == TBL_REDIS_OK && count > 0) *deleted += (uint64_t)count;
	} else {
		snprintf(r->cur->err, sizeof(r->cur->err), "%s: out of memory building UNLINK", r->cur->where);
	}
	free(argv);
	free(lens);
	return st;
}

/* SCAN and UNLINK until the cursor is 0, on the one server (c NULL) or on a cluster's master c. */
tbl_redis_status_t tbl_redis_del_prefix_on(tbl_redis_t *r, tbl_redis_conn_t *c, const char *pattern, size_t pattern_len,
                                        uint64_t *deleted)
{
	char cursor[24] = "0";
	tbl_redis_status_t st;
	do {
		const char *argv[] = { "SCAN", cursor, "MATCH", pattern, "COUNT", "1000" };
		size_t lens[] = { 4, strlen(cursor), 5, pattern_len, 5, 4 };
		tbl_redis_cmd_t cmd = { 6, argv, lens };
		redisReply *reply;
		st = c ? tbl_redis_run_on(r, c, 0, 0, 1, &cmd, &reply) : run_one(r, 6, argv, lens, &reply);
		if (st != TBL_REDIS_OK) break;
		if (reply->type == REDIS_REPLY_ERROR) {
			st = error_reply(r, reply);
			break;
		}
		int well_formed = reply->type == REDIS_REPLY_ARRAY && reply->elements == 2 &&
		                  reply->element[0]->type == REDIS_REPLY_STRING && reply->element[0]->len > 0 &&
		                  reply->element[0]->len < sizeof(cursor) && reply->element[1]->type == REDIS_REPLY_ARRAY;
		for (size_t i = 0; well_formed && i < reply->element[1]->elements; i++) {
			well_formed = reply->element[1]->element[i]->type == REDIS_REPLY_STRING;
		}
		if (!well_formed) {
			st = tbl_redis_unexpected(r, "SCAN", reply);
			break;
		}
		memcpy(cursor, reply->element[0]->str, reply->element[0]->len);
		cursor[reply->element[0]->len] = '\0';
		st = c ? tbl_redis_cl_unlink_each(r, c, reply->element[1], deleted) : unlink_batch(r, reply->element[1], deleted);
		freeReplyObject(reply);
	} while (st == TBL_REDIS_OK && strcmp(cursor, "0") != 0);
	return st;
}

tbl_redis_status_t tbl_redis_del_prefix(tbl_redis_t *r, const char *prefix, size_t plen, uint64_t *deleted)
{
	size_t pattern_len;
	char *pattern = prefix_pattern(prefix, plen, &pattern_len);
	*deleted = 0;
	if (!pattern) {
		snprintf(r->cur->err, sizeof(r->cur->err), "%s: out of memory building a SCAN pattern", r->cur->where);
		return TBL_REDIS_ENOMEM;
	}
	tbl_redis_status_t st = r->cluster ? tbl_redis_cl_del_prefix(r, pattern, pattern_len, deleted)
	                                   : tbl_redis_del_prefix_on(r, NULL, pattern, pattern_len, deleted);
	free(pattern);
	return st;
}
