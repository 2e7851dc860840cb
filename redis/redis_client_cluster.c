/*
 * redis_client_cluster.c - the cluster:// side of redis_client.h's commands (issue #37): sending a slot's
 * commands to its master and following redirections, splitting multi-key calls by slot, and the calls that
 * go to every master. redis_cluster.c keeps the map; redis_client.c builds and reads the commands.
 *
 * Routing (tbl_redis_cl_run_slot): the slot's master from the map (learnt with CLUSTER SLOTS on the first
 * call, and again after any failure). A redirected command was not executed (MOVED/ASK are refusals), and
 * every pipeline sent here concerns one slot and is read-only (GET/PTTL, MGET/PTTL), idempotent
 * (EXISTS/PERSIST) or a MULTI block that a refused SET aborts as a whole (EXECABORT), so sending it again to
 * the node named applies nothing twice. MOVED updates the slot (or, when it names a master the map does not
 * know, goes there and makes the next call learn the map again) and resends at once; ASK resends to the node
 * named, after ASKING, and leaves the map as it is; at most TBL_REDIS_CLUSTER_REDIRECTS_MAX of them. A
 * connection error, TRYAGAIN or CLUSTERDOWN fails the call (EIO, or EREPLY with the server's text) and makes
 * the next call learn the map again: nothing that may have been applied is sent twice.
 *
 * Multi-key calls: the keys grouped by slot (qsort of (slot, index)), one command (one MULTI/EXEC for
 * set_many) per slot, all within the call's one deadline (r->deadline), results put back in the caller's
 * order. MGET sends the slots of one master in one pipeline (a round trip per master); a slot whose replies
 * are a redirection is sent again alone through tbl_redis_cl_run_slot. DEL and set_many go one slot after
 * another (a failure stops there; the slots before stay applied: set_many is atomic per slot only).
 * PING and del_prefix (SCAN + UNLINK) go to every master of the map in turn.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redis_client_internal.h"
#include "redis_cluster.h"
#include "redis_conn.h"

/* The cluster's own failure (no map, a slot nobody serves, too many redirections): EIO with the text in
 * r->conn, which last_error then reports. */
static tbl_redis_status_t cluster_fail(tbl_redis_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static tbl_redis_status_t cluster_fail(tbl_redis_t *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->conn.err, sizeof(r->conn.err), fmt, ap);
	va_end(ap);
	r->cur = &r->conn;
	return TBL_REDIS_EIO;
}

static int error_starts(const redisReply *reply, const char *word)
{
	size_t n = strlen(word);
	return reply->type == REDIS_REPLY_ERROR && reply->len >= n && memcmp(reply->str, word, n) == 0;
}

/* The first redirection among n replies: as tbl_redis_cluster_parse_redirect (0 none). TRYAGAIN and
 * CLUSTERDOWN make the map forgotten (the call returns them as error replies). */
static int find_redirect(tbl_redis_cluster_t *cl, size_t n, redisReply **replies, unsigned *slot, char *host,
                         size_t hostcap, int *port)
{
	for (size_t i = 0; i < n; i++) {
		if (replies[i]->type != REDIS_REPLY_ERROR) continue;
		int kind = tbl_redis_cluster_parse_redirect(replies[i]->str, replies[i]->len, slot, host, hostcap, port);
		if (kind != 0) return kind;
		if (error_starts(replies[i], "TRYAGAIN") || error_starts(replies[i], "CLUSTERDOWN")) {
			tbl_redis_cluster_forget_map(cl);
		}
	}
	return 0;
}

/* cluster://: n commands about the one slot `slot`, sent to its master, redirections followed (see the top). */
tbl_redis_status_t tbl_redis_cl_run_slot(tbl_redis_t *r, unsigned slot, size_t n, const tbl_redis_cmd_t *cmds,
                                         redisReply **replies)
{
	tbl_redis_cluster_t *cl = r->cluster;
	uint64_t deadline = r->deadline ? r->deadline : tbl_redis_now_ms() + r->conn.timeout_ms;
	tbl_redis_conn_t *go_to = NULL;   /* where a redirection sent the command */
	int asking = 0;
	for (size_t i = 0; i < n; i++) replies[i] = NULL;
	for (int hop = 0; hop <= TBL_REDIS_CLUSTER_REDIRECTS_MAX; hop++) {
		if (!go_to && !tbl_redis_cluster_has_map(cl)) {
			tbl_redis_status_t st = tbl_redis_cluster_discover(cl, deadline, r->conn.err, sizeof(r->conn.err));
			if (st != TBL_REDIS_OK) {
				r->cur = &r->conn;
				return st;
			}
		}
		tbl_redis_conn_t *c = go_to ? go_to : tbl_redis_cluster_slot_conn(cl, slot);
		if (!c) {
			tbl_redis_cluster_forget_map(cl);
			return cluster_fail(r, "%s: no master serves slot %u (the cluster is down or being set up)", r->conn.where,
			                    slot);
		}
		tbl_redis_status_t st = tbl_redis_run_on(r, c, deadline, asking, n, cmds, replies);
		if (st != TBL_REDIS_OK) {
			/* A node gone (failed over, restarted) or a timeout: learn the map again on the next call. */
			tbl_redis_cluster_forget_map(cl);
			return st;
		}
		unsigned to_slot = 0;
		char host[256];
		int port = 0;
		int kind = find_redirect(cl, n, replies, &to_slot, host, sizeof(host), &port);
		if (kind == 0) return TBL_REDIS_OK;
		tbl_redis_free_replies(n, replies);
		if (kind < 0) {
			tbl_redis_cluster_forget_map(cl);
			return tbl_redis_conn_fail(c, "a malformed MOVED/ASK redirection (not followed)");
		}
		tbl_redis_conn_t *to = tbl_redis_cluster_node(cl, host, port);
		if (!to) return cluster_fail(r, "%s: too many nodes to follow a redirection", r->conn.where);
		if (kind == 1) {
			/* A master the map knows: that slot is its now. One it does not know (a failover, a new node):
			 * go there now and learn the whole map on the next call. */
			tbl_redis_cluster_moved(cl, to_slot, to);
			go_to = tbl_redis_cluster_has_map(cl) ? NULL : to;
			asking = 0;
		} else {
			go_to = to;
			asking = 1;
		}
	}
	tbl_redis_cluster_forget_map(cl);
	return cluster_fail(r, "%s: more than %d MOVED/ASK redirections for slot %u (resharding?)", r->conn.where,
	                    TBL_REDIS_CLUSTER_REDIRECTS_MAX, slot);
}

/* cluster://: the masters of the map (learnt first when unknown), into out (TBL_REDIS_CLUSTER_NODES_MAX). */
static tbl_redis_status_t cluster_masters(tbl_redis_t *r, uint64_t deadline, tbl_redis_conn_t **out, int *n)
{
	*n = 0;
	if (!tbl_redis_cluster_has_map(r->cluster)) {
		tbl_redis_status_t st = tbl_redis_cluster_discover(r->cluster, deadline, r->conn.err, sizeof(r->conn.err));
		if (st != TBL_REDIS_OK) {
			r->cur = &r->conn;
			return st;
		}
	}
	*n = tbl_redis_cluster_masters(r->cluster, out, TBL_REDIS_CLUSTER_NODES_MAX);
	return TBL_REDIS_OK;
}

/* cluster://: keys grouped by slot. by[] is 0..n-1 ordered by (slot, index); a group is a run of one slot. */
typedef struct slot_index {
	unsigned slot;
	size_t index;
} slot_index_t;

static int slot_index_order(const void *a, const void *b)
{
	const slot_index_t *x = a, *y = b;
	if (x->slot != y->slot) return x->slot < y->slot ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* The grouping of n keys (malloc'd; NULL when out of memory, with the message set). */
static slot_index_t *group_by_slot(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens)
{
	slot_index_t *by = malloc(n * sizeof(*by));
	if (!by) {
		snprintf(r->conn.err, sizeof(r->conn.err), "%s: out of memory grouping %zu keys by slot", r->conn.where, n);
		r->cur = &r->conn;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) by[i] = (slot_index_t){ tbl_redis_cluster_key_slot(keys[i], klens[i]), i };
	qsort(by, n, sizeof(*by), slot_index_order);
	return by;
}

/* The end of the group that starts at by[from]. */
static size_t group_end(const slot_index_t *by, size_t n, size_t from)
{
	size_t to = from + 1;
	while (to < n && by[to].slot == by[from].slot) to++;
	return to;
}

/* cluster://: one slot's MGET (and PTTLs) within a multi-slot MGET. */
typedef struct mget_group {
	size_t from, to;             /* its keys: by[from..to) */
	size_t first_cmd, ncmds;     /* its commands in the call's command array */
	tbl_redis_conn_t *conn;      /* its master in the map; NULL: sent alone (run_slot finds it) */
	int pending;                 /* not answered yet */
} mget_group_t;

/* Whether the replies of one group hold a redirection or TRYAGAIN/CLUSTERDOWN: it is sent again alone,
 * through run_slot, which follows (or reports) it. */
static int group_redirected(size_t n, redisReply **replies)
{
	unsigned slot;
	char host[256];
	int port;
	for (size_t i = 0; i < n; i++) {
		if (replies[i]->type == REDIS_REPLY_ERROR
		    && (tbl_redis_cluster_parse_redirect(replies[i]->str, replies[i]->len, &slot, host, sizeof(host), &port) != 0
		        || error_starts(replies[i], "TRYAGAIN") || error_starts(replies[i], "CLUSTERDOWN"))) {
			return 1;
		}
	}
	return 0;
}

/*
 * cluster://: one MGET (and PTTLs) per slot, the results put back in the caller's order. The slots of one
 * master go out in one pipeline (one round trip per master, not per slot); a slot whose replies are a
 * redirection is then sent again on its own through run_slot, which follows it.
 */
tbl_redis_status_t tbl_redis_cl_mget(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                       tbl_redis_buf_t *out, int64_t *pttls)
{
	for (size_t i = 0; i < n; i++) {
		out[i].data = NULL;
		out[i].len = 0;
		if (pttls) pttls[i] = -1;
	}
	if (n == 0) return TBL_REDIS_OK;
	if (n >= (size_t)INT32_MAX / 4) {
		snprintf(r->conn.err, sizeof(r->conn.err), "%s: MGET of %zu keys is too many", r->conn.where, n);
		r->cur = &r->conn;
		return TBL_REDIS_EREPLY;
	}
	size_t per_key = pttls ? 3 : 1;   /* arguments per key: the key in MGET, and PTTL key */
	slot_index_t *by = group_by_slot(r, n, keys, klens);
	const char **gkeys = malloc(n * sizeof(*gkeys));
	size_t *glens = malloc(n * sizeof(*glens));
	tbl_redis_buf_t *gout = malloc(n * sizeof(*gout));
	int64_t *gpttls = malloc(n * sizeof(*gpttls));
	mget_group_t *groups = malloc(n * sizeof(*groups));
	const char **argv = malloc(n * (per_key + 1) * sizeof(*argv));
	size_t *lens = malloc(n * (per_key + 1) * sizeof(*lens));
	tbl_redis_cmd_t *cmds = malloc(2 * n * sizeof(*cmds)), *node_cmds = malloc(2 * n * sizeof(*node_cmds));
	redisReply **replies = malloc(2 * n * sizeof(*replies));
	tbl_redis_status_t st = TBL_REDIS_ENOMEM;
	if (!by || !gkeys || !glens || !gout || !gpttls || !groups || !argv || !lens || !cmds || !node_cmds || !replies) {
		if (by) {
			snprintf(r->conn.err, sizeof(r->conn.err), "%s: out of memory building MGET", r->conn.where);
			r->cur = &r->conn;
		}
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		gout[i].data = NULL;   /* mget_replies fills only what it finds */
		gout[i].len = 0;
		gpttls[i] = -1;
	}
	r->deadline = tbl_redis_now_ms() + r->conn.timeout_ms;
	st = TBL_REDIS_OK;
	if (!tbl_redis_cluster_has_map(r->cluster)) {
		st = tbl_redis_cluster_discover(r->cluster, r->deadline, r->conn.err, sizeof(r->conn.err));
		if (st != TBL_REDIS_OK) {
			r->cur = &r->conn;
			goto out;
		}
	}
	/* Every slot's commands, keys in the caller's order within a slot. */
	size_t ngroups = 0, nargs = 0, ncmds = 0;
	for (size_t from = 0, to; from < n; from = to) {
		to = group_end(by, n, from);
		for (size_t j = from; j < to; j++) {
			gkeys[j] = keys[by[j].index];
			glens[j] = klens[by[j].index];
		}
		mget_group_t *g = &groups[ngroups++];
		g->from = from;
		g->to = to;
		g->first_cmd = ncmds;
		g->ncmds = pttls ? (to - from) + 1 : 1;
		g->conn = tbl_redis_cluster_slot_conn(r->cluster, by[from].slot);
		g->pending = 1;
		tbl_redis_mget_commands(to - from, gkeys + from, glens + from, pttls != NULL, argv + nargs, lens + nargs,
		                        cmds + ncmds);
		nargs += (to - from) * per_key + 1;
		ncmds += g->ncmds;
	}
	/* One pipeline per master: its slots in order. */
	for (size_t gi = 0; gi < ngroups && st == TBL_REDIS_OK; gi++) {
		tbl_redis_conn_t *c = groups[gi].conn;
		if (!groups[gi].pending || !c) continue;
		size_t nnode = 0;
		for (size_t h = gi; h < ngroups; h++) {
			if (groups[h].pending && groups[h].conn == c) {
				memcpy(node_cmds + nnode, cmds + groups[h].first_cmd, groups[h].ncmds * sizeof(*cmds));
				nnode += groups[h].ncmds;
			}
		}
		if ((st = tbl_redis_run_on(r, c, r->deadline, 0, nnode, node_cmds, replies)) != TBL_REDIS_OK) {
			tbl_redis_cluster_forget_map(r->cluster);
			break;
		}
		size_t at = 0;
		for (size_t h = gi; h < ngroups; h++) {
			mget_group_t *g = &groups[h];
			if (!g->pending || g->conn != c) continue;
			redisReply **mine = replies + at;
			at += g->ncmds;
			if (st != TBL_REDIS_OK) {
				tbl_redis_free_replies(g->ncmds, mine);   /* a slot before it failed: the call fails */
				continue;
			}
			if (group_redirected(g->ncmds, mine)) {
				tbl_redis_free_replies(g->ncmds, mine);
				g->conn = NULL;   /* alone, through run_slot, below */
				continue;
			}
			g->pending = 0;
			st = tbl_redis_mget_replies(r, g->to - g->from, mine, gout + g->from, pttls ? gpttls + g->from : NULL);
		}
	}
	/* The slots that were redirected, or whose master the map did not have: one at a time. */
	for (size_t gi = 0; gi < ngroups && st == TBL_REDIS_OK; gi++) {
		mget_group_t *g = &groups[gi];
		if (!g->pending) continue;
		g->pending = 0;
		st = tbl_redis_mget_slot(r, g->to - g->from, gkeys + g->from, glens + g->from, gout + g->from,
		                         pttls ? gpttls + g->from : NULL);
	}
	/* Back in the caller's order; on a failure, every value the earlier slots got is freed. */
	for (size_t gi = 0; gi < ngroups; gi++) {
		mget_group_t *g = &groups[gi];
		if (g->pending) continue;   /* never answered (a failure stopped the call first) */
		for (size_t j = g->from; j < g->to; j++) {
			if (st == TBL_REDIS_OK) {
				out[by[j].index] = gout[j];
				if (pttls) pttls[by[j].index] = gpttls[j];
			} else {
				tbl_redis_buf_free(&gout[j]);
			}
		}
	}
out:
	r->deadline = 0;
	free(by);
	free(gkeys);
	free(glens);
	free(gout);
	free(gpttls);
	free(groups);
	free(argv);
	free(lens);
	free(cmds);
	free(node_cmds);
	free(replies);
	return st;
}

/* Keys, lengths and values of one slot's group, gathered for a per-slot call. */
typedef struct slot_group {
	const char **keys;
	size_t *klens;
	const void **vals;
	size_t *vlens;
} slot_group_t;

static void slot_group_free(slot_group_t *g)
{
	free(g->keys);
	free(g->klens);
	free(g->vals);
	free(g->vlens);
}

static int slot_group_alloc(tbl_redis_t *r, slot_group_t *g, size_t n, int with_values)
{
	g->keys = malloc(n * sizeof(*g->keys));
	g->klens = malloc(n * sizeof(*g->klens));
	g->vals = with_values ? malloc(n * sizeof(*g->vals)) : NULL;
	g->vlens = with_values ? malloc(n * sizeof(*g->vlens)) : NULL;
	if (g->keys && g->klens && (!with_values || (g->vals && g->vlens))) return 0;
	slot_group_free(g);
	snprintf(r->conn.err, sizeof(r->conn.err), "%s: out of memory grouping %zu keys by slot", r->conn.where, n);
	r->cur = &r->conn;
	return -1;
}

/* cluster://: UNLINK of each key of one SCAN batch of node c, one command per key (keys of many slots),
 * pipelined. A key the node no longer serves (MOVED/ASK: its slot is migrating) is left to the walk of the
 * node that has it now, or survives: del_prefix is not atomic. */
tbl_redis_status_t tbl_redis_cl_unlink_each(tbl_redis_t *r, tbl_redis_conn_t *c, const redisReply *keys,
                                            uint64_t *deleted)
{
	size_t n = keys->elements;
	if (n == 0) return TBL_REDIS_OK;
	const char **argv = malloc(2 * n * sizeof(*argv));
	size_t *lens = malloc(2 * n * sizeof(*lens));
	tbl_redis_cmd_t *cmds = malloc(n * sizeof(*cmds));
	redisReply **replies = malloc(n * sizeof(*replies));
	tbl_redis_status_t st = TBL_REDIS_ENOMEM;
	if (argv && lens && cmds && replies) {
		for (size_t i = 0; i < n; i++) {
			argv[2 * i] = "UNLINK", lens[2 * i] = 6;
			argv[2 * i + 1] = keys->element[i]->str, lens[2 * i + 1] = keys->element[i]->len;
			cmds[i] = (tbl_redis_cmd_t){ 2, argv + 2 * i, lens + 2 * i };
		}
		tbl_redis_status_t sent = st = tbl_redis_run_on(r, c, 0, 0, n, cmds, replies);
		for (size_t i = 0; i < n && st == TBL_REDIS_OK; i++) {
			unsigned slot;
			char host[256];
			int port;
			if (replies[i]->type == REDIS_REPLY_INTEGER) {
				if (replies[i]->integer > 0) *deleted += (uint64_t)replies[i]->integer;
			} else if (replies[i]->type == REDIS_REPLY_ERROR) {
				if (tbl_redis_cluster_parse_redirect(replies[i]->str, replies[i]->len, &slot, host, sizeof(host), &port) == 0) {
					st = tbl_redis_conn_error_reply(c, replies[i]);
				}
			} else {
				st = tbl_redis_unexpected(r, "UNLINK", NULL);
			}
		}
		if (sent == TBL_REDIS_OK) tbl_redis_free_replies(n, replies);
	} else {
		snprintf(c->err, sizeof(c->err), "%s: out of memory building UNLINK", c->where);
	}
	free(argv);
	free(lens);
	free(cmds);
	free(replies);
	return st;
}

tbl_redis_status_t tbl_redis_cl_set_many(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                         const void *const *vals, const size_t *vlens, uint64_t ttl_ms)
{
	/* One MULTI/EXEC per slot, in slot order: atomic per slot only (redis_client.h). */
	slot_group_t g;
	slot_index_t *by = group_by_slot(r, n, keys, klens);
	if (!by) return TBL_REDIS_ENOMEM;
	if (slot_group_alloc(r, &g, n, 1) != 0) {
		free(by);
		return TBL_REDIS_ENOMEM;
	}
	tbl_redis_status_t st = TBL_REDIS_OK;
	r->deadline = tbl_redis_now_ms() + r->conn.timeout_ms;
	for (size_t from = 0, to; from < n && st == TBL_REDIS_OK; from = to) {
		to = group_end(by, n, from);
		for (size_t j = from; j < to; j++) {
			g.keys[j - from] = keys[by[j].index];
			g.klens[j - from] = klens[by[j].index];
			g.vals[j - from] = vals[by[j].index];
			g.vlens[j - from] = vlens[by[j].index];
		}
		st = tbl_redis_set_many_slot(r, to - from, g.keys, g.klens, g.vals, g.vlens, ttl_ms);
	}
	r->deadline = 0;
	slot_group_free(&g);
	free(by);
	return st;
}

tbl_redis_status_t tbl_redis_cl_del(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                    uint64_t *deleted)
{
	*deleted = 0;
	slot_group_t g;
	slot_index_t *by = group_by_slot(r, n, keys, klens);
	if (!by) return TBL_REDIS_ENOMEM;
	if (slot_group_alloc(r, &g, n, 0) != 0) {
		free(by);
		return TBL_REDIS_ENOMEM;
	}
	tbl_redis_status_t st = TBL_REDIS_OK;
	r->deadline = tbl_redis_now_ms() + r->conn.timeout_ms;
	for (size_t from = 0, to; from < n && st == TBL_REDIS_OK; from = to) {
		uint64_t count = 0;
		to = group_end(by, n, from);
		for (size_t j = from; j < to; j++) {
			g.keys[j - from] = keys[by[j].index];
			g.klens[j - from] = klens[by[j].index];
		}
		st = tbl_redis_del_slot(r, to - from, g.keys, g.klens, &count);
		*deleted += count;
	}
	r->deadline = 0;
	slot_group_free(&g);
	free(by);
	return st;
}

tbl_redis_status_t tbl_redis_cl_ping(tbl_redis_t *r)
{
	/* Every master, within one timeout: the first that fails is the answer. */
	tbl_redis_conn_t *masters[TBL_REDIS_CLUSTER_NODES_MAX];
	int n;
	uint64_t deadline = tbl_redis_now_ms() + r->conn.timeout_ms;
	tbl_redis_status_t st = cluster_masters(r, deadline, masters, &n);
	for (int i = 0; i < n && st == TBL_REDIS_OK; i++) st = tbl_redis_ping_on(r, masters[i], deadline);
	if (st == TBL_REDIS_EIO) tbl_redis_cluster_forget_map(r->cluster);
	return st;
}

tbl_redis_status_t tbl_redis_cl_del_prefix(tbl_redis_t *r, const char *pattern, size_t pattern_len, uint64_t *deleted)
{
	/* Every master of the map, one after another (SCAN walks one node's keys). */
	tbl_redis_conn_t *masters[TBL_REDIS_CLUSTER_NODES_MAX];
	int n;
	tbl_redis_status_t st = cluster_masters(r, tbl_redis_now_ms() + r->conn.timeout_ms, masters, &n);
	for (int i = 0; i < n && st == TBL_REDIS_OK; i++) {
		st = tbl_redis_del_prefix_on(r, masters[i], pattern, pattern_len, deleted);
	}
	if (st == TBL_REDIS_EIO) tbl_redis_cluster_forget_map(r->cluster);
	return st;
}
