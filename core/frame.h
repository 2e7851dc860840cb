/*
 * frame.h - the checks a value's bytes pass when they come from somewhere the table does not control:
 * a Redis value of the tier, and the header of a compressed value (from Redis or from the segment).
 *
 * Pure functions over a byte range: no table, no lock, no allocation. Each either accepts the bytes,
 * with every length they declare shown to fit the bytes that carry it, or says in `why` (a static
 * string) what is wrong. The binding calls them before it allocates anything for the value (frame.c).
 */
#ifndef TBL_FRAME_H
#define TBL_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include "table_types.h"

/* The algorithms of a compressed value's header (serializer/compress.h's php_table_compression). */
#define TBL_FRAME_LZ4  1u
#define TBL_FRAME_ZSTD 2u
/* The largest length lz4's block format can declare (LZ4_MAX_INPUT_SIZE). */
#define TBL_FRAME_LZ4_MAX 0x7E000000u

/* The 8 bytes in front of a TBL_T_COMPRESSED value's compressed bytes, in host order. */
typedef struct tbl_frame_compressed {
	uint8_t algorithm;   /* TBL_FRAME_LZ4 or TBL_FRAME_ZSTD */
	uint8_t type;        /* the inner value's type: TBL_T_STRING, TBL_T_ARRAY or a TBL_T_SERIAL_* */
	uint16_t reserved;   /* 0 */
	uint32_t len;        /* the inner value's length, before compression */
} tbl_frame_compressed_t;

/* Check the `len` bytes of a TBL_T_COMPRESSED value: a header of a known algorithm and inner type, and a
 * declared length that the compressed bytes after it can produce (lz4: at most 255 bytes out per byte
 * in; zstd: one frame whose content size is that length and whose blocks can hold it). TBL_OK with the
 * header in *h; TBL_EINVAL with *why set. It does not decompress: bytes that pass may still fail to. */
tbl_status_t tbl_frame_compressed(const void *data, size_t len, tbl_frame_compressed_t *h, const char **why);

/* Check a value the Redis tier read and say what it is (the tier's encoding: an integer as its decimal
 * text; anything else a NUL byte, the table's type byte, the encoded bytes). Accepted: the integer text
 * (*v is then a TBL_T_LONG pointing at *scratch), and exactly the types the tier writes behind the NUL:
 * null, false and true (no bytes), a double (8), a string, a native array, a serialized value, and a
 * compressed one that tbl_frame_compressed() accepts. *v points into `buf`. TBL_EINVAL with *why set
 * for anything else: a zero-copy image (it holds pointers), an integer behind the NUL, an unknown type,
 * a length that does not match. */
tbl_status_t tbl_frame_tier(const void *buf, size_t len, tbl_value_t *v, int64_t *scratch, const char **why);

#endif
