/*
 * fake_server.h - a RESP server on loopback for the tests that need answers no real server gives: a
 * Sentinel that names whichever master the test chose (test_redis_sentinel.c), a cluster node with a
 * broken map (test_redis_cluster.c). One thread accepts one connection at a time and, for each complete
 * command (an array of bulk strings), calls the test's answer function under the server's lock and
 * writes back the reply it made. The test changes what its fake answers under the same lock
 * (fake_server_lock/unlock), so a reply never mixes two settings.
 */
#ifndef TBL_REDIS_TEST_FAKE_SERVER_H
#define TBL_REDIS_TEST_FAKE_SERVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

typedef struct fake_server fake_server_t;

/*
 * The reply to one command: cmd[0..cmdlen) is the whole command as sent, argv0 its first argument. conn is
 * 0 when a connection is accepted and the function's to keep per connection (an AUTH seen, say). Writes a
 * NUL-terminated raw RESP reply into reply (cap bytes); "" sends nothing (a frozen server).
 */
typedef void (*fake_answer_fn)(fake_server_t *f, const char *cmd, size_t cmdlen, const char *argv0, size_t argv0len,
                               int *conn, char *reply, size_t cap);

struct fake_server {
	int listen_fd;
	int port;               /* the loopback port it listens on */
	pthread_t thread;
	atomic_int stop;
	pthread_mutex_t lock;
	fake_answer_fn answer;
	void *ctx;              /* the test's: what its answer function reads */
};

/* Listens on a free loopback port and starts the thread; exits the test binary (status 2) when it cannot. */
void fake_server_start(fake_server_t *f, fake_answer_fn answer, void *ctx);
/* Stops the thread (the connection being served is closed) and the listening socket. */
void fake_server_stop(fake_server_t *f);
void fake_server_lock(fake_server_t *f);
void fake_server_unlock(fake_server_t *f);

#endif
