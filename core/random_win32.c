/*
 * random_win32.c - bytes from the OS's cryptographic generator on Windows (BCryptGenRandom with the
 * system-preferred RNG), for the segment's hash key (hash.h). Compiled only by config.w32; never built
 * in this repository's CI.
 */
#ifdef _WIN32
#include <windows.h>
#include <bcrypt.h>
#include <stdio.h>
#include "hash.h"

#pragma comment(lib, "bcrypt.lib")

int tbl_os_random(void *buf, size_t len, char *errbuf, size_t errlen)
{
	NTSTATUS st = BCryptGenRandom(NULL, (PUCHAR)buf, (ULONG)len, BCRYPT_USE_SYSTEM_PREFERRED_RNG);

	if (!BCRYPT_SUCCESS(st)) {
		snprintf(errbuf, errlen, "BCryptGenRandom(%zu bytes) failed: NTSTATUS 0x%08lx", len, (unsigned long)st);
		return -1;
	}
	return 0;
}
#endif
