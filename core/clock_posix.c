/*
 * clock_posix.c - the one clock read on the hot path (POSIX; clock_win32.c on Windows).
 *
 * TTLs need whole seconds and the sampled LRU needs a coarse access time. Both come from a single
 * CLOCK_REALTIME_COARSE read, which on Linux is a vDSO call that costs a few nanoseconds and never
 * enters the kernel. Its resolution (a few ms) is far finer than either consumer needs.
 */
#ifndef _WIN32
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <time.h>
#include "platform.h"

#ifndef CLOCK_REALTIME_COARSE
# define CLOCK_REALTIME_COARSE CLOCK_REALTIME
#endif

tbl_now_t tbl_clock_now(void)
{
	struct timespec ts;
	tbl_now_t now;

	clock_gettime(CLOCK_REALTIME_COARSE, &ts);
	now.sec = (uint32_t)ts.tv_sec;
	now.tick = (uint32_t)((uint64_t)ts.tv_sec * 10u + (uint64_t)ts.tv_nsec / 100000000u);
	return now;
}

uint64_t tbl_clock_monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
#endif
