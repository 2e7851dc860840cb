/*
 * table_types.h - the core's vocabulary: limits, value types, policies, namespace handles, hooks, the
 * configuration, values and views, and the opaque handle type.
 *
 * Types and constants only (and two one-line helpers on them), no function of the core: every layer
 * includes this, from segment.h up, while table_core.h, which declares the operations, sits on top
 * (core/DESIGN.md, "Layers"). The binding gets it through table_core.h.
 */
#ifndef TBL_TABLE_TYPES_H
#define TBL_TABLE_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#define TBL_KEY_MAX        65535u
#define TBL_NS_NAME_MAX    255u
/* Named namespaces a table can have: ids are 16 bits, and the name index stores id + 1 with 0xFFFF as
 * its tombstone, so ids run 0 (the default namespace) to 65,533. */
#define TBL_NS_NAMED_MAX   65533u
#define TBL_EXPIRE_MAX     2147483647u    /* seconds; larger relative TTLs are rejected */

/* Value types. The core stores them; only LONG has a meaning to it. */
enum {
	TBL_T_NULL = 0,
	TBL_T_FALSE = 1,
	TBL_T_TRUE = 2,
	TBL_T_LONG = 3,      /* 8 bytes, int64_t */
	TBL_T_DOUBLE = 4,    /* 8 bytes, double */
	TBL_T_STRING = 5,    /* raw bytes */
	TBL_T_ARRAY = 6,     /* the binding's native array encoding */
	TBL_T_SERIAL_PHP = 7,
	TBL_T_SERIAL_IGBINARY = 8,
	TBL_T_IMAGE = 9,     /* the binding's zero-copy array: written and compared through tbl_value_ops_t */
	TBL_T_COMPRESSED = 10  /* the binding's compressed bytes of one of the above (serializer/compress.h) */
};
/* Set in a view's type (over one of the types above) when the value lies in pieces: no single block of
 * the heap was free for it (held entries or fragmentation split the free memory), so it was stored in
 * several. Its `data` is then no pointer to the value: read the bytes with tbl_view_copy(). A value with
 * ops is never split (TBL_ENOCONTIG), and a split entry is never held. */
#define TBL_T_SPLIT 0x80u

typedef enum tbl_policy {
	TBL_POLICY_NOEVICTION = 0,
	TBL_POLICY_LRU = 1,
	TBL_POLICY_RANDOM = 2,
	TBL_POLICY_GDSF = 3      /* size-aware frequency with an inflation clock (evict.c) */
} tbl_policy_t;

typedef enum tbl_store_mode {
	TBL_STORE_SET = 0,   /* insert or replace */
	TBL_STORE_ADD = 1    /* insert only when no live entry exists (TBL_EEXIST otherwise) */
} tbl_store_mode_t;

/* Namespace handle: the namespace's id in the low 16 bits and its generation above them. 0 is the
 * default namespace. A namespace left empty can be recycled under another name (ns.c); its generation
 * changes then, so a handle from before no longer finds, counts, clears or writes anything (TBL_ESTALE
 * on writes). Names take the id alone; counters and scans take a handle (tbl_ns_handle() for an id). */
typedef uint32_t tbl_ns_t;
#define TBL_NS_DEFAULT ((tbl_ns_t)0)

static inline uint16_t tbl_ns_id(tbl_ns_t ns)
{
	return (uint16_t)(ns & 0xFFFFu);
}

/* Hooks the embedding program installs (the PHP binding maps them to HANDLE_BLOCK_INTERRUPTIONS).
 * Both may be NULL. They must not fail and must not longjmp. */
/* tbl_segment_current(): does a named segment's path still name the file this process maps? */
typedef enum {
	TBL_SEGMENT_CURRENT = 0,   /* yes (and always for an anonymous segment) */
	TBL_SEGMENT_REMOVED,       /* the path names nothing: the file was removed (`rm`) */
	TBL_SEGMENT_REPLACED       /* the path names another file: a new segment, of this or another version */
} tbl_segment_state_t;

typedef struct tbl_hooks {
	void (*block_signals)(void);
	void (*unblock_signals)(void);
} tbl_hooks_t;

typedef struct tbl_config {
	uint64_t memory;           /* segment size in bytes */
	tbl_policy_t policy;
	tbl_hooks_t hooks;
	/* Tests only: use hash_key instead of a random key, so that colliding keys can be found offline.
	 * Left 0, the segment's hash key comes from the OS's generator (tbl_create fails without one). */
	int fixed_hash_key;
	uint64_t hash_key[2];
	uint32_t slots;            /* reader slots; 0 = TBL_NSLOTS_DEFAULT (4096). Tests set fewer */
	uint32_t namespaces;       /* named namespaces at most; 0 = TBL_NS_NAMED_MAX. Tests set fewer */
	/* A named segment (shm_file.c): the file every process that names it maps, whoever started it.
	 * NULL: an anonymous segment, shared only with processes forked after tbl_create. */
	const char *segment_path;
	uint32_t segment_mode;     /* permission bits of a new file; 0 = 0600. None for 'other' users; group
	                              read and write (0660) also trusts files of other users of the file's
	                              group (shm_file.c) */
	uint32_t lock_wait_ms;     /* the longest wait for a lock another process holds (a stopped one, say): the
	                              file's lock while attaching, and each of the table's own locks (lock.h);
	                              0 = 10 s plus 1 s per GiB of memory */
	int segment_recreate;      /* replace a segment of another size (or a damaged one, or a file that is no
	                              segment) instead of keeping it / failing */
	int segment_keep_versions; /* refuse a segment of another layout or version (TBL_EINVAL) instead of
	                              replacing it at once with a new, empty one (the default: a cache) */
	const char *app_version;   /* the embedding program's version, stored in a named segment and checked */
	int segment_move;          /* tests only: map an existing named segment away from its creator's base */
} tbl_config_t;

/* How this process's handle came to its segment. */
typedef struct tbl_segment_info {
	int named;                 /* 0: anonymous */
	int created;               /* this process made the segment (named: it initialised the file) */
	int same_base;             /* mapped at the creator's address: zero-copy pointers are valid here */
	int replaced;              /* TBL_SEG_* of shm.h: why an existing file was replaced, 0 when not */
	int replaced_version;      /* it replaced a segment of another layout or version (note: which) */
	uint64_t memory;           /* the segment's size (an existing named one keeps its own) */
	uint64_t requested;        /* the size asked for (tbl_config_t.memory) */
	int64_t base_shift;        /* this process's base minus the creator's (0 when same_base) */
	uint64_t created_at;       /* named: unix seconds the segment was created, whoever made it; 0 anonymous */
	char note[192];            /* what `replaced` means, in words */
} tbl_segment_info_t;

typedef struct tbl tbl_t;

/* A value the core cannot memcpy or memcmp: the binding's zero-copy arrays point into their own bytes,
 * so they are built in place. Both callbacks run under a stripe lock with signals blocked: they must
 * not allocate, fail, longjmp or call into the table. */
typedef struct tbl_value_ops {
	/* Write the value's `len` bytes at `dst`, their final place in the segment (8-byte aligned). */
	void (*write)(const void *data, void *dst, uint32_t len);
	/* Non-zero when the stored bytes hold this value (for tbl_cas's `expected`). */
	int (*equals)(const void *data, const void *stored, uint32_t stored_len);
} tbl_value_ops_t;

/* A value as stored. Passed in to writers; pointed at the segment by readers. With `ops` NULL the value
 * is the `len` bytes at `data`; otherwise `data` is whatever the ops take. */
typedef struct tbl_value {
	uint8_t type;
	const void *data;
	uint32_t len;
	const tbl_value_ops_t *ops;
} tbl_value_t;

/* What a lookup sees. `data` points into the segment (8-byte aligned) and is valid until tbl_read_end(),
 * or, once tbl_hold() took it, until tbl_release_holds(). */
typedef struct tbl_view {
	uint8_t type;
	const void *data;
	uint32_t len;          /* value bytes */
	uint32_t size;         /* bytes the entry holds in the segment (what memory() counts) */
	uint32_t created;      /* unix seconds of the first set of this key */
	uint32_t updated;      /* unix seconds of the latest write */
	uint32_t expire;       /* unix seconds, 0 = never */
	uint64_t entry;        /* the entry's offset in the segment (for tbl_hold) */
} tbl_view_t;

/* The integer of a TBL_T_LONG view. Integers are the one value updated in place (tbl_incr, with no lock),
 * so read them with this atomic load rather than memcpy. */
static inline int64_t tbl_view_long(const tbl_view_t *v)
{
	return __atomic_load_n((const int64_t *)v->data, __ATOMIC_RELAXED);
}

#endif
