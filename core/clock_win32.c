/*
 * clock_win32.c - the table's clock on Windows: GetSystemTimePreciseAsFileTime for the wall clock (100 ns
 * units since 1601) and GetTickCount64 for the monotonic milliseconds. Compiled only by config.w32;
 * never built in this repository's CI.
 */
#ifdef _WIN32
#include <windows.h>
#include "platform.h"

#define TBL_FILETIME_UNIX_EPOCH 116444736000000000ull   /* 1970-01-01 in FILETIME units */

tbl_now_t tbl_clock_now(void)
{
	FILETIME ft;
	uint64_t units;
	tbl_now_t now;

	GetSystemTimePreciseAsFileTime(&ft);
	units = (((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime) - TBL_FILETIME_UNIX_EPOCH;
	now.sec = (uint32_t)(units / 10000000u);
	now.tick = (uint32_t)(units / 1000000u);
	return now;
}

uint32_t tbl_clock_seconds(void)
{
	return tbl_clock_now().sec;
}

uint64_t tbl_clock_monotonic_ms(void)
{
	return (uint64_t)GetTickCount64();
}
#endif
