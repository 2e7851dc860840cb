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

/* Run `prepare` in the parent just before every fork(), then `parent` in the parent and `child` in the
 * child (POSIX: pthread_atfork; any may be NULL). Registering the same triple again is a no-op.
 * Platforms without fork() ignore it. */
void tbl_proc_on_fork(void (*prepare)(void), void (*parent)(void), void (*child)(void));

#endif
