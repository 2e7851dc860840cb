/*
 * fake_server.c - the fake RESP server of fake_server.h: an accept loop in a thread, and a reader that
 * cuts the byte stream into whole commands. Polls every 50 ms so that fake_server_stop is heard.
 */
#include "fake_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Bytes of the first complete RESP command (array of bulk strings) in buf[0..len), 0 when incomplete.
 * argv0/argv0len: its first argument. */
static size_t command_length(const char *buf, size_t len, const char **argv0, size_t *argv0len)
{
	size_t pos;
	long n;
	char *end;
	if (len < 4 || buf[0] != '*') return 0;
	const char *crlf = memmem(buf, len, "\r\n", 2);
	if (!crlf) return 0;
	n = strtol(buf + 1, &end, 10);
	pos = (size_t)(crlf - buf) + 2;
	for (long i = 0; i < n; i++) {
		if (pos >= len || buf[pos] != '$') return 0;
		crlf = memmem(buf + pos, len - pos, "\r\n", 2);
		if (!crlf) return 0;
		long blen = strtol(buf + pos + 1, &end, 10);
		size_t start = (size_t)(crlf - buf) + 2;
		if (start + (size_t)blen + 2 > len) return 0;
		if (i == 0) {
			*argv0 = buf + start;
			*argv0len = (size_t)blen;
		}
		pos = start + (size_t)blen + 2;
	}
	return pos;
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w <= 0) return;
		s += w;
		n -= (size_t)w;
	}
}

static void serve_client(fake_server_t *f, int fd)
{
	char buf[4096];
	size_t len = 0;
	int conn = 0;
	while (!atomic_load(&f->stop)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 50) <= 0) continue;
		ssize_t got = read(fd, buf + len, sizeof(buf) - len);
		if (got <= 0) return;
		len += (size_t)got;
		for (;;) {
			const char *a0 = NULL;
			size_t a0len = 0, clen = command_length(buf, len, &a0, &a0len);
			if (clen == 0) break;
			char reply[2048];
			reply[0] = '\0';
			pthread_mutex_lock(&f->lock);
			f->answer(f, buf, clen, a0, a0len, &conn, reply, sizeof(reply));
			pthread_mutex_unlock(&f->lock);
			if (reply[0]) write_all(fd, reply, strlen(reply));
			memmove(buf, buf + clen, len - clen);
			len -= clen;
		}
		if (len == sizeof(buf)) return;
	}
}

static void *accept_loop(void *arg)
{
	fake_server_t *f = arg;
	while (!atomic_load(&f->stop)) {
		struct pollfd p = { .fd = f->listen_fd, .events = POLLIN };
		if (poll(&p, 1, 50) <= 0) continue;
		int fd = accept(f->listen_fd, NULL, NULL);
		if (fd < 0) continue;
		serve_client(f, fd);
		close(fd);
	}
	return NULL;
}

void fake_server_start(fake_server_t *f, fake_answer_fn answer, void *ctx)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	memset(f, 0, sizeof(*f));
	f->answer = answer;
	f->ctx = ctx;
	pthread_mutex_init(&f->lock, NULL);
	f->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (f->listen_fd < 0 || bind(f->listen_fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(f->listen_fd, 16) != 0
	    || getsockname(f->listen_fd, (struct sockaddr *)&a, &alen) != 0) {
		perror("fake server");
		exit(2);
	}
	f->port = ntohs(a.sin_port);
	pthread_create(&f->thread, NULL, accept_loop, f);
}

void fake_server_stop(fake_server_t *f)
{
	atomic_store(&f->stop, 1);
	pthread_join(f->thread, NULL);
	close(f->listen_fd);
	pthread_mutex_destroy(&f->lock);
}

void fake_server_lock(fake_server_t *f)
{
	pthread_mutex_lock(&f->lock);
}

void fake_server_unlock(fake_server_t *f)
{
	pthread_mutex_unlock(&f->lock);
}
