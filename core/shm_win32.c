/*
 * shm_win32.c - the segment as a pagefile-backed file mapping (Windows).
 *
 * Windows has no fork(), so processes that share a table must map the same named section instead of
 * inheriting a mapping. This backend creates an unnamed section for the creating process; the name and
 * the fixed base address that a multi-process Windows SAPI would need are the open work that README
 * "Windows" describes. It is compiled only by config.w32 and has never been built in this repository's
 * CI (no Windows toolchain is available there).
 */
#ifdef _WIN32
#include <stdio.h>
#include <windows.h>
#include "shm.h"

static void format_error(char *err, size_t errlen, const char *call, size_t size)
{
	char msg[256];
	DWORD code = GetLastError();

	if (!FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code, 0, msg,
	                    (DWORD)sizeof(msg), NULL)) {
		snprintf(msg, sizeof(msg), "error %lu", (unsigned long)code);
	}
	snprintf(err, errlen, "%s(%zu bytes) failed: %s", call, size, msg);
}

static tbl_status_t win32_create(tbl_shm_t *shm, size_t size, char *err, size_t errlen)
{
	HANDLE h;
	void *addr;
	unsigned long long sz = (unsigned long long)size;

	/* SEC_RESERVE: pages are committed lazily, like MAP_NORESERVE on POSIX. */
	h = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE | SEC_COMMIT, (DWORD)(sz >> 32),
	                       (DWORD)(sz & 0xFFFFFFFFu), NULL);
	if (!h) {
		format_error(err, errlen, "CreateFileMapping", size);
		return TBL_ESYS;
	}
	addr = MapViewOfFile(h, FILE_MAP_ALL_ACCESS, 0, 0, size);
	if (!addr) {
		format_error(err, errlen, "MapViewOfFile", size);
		CloseHandle(h);
		return TBL_ESYS;
	}
	shm->addr = addr;
	shm->size = size;
	shm->handle = h;
	return TBL_OK;
}

static void win32_detach(tbl_shm_t *shm)
{
	if (shm->addr) {
		UnmapViewOfFile(shm->addr);
		CloseHandle((HANDLE)shm->handle);
		shm->addr = NULL;
		shm->handle = NULL;
	}
}

static int win32_protect(tbl_shm_t *shm, int readonly)
{
	DWORD old;
	return VirtualProtect(shm->addr, shm->size, readonly ? PAGE_READONLY : PAGE_READWRITE, &old) ? 0 : -1;
}

static const tbl_shm_ops_t win32_ops = { "win32", win32_create, win32_detach, win32_protect, NULL, NULL,
                                         NULL, NULL };

const tbl_shm_ops_t *tbl_shm_default_ops(void)
{
	return &win32_ops;
}
#endif
