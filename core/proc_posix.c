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
#if defined(__linux__)
# include <sys/syscall.h>
#endif
#include "proc.h"

/* Parse /proc/<pid>/stat. The command name (field 2) is in parentheses and may contain spaces and ')' so
 * fields are counted from the last ')'. Sets *state to the state letter. */
static uint64_t read_stat_file(const char *path, char *state)
{
	char buf[1024], *p;
	unsigned long long start = 0;
	size_t n;
	int field;
	FILE *f;

	*state = '?';
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

static uint64_t read_stat(pid_t pid, char *state)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return read_stat_file(path, state);
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

/* One mapping of /proc/<pid>/maps. Lines look like
 * "7f2c5a000000-7f2c5e000000 rw-s 00000000 00:01 4242   /dev/zero (deleted)". */
typedef struct maps_line {
	unsigned long long start, end, inode;
	char dev[16];
} maps_line_t;

/* Scan /proc/<pid>/maps (pid 0: self) for a mapping: with `dev` NULL, the one that contains `addr`; else
 * any one of inode `ino` on device `dev`, wherever it lies (a named segment may be mapped at another
 * address in each process). Returns 1 and the line, 0 when there is none, -1 when the file cannot be
 * read. */
static int maps_find(pid_t pid, const void *addr, const char *dev, uint64_t ino, maps_line_t *out)
{
	char path[64], line[512], perms[8];
	unsigned long long offset;
	maps_line_t m;
	FILE *f;
	int found = 0;

	if (pid) {
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	} else {
		snprintf(path, sizeof(path), "/proc/self/maps");
	}
	if (!(f = fopen(path, "r"))) {
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %llx %15s %llu", &m.start, &m.end, perms, &offset, m.dev, &m.inode) == 6
		    && (dev ? (m.inode == ino && strcmp(m.dev, dev) == 0)
		            : (m.start <= (unsigned long long)(uintptr_t)addr && (unsigned long long)(uintptr_t)addr < m.end))) {
			*out = m;
			found = 1;
			break;
		}
		/* A line longer than the buffer: skip its rest. */
		while (!strchr(line, '\n') && fgets(line, sizeof(line), f)) {
		}
	}
	fclose(f);
	return found;
}

uint64_t tbl_proc_mapping_ino(const void *addr)
{
	maps_line_t m;
	return maps_find(0, addr, NULL, 0, &m) == 1 ? (uint64_t)m.inode : 0;
}

int tbl_proc_maps(pid_t pid, const void *addr, uint64_t ino)
{
	maps_line_t self, m;
	int r;

	/* The segment is the object (device and inode) this process maps at `addr`; `pid` maps it too when
	 * any of its mappings shows that object, at whatever address. */
	if (maps_find(0, addr, NULL, 0, &self) != 1) {
		return -1;
	}
	if (ino != 0 && self.inode != ino) {
		return -1;   /* `addr` is not the segment this process knows: cannot tell */
	}
	r = maps_find(pid, NULL, self.dev, self.inode, &m);
	return r < 0 ? -1 : r;
}

pid_t tbl_proc_self(void)
{
	return getpid();
}

pid_t tbl_proc_thread_self(void)
{
#if defined(__linux__) && defined(SYS_gettid)
	return (pid_t)syscall(SYS_gettid);
#else
	return getpid();   /* no thread ids to tell threads apart: one owner per process, as before */
#endif
}

uint64_t tbl_proc_thread_start_time(pid_t pid, pid_t tid)
{
	char path[80], state;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	return read_stat_file(path, &state);
}

int tbl_proc_thread_alive(pid_t pid, pid_t tid, uint64_t start_time)
{
	char path[80], state;
	uint64_t now_start;

	if (pid <= 0 || tid <= 0) {
		return 0;
	}
#if defined(__linux__) && defined(SYS_tgkill)
	/* ESRCH: no thread `tid` in process `pid` (it ended, or the id went to another process's thread). */
	if (syscall(SYS_tgkill, (int)pid, (int)tid, 0) != 0 && errno == ESRCH) {
		return 0;
	}
#endif
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	now_start = read_stat_file(path, &state);
	if (state == '?') {
		return access("/proc/self/task", F_OK) == 0 ? 0 : 1;   /* gone, or a system without /proc */
	}
	if (state == 'Z' || state == 'X') {
		return 0;
	}
	if (start_time != 0 && now_start != 0 && now_start != start_time) {
		return 0;   /* the id now names another thread of that process */
	}
	return 1;
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
