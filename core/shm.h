/*
 * shm.h - how the segment is obtained: one small ops table, one backend per file.
 *
 * The table needs memory that every process forked after creation sees at the same address. A backend
 * creates it (zero-filled, pages faulted lazily) and detaches it. Failures fill `err` with the failing
 * system call and errno text; the facade turns that into the single message the user sees.
 *
 * Backends: shm_mmap.c (anonymous MAP_SHARED, POSIX); shm_win32.c (CreateFileMapping, Windows only).
 */
#ifndef TBL_SHM_H
#define TBL_SHM_H

#include <stddef.h>
#include "status.h"

typedef struct tbl_shm {
	void *addr;
	size_t size;
	void *handle;      /* backend-private (the mapping handle on Windows) */
} tbl_shm_t;

typedef struct tbl_shm_ops {
	const char *name;
	tbl_status_t (*create)(tbl_shm_t *shm, size_t size, char *err, size_t errlen);
	void (*detach)(tbl_shm_t *shm);
	/* Make this process's view read-only (readonly != 0) or writable again. Tests only: it proves that
	 * nothing outside the table's own calls writes to the segment. 0 on success, -1 when unsupported. */
	int (*protect)(tbl_shm_t *shm, int readonly);
} tbl_shm_ops_t;

/* The backend this platform uses. */
const tbl_shm_ops_t *tbl_shm_default_ops(void);

#endif
