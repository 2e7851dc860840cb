/*
 * lock_pthread.c - robust process-shared mutexes (POSIX).
 *
 * The whole point of PTHREAD_MUTEX_ROBUST is the failure APCu is known for (a worker killed while
 * holding the cache lock wedges every other worker): the kernel's robust-futex list hands the lock to
 * the next waiter with EOWNERDEAD. We mark it consistent at once and report TBL_LOCK_RECOVERED so the
 * caller repairs the protected state. ENOTRECOVERABLE only happens if someone unlocks without marking
 * consistent, which this file never does; any such failure is TBL_LOCK_FAILED with errno set, and the
 * callers (sync.c) refuse to enter the critical section.
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
#include "lock.h"

_Static_assert(sizeof(pthread_mutex_t) <= sizeof(((tbl_lock_t *)0)->storage), "pthread_mutex_t too large");

static inline pthread_mutex_t *as_mutex(tbl_lock_t *lock)
{
	return (pthread_mutex_t *)(void *)lock->storage;
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
		return TBL_LOCK_RECOVERED;
	}
	if (rc == EBUSY) {
		return TBL_LOCK_BUSY;
	}
	errno = rc;   /* for the caller's message: ENOTRECOVERABLE, EINVAL, ... */
	return TBL_LOCK_FAILED;
}

tbl_lock_result_t tbl_lock_acquire(tbl_lock_t *lock)
{
	return after_lock(lock, pthread_mutex_lock(as_mutex(lock)));
}

tbl_lock_result_t tbl_lock_try(tbl_lock_t *lock)
{
	return after_lock(lock, pthread_mutex_trylock(as_mutex(lock)));
}

void tbl_lock_release(tbl_lock_t *lock)
{
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
#endif
