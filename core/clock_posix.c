/*
 * clock_posix.c - the one clock read on the hot path (POSIX; clock_win32.c on Windows).
 *
 * TTLs, creation and update times need whole seconds that agree with PHP's time(), which reads
 * gettimeofday(): so they come from CLOCK_REALTIME. On Linux that is a vDSO call, but a precise one still
 * reads the hardware counter: about 28 ns on a KVM guest here, which was most of what an increment cost
 * beyond APCu's. CLOCK_REALTIME_COARSE is the time of the kernel's last tick (about 4 ns), never ahead of
 * the precise clock and at most a tick behind it (measured: at most 7 ms here).
 *
 * So seconds are read coarse first. Unless that reading is within TBL_CLOCK_SLACK_NS of the next second,
 * the precise clock would give the same second, and the coarse one is returned; near the boundary (one
 * read in twenty) the precise clock is read. A coarse clock more than TBL_CLOCK_SLACK_NS behind (a
 * timekeeping CPU starved for 50 ms) could make an entry look unexpired, or its update time a second
 * early, for that long: it never reorders writes, and nothing else depends on it.
 *
 * The 100 ms LRU tick comes from the same reading; it may lag by a tick, which the sampled LRU ignores.
 */
#ifndef _WIN32
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <time.h>
#include "platform.h"

#define TBL_CLOCK_SLACK_NS 50000000L   /* 50 ms: seven times the largest lag measured */

static void read_wall(struct timespec *ts)
{
#ifdef CLOCK_REALTIME_COARSE
	clock_gettime(CLOCK_REALTIME_COARSE, ts);
	if (TBL_LIKELY(ts->tv_nsec < 1000000000L - TBL_CLOCK_SLACK_NS)) {
		return;
	}
#endif
	clock_gettime(CLOCK_REALTIME, ts);
}

static tbl_now_t now_from(const struct timespec *ts)
{
	tbl_now_t now;

	now.sec = (uint32_t)ts->tv_sec;
	now.tick = (uint32_t)((uint64_t)ts->tv_sec * 10u + (uint64_t)ts->tv_nsec / 100000000u);
	return now;
}

tbl_now_t tbl_clock_now(void)
{
	struct timespec ts;

	read_wall(&ts);
	return now_from(&ts);
}

uint32_t tbl_clock_seconds(void)
{
	struct timespec ts;

	read_wall(&ts);
	return (uint32_t)ts.tv_sec;
}

uint64_t tbl_clock_monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
#endif
