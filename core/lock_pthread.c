/*
 * lock_pthread.c - robust process-shared mutexes (POSIX).
 *
 * The whole point of PTHREAD_MUTEX_ROBUST is the failure APCu is known for (a worker killed while
 * holding the cache lock wedges every other worker): the kernel's robust-futex list hands the lock to
 * the next waiter with EOWNERDEAD. We mark it consistent at once and report TBL_LOCK_RECOVERED so the
 * caller repairs the protected state. ENOTRECOVERABLE only happens if someone unlocks without marking
 * consistent, which this file never does; any such failure is TBL_LOCK_FAILED with errno set, and the
 * callers (sync.c) refuse to enter the critical section.
 *
 * The wait is bounded (lock.h): a try first, which is all an uncontended lock costs; then a wait with a
 * deadline on the monotonic clock (pthread_mutex_clocklock; pthread_mutex_timedlock on the wall clock
 * where that is missing, and under ThreadSanitizer, which sees only the older call). On timeout the
 * holder's thread id is written into the lock's spare bytes as its "stuck" mark.
 */
#ifndef _WIN32
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#ifdef __linux__
# include <linux/futex.h>
#endif
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "lock.h"

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 30))
# define TBL_HAVE_CLOCKLOCK 1
#endif
#if defined(__SANITIZE_THREAD__)
# undef TBL_HAVE_CLOCKLOCK
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  undef TBL_HAVE_CLOCKLOCK
# endif
#endif

/* The mutex first, the stuck mark in the line's last four bytes (zero in every lock ever initialised). */
_Static_assert(sizeof(pthread_mutex_t) <= sizeof(((tbl_lock_t *)0)->storage) - sizeof(uint32_t),
               "pthread_mutex_t too large");

static inline pthread_mutex_t *as_mutex(tbl_lock_t *lock)
{
	return (pthread_mutex_t *)(void *)lock->storage;
}

static inline _Atomic uint32_t *stuck_mark(tbl_lock_t *lock)
{
	return (_Atomic uint32_t *)(void *)(lock->storage + sizeof(lock->storage) - sizeof(uint32_t));
}

static inline void clear_stuck_mark(tbl_lock_t *lock)
{
	if (TBL_UNLIKELY(atomic_load_explicit(stuck_mark(lock), memory_order_relaxed))) {
		atomic_store_explicit(stuck_mark(lock), 0, memory_order_relaxed);
	}
}

tbl_status_t tbl_lock_init(tbl_lock_t *lock, char *err, size_t errlen)
{
	pthread_mutexattr_t attr;
	int rc;

	memset(lock, 0, sizeof(*lock));
	if ((rc = pthread_mutexattr_init(&attr)) != 0) {
		snprintf(err, errlen, "pthread_mutexattr_init() failed: %s", strerror(rc));
		return TBL_ESYS;
	}
	if ((rc = pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED)) != 0
	    || (rc = pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST)) != 0) {
		pthread_mutexattr_destroy(&attr);
		snprintf(err, errlen, "pthread_mutexattr_set*() failed: %s", strerror(rc));
		return TBL_ESYS;
	}
	rc = pthread_mutex_init(as_mutex(lock), &attr);
	pthread_mutexattr_destroy(&attr);
	if (rc != 0) {
		snprintf(err, errlen, "pthread_mutex_init() failed: %s", strerror(rc));
		return TBL_ESYS;
	}
	return TBL_OK;
}

static tbl_lock_result_t after_lock(tbl_lock_t *lock, int rc)
{
	if (TBL_LIKELY(rc == 0)) {
		return TBL_LOCK_ACQUIRED;
	}
	if (rc == EOWNERDEAD) {
		pthread_mutex_consistent(as_mutex(lock));
		clear_stuck_mark(lock);
		return TBL_LOCK_RECOVERED;
	}
	if (rc == EBUSY) {
		return TBL_LOCK_BUSY;
	}
	errno = rc;   /* for the caller's message: ENOTRECOVERABLE, ETIMEDOUT, EINVAL, ... */
	return rc == ETIMEDOUT ? TBL_LOCK_TIMEDOUT : TBL_LOCK_FAILED;
}

static int lock_until(pthread_mutex_t *m, uint32_t wait_ms)
{
	struct timespec until;
#ifdef TBL_HAVE_CLOCKLOCK
	const clockid_t clock = CLOCK_MONOTONIC;
#else
	const clockid_t clock = CLOCK_REALTIME;
#endif

	if (clock_gettime(clock, &until) != 0) {
		return pthread_mutex_lock(m);   /* no clock: no bound, as before bounds existed */
	}
	until.tv_sec += (time_t)(wait_ms / 1000u);
	until.tv_nsec += (long)(wait_ms % 1000u) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
#ifdef TBL_HAVE_CLOCKLOCK
	return pthread_mutex_clocklock(m, clock, &until);
#else
	return pthread_mutex_timedlock(m, &until);
#endif
}

/* Someone holds it: wait, within the bound, unless that holder is the one already marked stuck. */
static tbl_lock_result_t wait_for(tbl_lock_t *lock, uint32_t wait_ms)
{
	_Atomic uint32_t *stuck = stuck_mark(lock);
	uint32_t holder, mark;
	int rc;

	if (!wait_ms) {
		return after_lock(lock, pthread_mutex_lock(as_mutex(lock)));
	}
	holder = tbl_lock_holder(lock);
	mark = atomic_load_explicit(stuck, memory_order_relaxed);
	if (mark && mark == holder) {
		errno = ETIMEDOUT;
		return TBL_LOCK_TIMEDOUT;
	}
	rc = lock_until(as_mutex(lock), wait_ms);
	if (rc == ETIMEDOUT && (holder = tbl_lock_holder(lock)) != 0) {
		atomic_store_explicit(stuck, holder, memory_order_relaxed);
		/* It may have let go between the timeout and the mark (its release cleared nothing then). */
		if (tbl_lock_holder(lock) != holder) {
			atomic_compare_exchange_strong(stuck, &holder, 0);
		}
	}
	if (rc == 0) {
		clear_stuck_mark(lock);
	}
	return after_lock(lock, rc);
}

tbl_lock_result_t tbl_lock_acquire(tbl_lock_t *lock, uint32_t wait_ms)
{
	int rc = pthread_mutex_trylock(as_mutex(lock));

	if (TBL_LIKELY(rc == 0)) {
		return TBL_LOCK_ACQUIRED;
	}
	if (rc == EBUSY) {
		return wait_for(lock, wait_ms);
	}
	return after_lock(lock, rc);
}

tbl_lock_result_t tbl_lock_try(tbl_lock_t *lock)
{
	return after_lock(lock, pthread_mutex_trylock(as_mutex(lock)));
}

void tbl_lock_release(tbl_lock_t *lock)
{
	clear_stuck_mark(lock);
	pthread_mutex_unlock(as_mutex(lock));
}

int tbl_lock_holder_died(tbl_lock_t *lock)
{
#if defined(__linux__) && defined(__GLIBC__) && defined(FUTEX_OWNER_DIED)
	/* glibc keeps the futex word first in the mutex (struct __pthread_mutex_s.__lock). When the owner of a
	 * robust mutex dies, the kernel replaces its tid there with FUTEX_OWNER_DIED; the next owner (told
	 * EOWNERDEAD) stores its own tid, clearing the bit. */
	return (__atomic_load_n(&as_mutex(lock)->__data.__lock, __ATOMIC_RELAXED) & FUTEX_OWNER_DIED) != 0;
#else
	(void)lock;
	return 0;
#endif
}

uint32_t tbl_lock_holder(tbl_lock_t *lock)
{
#if defined(__linux__) && defined(__GLIBC__) && defined(FUTEX_TID_MASK)
	/* The futex word of a robust mutex holds its owner's thread id (see tbl_lock_holder_died). */
	return __atomic_load_n(&as_mutex(lock)->__data.__lock, __ATOMIC_RELAXED) & FUTEX_TID_MASK;
#else
	(void)lock;
	return 0;
#endif
}
#endif
