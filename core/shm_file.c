/*
 * shm_file.c - a named segment: a file, <table.segment_dir>/php-table.<name> (/dev/shm by default, so
 * memory-backed), that processes started separately open and map: php-cli, cron jobs, php-fpm masters
 * and their pools share one table, and it outlives all of them until reboot or until the file is removed.
 *
 * The file is a prefix (tbl_seg_prefix_t in shm.h, TBL_SEG_PREFIX_SIZE bytes) followed by the table's own
 * mapping. Rules:
 *   - Opened with O_NOFOLLOW, refused when it is a symlink, not a regular file, or owned by another
 *     user; a new file gets exactly the configured mode (fchmod, whatever the umask).
 *   - Creation is serialised by flock() on the file: whoever holds it and finds no finished prefix
 *     initialises (truncate to zero and back, so every byte is zero, then the table), writes the prefix
 *     and its magic last, and lets go. Everyone else waits on the lock and then attaches. A creator killed
 *     midway leaves no magic and its lock is released by the kernel, so the next opener initialises
 *     afresh. Nobody maps a file before its magic is there, so re-initialising one never pulls memory
 *     from under a live process.
 *   - A segment is never truncated or re-initialised once finished. One that must go (made in a
 *     previous boot, or by another version with table.segment_recreate=1) is unlinked under its lock and
 *     a new file is created in its place: processes still mapping the old one keep it, whole, until they
 *     exit. A process that waited for the lock of a file that was replaced meanwhile sees that the path
 *     no longer names it and starts over.
 *   - The table is mapped where its creator mapped it when that address range is free here
 *     (MAP_FIXED_NOREPLACE), so that zero-copy arrays (absolute pointers) stay valid; res->same_base
 *     says whether that worked. A creator picks an address from the path's hash in a range ordinary
 *     mappings do not use (64-bit Linux), which makes the same address likely free in other programs.
 */
#ifndef _WIN32
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "crash.h"
#include "shm.h"

#ifndef MAP_FIXED_NOREPLACE
# define MAP_FIXED_NOREPLACE 0x100000   /* Linux >= 4.17; older kernels take it as a hint, checked below */
#endif

#define SEG_OPEN_ATTEMPTS 16

typedef struct seg_file {
	int fd;                  /* open and flock()ed while a new segment is being initialised, else -1 */
	unsigned char *map;      /* the whole mapping: prefix, then the table */
	size_t map_len;
} seg_file_t;

static void read_boot_id(char *out, size_t n)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	out[0] = '\0';
	if (f) {
		if (fgets(out, (int)n, f)) {
			out[strcspn(out, "\n")] = '\0';
		}
		fclose(f);
	}
}

#if defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define SEG_UNDER_TSAN 1
# endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(SEG_UNDER_TSAN)
# define SEG_UNDER_TSAN 1
#endif

/* Where a creator maps the segment of `path`: 16 GiB granules in [32 TiB, 48 TiB), far from the
 * executable, the heap and the libraries of a 64-bit Linux process. NULL where there is no such room,
 * and under ThreadSanitizer, whose shadow memory lies there: its mmap interceptor drops a hint outside
 * its application ranges (it knows MAP_FIXED, not MAP_FIXED_NOREPLACE), the kernel then maps at 0, and
 * the runtime aborts with "mmap at bad address". */
static void *creator_hint(const char *path)
{
#if defined(__linux__) && UINTPTR_MAX > 0xFFFFFFFFu && !defined(SEG_UNDER_TSAN)
	uint64_t h = 1469598103934665603ull;

	for (; *path; path++) {
		h = (h ^ (unsigned char)*path) * 1099511628211ull;
	}
	return (void *)(uintptr_t)(0x200000000000ull + ((h >> 17) % 1024u) * (16ull << 30));
#else
	(void)path;
	return NULL;
#endif
}

/* Map `len` bytes of `fd` at `want` if that range is free, else anywhere (want NULL: anywhere). */
static unsigned char *map_at(int fd, size_t len, void *want)
{
	void *p = MAP_FAILED;

	if (want) {
		p = mmap(want, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
		if (p != MAP_FAILED && p != want) {   /* a kernel that took the flag as a hint */
			munmap(p, len);
			p = MAP_FAILED;
		}
	}
	if (p == MAP_FAILED) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	}
	return p == MAP_FAILED ? NULL : (unsigned char *)p;
}

/* Tests (req->move): map anywhere but at `avoid`, by holding that range while mapping. */
static unsigned char *map_elsewhere(int fd, size_t len, void *avoid)
{
	void *hold = mmap(avoid, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
	                  -1, 0);
	unsigned char *p = map_at(fd, len, NULL);

	if (hold != MAP_FAILED) {
		munmap(hold, len);
	}
	return p;
}

static int lock_file(int fd)
{
	int r;

	while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
	}
	return r;
}

/* Let the lock go, then the descriptor. A flock() lock belongs to the open file, which a mapping of it
 * keeps open: closing the descriptor alone would keep it locked for as long as the mapping lives. */
static void unlock_close(int fd)
{
	(void)flock(fd, LOCK_UN);
	close(fd);
}

static tbl_status_t fail(int fd, char *err, size_t errlen, tbl_status_t st, const char *fmt, const char *path,
                         const char *what)
{
	if (fd >= 0) {
		close(fd);
	}
	snprintf(err, errlen, fmt, path, what);
	return st;
}

/* Why an existing, finished segment cannot be used by this build, or NULL. */
static const char *prefix_mismatch(const tbl_seg_prefix_t *p, const tbl_shm_named_req_t *req, const char *app,
                                   char *buf, size_t n)
{
	if (p->format != TBL_SEG_FORMAT || p->layout_version != req->layout_version
	    || p->header_size != req->header_size) {
		snprintf(buf, n, "it has segment format %u, layout %u and a %llu-byte header; this build needs format %u, "
		         "layout %u and %llu bytes", p->format, p->layout_version, (unsigned long long)p->header_size,
		         TBL_SEG_FORMAT, req->layout_version, (unsigned long long)req->header_size);
		return buf;
	}
	if (strncmp(p->app_version, app, TBL_SEG_VERSION_MAX) != 0) {
		snprintf(buf, n, "it was made by version %.*s, this is version %s", (int)TBL_SEG_VERSION_MAX,
		         p->app_version, app);
		return buf;
	}
	if (p->map_size == 0 || p->memory == 0 || p->memory > p->map_size) {
		snprintf(buf, n, "its header is damaged (size %llu, mapping %llu)", (unsigned long long)p->memory,
		         (unsigned long long)p->map_size);
		return buf;
	}
	return NULL;
}

static tbl_status_t file_open_named(tbl_shm_t *shm, const tbl_shm_named_req_t *req, tbl_shm_named_res_t *res,
                                    char *err, size_t errlen)
{
	const char *app = req->app_version ? req->app_version : "";
	mode_t mode = req->mode ? (mode_t)(req->mode & 07777u) : (mode_t)0600;
	char boot[TBL_SEG_BOOT_ID_MAX], why[160];
	int attempt, replaced = TBL_SEG_KEPT;
	seg_file_t *sf;

	memset(res, 0, sizeof(*res));
	if (strlen(app) >= TBL_SEG_VERSION_MAX) {
		snprintf(err, errlen, "version string \"%s\" is too long for a segment header", app);
		return TBL_EINVAL;
	}
	read_boot_id(boot, sizeof(boot));
	if (!(sf = calloc(1, sizeof(*sf)))) {
		snprintf(err, errlen, "calloc(%zu) failed", sizeof(*sf));
		return TBL_ESYS;
	}
	sf->fd = -1;
	for (attempt = 0; attempt < SEG_OPEN_ATTEMPTS; attempt++) {
		tbl_seg_prefix_t pre;
		struct stat st, pst;
		const char *bad = NULL;
		size_t len;
		int fd, fresh = 0, replace = TBL_SEG_KEPT;
		unsigned char *map;

		fd = open(req->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0) {
			fresh = 1;
			if (fchmod(fd, mode) != 0) {   /* exactly the configured mode, whatever the umask */
				free(sf);
				return fail(fd, err, errlen, TBL_ESYS, "fchmod(%s) failed: %s", req->path, strerror(errno));
			}
		} else if (errno == EEXIST) {
			fd = open(req->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0 && errno == ENOENT) {
				continue;   /* removed in between: create it */
			}
		}
		if (fd < 0) {
			int e = errno;
			free(sf);
			if (e == ELOOP) {
				return fail(-1, err, errlen, TBL_EINVAL, "%s is a symbolic link; refusing to follow it%s", req->path,
				            " (remove it)");
			}
			return fail(-1, err, errlen, TBL_ESYS, "open(%s) failed: %s", req->path, strerror(e));
		}
		if (fstat(fd, &st) != 0) {
			free(sf);
			return fail(fd, err, errlen, TBL_ESYS, "fstat(%s) failed: %s", req->path, strerror(errno));
		}
		if (!S_ISREG(st.st_mode)) {
			free(sf);
			return fail(fd, err, errlen, TBL_EINVAL, "%s is not a regular file%s", req->path, "; refusing to use it");
		}
		if (st.st_uid != geteuid()) {
			char who[96];
			snprintf(who, sizeof(who), "uid %lu, not by this process's user (uid %lu); refusing to use it",
			         (unsigned long)st.st_uid, (unsigned long)geteuid());
			free(sf);
			return fail(fd, err, errlen, TBL_EINVAL, "%s is owned by %s", req->path, who);
		}
		if (lock_file(fd) != 0) {
			free(sf);
			return fail(fd, err, errlen, TBL_ESYS, "flock(%s) failed: %s", req->path, strerror(errno));
		}
		/* While we waited, the file may have been replaced: then the path names another one. */
		if (lstat(req->path, &pst) != 0 || pst.st_ino != st.st_ino || pst.st_dev != st.st_dev
		    || fstat(fd, &st) != 0) {
			close(fd);
			continue;
		}
		memset(&pre, 0, sizeof(pre));
		if (st.st_size > 0 && pread(fd, &pre, sizeof(pre), 0) < 0) {
			memset(&pre, 0, sizeof(pre));
		}
		if (pre.magic == TBL_SEG_MAGIC) {
			bad = prefix_mismatch(&pre, req, app, why, sizeof(why));
			if (!bad && (uint64_t)st.st_size < TBL_SEG_PREFIX_SIZE + pre.map_size) {
				snprintf(why, sizeof(why), "it is %llu bytes long, shorter than its header says (%llu)",
				         (unsigned long long)st.st_size, (unsigned long long)(TBL_SEG_PREFIX_SIZE + pre.map_size));
				bad = why;
			}
			if (bad) {
				replace = TBL_SEG_REPLACED_MISMATCH;
			} else if (strncmp(pre.boot_id, boot, TBL_SEG_BOOT_ID_MAX) != 0) {
				replace = TBL_SEG_REPLACED_BOOT;   /* nobody can be using it: every user died with that boot */
			} else if (pre.memory != req->memory && req->recreate) {
				replace = TBL_SEG_REPLACED_SIZE;
			}
			if (replace == TBL_SEG_REPLACED_MISMATCH && !req->recreate) {
				snprintf(err, errlen, "%s does not match this build: %s; remove the file or set "
				         "table.segment_recreate=1", req->path, bad);
				close(fd);
				free(sf);
				return TBL_EINVAL;
			}
			if (replace != TBL_SEG_KEPT) {
				/* Unlink under its lock; whoever maps it keeps it until they exit. */
				if (unlink(req->path) != 0 && errno != ENOENT) {
					free(sf);
					return fail(fd, err, errlen, TBL_ESYS, "unlink(%s) failed: %s", req->path, strerror(errno));
				}
				TBL_CRASH_POINT("segment.replace.unlinked");
				close(fd);
				replaced = replace;
				if (replace == TBL_SEG_REPLACED_BOOT) {
					snprintf(res->note, sizeof(res->note), "the segment was made in a previous boot; replaced by a new one");
				} else if (replace == TBL_SEG_REPLACED_SIZE) {
					snprintf(res->note, sizeof(res->note), "the segment had %llu bytes, %llu were asked for; replaced "
					         "(table.segment_recreate=1)", (unsigned long long)pre.memory,
					         (unsigned long long)req->memory);
				} else {
					snprintf(res->note, sizeof(res->note), "replaced (table.segment_recreate=1): %.150s", bad);
				}
				continue;
			}
			/* Attach. */
			len = TBL_SEG_PREFIX_SIZE + (size_t)pre.map_size;
			if (req->move) {
				map = map_elsewhere(fd, len, (void *)(uintptr_t)(pre.base - TBL_SEG_PREFIX_SIZE));
			} else {
				map = map_at(fd, len, (void *)(uintptr_t)(pre.base - TBL_SEG_PREFIX_SIZE));
			}
			if (!map) {
				free(sf);
				return fail(fd, err, errlen, TBL_ESYS, "mmap(%s) failed: %s", req->path, strerror(errno));
			}
			unlock_close(fd);
			sf->map = map;
			sf->map_len = len;
			shm->addr = map + TBL_SEG_PREFIX_SIZE;
			shm->size = (size_t)pre.map_size;
			shm->handle = sf;
			res->created = 0;
			res->same_base = (uint64_t)(uintptr_t)shm->addr == pre.base;
			res->replaced = replaced;
			res->memory = pre.memory;
			res->map_size = pre.map_size;
			res->creator_base = pre.base;
			res->created_at = pre.created;
			res->ino = (uint64_t)st.st_ino;
			return TBL_OK;
		}
		if (pre.magic != 0 || (st.st_size > 0 && st.st_size < (off_t)sizeof(pre.magic))) {
			/* Not ours, or not finished by a table: some other file under our name. */
			if (!req->recreate) {
				snprintf(err, errlen, "%s is not a table segment (unknown header); remove the file or set "
				         "table.segment_recreate=1", req->path);
				close(fd);
				free(sf);
				return TBL_EINVAL;
			}
			/* Perhaps another format's live segment: unlink it rather than write over it. */
			if (unlink(req->path) != 0 && errno != ENOENT) {
				free(sf);
				return fail(fd, err, errlen, TBL_ESYS, "unlink(%s) failed: %s", req->path, strerror(errno));
			}
			close(fd);
			replaced = TBL_SEG_REPLACED_MISMATCH;
			snprintf(res->note, sizeof(res->note), "replaced a file that was not a table segment "
			         "(table.segment_recreate=1)");
			continue;
		} else if (!fresh && st.st_size > 0 && replaced == TBL_SEG_KEPT) {
			replaced = TBL_SEG_REINITIALISED;
			snprintf(res->note, sizeof(res->note), "the segment's creator died before finishing it; made afresh");
		}
		/* New, or never finished: nobody maps it. Zero it whole and size it. */
		len = TBL_SEG_PREFIX_SIZE + (size_t)req->map_size;
		if (ftruncate(fd, 0) != 0 || ftruncate(fd, (off_t)len) != 0) {
			free(sf);
			return fail(fd, err, errlen, TBL_ESYS, "ftruncate(%s) failed: %s", req->path, strerror(errno));
		}
		TBL_CRASH_POINT("segment.create.sized");
		if (req->reserve) {
			int e = posix_fallocate(fd, 0, (off_t)(req->reserve < len ? req->reserve : len));
			if (e != 0) {
				char msg[160];
				snprintf(msg, sizeof(msg), "%s%s", strerror(e),
				         e == ENOSPC ? " (the file system is too small for table.memory: enlarge it, or lower table.memory)" : "");
				(void)ftruncate(fd, 0);
				free(sf);
				return fail(fd, err, errlen, TBL_ESYS, "posix_fallocate(%s) failed: %s", req->path, msg);
			}
		}
		if (!(map = map_at(fd, len, creator_hint(req->path)))) {
			free(sf);
			return fail(fd, err, errlen, TBL_ESYS, "mmap(%s) failed: %s", req->path, strerror(errno));
		}
		{
			tbl_seg_prefix_t *p = (tbl_seg_prefix_t *)(void *)map;
			p->format = TBL_SEG_FORMAT;
			p->layout_version = req->layout_version;
			snprintf(p->app_version, sizeof(p->app_version), "%s", app);
			memcpy(p->boot_id, boot, sizeof(p->boot_id));
			p->header_size = req->header_size;
			p->memory = req->memory;
			p->map_size = req->map_size;
			p->base = (uint64_t)(uintptr_t)(map + TBL_SEG_PREFIX_SIZE);
			p->created = (uint64_t)time(NULL);
			p->creator_pid = (int32_t)getpid();
		}
		TBL_CRASH_POINT("segment.create.prefixed");
		sf->fd = fd;   /* keeps the creation lock until publish() */
		sf->map = map;
		sf->map_len = len;
		shm->addr = map + TBL_SEG_PREFIX_SIZE;
		shm->size = (size_t)req->map_size;
		shm->handle = sf;
		res->created = 1;
		res->same_base = 1;
		res->replaced = replaced;
		res->memory = req->memory;
		res->map_size = req->map_size;
		res->creator_base = (uint64_t)(uintptr_t)shm->addr;
		res->created_at = ((const tbl_seg_prefix_t *)(void *)map)->created;
		res->ino = (uint64_t)st.st_ino;
		return TBL_OK;
	}
	free(sf);
	snprintf(err, errlen, "could not open %s: it was replaced %d times while this process waited for it",
	         req->path, SEG_OPEN_ATTEMPTS);
	return TBL_ESYS;
}

static void file_publish(tbl_shm_t *shm)
{
	seg_file_t *sf = shm->handle;
	tbl_seg_prefix_t *p = (tbl_seg_prefix_t *)(void *)sf->map;

	/* Everything before is in place: the magic makes it a segment others may attach to. */
	__atomic_store_n(&p->magic, TBL_SEG_MAGIC, __ATOMIC_RELEASE);
	TBL_CRASH_POINT("segment.create.published");
	if (sf->fd >= 0) {
		unlock_close(sf->fd);   /* the creation lock */
		sf->fd = -1;
	}
}

static void file_detach(tbl_shm_t *shm)
{
	seg_file_t *sf = shm->handle;

	if (!sf) {
		return;
	}
	if (sf->map) {
		munmap(sf->map, sf->map_len);
	}
	if (sf->fd >= 0) {
		unlock_close(sf->fd);   /* an unpublished segment: the next opener initialises it */
	}
	free(sf);
	shm->handle = NULL;
	shm->addr = NULL;
}

static int file_protect(tbl_shm_t *shm, int readonly)
{
	return mprotect(shm->addr, shm->size, readonly ? PROT_READ : PROT_READ | PROT_WRITE);
}

static tbl_status_t file_create(tbl_shm_t *shm, size_t size, char *err, size_t errlen)
{
	(void)shm;
	snprintf(err, errlen, "a named segment needs a path (%zu bytes asked for)", size);
	return TBL_EINVAL;
}

static const tbl_shm_ops_t file_ops = { "file", file_create, file_detach, file_protect, file_open_named,
                                        file_publish };

const tbl_shm_ops_t *tbl_shm_file_ops(void)
{
	return &file_ops;
}
#else
#include "shm.h"

/* Named segments (table.segment) are POSIX only so far: Windows would need a named section. */
const tbl_shm_ops_t *tbl_shm_file_ops(void)
{
	return NULL;
}
#endif
