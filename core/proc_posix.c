/*
 * proc_posix.c - liveness and identity of other processes, and the fork hook (POSIX, /proc on Linux).
 *
 * A pid alone is not an identity: after a worker dies its pid can be handed to an unrelated process,
 * and a slot that trusted the pid would then stay pinned forever. So every slot and claim records the
 * owner's start time as well, and a process is "the owner" only while both match. Reading /proc costs
 * microseconds, so callers only do it when something is actually stuck, never on the hot path.
 */
#ifndef _WIN32
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "proc.h"

/* Parse /proc/<pid>/stat. The command name (field 2) is in parentheses and may contain spaces and ')' so
 * fields are counted from the last ')'. Sets *state to the state letter. */
static uint64_t read_stat(pid_t pid, char *state)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	size_t n;
	int field;
	FILE *f;

	*state = '?';
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f) {
		return 0;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ') {
		return 0;
	}
	p += 2;
	*state = *p;
	/* p is at field 3; the start time is field 22. */
	for (field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		if (p) {
			p++;
		}
	}
	if (p && sscanf(p, "%llu", &start) != 1) {
		start = 0;
	}
	return (uint64_t)start;
}

uint64_t tbl_proc_start_time(pid_t pid)
{
	char state;
	return read_stat(pid, &state);
}

int tbl_proc_alive(pid_t pid, uint64_t start_time)
{
	uint64_t now_start;
	char state;

	if (pid <= 0) {
		return 0;
	}
	if (kill(pid, 0) != 0 && errno == ESRCH) {
		return 0;
	}
	now_start = read_stat(pid, &state);
	if (state == 'Z' || state == 'X') {
		return 0;
	}
	if (start_time != 0 && now_start != 0 && now_start != start_time) {
		return 0;   /* the pid now belongs to someone else */
	}
	return 1;
}

pid_t tbl_proc_self(void)
{
	return getpid();
}

#define TBL_FORK_HOOKS 4
typedef struct fork_hook {
	void (*prepare)(void);
	void (*parent)(void);
	void (*child)(void);
} fork_hook_t;
static fork_hook_t fork_hooks[TBL_FORK_HOOKS];
static int fork_hooks_used;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

#define TBL_RUN_FORK_HOOKS(which) do { \
		int i_; \
		for (i_ = 0; i_ < fork_hooks_used; i_++) { \
			if (fork_hooks[i_].which) { \
				fork_hooks[i_].which(); \
			} \
		} \
	} while (0)

static void run_prepare(void) { TBL_RUN_FORK_HOOKS(prepare); }
static void run_parent(void) { TBL_RUN_FORK_HOOKS(parent); }
static void run_child(void) { TBL_RUN_FORK_HOOKS(child); }

static void register_atfork(void)
{
	pthread_atfork(run_prepare, run_parent, run_child);
}

void tbl_proc_on_fork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
	int i;

	pthread_once(&fork_once, register_atfork);
	for (i = 0; i < fork_hooks_used; i++) {
		if (fork_hooks[i].prepare == prepare && fork_hooks[i].parent == parent && fork_hooks[i].child == child) {
			return;
		}
	}
	if (fork_hooks_used < TBL_FORK_HOOKS) {
		fork_hooks[fork_hooks_used++] = (fork_hook_t){ prepare, parent, child };
	}
}
#endif
