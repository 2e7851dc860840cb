/*
 * split.h - values stored in pieces, for when no single block of the heap can be had (split.c).
 */
#ifndef TBL_SPLIT_H
#define TBL_SPLIT_H

#include "segment.h"

#define TBL_SPLIT_MAX_PIECES  1024u   /* pieces of one value, at most: its directory stays under 16 KiB */
#define TBL_SPLIT_MIN_PIECE   1024u   /* value bytes a piece taken from free memory carries at least (but the last) */
#define TBL_SPLIT_ROOM_FAILS  12u     /* failed tries to make room (tbl_room_alloc) for one value, at most */
#define TBL_SPLIT_ROOM_MS     1000u   /* and the time one value may spend making room for its pieces */

/* The pieces a writer has allocated (process-local, on its stack) until its entry is built. */
typedef struct tbl_split {
	uint32_t n;
	uint64_t bytes;                   /* block bytes of the pieces and the entry's own block */
	uint64_t off[TBL_SPLIT_MAX_PIECES];
	uint32_t len[TBL_SPLIT_MAX_PIECES];
} tbl_split_t;

/* Whether a value of `len` bytes that found no single block is worth storing in pieces. */
static inline int tbl_split_worth(uint32_t len)
{
	return len > TBL_SPLIT_MIN_PIECE;
}

/* For a writer holding stripe `held` whose value of `len` bytes found no single block: allocate pieces
 * for it (from free blocks, making room as tbl_room_alloc does when there are none, for a bounded
 * number of failures and time), then the entry's own block for a key of `klen` bytes and the directory. Returns that block's
 * offset, 0 when the memory is not there (every piece is given back), or when as much as the value waits
 * for readers to leave (retired, not yet freed): then the write failed for that, not for fragmentation,
 * and pieces would only wait the same way. The pieces belong to the block; build_entry writes the entry
 * and tbl_split_write its directory and value. */
uint64_t tbl_split_alloc(tbl_t *t, uint32_t held, uint64_t hash, size_t klen, uint32_t len, tbl_now_t now,
                         tbl_split_t *sp);

/* Write the directory of `e` (a block from tbl_split_alloc whose type has TBL_T_SPLIT) and the value's
 * `len` bytes into its pieces. */
void tbl_split_write(tbl_t *t, tbl_entry_t *e, const tbl_split_t *sp, const void *data);

/* Whether split entry `e` holds exactly these `len` bytes. */
int tbl_split_equals(const tbl_t *t, const tbl_entry_t *e, const void *data, uint32_t len);

#endif
