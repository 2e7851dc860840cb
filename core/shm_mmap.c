/*
 * shm_mmap.c - the segment as an anonymous shared mapping.
 *
 * MAP_SHARED|MAP_ANONYMOUS memory is inherited by fork() at the same address, which is exactly the
 * sharing model of FPM, Apache prefork and pcntl_fork: the parent creates the segment in MINIT and every
 * child sees it. Pages are faulted in lazily, so a 64M setting costs only what is touched.
 * MAP_NORESERVE keeps a large table.memory from failing on hosts with strict overcommit accounting.
 */
#ifndef _WIN32
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "shm.h"

#ifndef MAP_ANONYMOUS
# define MAP_ANONYMOUS MAP_ANON
#endif
#ifndef MAP_NORESERVE
# define MAP_NORESERVE 0
#endif

static tbl_status_t mmap_create(tbl_shm_t *shm, size_t size, char *err, size_t errlen)
{
	void *addr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (addr == MAP_FAILED) {
		snprintf(err, errlen, "mmap(%zu bytes) failed: %s", size, strerror(errno));
		return TBL_ESYS;
	}
	shm->addr = addr;
	shm->size = size;
	shm->handle = NULL;
	return TBL_OK;
}

static void mmap_detach(tbl_shm_t *shm)
{
	if (shm->addr) {
		munmap(shm->addr, shm->size);
		shm->addr = NULL;
	}
}

static int mmap_protect(tbl_shm_t *shm, int readonly)
{
	return mprotect(shm->addr, shm->size, readonly ? PROT_READ : PROT_READ | PROT_WRITE);
}

static const tbl_shm_ops_t mmap_ops = { "mmap", mmap_create, mmap_detach, mmap_protect, NULL, NULL, NULL,
                                        NULL };

const tbl_shm_ops_t *tbl_shm_default_ops(void)
{
	return &mmap_ops;
}
#endif
