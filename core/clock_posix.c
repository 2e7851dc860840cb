/*
 * clock_posix.c - the one clock read on the hot path (POSIX; clock_win32.c on Windows).
 *
 * TTLs, creation and update times need whole seconds that agree with PHP's time(), which reads
 * gettimeofday(): so they come from CLOCK_REALTIME. CLOCK_REALTIME_COARSE would be cheaper, but it lags
 * the precise clock by up to a tick (a few ms), and an entry created just after time() had turned to
 * second S+1 would then say S. The sampled LRU only needs 100 ms ticks, so a read of an entry without a
 * TTL takes the coarse clock (a vDSO call of a few nanoseconds that never enters the kernel).
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

static tbl_now_t clock_read(clockid_t id)
{
	struct timespec ts;
	tbl_now_t now;

	clock_gettime(id, &ts);
	now.sec = (uint32_t)ts.tv_sec;
	now.tick = (uint32_t)((uint64_t)ts.tv_sec * 10u + (uint64_t)ts.tv_nsec / 100000000u);
	return now;
}

tbl_now_t tbl_clock_now(void)
{
	return clock_read(CLOCK_REALTIME);
}

tbl_now_t tbl_clock_now_coarse(void)
{
	return clock_read(CLOCK_REALTIME_COARSE);
}

uint32_t tbl_clock_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint32_t)ts.tv_sec;
}

uint64_t tbl_clock_monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
#endif
