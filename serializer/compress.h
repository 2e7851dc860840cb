/*
 * compress.h - values compressed with lz4 or zstd (table.compression), stored as TBL_T_COMPRESSED.
 *
 * What is compressed: the bytes of a string, of an array's native encoding and of a serialized value,
 * once they reach table.compression_threshold bytes. Never a zero-copy image (its arrays are read in
 * place) nor a scalar. A value that does not shrink by at least one byte in eight is stored as it was.
 * A compressed value is a header (below) and the compressed bytes; reading it decompresses into request
 * memory, then decodes the inner bytes as their own type would be.
 *
 * lz4 and zstd come from the system's liblz4 and libzstd, each built in only with its configure option
 * (--with-table-lz4, --with-table-zstd). Every process of one table must use the same setting: the
 * bytes cas() and add() compare are the compressed ones. Reading needs only the algorithm a value was
 * written with, which its header names.
 */
#ifndef PHP_TABLE_COMPRESS_H
#define PHP_TABLE_COMPRESS_H

#include "php.h"
#include "core/table_core.h"
#include "core/frame.h"

typedef enum php_table_compression {
	PHP_TABLE_COMPRESSION_NONE = 0,
	PHP_TABLE_COMPRESSION_LZ4 = TBL_FRAME_LZ4,
	PHP_TABLE_COMPRESSION_ZSTD = TBL_FRAME_ZSTD
} php_table_compression;

/* In front of the compressed bytes: the algorithm (php_table_compression), the inner value's type
 * (TBL_T_STRING, TBL_T_ARRAY or a TBL_T_SERIAL_*), 0, and its length before compression. Defined by
 * core/frame.h, which checks it (and the compressed bytes' frame) before anything is allocated. */
typedef tbl_frame_compressed_t php_table_compressed_header;

/* Set once in MINIT from the INI settings, so every process of one segment agrees. */
extern php_table_compression php_table_compress_algorithm;
extern uint32_t php_table_compress_threshold;

/* The INI name of an algorithm ("none", "lz4", "zstd"). */
const char *php_table_compression_name(php_table_compression c);
/* Parse an INI name. 0 and *out set, or -1 with a message in `why`: an unknown name, or an algorithm
 * this build does not have (and the configure option that adds it). */
int php_table_compression_parse(const char *name, php_table_compression *out, char *why, size_t n);
/* The algorithms this build has, for stats() and phpinfo(): a NULL-terminated list of names. */
const char *const *php_table_compressors(void);

/* Compress `len` bytes of a value of `type` with the configured algorithm when they are at least the
 * threshold and shrink: a new string (header + bytes) in *out and true; false, *out untouched, when the
 * value is to be stored as it is. Allocates request memory; runs no user code. */
bool php_table_compress(uint8_t type, const char *data, size_t len, zend_string **out);

/* The inner value of a TBL_T_COMPRESSED value: its type, and its bytes in a new string. FAILURE with
 * Shm\TableException thrown when the bytes are corrupt (tbl_frame_compressed() refuses them, or they do
 * not decompress), when they need an algorithm this build lacks, or when their declared length is more
 * than memory_limit leaves this request: checked before the string is allocated, so that no stored or
 * Redis value can end the request with PHP's uncatchable "Allowed memory size exhausted". */
zend_result php_table_decompress(const void *data, uint32_t len, uint8_t *type, zend_string **out);

#endif
