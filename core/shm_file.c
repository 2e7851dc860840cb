/*
 * shm_file.c - a named segment: a file, <table.segment_dir>/php-table.<name> (/dev/shm by default, so
 * memory-backed), that processes started separately open and map: php-cli, cron jobs, php-fpm masters
 * and their pools share one table, and it outlives all of them until reboot or until the file is removed.
 *
 * The file is a prefix (tbl_seg_prefix_t in shm.h, TBL_SEG_PREFIX_SIZE bytes) followed by the table's own
 * mapping. Rules:
 *   - Who is trusted. Whoever can write the file can change anything in the table (values the binding
 *     unserializes, the allocator's offsets, the locks), so only its owner and, when asked for, its group
 *     may use it. Opened with O_NOFOLLOW; refused when it is a symlink or not a regular file, when any
 *     'other' permission bit is set (mode & 0007: every user of the host could read it, or hold its
 *     lock), and when it belongs to another user, unless this process trusts the group (req->mode has
 *     group read and write, table.segment_mode=0660), the file's mode gives its group read and write,
 *     and the file's group is one of this process's (effective or supplementary): then that group's
 *     members are trusted exactly as the owner is. A new file gets exactly the configured mode (fchmod,
 *     whatever the umask), its group being the creator's effective one (or the directory's, setgid).
 *     All of this is checked before the lock is taken, so nobody the table would refuse can hold it.
 *   - Creation is serialised by flock() on the file: whoever holds it and finds no finished prefix
 *     initialises (truncate to zero and back, so every byte is zero, then the table), writes the prefix
 *     and its magic last, and lets go. Everyone else waits on the lock and then attaches. A creator killed
 *     midway leaves no magic and its lock is released by the kernel, so the next opener initialises
 *     afresh. Nobody maps a file before its magic is there, so re-initialising one never pulls memory
 *     from under a live process.
 *   - The wait for that lock is bounded (req->lock_wait_ms, 10 s by default; LOCK_NB polled with a
 *     backoff of 1 to 50 ms): a creator holds it for as long as it takes to size and initialise the file,
 *     an attacher for an mmap(), so a holder past the bound is stopped (SIGSTOP, a debugger) or stuck,
 *     and the opener fails with TBL_EBUSY naming the file and the holder's pid (/proc/locks) instead of
 *     hanging. Only trusted users can open the file (above), so only they can hold it that long.
 *   - No SIGBUS on a full file system. A store to a page of a tmpfs file that has no block, when the file
 *     system is full, is a SIGBUS, so every page is given its block (posix_fallocate) before it is first
 *     touched: a creator reserves the prefix, the table proper with the reader slots (req->reserve) and
 *     the namespace index (req->reserve_tail) before it maps the file, and the parts used one at a time
 *     (a slot's zero-copy hold list, a namespace's counters and name) are reserved by their first user
 *     through reserve(), which fails with a message instead. A creator that fails (no room, or anything
 *     else before publish()) unlinks its unfinished file under the lock and empties it, so nothing is
 *     left that holds memory or that others would initialise again only to fail the same way.
 *     posix_fallocate() needs the file, so the descriptor stays open (unlocked) while it is mapped.
 *   - A segment is never truncated or re-initialised once finished. One that must go (made in a
 *     previous boot; made by another format, layout or version, at once unless req->keep_versions or it is this boot's
 *     and a newer build's (made_by_newer: an older build refuses it unless req->recreate); of
 *     another size or damaged, with table.segment_recreate=1) is unlinked under its lock and a new file
 *     is created in its place: processes still mapping the old one keep it, whole, until they detach. A
 *     process that waited for the lock of a file that was replaced meanwhile sees that the path no
 *     longer names it and starts over.
 *   - Noticing that. A file that was removed (`rm`) or replaced keeps its mapping, so a process would
 *     go on using a table nobody else will ever open again. current() says whether the path still
 *     names the file mapped: one lstat(), compared by device and inode (the mapping keeps the old inode
 *     alive, so its number cannot be reused meanwhile); the embedder asks it on a slow path of its own
 *     (the binding: at the start of a request, at most once a second) and attaches again.
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
#include <sys/statvfs.h>
#ifdef __linux__
# include <sys/sysmacros.h>
#endif
#include <time.h>
#include <unistd.h>
#include "crash.h"
#include "shm.h"

#ifndef MAP_FIXED_NOREPLACE
# define MAP_FIXED_NOREPLACE 0x100000   /* Linux >= 4.17; older kernels take it as a hint, checked below */
#endif

#define SEG_OPEN_ATTEMPTS 16
#define SEG_LOCK_WAIT_MS  10000u   /* the default bound on waiting for the file's lock */
#define SEG_LOCK_NAP_MAX_US 50000L

typedef struct seg_file {
	int fd;                  /* open while mapped (reserve() needs it) */
	int locked;              /* fd holds the creation lock: a new segment, not yet published */
	dev_t dev;               /* the file, to unlink an unpublished one only while the path names it */
	ino_t ino;
	char *path;
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

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Take the file's lock, polling until `deadline` (now_ms()). 0, or -1 with errno: ETIMEDOUT when another
 * process held it all along. */
static int lock_file(int fd, uint64_t deadline)
{
	long nap_us = 1000;

	for (;;) {
		struct timespec nap;

		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			return 0;
		}
		if (errno == EINTR) {
			continue;
		}
		if (errno != EWOULDBLOCK) {
			return -1;
		}
		if (now_ms() >= deadline) {
			errno = ETIMEDOUT;
			return -1;
		}
		nap.tv_sec = 0;
		nap.tv_nsec = nap_us * 1000L;
		nanosleep(&nap, NULL);   /* a signal just cuts the nap short */
		nap_us = nap_us * 2 > SEG_LOCK_NAP_MAX_US ? SEG_LOCK_NAP_MAX_US : nap_us * 2;
	}
}

/* The pid /proc/locks names as holding a flock() lock on the file `st` describes, or 0 (not Linux, not
 * found, or a holder in another pid namespace). For the message only. */
static long lock_holder(const struct stat *st)
{
	long pid = 0;
#ifdef __linux__
	FILE *f = fopen("/proc/locks", "r");
	char line[256];

	if (!f) {
		return 0;
	}
	while (pid == 0 && fgets(line, sizeof(line), f)) {
		char kind[16];
		long p;
		unsigned int maj, min;
		unsigned long long ino;

		/* "1: FLOCK  ADVISORY  WRITE 1234 00:1a:5678 0 EOF"; waiters' lines have "->" after the number. */
		if (!strstr(line, "->") && sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", kind, &p, &maj, &min, &ino) == 5
		    && strcmp(kind, "FLOCK") == 0 && maj == major(st->st_dev) && min == minor(st->st_dev)
		    && ino == (unsigned long long)st->st_ino && p > 0) {
			pid = p;
		}
	}
	fclose(f);
#else
	(void)st;
#endif
	return pid;
}

/* Is `gid` this process's effective group or one of its supplementary groups? */
static int in_my_groups(gid_t gid)
{
	gid_t *list;
	int n, i, found = 0;

	if (gid == getegid()) {
		return 1;
	}
	if ((n = getgroups(0, NULL)) <= 0 || !(list = malloc((size_t)n * sizeof(*list)))) {
		return 0;
	}
	n = getgroups(n, list);
	for (i = 0; i < n && !found; i++) {
		found = list[i] == gid;
	}
	free(list);
	return found;
}

/* Why this process must not use the existing file `st` describes (see "Who is trusted" above), in `buf`;
 * NULL when it may. `mode` is the configured one. */
static const char *trust_refusal(const struct stat *st, mode_t mode, const char *path, char *buf, size_t n)
{
	unsigned long uid = (unsigned long)st->st_uid, me = (unsigned long)geteuid(), gid = (unsigned long)st->st_gid;
	unsigned int bits = (unsigned int)(st->st_mode & 0777);

	if (bits & 0007) {
		snprintf(buf, n, "%s has mode 0%03o, which lets every user of this host open it; refusing to use it "
		         "(chmod it to 0600 or 0660, or remove it)", path, bits);
	} else if (st->st_uid == geteuid()) {
		return NULL;
	} else if ((mode & 0060) != 0060) {
		size_t l = (size_t)snprintf(buf, n, "%s is owned by uid %lu, not by this process's user (uid %lu); refusing "
		                            "to use it", path, uid, me);
		if ((bits & 0060) == 0060 && in_my_groups(st->st_gid) && l < n) {
			snprintf(buf + l, n - l, " (its group, gid %lu, which this process is in, may share it: set "
			         "table.segment_mode=0660 to trust that group)", gid);
		}
	} else if ((bits & 0060) != 0060) {
		snprintf(buf, n, "%s is owned by uid %lu and not shared with its group (mode 0%03o); refusing to use it",
		         path, uid, bits);
	} else if (!in_my_groups(st->st_gid)) {
		snprintf(buf, n, "%s is owned by uid %lu and shared with its group, gid %lu, which this process's user "
		         "(uid %lu) is not in; refusing to use it", path, uid, gid, me);
	} else {
		return NULL;   /* a member of the file's group, which this process trusts */
	}
	return buf;
}

/* posix_fallocate() of [off, off + len) of `fd`: 0 or the error number. */
static int reserve_fd(int fd, uint64_t off, uint64_t len)
{
	int e;

	while ((e = posix_fallocate(fd, (off_t)off, (off_t)len)) == EINTR) {
	}
	return e;
}

/* The message of a failed reservation: what could not get its blocks, where, and the room left. */
static void no_room(int fd, const char *path, const char *what, int e, char *err, size_t errlen)
{
	struct statvfs vs;
	unsigned long long avail = 0;

	if (fstatvfs(fd, &vs) == 0) {
		avail = (unsigned long long)vs.f_bavail * (unsigned long long)vs.f_frsize;
	}
	if (e == ENOSPC) {
		snprintf(err, errlen, "no room for %s in %s: posix_fallocate() failed: %s (%llu bytes free there); make "
		         "room, enlarge that file system (Docker: --shm-size), or lower table.memory", what, path,
		         strerror(e), avail);
	} else {
		snprintf(err, errlen, "no room for %s in %s: posix_fallocate() failed: %s", what, path, strerror(e));
	}
}

/* A creator gives up (lock held, no magic): unlink the file while the path still names it, so that
 * nobody initialises it again, and empty it, so that its blocks are free at once even while a waiter
 * still has it open (that waiter then finds the path gone and starts over). */
static void discard_unfinished(int fd, const char *path, dev_t dev, ino_t ino)
{
	struct stat pst;

	if (lstat(path, &pst) == 0 && pst.st_dev == dev && pst.st_ino == ino) {
		(void)unlink(path);
	}
	(void)ftruncate(fd, 0);
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

/* Why an existing, finished segment cannot be used by this build, or NULL. *damaged: 0 when it is
 * another build's (format, layout or version: replaced at once unless req->keep_versions), 1 when its
 * header makes no sense (replaced only with req->recreate). */
static const char *prefix_mismatch(const tbl_seg_prefix_t *p, const tbl_shm_named_req_t *req, const char *app,
                                   char *buf, size_t n, int *damaged)
{
	*damaged = 0;
	if (p->format != TBL_SEG_FORMAT || p->layout_version != req->layout_version
	    || p->header_size != req->header_size) {
		snprintf(buf, n, "it was made by version %.*s (segment format %u, layout %u, a %llu-byte header); this is "
		         "version %s (format %u, layout %u, %llu bytes)", (int)TBL_SEG_VERSION_MAX, p->app_version,
		         p->format, p->layout_version, (unsigned long long)p->header_size, app, TBL_SEG_FORMAT,
		         req->layout_version, (unsigned long long)req->header_size);
		return buf;
	}
	if (strncmp(p->app_version, app, TBL_SEG_VERSION_MAX) != 0) {
		snprintf(buf, n, "it was made by version %.*s, this is version %s", (int)TBL_SEG_VERSION_MAX,
		         p->app_version, app);
		return buf;
	}
	*damaged = 1;
	if (p->map_size == 0 || p->memory == 0 || p->memory > p->map_size) {
		snprintf(buf, n, "its header is damaged (size %llu, mapping %llu)", (unsigned long long)p->memory,
		         (unsigned long long)p->map_size);
		return buf;
	}
	return NULL;
}

/* Dotted numbers ("0.10.2"), compared number by number; what follows the numbers is not compared. */
static int version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		unsigned long x = 0, y = 0;
		int da = *a >= '0' && *a <= '9', db = *b >= '0' && *b <= '9';

		if (!da || !db) {
			return 0;
		}
		while (*a >= '0' && *a <= '9' && x < 100000000ul) {
			x = x * 10 + (unsigned long)(*a++ - '0');
		}
		while (*b >= '0' && *b <= '9' && y < 100000000ul) {
			y = y * 10 + (unsigned long)(*b++ - '0');
		}
		if (x != y) {
			return x < y ? -1 : 1;
		}
		if (*a != '.' || *b != '.') {
			return 0;
		}
		a++;
		b++;
	}
	return 0;
}

/* Non-zero when another build's segment was made by a newer one than this: a higher segment format or
 * layout, or the same layout and a higher version. An older build does not replace it (a cron job still
 * on the old table.so would otherwise empty the upgraded pool's table again, and again). */
static int made_by_newer(const tbl_seg_prefix_t *p, const tbl_shm_named_req_t *req, const char *app)
{
	char theirs[TBL_SEG_VERSION_MAX + 1];

	if (p->format != TBL_SEG_FORMAT) {
		return p->format > TBL_SEG_FORMAT;
	}
	if (p->layout_version != req->layout_version) {
		return p->layout_version > req->layout_version;
	}
	memcpy(theirs, p->app_version, TBL_SEG_VERSION_MAX);
	theirs[TBL_SEG_VERSION_MAX] = '\0';
	return version_cmp(theirs, app) > 0;
}

static void free_sf(seg_file_t *sf)
{
	free(sf->path);
	free(sf);
}

static tbl_status_t file_open_named(tbl_shm_t *shm, const tbl_shm_named_req_t *req, tbl_shm_named_res_t *res,
                                    char *err, size_t errlen)
{
	const char *app = req->app_version ? req->app_version : "";
	mode_t mode = req->mode ? (mode_t)(req->mode & 07777u) : (mode_t)0600;
	uint32_t wait_ms = req->lock_wait_ms ? req->lock_wait_ms : SEG_LOCK_WAIT_MS;
	uint64_t deadline = now_ms() + wait_ms;
	char boot[TBL_SEG_BOOT_ID_MAX], why[200], refusal[400];
	int attempt, replaced = TBL_SEG_KEPT;
	seg_file_t *sf;

	memset(res, 0, sizeof(*res));
	if (strlen(app) >= TBL_SEG_VERSION_MAX) {
		snprintf(err, errlen, "version string \"%s\" is too long for a segment header", app);
		return TBL_EINVAL;
	}
	if (mode & 0007) {   /* the binding refuses it first; this is the core's own guard */
		snprintf(err, errlen, "mode 0%03o would open %s to every user of this host", (unsigned int)(mode & 0777),
		         req->path);
		return TBL_EINVAL;
	}
	read_boot_id(boot, sizeof(boot));
	if (!(sf = calloc(1, sizeof(*sf))) || !(sf->path = strdup(req->path))) {
		free_sf(sf);
		snprintf(err, errlen, "calloc(%zu) failed", sizeof(*sf));
		return TBL_ESYS;
	}
	sf->fd = -1;
	for (attempt = 0; attempt < SEG_OPEN_ATTEMPTS; attempt++) {
		tbl_seg_prefix_t pre;
		struct stat st, pst;
		const char *bad = NULL;
		size_t len;
		int fd, fresh = 0, replace = TBL_SEG_KEPT, damaged = 1;
		unsigned char *map;

		fd = open(req->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0) {
			fresh = 1;
			if (fchmod(fd, mode) != 0) {   /* exactly the configured mode, whatever the umask */
				free_sf(sf);
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
			free_sf(sf);
			if (e == ELOOP) {
				return fail(-1, err, errlen, TBL_EINVAL, "%s is a symbolic link; refusing to follow it%s", req->path,
				            " (remove it)");
			}
			return fail(-1, err, errlen, TBL_ESYS, "open(%s) failed: %s", req->path, strerror(e));
		}
		if (fstat(fd, &st) != 0) {
			free_sf(sf);
			return fail(fd, err, errlen, TBL_ESYS, "fstat(%s) failed: %s", req->path, strerror(errno));
		}
		if (!S_ISREG(st.st_mode)) {
			free_sf(sf);
			return fail(fd, err, errlen, TBL_EINVAL, "%s is not a regular file%s", req->path, "; refusing to use it");
		}
		if (!fresh && trust_refusal(&st, mode, req->path, refusal, sizeof(refusal))) {
			free_sf(sf);
			return fail(fd, err, errlen, TBL_EINVAL, "%s%s", refusal, "");
		}
		if (lock_file(fd, deadline) != 0) {
			if (errno == ETIMEDOUT) {
				long pid = lock_holder(&st);
				char who[32] = "";
				if (pid > 0) {
					snprintf(who, sizeof(who), " (pid %ld)", pid);
				}
				snprintf(err, errlen, "%s is locked by another process%s, which did not let go of it within %g s: "
				         "creating or replacing a segment holds that lock only briefly, so that process is stopped "
				         "or stuck; end it, or remove the file", req->path, who, wait_ms / 1000.0);
				close(fd);
				free_sf(sf);
				return TBL_EBUSY;
			}
			free_sf(sf);
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
			bad = prefix_mismatch(&pre, req, app, why, sizeof(why), &damaged);
			if (!bad && (uint64_t)st.st_size < TBL_SEG_PREFIX_SIZE + pre.map_size) {
				damaged = 1;
				snprintf(why, sizeof(why), "it is %llu bytes long, shorter than its header says (%llu)",
				         (unsigned long long)st.st_size, (unsigned long long)(TBL_SEG_PREFIX_SIZE + pre.map_size));
				bad = why;
			}
			if (bad) {
				replace = damaged ? TBL_SEG_REPLACED_MISMATCH : TBL_SEG_REPLACED_VERSION;
			} else if (strncmp(pre.boot_id, boot, TBL_SEG_BOOT_ID_MAX) != 0) {
				replace = TBL_SEG_REPLACED_BOOT;   /* nobody can be using it: every user died with that boot */
			} else if (pre.memory != req->memory && req->recreate) {
				replace = TBL_SEG_REPLACED_SIZE;
			}
			if (replace == TBL_SEG_REPLACED_VERSION && !req->recreate && !req->keep_versions
			    && strncmp(pre.boot_id, boot, TBL_SEG_BOOT_ID_MAX) == 0 && made_by_newer(&pre, req, app)) {
				snprintf(err, errlen, "%s was made by a newer build than this one: %s; this process's table.so is "
				         "older: upgrade it (every PHP that names the segment), or set table.segment_recreate=1 to "
				         "replace the segment with this build's (a downgrade)", req->path, bad);
				close(fd);
				free_sf(sf);
				return TBL_EINVAL;
			}
			if ((replace == TBL_SEG_REPLACED_MISMATCH && !req->recreate)
			    || (replace == TBL_SEG_REPLACED_VERSION && req->keep_versions)) {
				snprintf(err, errlen, "%s does not match this build: %s; remove the file%s", req->path, bad,
				         replace == TBL_SEG_REPLACED_MISMATCH ? " or set table.segment_recreate=1" : "");
				close(fd);
				free_sf(sf);
				return TBL_EINVAL;
			}
			if (replace != TBL_SEG_KEPT) {
				/* Unlink under its lock; whoever maps it keeps it until they exit. */
				if (unlink(req->path) != 0 && errno != ENOENT) {
					free_sf(sf);
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
				} else if (replace == TBL_SEG_REPLACED_VERSION) {
					snprintf(res->note, sizeof(res->note), "replaced: %.180s", bad);
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
				free_sf(sf);
				return fail(fd, err, errlen, TBL_ESYS, "mmap(%s) failed: %s", req->path, strerror(errno));
			}
			(void)flock(fd, LOCK_UN);   /* the descriptor stays open, for reserve() */
			sf->fd = fd;
			sf->dev = st.st_dev;   /* for current() */
			sf->ino = st.st_ino;
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
				free_sf(sf);
				return TBL_EINVAL;
			}
			/* Perhaps another format's live segment: unlink it rather than write over it. */
			if (unlink(req->path) != 0 && errno != ENOENT) {
				free_sf(sf);
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
		/* New, or never finished: nobody maps it. Zero it whole and size it, then give its blocks to every
		 * part that is not reserved by its first user later. */
		len = TBL_SEG_PREFIX_SIZE + (size_t)req->map_size;
		if (ftruncate(fd, 0) != 0 || ftruncate(fd, (off_t)len) != 0) {
			int e = errno;
			discard_unfinished(fd, req->path, st.st_dev, st.st_ino);
			free_sf(sf);
			return fail(fd, err, errlen, TBL_ESYS, "ftruncate(%s) failed: %s", req->path, strerror(e));
		}
		TBL_CRASH_POINT("segment.create.sized");
		{
			uint64_t head = req->reserve < len ? req->reserve : len;
			uint64_t tail = req->reserve_tail < len - head ? req->reserve_tail : len - head;
			int e = head ? reserve_fd(fd, 0, head) : 0;

			if (e == 0 && tail) {
				e = reserve_fd(fd, len - tail, tail);
			}
			if (e != 0) {
				char what[64];
				snprintf(what, sizeof(what), "a segment of %llu bytes", (unsigned long long)(head + tail));
				no_room(fd, req->path, what, e, err, errlen);
				discard_unfinished(fd, req->path, st.st_dev, st.st_ino);
				close(fd);
				free_sf(sf);
				return TBL_ESYS;
			}
		}
		if (!(map = map_at(fd, len, creator_hint(req->path)))) {
			int e = errno;
			discard_unfinished(fd, req->path, st.st_dev, st.st_ino);
			free_sf(sf);
			return fail(fd, err, errlen, TBL_ESYS, "mmap(%s) failed: %s", req->path, strerror(e));
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
		sf->locked = 1;
		sf->dev = st.st_dev;
		sf->ino = st.st_ino;
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
	free_sf(sf);
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
	if (sf->locked) {
		(void)flock(sf->fd, LOCK_UN);   /* the creation lock; the descriptor stays open, for reserve() */
		sf->locked = 0;
	}
}

static tbl_status_t file_reserve(tbl_shm_t *shm, uint64_t off, uint64_t len, const char *what, char *err,
                                 size_t errlen)
{
	seg_file_t *sf = shm->handle;
	int e;

	if (!sf || sf->fd < 0 || len == 0) {
		return TBL_OK;
	}
	if ((e = reserve_fd(sf->fd, TBL_SEG_PREFIX_SIZE + off, len)) != 0) {
		no_room(sf->fd, sf->path, what, e, err, errlen);
		return TBL_ESYS;
	}
	return TBL_OK;
}

static int file_current(const tbl_shm_t *shm)
{
	const seg_file_t *sf = shm->handle;
	struct stat pst;

	if (!sf || sf->locked) {
		return TBL_SHM_PATH_CURRENT;   /* not published yet: nobody else can have replaced it */
	}
	if (lstat(sf->path, &pst) != 0) {
		return errno == ENOENT || errno == ENOTDIR ? TBL_SHM_PATH_REMOVED : TBL_SHM_PATH_CURRENT;
	}
	return pst.st_dev == sf->dev && pst.st_ino == sf->ino ? TBL_SHM_PATH_CURRENT : TBL_SHM_PATH_REPLACED;
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
	if (sf->locked) {
		/* Never published: whatever made the creator give up would stop the next one too. */
		discard_unfinished(sf->fd, sf->path, sf->dev, sf->ino);
		unlock_close(sf->fd);
	} else if (sf->fd >= 0) {
		close(sf->fd);
	}
	free_sf(sf);
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
                                        file_publish, file_reserve, file_current };

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
