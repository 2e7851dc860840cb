/*
 * server.h - redis-server processes for the tests: each in a temporary folder of its own, listening on a
 * unix socket there and on a free loopback TCP port, with persistence off. The tests stop, freeze
 * (SIGSTOP), kill and restart them, which is why the C test starts them rather than the Makefile.
 *
 * The binary is $TBL_REDIS_SERVER, else "redis-server" on PATH. Servers die with the test process
 * (PR_SET_PDEATHSIG), so a crashed test leaves none behind.
 */
#ifndef TBL_REDIS_TEST_SERVER_H
#define TBL_REDIS_TEST_SERVER_H

#include <sys/types.h>

#include "../redis_url.h"

typedef struct test_server {
	pid_t pid;            /* 0 when not running */
	int port;
	char dir[256];
	char socket_path[300];
	const char *extra[24]; /* more redis-server arguments, NULL-terminated */
} test_server_t;

/* Makes the folder, picks a port, starts the server and waits until it answers PING. 0 or -1. */
int test_server_start(test_server_t *s, const char *const *extra_args);
/* Starts it again with the same folder, port and arguments (after stop or kill). 0 or -1. */
int test_server_restart(test_server_t *s);
/* SIGKILL (resumed first if frozen) and wait. */
void test_server_kill(test_server_t *s);
void test_server_freeze(test_server_t *s);   /* SIGSTOP */
void test_server_thaw(test_server_t *s);     /* SIGCONT */
/* Kills it and removes its folder. */
void test_server_destroy(test_server_t *s);

/* "tcp://127.0.0.1:<port><query>" / "unix://<socket><query>" parsed; aborts the test binary on failure. */
tbl_redis_url_t test_server_tcp_url(const test_server_t *s, const char *query);
tbl_redis_url_t test_server_unix_url(const test_server_t *s, const char *query);

/* A loopback port nothing listens on (bound and released). */
int test_free_port(void);

/* One command on the server's unix socket (hiredis's blocking API, format as redisCommand); NULL when it
 * could not be sent or answered. The caller frees the reply. */
struct redisReply *test_server_command(const test_server_t *s, const char *fmt, ...);

/*
 * A Redis Cluster of n servers started with --cluster-enabled yes (cluster-node-timeout 1000 ms, so that a
 * failover takes a few seconds) and extra_args: servers 0..nmasters-1 are masters that share the 16384
 * slots in even ranges (CLUSTER ADDSLOTSRANGE), the others replicas of master (i - nmasters) % nmasters.
 * They meet through server 0 (CLUSTER MEET). Returns 0 once every node reports cluster_state:ok, agrees on
 * the masters and every replica's link is up; -1 (with a message on stderr) otherwise.
 */
int test_cluster_start(test_server_t *nodes, int n, int nmasters, const char *const *extra_args);
/* Waits (up to a minute) until every running node of the n reports cluster_state:ok and all give the same
 * slot owners in CLUSTER SLOTS; 0 or -1. */
int test_cluster_wait_ok(test_server_t *nodes, int n);
/* The node's id (CLUSTER MYID) into buf (41 bytes); 0 or -1. */
int test_cluster_node_id(const test_server_t *s, char *buf, size_t cap);
/* "cluster://127.0.0.1:<port of node 0>,...<query>" parsed with the first nseeds nodes as seeds. */
tbl_redis_url_t test_cluster_url(const test_server_t *nodes, int nseeds, const char *query);

#endif
