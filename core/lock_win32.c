/*
 * lock_win32.c - writer locks for Windows: a spin lock on an owner word in the segment.
 *
 * Windows mutex handles cannot live in shared memory, so the lock is a 32-bit owner word (the holder's
 * process id, 0 when free) taken with an interlocked compare-exchange. Robustness follows the POSIX
 * backend's contract: a waiter that finds the owner process gone (OpenProcess fails, or the process has
 * exited) takes the lock over and reports TBL_LOCK_RECOVERED so the caller repairs. The wait is bounded
 * as lock.h says; the stuck mark is a second word beside the owner. Compiled only by
 * config.w32; never built in this repository's CI (no Windows toolchain there).
 */
#ifdef _WIN32
#include <windows.h>
#include "lock.h"

typedef struct win_lock {
	volatile LONG owner;
	volatile LONG stuck;   /* the owner a waiter gave up on, 0 when none (lock.h) */
} win_lock_t;

_Static_assert(sizeof(win_lock_t) <= sizeof(((tbl_lock_t *)0)->storage), "win_lock_t too large");

static inline win_lock_t *as_win(tbl_lock_t *lock)
{
	return (win_lock_t *)(void *)lock->storage;
}

static int owner_alive(LONG pid)
{
	HANDLE p = OpenProcess(SYNCHRONIZE, FALSE, (DWORD)pid);
	DWORD rc;

	if (!p) {
		return 0;
	}
	rc = WaitForSingleObject(p, 0);
	CloseHandle(p);
	return rc == WAIT_TIMEOUT;
}

tbl_status_t tbl_lock_init(tbl_lock_t *lock, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	as_win(lock)->owner = 0;
	as_win(lock)->stuck = 0;
	return TBL_OK;
}

tbl_lock_result_t tbl_lock_try(tbl_lock_t *lock)
{
	win_lock_t *l = as_win(lock);
	LONG me = (LONG)GetCurrentProcessId(), cur;

	cur = InterlockedCompareExchange(&l->owner, me, 0);
	if (cur == 0) {
		return TBL_LOCK_ACQUIRED;
	}
	if (!owner_alive(cur) && InterlockedCompareExchange(&l->owner, me, cur) == cur) {
		l->stuck = 0;
		return TBL_LOCK_RECOVERED;
	}
	return TBL_LOCK_BUSY;
}

tbl_lock_result_t tbl_lock_acquire(tbl_lock_t *lock, uint32_t wait_ms)
{
	win_lock_t *l = as_win(lock);
	unsigned spins = 0;
	uint64_t deadline = 0;
	tbl_lock_result_t r;

	while ((r = tbl_lock_try(lock)) == TBL_LOCK_BUSY) {
		LONG holder = l->owner;

		if (wait_ms && holder && l->stuck == holder) {
			return TBL_LOCK_TIMEDOUT;
		}
		if (++spins < 64) {
			YieldProcessor();
			continue;
		}
		if (wait_ms && !deadline) {
			deadline = tbl_clock_monotonic_ms() + wait_ms;
		} else if (wait_ms && tbl_clock_monotonic_ms() >= deadline) {
			if ((holder = l->owner) != 0) {
				InterlockedExchange(&l->stuck, holder);
			}
			return TBL_LOCK_TIMEDOUT;
		}
		Sleep(spins < 1024 ? 0 : 1);
	}
	return r;
}

void tbl_lock_release(tbl_lock_t *lock)
{
	win_lock_t *l = as_win(lock);

	if (l->stuck) {
		l->stuck = 0;
	}
	InterlockedExchange(&l->owner, 0);
}

int tbl_lock_holder_died(tbl_lock_t *lock)
{
	(void)lock;   /* telling needs OpenProcess on the owner: not worth it on a read path */
	return 0;
}

uint32_t tbl_lock_holder(tbl_lock_t *lock)
{
	return (uint32_t)as_win(lock)->owner;
}
#endif
