/*
 * server.c - starting and stopping redis-server for the tests (see server.h).
 */
#include "server.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

int test_free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || getsockname(fd, (struct sockaddr *)&a, &alen) != 0) {
		perror("test_free_port");
		exit(2);
	}
	close(fd);
	return ntohs(a.sin_port);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

static int answers_ping(const test_server_t *s)
{
	struct timeval tv = { 0, 200000 };
	redisContext *c = redisConnectUnixWithTimeout(s->socket_path, tv);
	int ok = 0;
	if (c && !c->err) {
		redisReply *r = redisCommand(c, "PING");
		/* A server started with --requirepass answers NOAUTH: it is up all the same. */
		ok = r != NULL && (r->type == REDIS_REPLY_STATUS || r->type == REDIS_REPLY_ERROR);
		if (r) freeReplyObject(r);
	}
	if (c) redisFree(c);
	return ok;
}

static int spawn(test_server_t *s)
{
	const char *bin = getenv("TBL_REDIS_SERVER");
	char port[16], log[320];
	snprintf(port, sizeof(port), "%d", s->port);
	snprintf(log, sizeof(log), "%s/redis.log", s->dir);
	const char *argv[48] = { bin && *bin ? bin : "redis-server", "--port", port, "--bind", "127.0.0.1",
		                     "--unixsocket", s->socket_path, "--unixsocketperm", "700", "--save", "",
		                     "--appendonly", "no", "--dir", s->dir, "--logfile", log, "--daemonize", "no" };
	int argc = 19;
	for (int i = 0; s->extra[i] && argc < 46; i++) argv[argc++] = s->extra[i];
	argv[argc] = NULL;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) return -1;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent) _exit(1);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	s->pid = pid;
	/* At least a minute (each try sleeps 10 ms): a bound for a server that never answers, not a guess at
	 * how long a loaded machine takes to start one. */
	for (int i = 0; i < 6000; i++) {
		if (answers_ping(s)) return 0;
		int status;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			fprintf(stderr, "redis-server exited at start (status %d); log: %s\n", status, log);
			s->pid = 0;
			return -1;
		}
		sleep_ms(10);
	}
	fprintf(stderr, "redis-server did not answer within 60 s; log: %s\n", log);
	test_server_kill(s);
	return -1;
}

int test_server_start(test_server_t *s, const char *const *extra_args)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s/tbl-redis-test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(s->dir)) {
		perror("mkdtemp");
		return -1;
	}
	snprintf(s->socket_path, sizeof(s->socket_path), "%s/redis.sock", s->dir);
	for (int i = 0; extra_args && extra_args[i] && i < (int)(sizeof(s->extra) / sizeof(s->extra[0])) - 1; i++) s->extra[i] = extra_args[i];
	s->port = test_free_port();
	return spawn(s);
}

int test_server_restart(test_server_t *s)
{
	if (s->pid) test_server_kill(s);
	return spawn(s);
}

void test_server_kill(test_server_t *s)
{
	if (!s->pid) return;
	kill(s->pid, SIGCONT);
	kill(s->pid, SIGKILL);
	while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR) {
	}
	s->pid = 0;
	unlink(s->socket_path);
}

void test_server_freeze(test_server_t *s)
{
	kill(s->pid, SIGSTOP);
}

void test_server_thaw(test_server_t *s)
{
	kill(s->pid, SIGCONT);
}

void test_server_destroy(test_server_t *s)
{
	test_server_kill(s);
	if (!s->dir[0]) return;
	DIR *d = opendir(s->dir);
	if (d) {
		struct dirent *e;
		char path[600];
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
			snprintf(path, sizeof(path), "%s/%s", s->dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(s->dir);
	s->dir[0] = '\0';
}

static tbl_redis_url_t parse_or_die(const char *text)
{
	tbl_redis_url_t u;
	char err[256];
	if (tbl_redis_url_parse(text, strlen(text), &u, err, sizeof(err)) != 0) {
		fprintf(stderr, "test URL %s: %s\n", text, err);
		exit(2);
	}
	return u;
}

tbl_redis_url_t test_server_tcp_url(const test_server_t *s, const char *query)
{
	char text[600];
	snprintf(text, sizeof(text), "tcp://127.0.0.1:%d%s", s->port, query ? query : "");
	return parse_or_die(text);
}

tbl_redis_url_t test_server_unix_url(const test_server_t *s, const char *query)
{
	char text[700];
	snprintf(text, sizeof(text), "unix://%s%s", s->socket_path, query ? query : "");
	return parse_or_die(text);
}

redisReply *test_server_command(const test_server_t *s, const char *fmt, ...)
{
	struct timeval tv = { 5, 0 };
	redisContext *c = redisConnectUnixWithTimeout(s->socket_path, tv);
	redisReply *reply = NULL;
	if (c && !c->err) {
		va_list ap;
		va_start(ap, fmt);
		reply = redisvCommand(c, fmt, ap);
		va_end(ap);
	}
	if (c) redisFree(c);
	return reply;
}

int test_cluster_node_id(const test_server_t *s, char *buf, size_t cap)
{
	redisReply *r = test_server_command(s, "CLUSTER MYID");
	int ok = r && r->type == REDIS_REPLY_STRING && r->len > 0 && r->len < cap;
	if (ok) snprintf(buf, cap, "%s", r->str);
	if (r) freeReplyObject(r);
	return ok ? 0 : -1;
}

/* CLUSTER SLOTS of node s summed up as "start-end:port,..." (the masters only), or "" when it fails. */
static void slots_summary(const test_server_t *s, char *out, size_t cap)
{
	redisReply *r = test_server_command(s, "CLUSTER SLOTS");
	size_t n = 0;
	out[0] = '\0';
	if (r && r->type == REDIS_REPLY_ARRAY) {
		/* The entries come in no set order: write them by start slot. */
		for (long long from = 0; from < 16384;) {
			long long best = -1, end = 0, port = 0;
			for (size_t i = 0; i < r->elements; i++) {
				redisReply *e = r->element[i];
				if (e->type != REDIS_REPLY_ARRAY || e->elements < 3) continue;
				if (e->element[0]->integer >= from && (best < 0 || e->element[0]->integer < best)) {
					best = e->element[0]->integer;
					end = e->element[1]->integer;
					port = e->element[2]->element[1]->integer;
				}
			}
			if (best < 0) break;
			n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%lld-%lld:%lld,", best, end, port);
			if (n >= cap) break;
			from = end + 1;
		}
	}
	if (r) freeReplyObject(r);
}

static int cluster_state_ok(const test_server_t *s)
{
	redisReply *r = test_server_command(s, "CLUSTER INFO");
	int ok = r && r->type == REDIS_REPLY_STRING && strstr(r->str, "cluster_state:ok") != NULL;
	if (r) freeReplyObject(r);
	return ok;
}

int test_cluster_wait_ok(test_server_t *nodes, int n)
{
	char first[2048], other[2048];
	for (int tries = 0; tries < 6000; tries++) {
		int ok = 1, have_first = 0;
		for (int i = 0; i < n && ok; i++) {
			if (!nodes[i].pid) continue;
			ok = cluster_state_ok(&nodes[i]);
			if (!ok) break;
			slots_summary(&nodes[i], have_first ? other : first, sizeof(first));
			if (!have_first) {
				have_first = 1;
				ok = first[0] != '\0';
			} else {
				ok = strcmp(first, other) == 0;
			}
		}
		if (ok) return 0;
		sleep_ms(10);
	}
	fprintf(stderr, "the cluster did not settle within a minute\n");
	return -1;
}

/* Whether replica s has its master link up. */
static int replica_linked(const test_server_t *s)
{
	redisReply *r = test_server_command(s, "INFO replication");
	int ok = r && r->type == REDIS_REPLY_STRING && strstr(r->str, "master_link_status:up") != NULL;
	if (r) freeReplyObject(r);
	return ok;
}

int test_cluster_start(test_server_t *nodes, int n, int nmasters, const char *const *extra_args)
{
	/* The bus port is the client port + 10000 unless --cluster-port says otherwise, and a free port may be
	 * above 55535: each node gets a free one of its own. The strings must outlive the servers (restarts). */
	static char bus_ports[64][16];
	const char *args[24] = { "--cluster-enabled", "yes", "--cluster-node-timeout", "1000",
		                     "--cluster-config-file", "nodes.conf", "--cluster-require-full-coverage", "yes",
		                     "--cluster-port", NULL };
	int nargs = 10;
	for (int i = 0; extra_args && extra_args[i] && nargs < 23; i++) args[nargs++] = extra_args[i];
	args[nargs] = NULL;
	for (int i = 0; i < n && i < 64; i++) {
		snprintf(bus_ports[i], sizeof(bus_ports[i]), "%d", test_free_port());
		args[9] = bus_ports[i];
		if (test_server_start(&nodes[i], args) != 0) return -1;
	}
	for (int i = 1; i < n; i++) {
		redisReply *r = test_server_command(&nodes[0], "CLUSTER MEET 127.0.0.1 %d %s", nodes[i].port, bus_ports[i]);
		if (!r || r->type == REDIS_REPLY_ERROR) {
			fprintf(stderr, "CLUSTER MEET: %s\n", r ? r->str : "no reply");
			if (r) freeReplyObject(r);
			return -1;
		}
		freeReplyObject(r);
	}
	for (int m = 0; m < nmasters; m++) {
		int from = (int)(16384L * m / nmasters), to = (int)(16384L * (m + 1) / nmasters) - 1;
		redisReply *r = test_server_command(&nodes[m], "CLUSTER ADDSLOTSRANGE %d %d", from, to);
		if (!r || r->type == REDIS_REPLY_ERROR) {
			fprintf(stderr, "CLUSTER ADDSLOTSRANGE: %s\n", r ? r->str : "no reply");
			if (r) freeReplyObject(r);
			return -1;
		}
		freeReplyObject(r);
	}
	for (int i = nmasters; i < n; i++) {
		char id[64];
		const test_server_t *master = &nodes[(i - nmasters) % nmasters];
		if (test_cluster_node_id(master, id, sizeof(id)) != 0) return -1;
		/* The replica must know the master first (the meeting spreads by gossip). */
		int done = 0;
		for (int tries = 0; tries < 6000 && !done; tries++) {
			redisReply *r = test_server_command(&nodes[i], "CLUSTER REPLICATE %s", id);
			done = r && r->type == REDIS_REPLY_STATUS;
			if (r) freeReplyObject(r);
			if (!done) sleep_ms(10);
		}
		if (!done) {
			fprintf(stderr, "CLUSTER REPLICATE never accepted by node %d\n", i);
			return -1;
		}
	}
	for (int i = nmasters; i < n; i++) {
		int tries = 0;
		while (!replica_linked(&nodes[i]) && tries++ < 6000) sleep_ms(10);
	}
	return test_cluster_wait_ok(nodes, n);
}

tbl_redis_url_t test_cluster_url(const test_server_t *nodes, int nseeds, const char *query)
{
	char text[1200];
	size_t n = (size_t)snprintf(text, sizeof(text), "cluster://");
	for (int i = 0; i < nseeds; i++) {
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s127.0.0.1:%d", i ? "," : "", nodes[i].port);
	}
	snprintf(text + n, sizeof(text) - n, "%s", query ? query : "");
	return parse_or_die(text);
}
