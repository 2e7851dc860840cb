/*
 * test_redis_cluster.c - cluster:// (issue #37): the slot function (redis_cluster.h), the client routing
 * every command to its key's master and following MOVED/ASK (redis_client.c), a failover, garbage from a
 * node, and invalidation tracking on every master (redis_tracker.c).
 *
 * One real cluster serves the whole binary (server.h's test_cluster_start): three masters, and a replica
 * of the first for the failover, which comes last because it changes the cluster for good. Fake nodes
 * (one thread each) answer what the test chooses, for the replies a real node never sends. No test waits
 * a fixed time: the loops wait until something is true, with a bound of a minute that only tells a hang
 * from slowness.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "fake_server.h"
#include "harness.h"
#include "server.h"
#include "../redis_client.h"
#include "../redis_cluster.h"
#include "../redis_tracker.h"
#include "../redis_url.h"

#define MASTERS 3
#define NODES 4              /* the masters, and a replica of master 0 */
#define WAIT_MS 60000u       /* a bound that tells a hang from slowness */

static test_server_t nodes[NODES];
static int cluster_up;

static uint64_t now_ms(void)
{
	return tbl_redis_monotonic_ms();
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

/* The index of the master (0..MASTERS-1) whose range holds slot, as test_cluster_start shares them. */
static int master_of_slot(unsigned slot)
{
	for (int m = 0; m < MASTERS; m++) {
		if (slot < (unsigned)(16384L * (m + 1) / MASTERS)) return m;
	}
	return -1;
}

/* A key "<stem><n>" whose slot master m serves, into buf. */
static size_t key_on_master(int m, const char *stem, char *buf, size_t cap)
{
	for (int n = 0;; n++) {
		size_t len = (size_t)snprintf(buf, cap, "%s%d", stem, n);
		if (master_of_slot(tbl_redis_cluster_key_slot(buf, len)) == m) return len;
	}
}

/* The value of key on a node, asked directly (NULL when missing; the caller frees). Only on the node that
 * serves the key's slot: any other answers MOVED, which is returned as NULL too. */
static char *direct_get(const test_server_t *s, const char *key)
{
	redisReply *r = test_server_command(s, "GET %s", key);
	char *v = r && r->type == REDIS_REPLY_STRING ? strdup(r->str) : NULL;
	if (r) freeReplyObject(r);
	return v;
}

/* An integer reply's value (-1 for anything else), the reply freed. */
static long long integer_of(redisReply *r)
{
	long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
	if (r) freeReplyObject(r);
	return v;
}

static long long keys_in_slot(const test_server_t *s, unsigned slot)
{
	return integer_of(test_server_command(s, "CLUSTER COUNTKEYSINSLOT %u", slot));
}

static int node_ok(const test_server_t *s, const char *fmt, const char *a, const char *b)
{
	redisReply *r = test_server_command(s, fmt, a, b);
	int ok = r && r->type != REDIS_REPLY_ERROR;
	if (!ok) fprintf(stderr, "%s on port %d: %s\n", fmt, s->port, r && r->str ? r->str : "no reply");
	if (r) freeReplyObject(r);
	return ok;
}

/* ---- slots ------------------------------------------------------------------------------------------- */

static void test_slot_function(void)
{
	CHECK(tbl_redis_cluster_crc16("123456789", 9) == 0x31C3);
	CHECK(tbl_redis_cluster_key_slot("foo", 3) == 12182);
	CHECK(tbl_redis_cluster_key_slot("", 0) == 0);
	const char *a = "{user1000}.following", *b = "{user1000}.followers";
	CHECK(tbl_redis_cluster_key_slot(a, strlen(a)) == tbl_redis_cluster_key_slot(b, strlen(b)));
	CHECK(tbl_redis_cluster_key_slot(a, strlen(a)) == tbl_redis_cluster_key_slot("user1000", 8));
	/* "{}" is no tag: the whole key is hashed. */
	CHECK(tbl_redis_cluster_key_slot("foo{}{bar}", 10) == (tbl_redis_cluster_crc16("foo{}{bar}", 10) & 16383));
	/* Only up to the first '}': "{bar" is the tag. */
	CHECK(tbl_redis_cluster_key_slot("foo{{bar}}zap", 13) == (tbl_redis_cluster_crc16("{bar", 4) & 16383));
	CHECK(tbl_redis_cluster_key_slot("foo{bar}{zap}", 13) == tbl_redis_cluster_key_slot("bar", 3));
	/* A '{' without a '}' after it: the whole key. */
	CHECK(tbl_redis_cluster_key_slot("foo{bar", 7) == (tbl_redis_cluster_crc16("foo{bar", 7) & 16383));
	/* Binary keys, NUL bytes included. */
	CHECK(tbl_redis_cluster_key_slot("a\0{b}", 5) == tbl_redis_cluster_key_slot("b", 1));
}

static void test_redirect_parse(void)
{
	unsigned slot;
	char host[64];
	int port;
	CHECK(tbl_redis_cluster_parse_redirect("MOVED 3999 127.0.0.1:6381", 25, &slot, host, sizeof(host), &port) == 1);
	CHECK(slot == 3999 && strcmp(host, "127.0.0.1") == 0 && port == 6381);
	const char *ask = "ASK 16383 [::1]:7000";
	CHECK(tbl_redis_cluster_parse_redirect(ask, strlen(ask), &slot, host, sizeof(host), &port) == 2);
	CHECK(slot == 16383 && strcmp(host, "::1") == 0 && port == 7000);
	const char *v6 = "MOVED 1 ::1:7001";
	CHECK(tbl_redis_cluster_parse_redirect(v6, strlen(v6), &slot, host, sizeof(host), &port) == 1);
	CHECK(strcmp(host, "::1") == 0 && port == 7001);
	static const char *const bad[] = {
		"MOVED 16384 127.0.0.1:1", "MOVED 1 127.0.0.1:0", "MOVED 1 127.0.0.1:65536", "MOVED 1 127.0.0.1",
		"MOVED x 127.0.0.1:1", "MOVED 1 :6379", "MOVED 1 host/x:1", "ASK 1 127.0.0.1:", "MOVED 99999999999 h:1",
		"MOVED ", "ASK 12 h:1x",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int kind = tbl_redis_cluster_parse_redirect(bad[i], strlen(bad[i]), &slot, host, sizeof(host), &port);
		if (kind != -1) fprintf(stderr, "redirect %s: %d\n", bad[i], kind);
		CHECK(kind == -1);
	}
	CHECK(tbl_redis_cluster_parse_redirect("ERR wrong", 9, &slot, host, sizeof(host), &port) == 0);
	CHECK(tbl_redis_cluster_parse_redirect("MOVEDX", 6, &slot, host, sizeof(host), &port) == 0);
}

/* ---- a real cluster ---------------------------------------------------------------------------------- */

static void test_cluster_starts(void)
{
	REQUIRE(test_cluster_start(nodes, NODES, MASTERS, NULL) == 0);
	cluster_up = 1;
}

static void test_commands_on_every_master(void)
{
	REQUIRE(cluster_up);
	/* One seed is enough: the others are learnt from it. */
	tbl_redis_url_t url = test_cluster_url(nodes + 1, 1, NULL);
	tbl_redis_t *r = tbl_redis_new(&url, 5000);
	REQUIRE(r);
	test_client = r;
	char keys[MASTERS][64];
	size_t klens[MASTERS];
	const char *kp[MASTERS];
	for (int m = 0; m < MASTERS; m++) {
		klens[m] = key_on_master(m, "every:", keys[m], sizeof(keys[m]));
		kp[m] = keys[m];
		char val[32];
		snprintf(val, sizeof(val), "value-%d", m);
		CHECK_ST(tbl_redis_set(r, keys[m], klens[m], val, strlen(val), 0, 0), TBL_REDIS_OK);
		/* On the master that serves it, and on no other. */
		char *direct = direct_get(&nodes[m], keys[m]);
		CHECK(direct && strcmp(direct, val) == 0);
		free(direct);
		tbl_redis_buf_t b = { 0 };
		CHECK_ST(tbl_redis_get(r, keys[m], klens[m], &b), TBL_REDIS_OK);
		CHECK(b.data && strcmp(b.data, val) == 0);
		tbl_redis_buf_free(&b);
	}
	/* MGET across the three masters, a missing key between them: the caller's order. */
	const char *mkeys[] = { kp[2], "every:missing", kp[0], kp[1] };
	size_t mlens[] = { klens[2], 13, klens[0], klens[1] };
	tbl_redis_buf_t out[4];
	int64_t pttls[4];
	CHECK_ST(tbl_redis_mget(r, 4, mkeys, mlens, out), TBL_REDIS_OK);
	CHECK(out[0].data && strcmp(out[0].data, "value-2") == 0);
	CHECK(out[1].data == NULL);
	CHECK(out[2].data && strcmp(out[2].data, "value-0") == 0);
	CHECK(out[3].data && strcmp(out[3].data, "value-1") == 0);
	for (int i = 0; i < 4; i++) tbl_redis_buf_free(&out[i]);
	CHECK_ST(tbl_redis_expire(r, kp[1], klens[1], 600000), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_mget_pttl(r, 4, mkeys, mlens, out, pttls), TBL_REDIS_OK);
	CHECK(out[3].data && strcmp(out[3].data, "value-1") == 0 && pttls[3] > 0 && pttls[3] <= 600000);
	CHECK(pttls[0] == -1 && pttls[1] == -1 && out[1].data == NULL && pttls[2] == -1);
	for (int i = 0; i < 4; i++) tbl_redis_buf_free(&out[i]);

	/* set_many over every master: one MULTI per slot. */
	const char *vals[] = { "a", "b", "c" };
	size_t vlens[] = { 1, 1, 1 };
	CHECK_ST(tbl_redis_set_many(r, MASTERS, kp, klens, (const void *const *)vals, vlens, 0), TBL_REDIS_OK);
	for (int m = 0; m < MASTERS; m++) {
		char *direct = direct_get(&nodes[m], keys[m]);
		CHECK(direct && strcmp(direct, vals[m]) == 0);
		free(direct);
	}
	/* The scripts, EXISTS, PTTL, go to their key's master too. */
	int64_t result = 0;
	char counter[64];
	size_t clen = key_on_master(2, "counter:", counter, sizeof(counter));
	CHECK_ST(tbl_redis_incrby(r, counter, clen, 5, 0, &result), TBL_REDIS_OK);
	CHECK(result == 5);
	CHECK(integer_of(test_server_command(&nodes[2], "EXISTS %s", counter)) == 1);
	CHECK_ST(tbl_redis_replace_if(r, kp[0], klens[0], "a", 1, "z", 1), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_delete_if(r, kp[0], klens[0], "a", 1), TBL_REDIS_NIL);
	CHECK_ST(tbl_redis_exists(r, kp[0], klens[0]), TBL_REDIS_OK);
	int64_t left;
	CHECK_ST(tbl_redis_pttl(r, kp[0], klens[0], &left), TBL_REDIS_OK);
	CHECK(left == -1);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);

	/* DEL of keys on every master: how many existed, summed. */
	uint64_t deleted = 0;
	CHECK_ST(tbl_redis_del(r, 4, mkeys, mlens, &deleted), TBL_REDIS_OK);
	CHECK(deleted == 3);
	for (int m = 0; m < MASTERS; m++) CHECK_ST(tbl_redis_exists(r, kp[m], klens[m]), TBL_REDIS_NIL);

	/* del_prefix: keys of the prefix on every master go, others stay. */
	for (int m = 0; m < MASTERS; m++) {
		char k[64];
		for (int i = 0; i < 5; i++) {
			char stem[32];
			snprintf(stem, sizeof(stem), "pfx:%d:", i);
			size_t kl = key_on_master(m, stem, k, sizeof(k));
			CHECK_ST(tbl_redis_set(r, k, kl, "x", 1, 0, 0), TBL_REDIS_OK);
		}
		size_t kl = key_on_master(m, "keep:", k, sizeof(k));
		CHECK_ST(tbl_redis_set(r, k, kl, "x", 1, 0, 0), TBL_REDIS_OK);
	}
	CHECK_ST(tbl_redis_del_prefix(r, "pfx:", 4, &deleted), TBL_REDIS_OK);
	CHECK(deleted == 5 * MASTERS);
	for (int m = 0; m < MASTERS; m++) {
		CHECK(integer_of(test_server_command(&nodes[m], "DBSIZE")) >= 1);   /* the keep: key at least */
	}
	CHECK_ST(tbl_redis_del_prefix(r, "keep:", 5, &deleted), TBL_REDIS_OK);
	CHECK(deleted == MASTERS);
	CHECK_ST(tbl_redis_del_prefix(r, "counter:", 8, &deleted), TBL_REDIS_OK);
	tbl_redis_free(r);
}

static void test_hash_tags_share_a_multi(void)
{
	REQUIRE(cluster_up);
	tbl_redis_url_t url = test_cluster_url(nodes, MASTERS, NULL);
	tbl_redis_t *r = tbl_redis_new(&url, 5000);
	REQUIRE(r);
	test_client = r;
	/* Keys of one {tag}: one slot, one MULTI/EXEC, all applied. */
	const char *keys[] = { "{tag}a", "{tag}b", "{tag}c" };
	size_t klens[] = { 6, 6, 6 };
	const char *vals[] = { "1", "2", "3" };
	size_t vlens[] = { 1, 1, 1 };
	CHECK_ST(tbl_redis_set_many(r, 3, keys, klens, (const void *const *)vals, vlens, 60000), TBL_REDIS_OK);
	tbl_redis_buf_t out[3];
	int64_t pttls[3];
	CHECK_ST(tbl_redis_mget_pttl(r, 3, keys, klens, out, pttls), TBL_REDIS_OK);
	for (int i = 0; i < 3; i++) {
		CHECK(out[i].data && strcmp(out[i].data, vals[i]) == 0 && pttls[i] > 0);
		tbl_redis_buf_free(&out[i]);
	}
	uint64_t deleted;
	CHECK_ST(tbl_redis_del(r, 3, keys, klens, &deleted), TBL_REDIS_OK);
	CHECK(deleted == 3);
	/* A value refused at queue time aborts only its own slot's MULTI; the message is the server's. */
	tbl_redis_free(r);
}

/* Moves `slot` from master `from` to master `to` by hand, leaving it MIGRATING/IMPORTING (the keys not
 * moved yet) when finish is 0. */
static int slot_migrating(unsigned slot, int from, int to)
{
	char from_id[64], to_id[64], s[16];
	snprintf(s, sizeof(s), "%u", slot);
	if (test_cluster_node_id(&nodes[from], from_id, sizeof(from_id)) != 0
	    || test_cluster_node_id(&nodes[to], to_id, sizeof(to_id)) != 0) {
		return 0;
	}
	return node_ok(&nodes[to], "CLUSTER SETSLOT %s IMPORTING %s", s, from_id)
	       && node_ok(&nodes[from], "CLUSTER SETSLOT %s MIGRATING %s", s, to_id);
}

static int slot_assign(unsigned slot, int to)
{
	char to_id[64], s[16];
	snprintf(s, sizeof(s), "%u", slot);
	if (test_cluster_node_id(&nodes[to], to_id, sizeof(to_id)) != 0) return 0;
	int ok = 1;
	/* The importing node first, then the others (as redis-cli --cluster reshard does). */
	ok &= node_ok(&nodes[to], "CLUSTER SETSLOT %s NODE %s", s, to_id);
	for (int i = 0; i < MASTERS; i++) {
		if (i != to) ok &= node_ok(&nodes[i], "CLUSTER SETSLOT %s NODE %s", s, to_id);
	}
	return ok;
}

static void test_moved_and_ask(void)
{
	REQUIRE(cluster_up);
	tbl_redis_url_t url = test_cluster_url(nodes, 1, NULL);
	tbl_redis_t *r = tbl_redis_new(&url, 5000);
	REQUIRE(r);
	test_client = r;
	/* Two keys of one slot of master 0 ({m0tag} chosen for it); the client learns the map with them. */
	char tag[32], k1[64], k2[64];
	size_t tlen = key_on_master(0, "mv", tag, sizeof(tag));
	unsigned slot = tbl_redis_cluster_key_slot(tag, tlen);
	snprintf(k1, sizeof(k1), "{%s}one", tag);
	snprintf(k2, sizeof(k2), "{%s}two", tag);
	CHECK_ST(tbl_redis_set(r, k1, strlen(k1), "v1", 2, 0, 0), TBL_REDIS_OK);

	/* Migrating to master 1: k1 still on master 0 is served there; k2, new, is ASKed to master 1. */
	REQUIRE(slot_migrating(slot, 0, 1));
	tbl_redis_buf_t b = { 0 };
	CHECK_ST(tbl_redis_get(r, k1, strlen(k1), &b), TBL_REDIS_OK);
	CHECK(b.data && strcmp(b.data, "v1") == 0);
	tbl_redis_buf_free(&b);
	CHECK_ST(tbl_redis_set(r, k2, strlen(k2), "v2", 2, 0, 0), TBL_REDIS_OK);
	CHECK(keys_in_slot(&nodes[1], slot) == 1);   /* k2 went to the importing master */
	CHECK(keys_in_slot(&nodes[0], slot) == 1);   /* k1 is still on the migrating one */
	CHECK_ST(tbl_redis_get(r, k2, strlen(k2), &b), TBL_REDIS_OK);
	CHECK(b.data && strcmp(b.data, "v2") == 0);
	tbl_redis_buf_free(&b);
	/* In a multi-key call too: k2's slot goes to master 0 in one pipeline with master 2's key, is ASKed on,
	 * and sent again alone to master 1. */
	char other[64];
	size_t olen = key_on_master(2, "other:", other, sizeof(other));
	CHECK_ST(tbl_redis_set(r, other, olen, "o", 1, 0, 0), TBL_REDIS_OK);
	const char *pair[] = { k2, other };
	size_t plens[] = { strlen(k2), olen };
	tbl_redis_buf_t two[2];
	int64_t pttls[2];
	CHECK_ST(tbl_redis_mget_pttl(r, 2, pair, plens, two, pttls), TBL_REDIS_OK);
	CHECK(two[0].data && strcmp(two[0].data, "v2") == 0 && pttls[0] == -1);
	CHECK(two[1].data && strcmp(two[1].data, "o") == 0 && pttls[1] == -1);
	for (int i = 0; i < 2; i++) tbl_redis_buf_free(&two[i]);
	/* Keys of the migrating slot on both sides in one MGET: Redis answers TRYAGAIN, the caller's to handle. */
	const char *split[] = { k1, k2 };
	size_t slens[] = { strlen(k1), strlen(k2) };
	CHECK_ST(tbl_redis_mget(r, 2, split, slens, two), TBL_REDIS_EREPLY);
	CHECK(strstr(tbl_redis_last_error(r), "TRYAGAIN") != NULL);
	CHECK(two[0].data == NULL && two[1].data == NULL);
	/* A MULTI block for a new key of the slot: ASKed on as a whole (ASKING before MULTI), applied there. */
	char k3[64];
	snprintf(k3, sizeof(k3), "{%s}three", tag);
	const char *block[] = { k3, other };
	size_t blens3[] = { strlen(k3), olen };
	const char *bvals[] = { "v3", "o2" };
	size_t bvlens[] = { 2, 2 };
	CHECK_ST(tbl_redis_set_many(r, 2, block, blens3, (const void *const *)bvals, bvlens, 0), TBL_REDIS_OK);
	CHECK(keys_in_slot(&nodes[1], slot) == 2);   /* k2 and k3 */
	CHECK_ST(tbl_redis_get(r, k3, strlen(k3), &b), TBL_REDIS_OK);
	CHECK(b.data && strcmp(b.data, "v3") == 0);
	tbl_redis_buf_free(&b);
	uint64_t gone;
	CHECK_ST(tbl_redis_del(r, 1, block, blens3, &gone), TBL_REDIS_OK);
	CHECK(gone == 1 && keys_in_slot(&nodes[1], slot) == 1);
	CHECK_ST(tbl_redis_set(r, other, olen, "o", 1, 0, 0), TBL_REDIS_OK);

	/* MIGRATE k1, then give the slot to master 1: the client's map is out of date, MOVED corrects it. */
	char port[16];
	snprintf(port, sizeof(port), "%d", nodes[1].port);
	redisReply *mr = test_server_command(&nodes[0], "MIGRATE 127.0.0.1 %s %s 0 5000", port, k1);
	CHECK(mr && mr->type == REDIS_REPLY_STATUS);
	if (mr) freeReplyObject(mr);
	REQUIRE(slot_assign(slot, 1));
	CHECK(keys_in_slot(&nodes[0], slot) == 0);
	CHECK(keys_in_slot(&nodes[1], slot) == 2);
	CHECK_ST(tbl_redis_get(r, k1, strlen(k1), &b), TBL_REDIS_OK);
	CHECK(b.data && strcmp(b.data, "v1") == 0);
	tbl_redis_buf_free(&b);
	/* Writes follow too, and a multi-key call with the slot in it. */
	CHECK_ST(tbl_redis_set(r, k1, strlen(k1), "v1b", 3, 0, 0), TBL_REDIS_OK);
	char *direct = direct_get(&nodes[1], k1);
	CHECK(direct && strcmp(direct, "v1b") == 0);
	free(direct);
	uint64_t deleted;
	const char *both[] = { k1, k2 };
	size_t blens[] = { strlen(k1), strlen(k2) };
	CHECK_ST(tbl_redis_del(r, 2, both, blens, &deleted), TBL_REDIS_OK);
	CHECK(deleted == 2);

	/* And back to master 0, this time with the client knowing nothing yet. */
	REQUIRE(slot_migrating(slot, 1, 0));
	REQUIRE(slot_assign(slot, 0));
	REQUIRE(test_cluster_wait_ok(nodes, NODES) == 0);
	/* The client still sends the slot to master 1: MOVED, in the pipelined MGET as well. */
	CHECK_ST(tbl_redis_mget(r, 2, pair, plens, two), TBL_REDIS_OK);
	CHECK(two[0].data == NULL && two[1].data && strcmp(two[1].data, "o") == 0);
	for (int i = 0; i < 2; i++) tbl_redis_buf_free(&two[i]);
	CHECK_ST(tbl_redis_set(r, k1, strlen(k1), "back", 4, 0, 0), TBL_REDIS_OK);
	direct = direct_get(&nodes[0], k1);
	CHECK(direct && strcmp(direct, "back") == 0);
	free(direct);
	CHECK_ST(tbl_redis_del(r, 1, both, blens, &deleted), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_del(r, 1, pair + 1, plens + 1, &deleted), TBL_REDIS_OK);
	tbl_redis_free(r);
}

/* ---- fake nodes -------------------------------------------------------------------------------------- */

typedef struct fake_node {
	fake_server_t srv;
	char slots[1024];        /* the raw RESP reply to CLUSTER ... */
	char other[256];         /* the raw reply to anything else */
} fake_node_t;

/* fake_server.h's answer function: CLUSTER gets the map set, ASKING +OK, anything else `other`. */
static void node_answer(fake_server_t *srv, const char *cmd, size_t clen, const char *a0, size_t a0len, int *conn,
                        char *reply, size_t cap)
{
	fake_node_t *f = srv->ctx;
	(void)cmd, (void)clen, (void)conn;
	snprintf(reply, cap, "%s", a0len == 7 && strncasecmp(a0, "CLUSTER", 7) == 0 ? f->slots
	                           : a0len == 6 && strncasecmp(a0, "ASKING", 6) == 0 ? "+OK\r\n"
	                                                                             : f->other);
}

static void fake_start(fake_node_t *f)
{
	memset(f, 0, sizeof(*f));
	fake_server_start(&f->srv, node_answer, f);
}

static void fake_stop(fake_node_t *f)
{
	fake_server_stop(&f->srv);
}

static void fake_answers(fake_node_t *f, const char *slots, const char *other)
{
	fake_server_lock(&f->srv);
	snprintf(f->slots, sizeof(f->slots), "%s", slots);
	snprintf(f->other, sizeof(f->other), "%s", other);
	fake_server_unlock(&f->srv);
}

/* The client of a cluster:// URL whose one seed is the fake: GET fails cleanly, naming why. */
static void expect_clean_failure(fake_node_t *f, const char *slots, const char *other, tbl_redis_status_t want,
                                 const char *needle)
{
	char text[128];
	snprintf(text, sizeof(text), "cluster://127.0.0.1:%d", f->srv.port);
	tbl_redis_url_t url;
	char err[256];
	if (tbl_redis_url_parse(text, strlen(text), &url, err, sizeof(err)) != 0) {
		CHECK(!"fake URL parses");
		return;
	}
	fake_answers(f, slots, other);
	tbl_redis_t *r = tbl_redis_new(&url, 2000);
	if (!r) return;
	test_client = r;
	tbl_redis_buf_t b = { 0 };
	uint64_t start = now_ms();
	CHECK_ST(tbl_redis_get(r, "k", 1, &b), want);
	CHECK(b.data == NULL);
	CHECK(now_ms() - start < WAIT_MS);
	if (!strstr(tbl_redis_last_error(r), needle)) {
		fprintf(stderr, "expected \"%s\" in: %s\n", needle, tbl_redis_last_error(r));
		CHECK(!"the message names the cause");
	}
	/* And again: nothing was kept of the bad map. */
	CHECK_ST(tbl_redis_get(r, "k", 1, &b), want);
	test_client = NULL;
	tbl_redis_free(r);
}

static void test_garbage_from_a_node(void)
{
	fake_node_t f;
	fake_start(&f);
	char self[256];
	/* Valid map: every slot on the fake itself. */
	snprintf(self, sizeof(self), "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:%d\r\n", f.srv.port);
	expect_clean_failure(&f, "-ERR This instance has cluster support disabled\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "cluster support disabled");
	expect_clean_failure(&f, "+OK\r\n", "+OK\r\n", TBL_REDIS_EIO, "unexpected reply to CLUSTER SLOTS");
	expect_clean_failure(&f, "*0\r\n", "+OK\r\n", TBL_REDIS_EIO, "no slot is served");
	expect_clean_failure(&f, "*1\r\n*3\r\n:0\r\n:99999\r\n*2\r\n$9\r\n127.0.0.1\r\n:7000\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "bad slot range");
	expect_clean_failure(&f, "*1\r\n*3\r\n:10\r\n:5\r\n*2\r\n$9\r\n127.0.0.1\r\n:7000\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "bad slot range");
	expect_clean_failure(&f, "*1\r\n*3\r\n:-1\r\n:5\r\n*2\r\n$9\r\n127.0.0.1\r\n:7000\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "bad slot range");
	expect_clean_failure(&f, "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:0\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "bad port");
	expect_clean_failure(&f, "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:70000\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "bad port");
	expect_clean_failure(&f, "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$3\r\na/b\r\n:7000\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "bad byte");
	expect_clean_failure(&f, "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$1\r\n?\r\n:7000\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "does not know");
	expect_clean_failure(&f, "*1\r\n*2\r\n:0\r\n:16383\r\n", "+OK\r\n", TBL_REDIS_EIO, "is not [start, end");
	expect_clean_failure(&f, "*1\r\n*3\r\n:0\r\n:16383\r\n*1\r\n$9\r\n127.0.0.1\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "is not [start, end");
	expect_clean_failure(&f, "*1\r\n*3\r\n$1\r\n0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:7000\r\n", "+OK\r\n",
	                     TBL_REDIS_EIO, "is not [start, end");
	expect_clean_failure(&f, "*1\r\n:5\r\n", "+OK\r\n", TBL_REDIS_EIO, "is not [start, end");
	expect_clean_failure(&f, "*2\r\n*3\r\n:0\r\n:100\r\n*2\r\n$9\r\n127.0.0.1\r\n:7000\r\n"
	                         "*3\r\n:100\r\n:200\r\n*2\r\n$9\r\n127.0.0.1\r\n:7001\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "given to two masters");
	expect_clean_failure(&f, "$5\r\nhel", "+OK\r\n", TBL_REDIS_EIO, "timed out");   /* a reply that never ends */
	expect_clean_failure(&f, "*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:%\r\n", "+OK\r\n", TBL_REDIS_EIO,
	                     "protocol error");
	/* A valid map, then nonsense where GET's reply belongs. */
	expect_clean_failure(&f, self, "-MOVED 99999 127.0.0.1:1\r\n", TBL_REDIS_EIO, "malformed MOVED");
	expect_clean_failure(&f, self, "-MOVED 5 127.0.0.1:0\r\n", TBL_REDIS_EIO, "malformed MOVED");
	expect_clean_failure(&f, self, ":12\r\n", TBL_REDIS_EIO, "unexpected reply to GET");
	/* A node that redirects to itself forever: bounded. */
	char loop[128];
	snprintf(loop, sizeof(loop), "-ASK 12539 127.0.0.1:%d\r\n", f.srv.port);
	expect_clean_failure(&f, self, loop, TBL_REDIS_EIO, "redirections");
	snprintf(loop, sizeof(loop), "-MOVED 12539 127.0.0.1:%d\r\n", f.srv.port);
	expect_clean_failure(&f, self, loop, TBL_REDIS_EIO, "redirections");
	/* TRYAGAIN / CLUSTERDOWN are the server's words (EREPLY), and the next call learns the map again. */
	expect_clean_failure(&f, self, "-CLUSTERDOWN The cluster is down\r\n", TBL_REDIS_EREPLY, "CLUSTERDOWN");
	fake_stop(&f);
}

static void test_no_seed_answers(void)
{
	int p1 = test_free_port(), p2 = test_free_port();
	char text[128];
	snprintf(text, sizeof(text), "cluster://127.0.0.1:%d,127.0.0.1:%d", p1, p2);
	tbl_redis_url_t url;
	char err[256];
	REQUIRE(tbl_redis_url_parse(text, strlen(text), &url, err, sizeof(err)) == 0);
	tbl_redis_t *r = tbl_redis_new(&url, 1000);
	REQUIRE(r);
	test_client = r;
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_EIO);
	const char *e = tbl_redis_last_error(r);
	CHECK(strstr(e, "no node answered CLUSTER SLOTS") != NULL);
	char port[16];
	snprintf(port, sizeof(port), ":%d", p2);
	CHECK(strstr(e, port) != NULL);   /* both seeds' reasons are given */
	CHECK(!tbl_redis_connected(r));
	tbl_redis_free(r);
}

/* ---- tracking ---------------------------------------------------------------------------------------- */

typedef struct seen {
	char keys[64][64];
	int n;
	int flushes;
} seen_t;

static void on_key(void *ctx, const char *key, size_t klen)
{
	seen_t *s = ctx;
	if (s->n < 64 && klen < 64) {
		memcpy(s->keys[s->n], key, klen);
		s->keys[s->n++][klen] = '\0';
	}
}

static void on_flush(void *ctx)
{
	((seen_t *)ctx)->flushes++;
}

static int saw(const seen_t *s, const char *key)
{
	for (int i = 0; i < s->n; i++) {
		if (strcmp(s->keys[i], key) == 0) return 1;
	}
	return 0;
}

static void tracking_on_every_master(int force_resp2)
{
	REQUIRE(cluster_up);
	tbl_redis_url_t url = test_cluster_url(nodes, MASTERS, NULL);
	tbl_redis_tracker_t *t = tbl_redis_tracker_new(&url, 5000, "trk:", 4);
	REQUIRE(t);
	if (force_resp2) tbl_redis_tracker_force_resp2(t);
	tbl_redis_t *r = tbl_redis_new(&url, 5000);
	REQUIRE(r);
	test_client = r;
	tbl_redis_status_t st = tbl_redis_tracker_start(t);
	if (st != TBL_REDIS_OK) fprintf(stderr, "tracker start: %s\n", tbl_redis_tracker_last_error(t));
	CHECK(st == TBL_REDIS_OK);
	/* Its server is the set of masters. */
	const char *server = tbl_redis_tracker_server(t);
	for (int m = 0; m < MASTERS; m++) {
		char port[16];
		snprintf(port, sizeof(port), ":%d", nodes[m].port);
		CHECK(strstr(server, port) != NULL);
	}
	CHECK(strstr(server, "cluster") == NULL);
	seen_t seen = { .n = 0 };
	tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
	uint64_t fresh = 0, before = now_ms();
	/* Fresh only once every master has answered a PING sent after the start. */
	while (fresh == 0 && now_ms() - before < WAIT_MS) {
		if (tbl_redis_tracker_poll(t, 100, 0, &ev, &fresh) != TBL_REDIS_OK) {
			fprintf(stderr, "tracker poll: %s\n", tbl_redis_tracker_last_error(t));
			CHECK(!"poll ok");
			break;
		}
	}
	CHECK(fresh >= before);
	char keys[MASTERS][64];
	for (int m = 0; m < MASTERS; m++) {
		size_t kl = key_on_master(m, "trk:", keys[m], sizeof(keys[m]));
		CHECK_ST(tbl_redis_set(r, keys[m], kl, "x", 1, 0, 0), TBL_REDIS_OK);
	}
	CHECK_ST(tbl_redis_set(r, "other:1", 7, "x", 1, 0, 0), TBL_REDIS_OK);
	uint64_t written = now_ms(), fresh_after = 0;
	int all = 0;
	while (!all && now_ms() - written < WAIT_MS) {
		uint64_t f = 0;
		if (tbl_redis_tracker_poll(t, 100, 0, &ev, &f) != TBL_REDIS_OK) {
			fprintf(stderr, "tracker poll: %s\n", tbl_redis_tracker_last_error(t));
			CHECK(!"poll ok");
			break;
		}
		if (f) fresh_after = f;
		all = 1;
		for (int m = 0; m < MASTERS; m++) all &= saw(&seen, keys[m]);
	}
	CHECK(all);
	CHECK(!saw(&seen, "other:1"));   /* not under the prefix */
	/* Freshness goes on advancing, from the minimum over the masters: never past now. */
	while (fresh_after <= written && now_ms() - written < WAIT_MS) {
		uint64_t f = 0;
		if (tbl_redis_tracker_poll(t, 100, 0, &ev, &f) != TBL_REDIS_OK) break;
		if (f) fresh_after = f;
	}
	CHECK(fresh_after > written && fresh_after <= now_ms());
	uint64_t deleted;
	CHECK_ST(tbl_redis_del_prefix(r, "trk:", 4, &deleted), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_del_prefix(r, "other:", 6, &deleted), TBL_REDIS_OK);
	tbl_redis_tracker_free(t);
	tbl_redis_free(r);
}

static void test_tracking_on_every_master(void)
{
	tracking_on_every_master(0);
}

static void test_tracking_on_every_master_resp2(void)
{
	tracking_on_every_master(1);
}

/* A slot moved while tracking runs: the tracker reports it (EIO) rather than go on for a topology that is
 * no longer the cluster's; started again, it runs on the new one. */
static void test_tracking_sees_a_topology_change(void)
{
	REQUIRE(cluster_up);
	tbl_redis_url_t url = test_cluster_url(nodes, 1, NULL);
	tbl_redis_tracker_t *t = tbl_redis_tracker_new(&url, 5000, "trk:", 4);
	REQUIRE(t);
	REQUIRE(tbl_redis_tracker_start(t) == TBL_REDIS_OK);
	seen_t seen = { .n = 0 };
	tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
	uint64_t fresh = 0;
	CHECK(tbl_redis_tracker_poll(t, 100, 0, &ev, &fresh) == TBL_REDIS_OK);
	/* An empty slot of master 2 to master 1, and back at the end. */
	char tag[32];
	unsigned slot = tbl_redis_cluster_key_slot(tag, key_on_master(2, "topo", tag, sizeof(tag)));
	REQUIRE(slot_migrating(slot, 2, 1));
	REQUIRE(slot_assign(slot, 1));
	uint64_t moved = now_ms();
	tbl_redis_status_t st = TBL_REDIS_OK;
	while (st == TBL_REDIS_OK && now_ms() - moved < WAIT_MS) st = tbl_redis_tracker_poll(t, 100, 0, &ev, &fresh);
	CHECK(st == TBL_REDIS_EIO);
	if (!strstr(tbl_redis_tracker_last_error(t), "topology")) {
		fprintf(stderr, "tracker error: %s\n", tbl_redis_tracker_last_error(t));
		CHECK(!"the error says the topology changed");
	}
	CHECK(tbl_redis_tracker_start(t) == TBL_REDIS_OK);
	REQUIRE(slot_migrating(slot, 1, 2));
	REQUIRE(slot_assign(slot, 2));
	REQUIRE(test_cluster_wait_ok(nodes, NODES) == 0);
	tbl_redis_tracker_free(t);
}

/* ---- failover (last: it changes the cluster for good) ---------------------------------------------- */

static void test_failover(void)
{
	REQUIRE(cluster_up);
	tbl_redis_url_t url = test_cluster_url(nodes, MASTERS, NULL);
	tbl_redis_t *r = tbl_redis_new(&url, 2000);
	REQUIRE(r);
	test_client = r;
	char k0[64], k1[64];
	size_t k0len = key_on_master(0, "fo:", k0, sizeof(k0)), k1len = key_on_master(1, "fo:", k1, sizeof(k1));
	CHECK_ST(tbl_redis_set(r, k0, k0len, "before", 6, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_set(r, k1, k1len, "other", 5, 0, 0), TBL_REDIS_OK);
	/* The replica has it before the master dies. */
	unsigned slot0 = tbl_redis_cluster_key_slot(k0, k0len);
	uint64_t start = now_ms();
	while (keys_in_slot(&nodes[MASTERS], slot0) < 1 && now_ms() - start < WAIT_MS) sleep_ms(10);
	CHECK(keys_in_slot(&nodes[MASTERS], slot0) == 1);

	/* A tracker on the three masters, fresh before the kill. */
	tbl_redis_tracker_t *t = tbl_redis_tracker_new(&url, 2000, "fo:", 3);
	REQUIRE(t);
	REQUIRE(tbl_redis_tracker_start(t) == TBL_REDIS_OK);
	char before[TBL_REDIS_TRACKER_SERVER_MAX];
	snprintf(before, sizeof(before), "%s", tbl_redis_tracker_server(t));
	uint64_t fresh = 0;
	while (fresh == 0 && now_ms() - start < WAIT_MS) {
		CHECK(tbl_redis_tracker_poll(t, 100, 50, NULL, &fresh) == TBL_REDIS_OK);
	}

	test_server_kill(&nodes[0]);
	/* The tracker loses a master: EIO (the caller flushes), however long the promotion takes. */
	tbl_redis_status_t tst = TBL_REDIS_OK;
	start = now_ms();
	while (tst == TBL_REDIS_OK && now_ms() - start < WAIT_MS) tst = tbl_redis_tracker_poll(t, 100, 50, NULL, &fresh);
	CHECK(tst == TBL_REDIS_EIO);
	tbl_redis_buf_t b = { 0 };
	CHECK_ST(tbl_redis_get(r, k0, k0len, &b), TBL_REDIS_EIO);   /* its master is gone */
	CHECK(strstr(tbl_redis_last_error(r), "Redis at") != NULL);
	/* Until the replica is promoted, calls for that slot fail (EIO, or CLUSTERDOWN from the others); then
	 * they work again, the map learnt anew. */
	tbl_redis_status_t st = TBL_REDIS_EIO;
	start = now_ms();
	while (st != TBL_REDIS_OK && now_ms() - start < WAIT_MS) {
		st = tbl_redis_get(r, k0, k0len, &b);
		if (st != TBL_REDIS_OK) {
			CHECK(st == TBL_REDIS_EIO || st == TBL_REDIS_EREPLY);
			sleep_ms(20);
		}
	}
	CHECK_ST(st, TBL_REDIS_OK);
	CHECK(b.data && strcmp(b.data, "before") == 0);
	tbl_redis_buf_free(&b);
	CHECK_ST(tbl_redis_set(r, k0, k0len, "after", 5, 0, 0), TBL_REDIS_OK);
	char *direct = direct_get(&nodes[MASTERS], k0);
	CHECK(direct && strcmp(direct, "after") == 0);   /* on the promoted replica */
	free(direct);
	CHECK_ST(tbl_redis_get(r, k1, k1len, &b), TBL_REDIS_OK);
	CHECK(b.data && strcmp(b.data, "other") == 0);
	tbl_redis_buf_free(&b);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	/* Started again, the tracker is on the new set of masters (the helper counts that as a failover). */
	start = now_ms();
	while (tbl_redis_tracker_start(t) != TBL_REDIS_OK && now_ms() - start < WAIT_MS) sleep_ms(20);
	char port[16];
	snprintf(port, sizeof(port), ":%d", nodes[MASTERS].port);
	CHECK(strcmp(before, tbl_redis_tracker_server(t)) != 0 && strstr(tbl_redis_tracker_server(t), port) != NULL);
	fresh = 0;
	while (fresh == 0 && now_ms() - start < WAIT_MS) {
		CHECK(tbl_redis_tracker_poll(t, 100, 50, NULL, &fresh) == TBL_REDIS_OK);
	}
	CHECK(fresh > 0);
	tbl_redis_tracker_free(t);
	tbl_redis_free(r);
}

static void test_cluster_stops(void)
{
	for (int i = 0; i < NODES; i++) test_server_destroy(&nodes[i]);
}

int main(int argc, char **argv)
{
	(void)argc;
	static const test_case_t tests[] = {
		TEST_ENTRY(test_slot_function),
		TEST_ENTRY(test_redirect_parse),
		TEST_ENTRY(test_garbage_from_a_node),
		TEST_ENTRY(test_no_seed_answers),
		TEST_ENTRY(test_cluster_starts),
		TEST_ENTRY(test_commands_on_every_master),
		TEST_ENTRY(test_hash_tags_share_a_multi),
		TEST_ENTRY(test_moved_and_ask),
		TEST_ENTRY(test_tracking_on_every_master),
		TEST_ENTRY(test_tracking_on_every_master_resp2),
		TEST_ENTRY(test_tracking_sees_a_topology_change),
		TEST_ENTRY(test_failover),
		TEST_ENTRY(test_cluster_stops),
	};
	return test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
