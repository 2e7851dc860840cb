/*
 * proc.h - process identity, so that a slot or claim left by a dead process can be told apart from one
 * whose pid was reused by a new, unrelated process, and the fork hook. One backend per platform:
 * proc_posix.c, proc_win32.c.
 */
#ifndef TBL_PROC_H
#define TBL_PROC_H

#include <stdint.h>
#include <sys/types.h>

/* The start time of `pid` in clock ticks since boot (Linux: field 22 of /proc/<pid>/stat), or 0 when it
 * cannot be read (the process is gone, or the platform has no /proc). */
uint64_t tbl_proc_start_time(pid_t pid);

/* Non-zero when `pid` is a live process that started at `start_time` (0 = unknown: only liveness is
 * checked). Zombies count as dead. */
int tbl_proc_alive(pid_t pid, uint64_t start_time);

/* Whether `pid` still maps the segment this process maps at `addr` (the same device and inode, `ino` as
 * this process saw it with tbl_proc_mapping_ino, 0 = whatever is there), at any address: a named segment
 * lies at another address in processes that could not map it at its creator's. 1 yes, 0 no (it exec'd
 * another program, or unmapped it), -1 unknown (no /proc, or not allowed to read it). Reads
 * /proc/<pid>/maps: call it when something is stuck, never on a hot path. */
int tbl_proc_maps(pid_t pid, const void *addr, uint64_t ino);
/* The inode /proc/self/maps shows for the mapping that contains `addr` (shared anonymous mappings each
 * get their own; a named segment's is its file's), 0 when unknown. */
uint64_t tbl_proc_mapping_ino(const void *addr);

/* This process's id. */
pid_t tbl_proc_self(void);

/* Threads. A process whose threads each use the table (thread-safe PHP) gives each thread a reader slot
 * of its own, owned by (pid, tid): kill(pid, 0) cannot tell a dead thread, so a thread's slot records its
 * id and its own start time too. */
/* The calling thread's id (Linux: gettid(), system-wide unique while it lives; the main thread's is the pid). */
pid_t tbl_proc_thread_self(void);
/* The start time of thread `tid` of process `pid` (Linux: field 22 of /proc/<pid>/task/<tid>/stat), 0
 * when it cannot be read. */
uint64_t tbl_proc_thread_start_time(pid_t pid, pid_t tid);
/* Non-zero when `tid` is a live thread of process `pid` that started at `start_time` (0: only its
 * liveness is checked). A thread that exited, or a zombie main thread, counts as dead. Without a way to
 * tell (no /proc), a thread counts as alive as long as its process is. */
int tbl_proc_thread_alive(pid_t pid, pid_t tid, uint64_t start_time);

/* Run `prepare` in the parent just before every fork(), then `parent` in the parent and `child` in the
 * child (POSIX: pthread_atfork; any may be NULL). Registering the same triple again is a no-op.
 * Platforms without fork() ignore it. */
void tbl_proc_on_fork(void (*prepare)(void), void (*parent)(void), void (*child)(void));

#endif
