/*
 * redis_cluster.c - a Redis Cluster's slot map and its nodes (redis_cluster.h).
 *
 * Layout: nodes[] holds up to TBL_REDIS_CLUSTER_NODES_MAX pointers to node entries, each a connection
 * (tbl_redis_conn_t, its url the cluster's with this node's host and port) and whether it is a master of
 * the current map. owner[slot] is the index in nodes[] of the slot's master, or NO_OWNER. An entry is
 * allocated once and kept until the cluster is freed: when a discovery leaves a node out of the map, its
 * connection is closed and the entry may later be reused for another address, so a pointer to its conn
 * never dangles (it may describe another node afterwards; callers only use it within one call).
 *
 * Discovery parses CLUSTER SLOTS into a new owner table first and swaps it in only when the whole reply
 * was valid. A reply's entry is [start, end, [host, port, id?, ...], replicas...]; host "" means "the node
 * you asked" (Redis 7 when the endpoint is unknown to it), and "?" an unknown endpoint (refused).
 */
#include "redis_cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_OWNER 0xFFFFu

typedef struct node {
	tbl_redis_conn_t conn;
	int used;        /* the entry holds a node */
	int master;      /* serves slots in the current map */
	unsigned first_slot;
} node_t;

struct tbl_redis_cluster {
	tbl_redis_url_t url;       /* the cluster:// URL as given */
	unsigned timeout_ms;
	int has_map;
	int nnodes;                /* entries allocated in nodes[] */
	node_t *nodes[TBL_REDIS_CLUSTER_NODES_MAX];
	uint16_t owner[TBL_REDIS_CLUSTER_SLOTS];
	uint16_t scratch[TBL_REDIS_CLUSTER_SLOTS];   /* the map being parsed */
	void (*on_reopen)(void *ctx);
	void *on_reopen_ctx;
};

uint16_t tbl_redis_cluster_crc16(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint16_t crc = 0;
	for (size_t i = 0; i < len; i++) {
		crc ^= (uint16_t)(p[i] << 8);
		for (int b = 0; b < 8; b++) {
			crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
		}
	}
	return crc;
}

unsigned tbl_redis_cluster_key_slot(const char *key, size_t klen)
{
	const char *open = memchr(key, '{', klen);
	if (open) {
		size_t from = (size_t)(open - key) + 1;
		const char *close = memchr(key + from, '}', klen - from);
		/* "{}" hashes the whole key; so does a '{' without a '}' after it. */
		if (close && close > key + from) {
			return tbl_redis_cluster_crc16(key + from, (size_t)(close - (key + from))) & (TBL_REDIS_CLUSTER_SLOTS - 1);
		}
	}
	return tbl_redis_cluster_crc16(key, klen) & (TBL_REDIS_CLUSTER_SLOTS - 1);
}

tbl_redis_cluster_t *tbl_redis_cluster_new(const tbl_redis_url_t *url, unsigned timeout_ms)
{
	tbl_redis_cluster_t *cl = calloc(1, sizeof(*cl));
	if (!cl) return NULL;
	cl->url = *url;
	cl->timeout_ms = timeout_ms > 0 ? timeout_ms : 1;
	for (unsigned s = 0; s < TBL_REDIS_CLUSTER_SLOTS; s++) cl->owner[s] = NO_OWNER;
	return cl;
}

void tbl_redis_cluster_free(tbl_redis_cluster_t *cl)
{
	if (!cl) return;
	for (int i = 0; i < cl->nnodes; i++) {
		tbl_redis_conn_close(&cl->nodes[i]->conn);
		free(cl->nodes[i]);
	}
	free(cl);
}

void tbl_redis_cluster_forget_map(tbl_redis_cluster_t *cl)
{
	cl->has_map = 0;
}

void tbl_redis_cluster_forget(tbl_redis_cluster_t *cl)
{
	for (int i = 0; i < cl->nnodes; i++) tbl_redis_conn_close(&cl->nodes[i]->conn);
	cl->has_map = 0;
}

void tbl_redis_cluster_on_reconnect(tbl_redis_cluster_t *cl, void (*fn)(void *ctx), void *ctx)
{
	cl->on_reopen = fn;
	cl->on_reopen_ctx = ctx;
	for (int i = 0; i < cl->nnodes; i++) {
		cl->nodes[i]->conn.on_reopen = fn;
		cl->nodes[i]->conn.on_reopen_ctx = ctx;
	}
}

int tbl_redis_cluster_has_map(const tbl_redis_cluster_t *cl)
{
	return cl->has_map;
}

static int find_node(const tbl_redis_cluster_t *cl, const char *host, int port)
{
	for (int i = 0; i < cl->nnodes; i++) {
		const node_t *n = cl->nodes[i];
		if (n->used && n->conn.url.port == port && strcmp(n->conn.url.host, host) == 0) return i;
	}
	return -1;
}

/* The index of host:port's entry, made when new (reusing one that is not in the map). -1 when full. */
static int node_index(tbl_redis_cluster_t *cl, const char *host, int port)
{
	int i = find_node(cl, host, port);
	if (i >= 0) return i;
	for (i = 0; i < cl->nnodes && cl->nodes[i]->used; i++) {
	}
	if (i == cl->nnodes) {
		if (cl->nnodes == TBL_REDIS_CLUSTER_NODES_MAX) {
			/* Full: take an entry that is not a master of the map (a seed, an old master). */
			for (i = 0; i < cl->nnodes && cl->nodes[i]->master; i++) {
			}
			if (i == cl->nnodes) return -1;
		} else {
			node_t *n = calloc(1, sizeof(*n));
			if (!n) return -1;
			cl->nodes[cl->nnodes++] = n;
		}
	}
	node_t *n = cl->nodes[i];
	tbl_redis_conn_close(&n->conn);
	tbl_redis_url_t url = cl->url;
	url.is_cluster = 0;
	url.nseeds = 0;
	snprintf(url.host, sizeof(url.host), "%s", host);
	url.port = port;
	tbl_redis_conn_init(&n->conn, &url, cl->timeout_ms);
	n->conn.on_reopen = cl->on_reopen;
	n->conn.on_reopen_ctx = cl->on_reopen_ctx;
	n->used = 1;
	n->master = 0;
	return i;
}

tbl_redis_conn_t *tbl_redis_cluster_node(tbl_redis_cluster_t *cl, const char *host, int port)
{
	int i = node_index(cl, host, port);
	return i < 0 ? NULL : &cl->nodes[i]->conn;
}

tbl_redis_conn_t *tbl_redis_cluster_slot_conn(tbl_redis_cluster_t *cl, unsigned slot)
{
	if (!cl->has_map || slot >= TBL_REDIS_CLUSTER_SLOTS || cl->owner[slot] == NO_OWNER) return NULL;
	return &cl->nodes[cl->owner[slot]]->conn;
}

void tbl_redis_cluster_moved(tbl_redis_cluster_t *cl, unsigned slot, tbl_redis_conn_t *conn)
{
	for (int i = 0; i < cl->nnodes; i++) {
		if (&cl->nodes[i]->conn == conn && cl->nodes[i]->master && slot < TBL_REDIS_CLUSTER_SLOTS) {
			cl->owner[slot] = (uint16_t)i;
			return;
		}
	}
	cl->has_map = 0;   /* a master the map does not know: learn the whole map again */
}

static int masters_order(const void *a, const void *b)
{
	const node_t *x = *(node_t *const *)a, *y = *(node_t *const *)b;
	return (x->first_slot > y->first_slot) - (x->first_slot < y->first_slot);
}

int tbl_redis_cluster_masters(tbl_redis_cluster_t *cl, tbl_redis_conn_t **out, int max)
{
	node_t *list[TBL_REDIS_CLUSTER_NODES_MAX];
	int n = 0;
	if (!cl->has_map) return 0;
	for (int i = 0; i < cl->nnodes; i++) {
		if (cl->nodes[i]->used && cl->nodes[i]->master) list[n++] = cl->nodes[i];
	}
	qsort(list, (size_t)n, sizeof(list[0]), masters_order);
	for (int i = 0; i < n && i < max; i++) out[i] = &list[i]->conn;
	return n < max ? n : max;
}

static int address_order(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

uint64_t tbl_redis_cluster_describe(const tbl_redis_cluster_t *cl, char *buf, size_t cap)
{
	const char *sorted[TBL_REDIS_CLUSTER_NODES_MAX];
	int n = 0;
	uint64_t hash = 1469598103934665603ull;   /* FNV-1a over the owner of every slot, by address */
	if (cap > 0) buf[0] = '\0';
	if (!cl->has_map) return 0;
	char (*names)[300] = calloc(TBL_REDIS_CLUSTER_NODES_MAX, sizeof(*names));
	if (!names) return 0;
	for (int i = 0; i < cl->nnodes; i++) {
		if (!cl->nodes[i]->used || !cl->nodes[i]->master) continue;
		tbl_redis_url_describe(&cl->nodes[i]->conn.url, names[i], sizeof(names[i]));
	}
	for (unsigned s = 0; s < TBL_REDIS_CLUSTER_SLOTS; s++) {
		const char *who = cl->owner[s] == NO_OWNER ? "-" : names[cl->owner[s]];
		for (const char *p = who; ; p++) {
			hash = (hash ^ (unsigned char)*p) * 1099511628211ull;
			if (!*p) break;
		}
	}
	for (int i = 0; i < cl->nnodes; i++) {
		if (cl->nodes[i]->used && cl->nodes[i]->master) sorted[n++] = names[i];
	}
	qsort(sorted, (size_t)n, sizeof(sorted[0]), address_order);
	size_t len = 0;
	for (int i = 0; i < n && len < cap; i++) {
		len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? "," : "", sorted[i]);
	}
	free(names);
	return hash;
}

int tbl_redis_cluster_parse_redirect(const char *s, size_t len, unsigned *slot, char *host, size_t hostcap,
                                     int *port)
{
	int kind;
	size_t i;
	if (len >= 6 && memcmp(s, "MOVED ", 6) == 0) {
		kind = 1;
		i = 6;
	} else if (len >= 4 && memcmp(s, "ASK ", 4) == 0) {
		kind = 2;
		i = 4;
	} else {
		return 0;
	}
	unsigned long n = 0;
	size_t digits = 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9' && digits < 6; i++, digits++) n = n * 10 + (unsigned long)(s[i] - '0');
	if (digits == 0 || n >= TBL_REDIS_CLUSTER_SLOTS || i >= len || s[i] != ' ') return -1;
	*slot = (unsigned)n;
	const char *addr = s + i + 1;
	size_t alen = len - i - 1;
	/* host:port, the port after the last ':' (an IPv6 host has colons of its own, maybe in brackets). */
	const char *colon = NULL;
	for (size_t k = 0; k < alen; k++) if (addr[k] == ':') colon = addr + k;
	if (!colon) return -1;
	const char *h = addr;
	size_t hlen = (size_t)(colon - addr);
	if (hlen >= 2 && h[0] == '[' && h[hlen - 1] == ']') {
		h++;
		hlen -= 2;
	}
	if (hlen == 0 || hlen >= hostcap) return -1;
	for (size_t k = 0; k < hlen; k++) {
		char c = h[k];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-'
		      || c == '_' || c == ':')) {
			return -1;
		}
	}
	const char *p = colon + 1;
	size_t plen = alen - hlen - (size_t)(h != addr ? 2 : 0) - 1;
	long pv = 0;
	if (plen == 0 || plen > 5) return -1;
	for (size_t k = 0; k < plen; k++) {
		if (p[k] < '0' || p[k] > '9') return -1;
		pv = pv * 10 + (p[k] - '0');
	}
	if (pv < 1 || pv > 65535) return -1;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	*port = (int)pv;
	return kind;
}

static int fail_text(char *err, size_t errlen, const char *where, const char *what)
{
	if (errlen > 0) snprintf(err, errlen, "%s: %s", where, what);
	return -1;
}

/* One CLUSTER SLOTS reply of the node asked (asked: its connection) into cl->scratch and the nodes it
 * names (added to nodes[], their index in idx). 0, or -1 with the reason in err. */
static int parse_slots(tbl_redis_cluster_t *cl, const tbl_redis_conn_t *asked, const redisReply *reply, char *err,
                       size_t errlen)
{
	char why[200];
	if (reply->type == REDIS_REPLY_ERROR) {
		snprintf(why, sizeof(why), "CLUSTER SLOTS refused: %.*s", (int)(reply->len > 150 ? 150 : reply->len), reply->str);
		return fail_text(err, errlen, asked->where, why);
	}
	if (reply->type != REDIS_REPLY_ARRAY) {
		snprintf(why, sizeof(why), "unexpected reply to CLUSTER SLOTS (type %d)", reply->type);
		return fail_text(err, errlen, asked->where, why);
	}
	if (reply->elements == 0) {
		return fail_text(err, errlen, asked->where, "CLUSTER SLOTS: no slot is served (the cluster is not set up)");
	}
	for (unsigned s = 0; s < TBL_REDIS_CLUSTER_SLOTS; s++) cl->scratch[s] = NO_OWNER;
	for (size_t e = 0; e < reply->elements; e++) {
		const redisReply *r = reply->element[e];
		if (r->type != REDIS_REPLY_ARRAY || r->elements < 3 || r->element[0]->type != REDIS_REPLY_INTEGER
		    || r->element[1]->type != REDIS_REPLY_INTEGER || r->element[2]->type != REDIS_REPLY_ARRAY
		    || r->element[2]->elements < 2 || r->element[2]->element[0]->type != REDIS_REPLY_STRING
		    || r->element[2]->element[1]->type != REDIS_REPLY_INTEGER) {
			snprintf(why, sizeof(why), "CLUSTER SLOTS: entry %zu is not [start, end, [host, port, ...], ...]", e + 1);
			return fail_text(err, errlen, asked->where, why);
		}
		long long start = r->element[0]->integer, end = r->element[1]->integer, port = r->element[2]->element[1]->integer;
		const redisReply *h = r->element[2]->element[0];
		if (start < 0 || end < start || end >= (long long)TBL_REDIS_CLUSTER_SLOTS) {
			snprintf(why, sizeof(why), "CLUSTER SLOTS: entry %zu has a bad slot range %lld-%lld", e + 1, start, end);
			return fail_text(err, errlen, asked->where, why);
		}
		if (port < 1 || port > 65535) {
			snprintf(why, sizeof(why), "CLUSTER SLOTS: entry %zu has a bad port %lld", e + 1, port);
			return fail_text(err, errlen, asked->where, why);
		}
		char host[256];
		if (h->len == 0) {
			snprintf(host, sizeof(host), "%s", asked->url.host);   /* "": the node asked */
		} else if (h->len >= sizeof(host)) {
			snprintf(why, sizeof(why), "CLUSTER SLOTS: entry %zu has a host of %zu bytes", e + 1, (size_t)h->len);
			return fail_text(err, errlen, asked->where, why);
		} else {
			for (size_t k = 0; k < h->len; k++) {
				char c = h->str[k];
				if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
				      || c == '-' || c == '_' || c == ':')) {
					snprintf(why, sizeof(why), "CLUSTER SLOTS: entry %zu has a host with a bad byte (0x%02x)%s", e + 1,
					         (unsigned char)c, c == '?' ? ": the node does not know its master's address" : "");
					return fail_text(err, errlen, asked->where, why);
				}
			}
			memcpy(host, h->str, h->len);
			host[h->len] = '\0';
		}
		int idx = node_index(cl, host, (int)port);
		if (idx < 0) {
			return fail_text(err, errlen, asked->where, "CLUSTER SLOTS: more masters than the client can keep");
		}
		for (long long s = start; s <= end; s++) {
			if (cl->scratch[s] != NO_OWNER && cl->scratch[s] != (uint16_t)idx) {
				snprintf(why, sizeof(why), "CLUSTER SLOTS: slot %lld is given to two masters", s);
				return fail_text(err, errlen, asked->where, why);
			}
			cl->scratch[s] = (uint16_t)idx;
		}
	}
	return 0;
}

/* The parsed map in scratch becomes the map: masters marked, the others' connections closed. */
static void adopt_scratch(tbl_redis_cluster_t *cl)
{
	for (int i = 0; i < cl->nnodes; i++) {
		cl->nodes[i]->master = 0;
		cl->nodes[i]->first_slot = TBL_REDIS_CLUSTER_SLOTS;
	}
	for (unsigned s = 0; s < TBL_REDIS_CLUSTER_SLOTS; s++) {
		cl->owner[s] = cl->scratch[s];
		if (cl->scratch[s] != NO_OWNER) {
			node_t *n = cl->nodes[cl->scratch[s]];
			if (!n->master) n->first_slot = s;
			n->master = 1;
		}
	}
	for (int i = 0; i < cl->nnodes; i++) {
		node_t *n = cl->nodes[i];
		if (!n->master && n->used) {
			/* Not a master now (a seed, a replica, a master demoted or gone): kept as an entry only. */
			tbl_redis_conn_close(&n->conn);
			n->used = 0;
		}
	}
	cl->has_map = 1;
}

/* CLUSTER SLOTS of the node at entry idx, before deadline. 0 (the map is cl->scratch), or -1. */
static int ask_node(tbl_redis_cluster_t *cl, int idx, uint64_t deadline, char *err, size_t errlen)
{
	tbl_redis_conn_t *c = &cl->nodes[idx]->conn;
	const char *argv[] = { "CLUSTER", "SLOTS" };
	redisReply *reply = NULL;
	sigset_t saved;
	tbl_redis_status_t st = TBL_REDIS_OK;
	tbl_redis_sigpipe_block(&saved);
	if (c->ctx && tbl_redis_conn_closed_while_idle(c)) tbl_redis_conn_close(c);
	if (!c->ctx) st = tbl_redis_conn_open(c, 0, deadline);
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_append(c, 2, argv, NULL);
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_flush(c, deadline);
	if (st == TBL_REDIS_OK) st = tbl_redis_conn_read(c, deadline, &reply);
	tbl_redis_sigpipe_restore(&saved, st != TBL_REDIS_OK);
	if (st != TBL_REDIS_OK) {
		if (errlen > 0) snprintf(err, errlen, "%s", c->err);
		return -1;
	}
	int rc = parse_slots(cl, c, reply, err, errlen);
	freeReplyObject(reply);
	if (rc != 0) tbl_redis_conn_close(c);   /* a node that answers nonsense is not trusted further */
	return rc;
}

tbl_redis_status_t tbl_redis_cluster_discover(tbl_redis_cluster_t *cl, uint64_t deadline_ms, char *err, size_t errlen)
{
	/* Who to ask: the masters of the map known (they know the newest topology best), then the seeds. */
	char (*hosts)[256] = malloc((TBL_REDIS_CLUSTER_NODES_MAX + TBL_REDIS_CLUSTER_SEEDS_MAX) * sizeof(*hosts));
	int ports[TBL_REDIS_CLUSTER_NODES_MAX + TBL_REDIS_CLUSTER_SEEDS_MAX], n = 0;
	char reasons[1024] = "";
	size_t rlen = 0;
	if (!hosts) {
		if (errlen > 0) snprintf(err, errlen, "Redis cluster: out of memory looking for the masters");
		return TBL_REDIS_ENOMEM;
	}
	for (int i = 0; i < cl->nnodes; i++) {
		if (cl->nodes[i]->used && cl->nodes[i]->master) {
			memcpy(hosts[n], cl->nodes[i]->conn.url.host, sizeof(hosts[n]));
			ports[n++] = cl->nodes[i]->conn.url.port;
		}
	}
	for (int i = 0; i < cl->url.nseeds; i++) {
		int dup = 0;
		for (int k = 0; k < n && !dup; k++) {
			dup = ports[k] == cl->url.seeds[i].port && strcmp(hosts[k], cl->url.seeds[i].host) == 0;
		}
		if (dup) continue;
		memcpy(hosts[n], cl->url.seeds[i].host, sizeof(hosts[n]));
		ports[n++] = cl->url.seeds[i].port;
	}
	cl->has_map = 0;
	for (int i = 0; i < n; i++) {
		uint64_t now = tbl_redis_now_ms();
		if (now >= deadline_ms) {
			rlen += (size_t)snprintf(reasons + rlen, rlen < sizeof(reasons) ? sizeof(reasons) - rlen : 0,
			                         "%stimed out after %u ms", rlen ? "; " : "", cl->timeout_ms);
			break;
		}
		/* A share of what is left, so that one node that hangs cannot use up the others' time. */
		uint64_t share = (deadline_ms - now) / (uint64_t)(n - i);
		if (share < 1) share = 1;
		int idx = node_index(cl, hosts[i], ports[i]);
		char why[600];
		if (idx < 0) {
			snprintf(why, sizeof(why), "out of memory (node table)");
		} else if (ask_node(cl, idx, now + share, why, sizeof(why)) == 0) {
			adopt_scratch(cl);
			free(hosts);
			return TBL_REDIS_OK;
		}
		if (rlen < sizeof(reasons)) {
			rlen += (size_t)snprintf(reasons + rlen, sizeof(reasons) - rlen, "%s%s", rlen ? "; " : "", why);
		}
	}
	free(hosts);
	/* Entries the failed attempts added are no masters: close them. */
	for (int i = 0; i < cl->nnodes; i++) {
		if (cl->nodes[i]->used && !cl->nodes[i]->master) {
			tbl_redis_conn_close(&cl->nodes[i]->conn);
			cl->nodes[i]->used = 0;
		}
	}
	char where[300];
	tbl_redis_url_describe(&cl->url, where, sizeof(where));
	if (errlen > 0) {
		snprintf(err, errlen, "Redis %s: no node answered CLUSTER SLOTS with a valid map (%s)", where, reasons);
	}
	return TBL_REDIS_EIO;
}
