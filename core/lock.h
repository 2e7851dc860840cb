/*
 * lock.h - process-shared, robust writer locks.
 *
 * A lock lives in the segment. If its holder dies (SIGKILL, a crash), the next process to acquire it
 * is told so (TBL_LOCK_RECOVERED) and owns it: it must validate or repair what the lock protects before
 * releasing it. The lock is marked consistent before that repair, so a repairer that dies in turn just
 * hands the repair to the next one. Never call user code or anything that can longjmp while holding one.
 *
 * A holder that is alive but never lets go (a process stopped with SIGSTOP or by a debugger, or stuck)
 * must not wedge the others: tbl_lock_acquire waits at most `wait_ms`, then gives up (TBL_LOCK_TIMEDOUT)
 * and marks the lock as stuck on that holder, so that later takers fail at once instead of each waiting
 * out the bound again while the same holder still has it. The mark is cleared by the next release or
 * recovery. The mark lives in the lock's own cache line, beside the mutex: no layout change.
 *
 * Backends: lock_pthread.c (PTHREAD_PROCESS_SHARED + PTHREAD_MUTEX_ROBUST); lock_win32.c (Windows).
 */
#ifndef TBL_LOCK_H
#define TBL_LOCK_H

#include "platform.h"
#include "status.h"

/* Opaque storage, one cache line, big enough for the backend's mutex. */
typedef struct tbl_lock {
	TBL_ALIGNED(TBL_CACHELINE) unsigned char storage[TBL_CACHELINE];
} tbl_lock_t;

typedef enum tbl_lock_result {
	TBL_LOCK_ACQUIRED = 0,
	TBL_LOCK_RECOVERED,   /* acquired; the previous holder died inside its critical section */
	TBL_LOCK_BUSY,        /* tbl_lock_try only: held by someone else */
	TBL_LOCK_FAILED,      /* not acquired: the lock is unusable (errno says why); never enter */
	TBL_LOCK_TIMEDOUT     /* not acquired: held for longer than the wait allowed, or marked stuck on the
	                         holder that still has it (errno ETIMEDOUT); never enter */
} tbl_lock_result_t;

/* Initialise a lock in shared memory. TBL_ESYS with err filled on failure. */
tbl_status_t tbl_lock_init(tbl_lock_t *lock, char *err, size_t errlen);
/* Wait at most wait_ms (0: without a bound) for the lock. */
tbl_lock_result_t tbl_lock_acquire(tbl_lock_t *lock, uint32_t wait_ms);
tbl_lock_result_t tbl_lock_try(tbl_lock_t *lock);
void tbl_lock_release(tbl_lock_t *lock);
/* Non-zero when the lock's holder died holding it and nobody has taken it since, so the repair of what
 * it protects is still pending. One plain load, no lock taken; 0 where the backend cannot tell. */
int tbl_lock_holder_died(tbl_lock_t *lock);
/* Who holds the lock: a thread id (the process id of a single-threaded process); 0 when it is free or
 * the backend cannot tell. One plain load: for messages, never for decisions. */
uint32_t tbl_lock_holder(tbl_lock_t *lock);

#endif
