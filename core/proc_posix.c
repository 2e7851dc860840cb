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
static void (*fork_hooks[TBL_FORK_HOOKS])(void);
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void run_fork_hooks(void)
{
	int i;

	for (i = 0; i < TBL_FORK_HOOKS; i++) {
		if (fork_hooks[i]) {
			fork_hooks[i]();
		}
	}
}

static void register_atfork(void)
{
	pthread_atfork(NULL, NULL, run_fork_hooks);
}

void tbl_proc_on_fork_child(void (*fn)(void))
{
	int i;

	pthread_once(&fork_once, register_atfork);
	for (i = 0; i < TBL_FORK_HOOKS; i++) {
		if (fork_hooks[i] == fn) {
			return;
		}
		if (!fork_hooks[i]) {
			fork_hooks[i] = fn;
			return;
		}
	}
}
#endif
