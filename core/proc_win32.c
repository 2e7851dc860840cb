/*
 * proc_win32.c - process identity on Windows: liveness from OpenProcess, start time from
 * GetProcessTimes (which also tells a reused process id apart). Windows has no fork(), so the fork
 * hook has nothing to do. Compiled only by config.w32; never built in this repository's CI.
 */
#ifdef _WIN32
#include <windows.h>
#include "proc.h"

uint64_t tbl_proc_start_time(pid_t pid)
{
	HANDLE p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
	FILETIME created, exited, kernel, user;
	uint64_t start = 0;

	if (!p) {
		return 0;
	}
	if (GetProcessTimes(p, &created, &exited, &kernel, &user)) {
		start = ((uint64_t)created.dwHighDateTime << 32) | created.dwLowDateTime;
	}
	CloseHandle(p);
	return start;
}

int tbl_proc_alive(pid_t pid, uint64_t start_time)
{
	HANDLE p;
	DWORD rc;
	uint64_t now_start;

	if (pid <= 0 || !(p = OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid))) {
		return 0;
	}
	rc = WaitForSingleObject(p, 0);
	CloseHandle(p);
	if (rc != WAIT_TIMEOUT) {
		return 0;
	}
	now_start = tbl_proc_start_time(pid);
	return !(start_time != 0 && now_start != 0 && now_start != start_time);
}

int tbl_proc_maps(pid_t pid, const void *addr, uint64_t ino)
{
	(void)pid;
	(void)addr;
	(void)ino;
	return -1;
}

uint64_t tbl_proc_mapping_ino(const void *addr)
{
	(void)addr;
	return 0;
}

pid_t tbl_proc_self(void)
{
	return (pid_t)GetCurrentProcessId();
}

pid_t tbl_proc_thread_self(void)
{
	return (pid_t)GetCurrentThreadId();
}

uint64_t tbl_proc_thread_start_time(pid_t pid, pid_t tid)
{
	(void)pid;
	(void)tid;
	return 0;
}

/* Untested: a thread that can still be opened and has not ended is alive. */
int tbl_proc_thread_alive(pid_t pid, pid_t tid, uint64_t start_time)
{
	HANDLE h;
	DWORD rc;

	(void)pid;
	(void)start_time;
	if (tid <= 0 || !(h = OpenThread(SYNCHRONIZE, FALSE, (DWORD)tid))) {
		return 0;
	}
	rc = WaitForSingleObject(h, 0);
	CloseHandle(h);
	return rc == WAIT_TIMEOUT;
}

void tbl_proc_on_fork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
	(void)prepare;
	(void)parent;
	(void)child;
}
#endif
