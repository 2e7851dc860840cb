/*
 * test_redis_tls.c - tls:// (redis_tls.c). In every build: the URL grammar of the TLS parameters, and
 * what tier_config says of a tls:// URL (accepted with TLS, refused with a message naming hiredis_ssl
 * without). With TLS (TBL_HAVE_REDIS_TLS) and an openssl command: a CA, a server certificate for
 * localhost and 127.0.0.1, a client certificate and a second, unrelated CA are made with openssl in a
 * temporary folder (removed at the end; no key is ever committed), and a redis-server with TLS only
 * (--port 0) is started. Then: commands work with the right cafile, by address and by name; a wrong CA,
 * a wrong name (sni=) and a missing cafile are refused with messages naming the reason, never by falling
 * back to plaintext; verify=0 connects anyway; a plaintext server and a server that never answers end in
 * an error, not a hang; an idle connection stays open (TLS's own records are not taken for a closed
 * connection); a server that requires client certificates takes cert= and key=; the tracker, in both
 * wirings, hears of writes over TLS; sentinel+tls:// finds the master through a real Sentinel with TLS
 * only (client and tracker), and a wrong CA is refused at the Sentinel; cluster+tls:// reaches a one-node
 * cluster with TLS only (its bus too: tls-cluster yes, so CLUSTER SLOTS names the TLS port), client and
 * tracker alike.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "harness.h"
#include "server.h"
#include "../redis_tls.h"
#include "../redis_tracker.h"
#include "../tier_config.h"

static tbl_redis_url_t parse_ok(const char *text)
{
	tbl_redis_url_t u;
	char err[256];
	if (tbl_redis_url_parse(text, strlen(text), &u, err, sizeof(err)) != 0) {
		fprintf(stderr, "  %s: %s\n", text, err);
		test_failures++;
	}
	return u;
}

/* The URL is refused with a message containing `want`. */
static int refused(const char *text, const char *want)
{
	tbl_redis_url_t u;
	char err[256];
	if (tbl_redis_url_parse(text, strlen(text), &u, err, sizeof(err)) == 0) {
		fprintf(stderr, "  %s: accepted\n", text);
		return 0;
	}
	if (!strstr(err, want)) {
		fprintf(stderr, "  %s: \"%s\" does not say \"%s\"\n", text, err, want);
		return 0;
	}
	return 1;
}

static void test_url_grammar(void)
{
	tbl_redis_url_t u = parse_ok("tls://cache.example:6380?cafile=/etc/ca.pem&sni=redis.example&auth=pw&db=2");
	CHECK(u.tls && !u.is_sentinel && !u.is_unix && u.tls_verify == 1);
	CHECK(strcmp(u.host, "cache.example") == 0 && u.port == 6380 && u.db == 2);
	CHECK(strcmp(u.tls_cafile, "/etc/ca.pem") == 0 && strcmp(u.tls_sni, "redis.example") == 0);
	u = parse_ok("tls://127.0.0.1");
	CHECK(u.tls && u.port == 6379 && u.tls_cafile[0] == '\0' && u.tls_verify == 1);
	u = parse_ok("tls://[::1]:7000?verify=0&cert=/c%20d.pem&key=/k.pem");
	CHECK(u.tls && u.tls_verify == 0 && strcmp(u.tls_cert, "/c d.pem") == 0 && strcmp(u.tls_key, "/k.pem") == 0);
	u = parse_ok("sentinel+tls://s1:26380,s2?master=m&cafile=/ca.pem");
	CHECK(u.tls && u.is_sentinel && u.nsentinels == 2 && strcmp(u.tls_cafile, "/ca.pem") == 0);
	u = parse_ok("tcp://127.0.0.1:6379");
	CHECK(!u.tls);

	CHECK(refused("tcp://h?cafile=/ca.pem", "only for tls://"));
	CHECK(refused("sentinel://h?master=m&verify=0", "only for tls://"));
	CHECK(refused("unix:///s.sock?sni=x", "only for tls://"));
	CHECK(refused("tls://h?cafile=ca.pem", "cafile= must be an absolute path"));
	CHECK(refused("tls://h?cafile=/a&cafile=/b", "cafile= is given twice"));
	CHECK(refused("tls://h?cert=/c.pem", "cert= needs key="));
	CHECK(refused("tls://h?key=/k.pem", "key= needs cert="));
	CHECK(refused("tls://h?verify=2", "verify=2: expected 1"));
	CHECK(refused("tls://h?verify=", "verify=: expected 1"));
	CHECK(refused("tls://h?sni=a/b", "bad character '/'"));
	CHECK(refused("tls://h?sni=", "sni= is empty"));
	CHECK(refused("tls://h?bogus=1", "cafile, cert, key, verify, sni"));
	CHECK(refused("tls://", "empty host"));
	CHECK(refused("tls://h:0", "bad port"));
	CHECK(refused("sentinel+tls://s1", "no master name"));
	CHECK(refused("ssl://h", "tls://"));
}

/* tier_config: accepted with TLS; without, refused with the reason (and the URL still validated). */
static void test_tier_config(void)
{
	tbl_tier_config_t cfg;
	char err[512];
	int rc = tbl_tier_config_parse(&cfg, "tls://127.0.0.1:6380?cafile=/ca.pem", "*", "t:", 500, 1000, err, sizeof(err));
	if (tbl_redis_tls_unavailable()) {
		CHECK(rc == -1);
		CHECK(strstr(err, "cannot be used: tls:// needs table built with hiredis_ssl") != NULL);
		CHECK(strstr(err, "this build has hiredis ") != NULL && strstr(err, "without it") != NULL);
		/* A bad TLS URL is still called not valid, as in a build with TLS. */
		rc = tbl_tier_config_parse(&cfg, "tls://h?verify=2", "*", "t:", 500, 1000, err, sizeof(err));
		CHECK(rc == -1 && strstr(err, "is not valid: verify=2") != NULL);
		printf("  (this build has no TLS: %s)\n", tbl_redis_tls_unavailable());
	} else {
		CHECK(rc == 0 && cfg.url.tls);
		if (rc != 0) fprintf(stderr, "  %s\n", err);
	}
}

#ifdef TBL_HAVE_REDIS_TLS

static char dir[256];
static char path_ca[300], path_other_ca[300], path_cert[300], path_key[300], path_client_cert[300],
	path_client_key[300];
static char tls_port[16], tls_port2[16];
static test_server_t server;      /* TLS only, clients not authenticated */
static test_server_t server_mtls; /* TLS only, client certificates required */
static int ready;

static int run(const char *cmd)
{
	char full[2048];
	snprintf(full, sizeof(full), "cd '%s' && { %s ; } >>openssl.log 2>&1", dir, cmd);
	int rc = system(full);
	if (rc != 0) fprintf(stderr, "  failed (%d): %s (see %s/openssl.log)\n", rc, cmd, dir);
	return rc == 0;
}

/* The CAs and certificates, made now (RSA 2048 keeps it quick; a test CA, valid a day). */
static int make_certs(void)
{
	snprintf(dir, sizeof(dir), "%s/tbl-redis-tls.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) return 0;
	snprintf(path_ca, sizeof(path_ca), "%s/ca.crt", dir);
	snprintf(path_other_ca, sizeof(path_other_ca), "%s/other-ca.crt", dir);
	snprintf(path_cert, sizeof(path_cert), "%s/server.crt", dir);
	snprintf(path_key, sizeof(path_key), "%s/server.key", dir);
	snprintf(path_client_cert, sizeof(path_client_cert), "%s/client.crt", dir);
	snprintf(path_client_key, sizeof(path_client_key), "%s/client.key", dir);
	return run("printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > server.ext")
	    && run("openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj '/CN=table test CA' -keyout ca.key -out ca.crt")
	    && run("openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj '/CN=another CA' -keyout other-ca.key -out other-ca.crt")
	    && run("openssl req -newkey rsa:2048 -nodes -subj '/CN=localhost' -keyout server.key -out server.csr")
	    && run("openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -extfile server.ext -out server.crt")
	    && run("openssl req -newkey rsa:2048 -nodes -subj '/CN=table client' -keyout client.key -out client.csr")
	    && run("openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -out client.crt");
}

/* The folder and all it holds (the Sentinel rewrites its config there, and may leave more). */
static void remove_certs(void)
{
	if (!dir[0]) return;
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		char p[600];
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
			snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
			unlink(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

static int start_servers(void)
{
	static const char *args[16];
	static const char *args_mtls[16];
	snprintf(tls_port, sizeof(tls_port), "%d", test_free_port());
	const char *base[] = { "--tls-port", tls_port, "--port", "0", "--tls-cert-file", path_cert, "--tls-key-file",
		                   path_key, "--tls-ca-cert-file", path_ca, "--tls-auth-clients", "no", NULL };
	memcpy(args, base, sizeof(base));
	if (test_server_start(&server, args) != 0) return 0;
	snprintf(tls_port2, sizeof(tls_port2), "%d", test_free_port());
	memcpy(args_mtls, base, sizeof(base));
	args_mtls[1] = tls_port2;
	args_mtls[11] = "yes";
	return test_server_start(&server_mtls, args_mtls) == 0;
}

static tbl_redis_url_t url_of(const char *fmt, const char *a, const char *b)
{
	char text[1024];
	snprintf(text, sizeof(text), fmt, a, b);
	return parse_ok(text);
}

/* A client on url: SET then GET of one key; the status of the first call that failed. */
static tbl_redis_status_t set_get(const tbl_redis_url_t *url, unsigned timeout_ms, char *err, size_t errlen)
{
	tbl_redis_t *r = tbl_redis_new(url, timeout_ms);
	tbl_redis_buf_t b = { 0 };
	tbl_redis_status_t st = tbl_redis_set(r, "tls:k", 5, "over tls", 8, 0, 0);
	if (st == TBL_REDIS_OK) st = tbl_redis_get(r, "tls:k", 5, &b);
	if (st == TBL_REDIS_OK && (b.len != 8 || memcmp(b.data, "over tls", 8) != 0)) st = TBL_REDIS_EREPLY;
	snprintf(err, errlen, "%s", tbl_redis_last_error(r));
	tbl_redis_buf_free(&b);
	tbl_redis_free(r);
	return st;
}

#define WAIT_BOUND_MS 30000   /* a bound for a hang, never a guess at how fast a loaded machine is */

static void test_right_ca(void)
{
	char err[600];
	REQUIRE(ready);
	tbl_redis_url_t u = url_of("tls://127.0.0.1:%s?cafile=%s", tls_port, path_ca);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_OK);
	if (err[0]) fprintf(stderr, "  by address: %s\n", err);
	u = url_of("tls://localhost:%s?cafile=%s", tls_port, path_ca);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_OK);
	if (err[0]) fprintf(stderr, "  by name: %s\n", err);
}

static void test_wrong_ca(void)
{
	char err[600];
	REQUIRE(ready);
	tbl_redis_url_t u = url_of("tls://127.0.0.1:%s?cafile=%s", tls_port, path_other_ca);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "certificate verify failed") != NULL);
	CHECK(strstr(err, "not signed by a CA in cafile=") != NULL);
	printf("  wrong CA: %s\n", err);
	/* No cafile: the system's store, which does not hold the test's CA. */
	u = url_of("tls://127.0.0.1:%s%s", tls_port, "");
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "certificate verify failed") != NULL && strstr(err, "system's store") != NULL);
	/* verify=0: connects to the same server (insecure, and documented so). */
	u = url_of("tls://127.0.0.1:%s?cafile=%s&verify=0", tls_port, path_other_ca);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_OK);
}

static void test_wrong_name(void)
{
	char err[600];
	REQUIRE(ready);
	tbl_redis_url_t u = url_of("tls://127.0.0.1:%s?cafile=%s&sni=elsewhere.example", tls_port, path_ca);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "certificate verify failed") != NULL && strstr(err, "not for elsewhere.example") != NULL);
	printf("  wrong name: %s\n", err);
	u = url_of("tls://127.0.0.1:%s?cafile=%s&sni=localhost", tls_port, path_ca);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_OK);
}

static void test_bad_files(void)
{
	char err[600];
	REQUIRE(ready);
	tbl_redis_url_t u = url_of("tls://127.0.0.1:%s?cafile=%s/missing.crt", tls_port, dir);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "missing.crt cannot be read: No such file or directory") != NULL);
	printf("  missing cafile: %s\n", err);
	/* A file that is no certificate (the server's key). */
	u = url_of("tls://127.0.0.1:%s?cafile=%s", tls_port, path_key);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "holds no usable CA certificate") != NULL);
	/* A key that does not belong to the certificate. */
	char text[1200];
	snprintf(text, sizeof(text), "tls://127.0.0.1:%s?cafile=%s&cert=%s&key=%s", tls_port2, path_ca, path_client_cert,
	         path_key);
	u = parse_ok(text);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "is not the private key of cert=") != NULL);
}

static void test_client_certificate(void)
{
	char err[600], text[1200];
	REQUIRE(ready);
	snprintf(text, sizeof(text), "tls://127.0.0.1:%s?cafile=%s&cert=%s&key=%s", tls_port2, path_ca, path_client_cert,
	         path_client_key);
	tbl_redis_url_t u = parse_ok(text);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_OK);
	if (err[0]) fprintf(stderr, "  with a client certificate: %s\n", err);
	/* Without one, the server refuses (TLS 1.3 may only say so at the first read): an error either way. */
	u = url_of("tls://127.0.0.1:%s?cafile=%s", tls_port2, path_ca);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_EIO);
	printf("  no client certificate: %s\n", err);
}

/* tls:// to a server that speaks plaintext: an error, at once. */
static void test_plaintext_server(void)
{
	test_server_t plain;
	char err[600];
	REQUIRE(ready);
	REQUIRE(test_server_start(&plain, NULL) == 0);
	char port[16];
	snprintf(port, sizeof(port), "%d", plain.port);
	tbl_redis_url_t u = url_of("tls://127.0.0.1:%s?cafile=%s", port, path_ca);
	/* Redis takes the ClientHello for the start of an inline command and waits for its end: the
	 * handshake fails, or times out, depending on the server; it never succeeds or hangs. */
	CHECK_ST(set_get(&u, 500, err, sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "TLS handshake") != NULL);
	printf("  plaintext server: %s\n", err);
	test_server_destroy(&plain);
}

/* A server that accepts the TCP connection (the kernel's backlog does) and never answers: the
 * handshake ends at the call's deadline with a timeout, it does not hang. */
static void test_silent_server(void)
{
	char err[600];
	REQUIRE(ready);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	REQUIRE(fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(fd, 4) == 0
	        && getsockname(fd, (struct sockaddr *)&a, &alen) == 0);
	char port[16];
	snprintf(port, sizeof(port), "%d", ntohs(a.sin_port));
	tbl_redis_url_t u = url_of("tls://127.0.0.1:%s?cafile=%s", port, path_ca);
	CHECK_ST(set_get(&u, 300, err, sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "timed out after 300 ms (TLS handshake)") != NULL);
	printf("  silent server: %s\n", err);
	close(fd);
}

static int reconnects;
static void count_reconnect(void *ctx)
{
	(void)ctx;
	reconnects++;
}

/* After the handshake the server sends TLS records of its own (session tickets): an idle connection
 * with them waiting is still open, and calls go on over the same connection. */
static void test_idle_connection_kept(void)
{
	REQUIRE(ready);
	tbl_redis_url_t u = url_of("tls://127.0.0.1:%s?cafile=%s", tls_port, path_ca);
	tbl_redis_t *r = tbl_redis_new(&u, WAIT_BOUND_MS);
	test_client = r;
	tbl_redis_on_reconnect(r, count_reconnect, NULL);
	reconnects = 0;
	for (int i = 0; i < 5; i++) {
		CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
		usleep(20 * 1000);
	}
	CHECK(reconnects == 0);
	/* A value larger than a TLS record (16 KiB) both ways. */
	size_t n = 200 * 1024;
	char *big = malloc(n);
	REQUIRE(big);
	for (size_t i = 0; i < n; i++) big[i] = (char)('a' + i % 26);
	tbl_redis_buf_t b = { 0 };
	CHECK_ST(tbl_redis_set(r, "tls:big", 7, big, n, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_get(r, "tls:big", 7, &b), TBL_REDIS_OK);
	CHECK(b.len == n && memcmp(b.data, big, n) == 0);
	CHECK(reconnects == 0);
	tbl_redis_buf_free(&b);
	free(big);
	tbl_redis_free(r);
	test_client = NULL;
}

typedef struct seen {
	int hit;
	int flushes;
} seen_t;

static void on_key(void *ctx, const char *key, size_t klen)
{
	if (klen == 8 && memcmp(key, "trk:tls1", 8) == 0) ((seen_t *)ctx)->hit++;
}

static void on_flush(void *ctx)
{
	((seen_t *)ctx)->flushes++;
}

/* Poll t until the invalidation of trk:tls1 arrives, within WAIT_BOUND_MS; a failed poll fails the test. */
static void poll_until_hit(tbl_redis_tracker_t *t, const tbl_redis_tracker_events_t *ev, seen_t *seen, uint64_t *fresh)
{
	uint64_t until = tbl_redis_monotonic_ms() + WAIT_BOUND_MS;
	while (!seen->hit && tbl_redis_monotonic_ms() < until) {
		if (!CHECK_ST(tbl_redis_tracker_poll(t, 100, 50, ev, fresh), TBL_REDIS_OK)) {
			fprintf(stderr, "  %s\n", tbl_redis_tracker_last_error(t));
			break;
		}
	}
}

static void tracker_over_tls(int resp2)
{
	seen_t seen = { 0 };
	tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
	REQUIRE(ready);
	tbl_redis_url_t u = url_of("tls://127.0.0.1:%s?cafile=%s", tls_port, path_ca);
	tbl_redis_tracker_t *t = tbl_redis_tracker_new(&u, 2000, "trk:", 4);
	REQUIRE(t);
	if (resp2) tbl_redis_tracker_force_resp2(t);
	if (!CHECK_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK)) {
		fprintf(stderr, "  %s\n", tbl_redis_tracker_last_error(t));
		tbl_redis_tracker_free(t);
		return;
	}
	uint64_t fresh = 0, until = tbl_redis_monotonic_ms() + WAIT_BOUND_MS;
	while (fresh == 0 && tbl_redis_monotonic_ms() < until) {
		if (!CHECK_ST(tbl_redis_tracker_poll(t, 100, 50, &ev, &fresh), TBL_REDIS_OK)) break;
	}
	CHECK(fresh > 0);
	/* A write by another client (over the plaintext unix socket). */
	struct timeval tv = { 30, 0 };
	redisContext *c = redisConnectUnixWithTimeout(server.socket_path, tv);
	REQUIRE(c && !c->err);
	redisReply *rep = redisCommand(c, "SET trk:tls1 x");
	if (rep) freeReplyObject(rep);
	poll_until_hit(t, &ev, &seen, &fresh);
	CHECK(seen.hit > 0 && seen.flushes == 0);
	redisFree(c);
	tbl_redis_tracker_free(t);
}

/* A real Sentinel (the server binary with --sentinel) with TLS only, monitoring the TLS server, over
 * TLS itself (tls-replication yes: its connections to the master use TLS). */
static pid_t sentinel_pid;
static char sentinel_port[16];

static int start_sentinel(void)
{
	char conf[400];
	snprintf(conf, sizeof(conf), "%s/sentinel.conf", dir);
	FILE *f = fopen(conf, "w");
	if (!f) return 0;
	snprintf(sentinel_port, sizeof(sentinel_port), "%d", test_free_port());
	fprintf(f, "port 0\ntls-port %s\nbind 127.0.0.1\ntls-cert-file %s\ntls-key-file %s\ntls-ca-cert-file %s\n"
	        "tls-auth-clients no\ntls-replication yes\ndir %s\nlogfile %s/sentinel.log\n"
	        "sentinel monitor tlsm 127.0.0.1 %s 1\n", sentinel_port, path_cert, path_key, path_ca, dir, dir, tls_port);
	fclose(f);
	const char *bin = getenv("TBL_REDIS_SERVER");
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) return 0;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent) _exit(1);
		execlp(bin && *bin ? bin : "redis-server", bin && *bin ? bin : "redis-server", conf, "--sentinel", (char *)NULL);
		_exit(127);
	}
	sentinel_pid = pid;
	return 1;
}

static void stop_sentinel(void)
{
	if (!sentinel_pid) return;
	kill(sentinel_pid, SIGKILL);
	while (waitpid(sentinel_pid, NULL, 0) < 0 && errno == EINTR) {
	}
	sentinel_pid = 0;
}

static void test_sentinel_over_tls(void)
{
	char err[600], text[1200];
	REQUIRE(ready);
	REQUIRE(start_sentinel());
	snprintf(text, sizeof(text), "sentinel+tls://127.0.0.1:%s?master=tlsm&cafile=%s", sentinel_port, path_ca);
	tbl_redis_url_t u = parse_ok(text);
	/* The Sentinel answers once it has started: tried until then (a bound for a hang, not a guess). */
	tbl_redis_status_t st = TBL_REDIS_EIO;
	uint64_t until = tbl_redis_monotonic_ms() + 60000;
	while (st != TBL_REDIS_OK && tbl_redis_monotonic_ms() < until) {
		st = set_get(&u, 2000, err, sizeof(err));
		if (st != TBL_REDIS_OK) usleep(50 * 1000);
	}
	if (!CHECK_ST(st, TBL_REDIS_OK)) fprintf(stderr, "  sentinel+tls: %s (log: %s/sentinel.log)\n", err, dir);
	/* The tracker finds the master through the Sentinel too, and hears of writes. */
	seen_t seen = { 0 };
	tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
	tbl_redis_tracker_t *t = tbl_redis_tracker_new(&u, 2000, "trk:", 4);
	REQUIRE(t);
	if (CHECK_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK)) {
		CHECK(strstr(tbl_redis_tracker_server(t), tls_port) != NULL);   /* the master the Sentinel named */
		uint64_t fresh = 0;
		until = tbl_redis_monotonic_ms() + WAIT_BOUND_MS;
		while (fresh == 0 && tbl_redis_monotonic_ms() < until) {
			if (!CHECK_ST(tbl_redis_tracker_poll(t, 100, 50, &ev, &fresh), TBL_REDIS_OK)) break;
		}
		tbl_redis_t *w = tbl_redis_new(&u, WAIT_BOUND_MS);
		CHECK_ST(tbl_redis_set(w, "trk:tls1", 8, "y", 1, 0, 0), TBL_REDIS_OK);
		tbl_redis_free(w);
		poll_until_hit(t, &ev, &seen, &fresh);
		CHECK(seen.hit > 0);
	} else {
		fprintf(stderr, "  %s\n", tbl_redis_tracker_last_error(t));
	}
	tbl_redis_tracker_free(t);
	/* A wrong CA: the Sentinel itself is refused, and the message says so. */
	snprintf(text, sizeof(text), "sentinel+tls://127.0.0.1:%s?master=tlsm&cafile=%s", sentinel_port, path_other_ca);
	u = parse_ok(text);
	CHECK_ST(set_get(&u, WAIT_BOUND_MS, err, sizeof(err)), TBL_REDIS_EIO);
	CHECK(strstr(err, "Sentinel at 127.0.0.1:") != NULL && strstr(err, "certificate verify failed") != NULL);
	printf("  sentinel+tls, wrong CA: %s\n", err);
	stop_sentinel();
}

/* A one-node cluster with TLS only, all 16384 slots on it. */
static void test_cluster_over_tls(void)
{
	REQUIRE(ready);
	test_server_t node;
	char port[16], bus[16];
	snprintf(port, sizeof(port), "%d", test_free_port());
	snprintf(bus, sizeof(bus), "%d", test_free_port());
	const char *args[] = { "--tls-port", port, "--port", "0", "--tls-cert-file", path_cert, "--tls-key-file", path_key,
		                   "--tls-ca-cert-file", path_ca, "--tls-auth-clients", "no", "--tls-cluster", "yes",
		                   "--cluster-enabled", "yes", "--cluster-port", bus, "--cluster-config-file", "nodes.conf",
		                   NULL };
	REQUIRE(test_server_start(&node, args) == 0);
	redisReply *rep = test_server_command(&node, "CLUSTER ADDSLOTSRANGE 0 16383");
	CHECK(rep && rep->type == REDIS_REPLY_STATUS);
	if (rep) freeReplyObject(rep);
	if (test_cluster_wait_ok(&node, 1) != 0) {
		CHECK(!"the one-node TLS cluster settles");
		test_server_destroy(&node);
		return;
	}
	tbl_redis_url_t u = url_of("cluster+tls://127.0.0.1:%s?cafile=%s", port, path_ca);
	tbl_redis_t *r = tbl_redis_new(&u, 2000);
	REQUIRE(r);
	test_client = r;
	tbl_redis_buf_t b = { 0 };
	CHECK_ST(tbl_redis_set(r, "{c}k", 4, "v", 1, 0, 0), TBL_REDIS_OK);
	CHECK_ST(tbl_redis_get(r, "{c}k", 4, &b), TBL_REDIS_OK);
	CHECK(b.data && strcmp(b.data, "v") == 0);
	tbl_redis_buf_free(&b);
	CHECK_ST(tbl_redis_ping(r), TBL_REDIS_OK);
	/* A wrong CA is refused at the seed, never retried in plaintext. */
	tbl_redis_url_t wrong = url_of("cluster+tls://127.0.0.1:%s?cafile=%s", port, path_other_ca);
	tbl_redis_t *w = tbl_redis_new(&wrong, 2000);
	REQUIRE(w);
	CHECK_ST(tbl_redis_get(w, "{c}k", 4, &b), TBL_REDIS_EIO);
	CHECK(strstr(tbl_redis_last_error(w), "certificate verify failed") != NULL);
	tbl_redis_free(w);

	/* The tracker, in both wirings, over TLS to the node CLUSTER SLOTS named. */
	for (int resp2 = 0; resp2 < 2; resp2++) {
		tbl_redis_tracker_t *t = tbl_redis_tracker_new(&u, 2000, "trk:", 4);
		REQUIRE(t);
		if (resp2) tbl_redis_tracker_force_resp2(t);
		if (!CHECK_ST(tbl_redis_tracker_start(t), TBL_REDIS_OK)) {
			fprintf(stderr, "  %s\n", tbl_redis_tracker_last_error(t));
			tbl_redis_tracker_free(t);
			continue;
		}
		seen_t seen = { 0 };
		tbl_redis_tracker_events_t ev = { &seen, on_key, on_flush };
		uint64_t fresh = 0, until = tbl_redis_monotonic_ms() + WAIT_BOUND_MS;
		while (fresh == 0 && tbl_redis_monotonic_ms() < until) {
			if (!CHECK_ST(tbl_redis_tracker_poll(t, 100, 50, &ev, &fresh), TBL_REDIS_OK)) break;
		}
		CHECK(fresh > 0);
		CHECK_ST(tbl_redis_set(r, "trk:tls1", 8, "x", 1, 0, 0), TBL_REDIS_OK);
		poll_until_hit(t, &ev, &seen, &fresh);
		CHECK(seen.hit > 0 && seen.flushes == 0);
		tbl_redis_tracker_free(t);
	}
	tbl_redis_free(r);
	test_server_destroy(&node);
}

static void test_tracker_resp3_push(void)
{
	/* hiredis_ssl means hiredis >= 1.0: the build's wiring is resp3-push. */
	CHECK(strcmp(tbl_redis_tracker_mode(), "resp3-push") == 0);
	tracker_over_tls(0);
}

static void test_tracker_resp2_redirect(void)
{
	tracker_over_tls(1);
}

#endif

int main(int argc, char **argv)
{
	(void)argc;
	static const test_case_t always[] = {
		TEST_ENTRY(test_url_grammar),
		TEST_ENTRY(test_tier_config),
	};
#ifdef TBL_HAVE_REDIS_TLS
	static const test_case_t with_tls[] = {
		TEST_ENTRY(test_url_grammar),
		TEST_ENTRY(test_tier_config),
		TEST_ENTRY(test_right_ca),
		TEST_ENTRY(test_wrong_ca),
		TEST_ENTRY(test_wrong_name),
		TEST_ENTRY(test_bad_files),
		TEST_ENTRY(test_client_certificate),
		TEST_ENTRY(test_plaintext_server),
		TEST_ENTRY(test_silent_server),
		TEST_ENTRY(test_idle_connection_kept),
		TEST_ENTRY(test_tracker_resp3_push),
		TEST_ENTRY(test_tracker_resp2_redirect),
		TEST_ENTRY(test_sentinel_over_tls),
		TEST_ENTRY(test_cluster_over_tls),
	};
	if (system("command -v openssl >/dev/null 2>&1") != 0) {
		printf("  SKIPPED the TLS connections: no openssl command to make the test's certificates\n");
		return test_main(argv[0], always, sizeof(always) / sizeof(always[0]));
	}
	ready = make_certs() && start_servers();
	int rc = test_main(argv[0], with_tls, sizeof(with_tls) / sizeof(with_tls[0]));
	test_server_destroy(&server);
	test_server_destroy(&server_mtls);
	stop_sentinel();
	remove_certs();
	return rc;
#else
	printf("  SKIPPED the TLS connections: %s\n", tbl_redis_tls_unavailable());
	return test_main(argv[0], always, sizeof(always) / sizeof(always[0]));
#endif
}
