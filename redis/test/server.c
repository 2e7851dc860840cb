/*
 * server.c - starting and stopping redis-server for the tests (see server.h).
 */
#include "server.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
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
