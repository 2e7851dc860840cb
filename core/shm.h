/*
 * shm.h - how the segment is obtained: one small ops table, one backend per file.
 *
 * The table needs memory that every process forked after creation sees at the same address. A backend
 * creates it (zero-filled, pages faulted lazily) and detaches it. Failures fill `err` with the failing
 * system call and errno text; the facade turns that into the single message the user sees.
 *
 * Backends: shm_mmap.c (anonymous MAP_SHARED, POSIX); shm_file.c (a named, file-backed segment that
 * processes started separately map, POSIX); shm_win32.c (CreateFileMapping, Windows only).
 *
 * A named segment is a file <dir>/php-table.<name> (the binding builds the path): a prefix of
 * TBL_SEG_PREFIX_SIZE bytes (tbl_seg_prefix_t: who made it, for which layout and version, in which boot,
 * at which address), then the table's own mapping. shm->addr is the table's base, just after the prefix.
 */
#ifndef TBL_SHM_H
#define TBL_SHM_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

typedef struct tbl_shm {
	void *addr;
	size_t size;
	void *handle;      /* backend-private (the mapping handle on Windows) */
} tbl_shm_t;

struct tbl_shm_named_req;
struct tbl_shm_named_res;

typedef struct tbl_shm_ops {
	const char *name;
	tbl_status_t (*create)(tbl_shm_t *shm, size_t size, char *err, size_t errlen);
	void (*detach)(tbl_shm_t *shm);
	/* Make this process's view read-only (readonly != 0) or writable again. Tests only: it proves that
	 * nothing outside the table's own calls writes to the segment. 0 on success, -1 when unsupported. */
	int (*protect)(tbl_shm_t *shm, int readonly);

	/* Named segments only (NULL elsewhere). Open or create the segment `req` describes and map it (see
	 * tbl_shm_named_req_t); `res` says what was found. With res->created the caller holds the segment's
	 * creation lock and must fill in the zero-filled table, then call publish() (or detach() to give up:
	 * the next opener then initialises it afresh). */
	tbl_status_t (*open_named)(tbl_shm_t *shm, const struct tbl_shm_named_req *req, struct tbl_shm_named_res *res,
	                           char *err, size_t errlen);
	void (*publish)(tbl_shm_t *shm);
	/* Named segments only (NULL elsewhere): give bytes [off, off + len) of the table (offsets from
	 * shm->addr) their blocks in the file now, so that a full file system is this call's TBL_ESYS (`err`
	 * names the file, `what` was wanted and the free space) and never a SIGBUS when the pages are first
	 * touched. The caller owns that range (nobody else writes it meanwhile). Cheap when already done. */
	tbl_status_t (*reserve)(tbl_shm_t *shm, uint64_t off, uint64_t len, const char *what, char *err, size_t errlen);
	/* Named segments only (NULL elsewhere): whether the path still names the file this handle maps
	 * (TBL_SHM_PATH_*). One lstat(); a path that cannot be looked at for another reason counts as current. */
	int (*current)(const tbl_shm_t *shm);
} tbl_shm_ops_t;

/* current(): the path names the mapped file; names nothing (`rm`); names another file (a new segment). */
enum { TBL_SHM_PATH_CURRENT = 0, TBL_SHM_PATH_REMOVED = 1, TBL_SHM_PATH_REPLACED = 2 };

/* The backend this platform uses for anonymous segments. */
const tbl_shm_ops_t *tbl_shm_default_ops(void);
/* The backend of named segments, or NULL where there is none (Windows). */
const tbl_shm_ops_t *tbl_shm_file_ops(void);

/* ---- named segments ------------------------------------------------------------------------------- */

#define TBL_SEG_PREFIX_SIZE 65536u             /* the table starts this far into the file (any page size) */
#define TBL_SEG_MAGIC       0x4753424c42545048ull   /* "PHTBLBSG" little-endian; written last */
#define TBL_SEG_FORMAT      1u
#define TBL_SEG_VERSION_MAX 32u
#define TBL_SEG_BOOT_ID_MAX 40u

/* The first bytes of a named segment's file. Written once by its creator, under the creation lock,
 * `magic` last: a file without it was never finished (its creator died) and is initialised afresh. */
typedef struct tbl_seg_prefix {
	uint64_t magic;
	uint32_t format;                        /* TBL_SEG_FORMAT */
	uint32_t layout_version;                /* the table's TBL_LAYOUT_VERSION */
	char app_version[TBL_SEG_VERSION_MAX];  /* the embedding program's version (the extension's) */
	char boot_id[TBL_SEG_BOOT_ID_MAX];      /* /proc/sys/kernel/random/boot_id at creation, "" unknown */
	uint64_t header_size;                   /* sizeof(tbl_header_t): a build with another layout refuses */
	uint64_t memory;                        /* the table's size (table.memory) */
	uint64_t map_size;                      /* the table's mapping after the prefix */
	uint64_t base;                          /* the creator's table base address (zero-copy pointers) */
	uint64_t created;                       /* unix seconds */
	int32_t creator_pid;
	uint32_t reserved;
} tbl_seg_prefix_t;

/* What to open. */
typedef struct tbl_shm_named_req {
	const char *path;                 /* the file; its last component must not be a symlink */
	uint32_t mode;                    /* permission bits of a new file (0: 0600; none for 'other' users).
	                                     With group read and write (0660), an existing file of another
	                                     user is accepted when its group may read and write it and is one
	                                     of this process's groups: that group is trusted as its owner is */
	uint32_t lock_wait_ms;            /* the longest wait for the file's lock (another process may hold
	                                     it: a stopped creator, anyone who can open the file); 0: 10 s */
	int recreate;                     /* replace a segment that does not match (another size, a damaged
	                                     header, a file that is no segment) instead of failing / keeping it */
	int keep_versions;                /* refuse a segment of another format, layout or version (TBL_EINVAL)
	                                     instead of replacing it at once (0, the default) */
	int move;                         /* tests: map an existing segment away from its creator's base */
	uint32_t layout_version;
	const char *app_version;          /* NULL: "" */
	uint64_t header_size;
	uint64_t memory;                  /* a new segment's table size and mapping */
	uint64_t map_size;
	uint64_t reserve;                 /* bytes of a new file (prefix included) to allocate at once, so that
	                                     a full file system fails the open, never a later store (SIGBUS) */
	uint64_t reserve_tail;            /* and bytes at the end of the mapping (the namespace index); the
	                                     rest gets its blocks part by part when first used (reserve()) */
} tbl_shm_named_req_t;

/* Why an existing file was replaced by a new segment. */
enum { TBL_SEG_KEPT = 0, TBL_SEG_REPLACED_BOOT = 1, TBL_SEG_REPLACED_MISMATCH = 2, TBL_SEG_REPLACED_SIZE = 3,
       TBL_SEG_REINITIALISED = 4 /* a file whose creator died before finishing it */,
       TBL_SEG_REPLACED_VERSION = 5 /* a segment of another format, layout or version (note: which) */ };

/* What was found. */
typedef struct tbl_shm_named_res {
	int created;                      /* a new segment: the caller initialises it, then publish() */
	int same_base;                    /* mapped at its creator's address */
	int replaced;                     /* TBL_SEG_* */
	uint64_t memory, map_size;        /* of the segment mapped (an existing one keeps its own) */
	uint64_t creator_base;            /* the creator's table base (for a new one: ours) */
	uint64_t created_at;              /* unix seconds the segment was created (its prefix's `created`) */
	uint64_t ino;                     /* the file's inode (what /proc/<pid>/maps shows) */
	char note[192];                   /* why it was replaced, when it was */
} tbl_shm_named_res_t;

#endif
