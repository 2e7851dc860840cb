/*
 * php_table_tier_launcher.c - under thread-safe PHP (ZTS), the small process that starts the Redis tier's
 * helpers (redis/tier_helper.c) for a threaded one.
 *
 * Why: the helper is a process of its own, forked from a PHP process. Under NTS that process has one
 * thread, and php_table_tier.c forks the helper when a call finds the L1 not fresh. A fork of a threaded
 * process copies only the forking thread: every lock another thread held at that instant (in malloc's
 * arenas, hiredis, OpenSSL, getaddrinfo's resolver state, the table's own process lock) stays held in
 * the child for ever, and the helper, which connects to Redis, could hang on the first of them.
 *
 * How: MINIT, which runs before the SAPI starts any thread (the CLI, the embed SAPI, FrankenPHP; Apache
 * loads the module in its parent, before it forks the children that run threads), forks this launcher
 * (through a short-lived go-between, so that init adopts it: nobody has to reap it). It is a copy of
 * the process at MINIT, single-threaded, and stays so: it reads one-byte requests from a socket and, for
 * each, calls tbl_tier_helper_ensure() exactly as an NTS process would, forking the helper from itself.
 * A hung or dead helper is therefore replaced as before (tbl_tier_helper_ensure takes its place, kills
 * it, starts another). The threads only send() a byte, which never blocks (MSG_DONTWAIT) nor raises SIGPIPE
 * (MSG_NOSIGNAL): a request that finds the buffer full is dropped, as enough are pending already.
 *
 * Which table: 'A' asks for the anonymous segment's helper (the launcher maps it: it was created at MINIT,
 * before the fork), 'N' for the named segment's (table.segment: attached on first use, after MINIT, so
 * the launcher attaches it itself, with the configuration MINIT resolved, and again when the file was
 * replaced since). The launcher holds no reader slot and takes part in no request; the helper it starts
 * leaves, as always, once no PHP process uses the table.
 *
 * Its end: it exits when the last PHP-side end of the socket pair is closed, i.e. when the PHP process
 * (and every pcntl_fork child of it, which inherits that end) has exited or reached MSHUTDOWN. Both ends
 * are close-on-exec, so programs the PHP process runs never hold it. It closes every other descriptor it
 * inherited (an Apache parent's listening sockets, a CLI's files) and leaves the terminal's session, so
 * that it keeps nothing open and is not stopped by a terminal's signals; its name is `table-launcher`.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_table_internal.h"

#if defined(ZTS) && defined(HAVE_TABLE_HIREDIS)

#include <errno.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#ifdef __linux__
# include <sys/prctl.h>
#endif
#include "redis/tier_config.h"
#include "redis/tier_helper.h"

#define PHP_TABLE_LAUNCH_ANONYMOUS 'A'
#define PHP_TABLE_LAUNCH_NAMED     'N'

/* The requesting end, in the PHP process and its forked children; -1 without a launcher. */
static int php_table_launcher_fd = -1;

/* In the launcher: nothing of the PHP process's descriptors but the pipe, no terminal, default signals. */
static void php_table_launcher_detach(int keep)
{
	tbl_tier_detach_process(keep);
#ifdef __linux__
	prctl(PR_SET_NAME, "table-launcher", 0, 0, 0);
#endif
}

/* In the launcher: the named segment, attached now or again when the file was replaced since; NULL
 * when it cannot be (no table.segment, or the file is gone: the next request tries again). */
static tbl_t *php_table_launcher_named(tbl_t *named)
{
	const tbl_config_t *cfg = php_table_state_named_config();
	tbl_config_t mine;
	char err[256];

	if (named && tbl_segment_current(named) == TBL_SEGMENT_CURRENT) {
		return named;
	}
	if (named) {
		tbl_destroy(named);
		named = NULL;
	}
	if (!cfg) {
		return NULL;
	}
	mine = *cfg;
	/* Join what is there, never create or replace it: that is the PHP processes' decision. */
	mine.segment_recreate = 0;
	mine.segment_keep_versions = 1;
	/* No PHP runs here: nothing to defer signals for. */
	mine.hooks.block_signals = NULL;
	mine.hooks.unblock_signals = NULL;
	if (access(mine.segment_path, F_OK) != 0 || tbl_create(&named, &mine, err, sizeof(err)) != TBL_OK) {
		return NULL;
	}
	tbl_detach(named);   /* no reader slot: the launcher is no user of the table */
	return named;
}

/* The launcher's loop: serve requests until the last requesting end is closed. */
static ZEND_NORETURN void php_table_launcher_run(int fd, tbl_t *anon, const tbl_tier_config_t *cfg)
{
	tbl_t *named = NULL;
	unsigned char buf[64];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		bool want_anon = false, want_named = false;

		if (n == 0) {
			break;   /* no PHP process is left to ask */
		}
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			break;
		}
		/* A burst of requests from many threads is one start at most (ensure checks anyway). */
		for (ssize_t i = 0; i < n; i++) {
			want_anon |= buf[i] == PHP_TABLE_LAUNCH_ANONYMOUS;
			want_named |= buf[i] == PHP_TABLE_LAUNCH_NAMED;
		}
		if (want_anon && anon) {
			tbl_tier_helper_ensure(anon, cfg);
		}
		if (want_named && (named = php_table_launcher_named(named)) != NULL) {
			tbl_tier_helper_ensure(named, cfg);
		}
	}
	_exit(0);
}

bool php_table_tier_launcher_start(const tbl_tier_config_t *cfg)
{
	int fds[2], status;
	pid_t child;

	if (php_table_launcher_fd >= 0) {
		return true;
	}
	/* A socket pair rather than a pipe: send() can refuse SIGPIPE (MSG_NOSIGNAL), which no SAPI has to
	 * ignore then. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
		return false;
	}
	child = fork();
	if (child < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (child == 0) {
		/* The go-between: fork the launcher and leave at once, so that init adopts it. */
		pid_t launcher = fork();

		if (launcher == 0) {
			close(fds[1]);
			php_table_launcher_detach(fds[0]);
			/* php_table_proc: the anonymous segment MINIT made (NULL with a named one). */
			php_table_launcher_run(fds[0], php_table_named ? NULL : php_table_proc, cfg);
		}
		_exit(launcher < 0 ? 1 : 0);
	}
	close(fds[0]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		close(fds[1]);
		return false;
	}
	php_table_launcher_fd = fds[1];
	return true;
}

void php_table_tier_launcher_request(bool named)
{
	char c = named ? PHP_TABLE_LAUNCH_NAMED : PHP_TABLE_LAUNCH_ANONYMOUS;

	if (php_table_launcher_fd >= 0) {
		/* EAGAIN (the buffer is full: requests are pending) or EPIPE (the launcher is gone): nothing to
		 * do either way. */
		ssize_t n = send(php_table_launcher_fd, &c, 1, MSG_DONTWAIT | MSG_NOSIGNAL);

		(void)n;
	}
}

void php_table_tier_launcher_stop(void)
{
	if (php_table_launcher_fd >= 0) {
		close(php_table_launcher_fd);
		php_table_launcher_fd = -1;
	}
}

#endif /* ZTS && HAVE_TABLE_HIREDIS */
