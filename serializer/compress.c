/*
 * compress.c - lz4 and zstd for stored values (compress.h).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <inttypes.h>
#include "compress.h"
#include "serializer.h"

#ifdef HAVE_TABLE_LZ4
# include <lz4.h>
#endif
#ifdef HAVE_TABLE_ZSTD
# include <zstd.h>
#endif

/* zstd's level: 3 is its own default, a good ratio at lz4-like speeds for values of a few KB. */
#define PHP_TABLE_ZSTD_LEVEL 3

php_table_compression php_table_compress_algorithm = PHP_TABLE_COMPRESSION_NONE;
uint32_t php_table_compress_threshold = 512;

static const char *const compressors[] = {
#ifdef HAVE_TABLE_LZ4
	"lz4",
#endif
#ifdef HAVE_TABLE_ZSTD
	"zstd",
#endif
	NULL
};

const char *const *php_table_compressors(void)
{
	return compressors;
}

const char *php_table_compression_name(php_table_compression c)
{
	switch (c) {
		case PHP_TABLE_COMPRESSION_LZ4:
			return "lz4";
		case PHP_TABLE_COMPRESSION_ZSTD:
			return "zstd";
		default:
			return "none";
	}
}

int php_table_compression_parse(const char *name, php_table_compression *out, char *why, size_t n)
{
	if (strcmp(name, "none") == 0 || name[0] == '\0') {
		*out = PHP_TABLE_COMPRESSION_NONE;
		return 0;
	}
	if (strcmp(name, "lz4") == 0) {
#ifdef HAVE_TABLE_LZ4
		*out = PHP_TABLE_COMPRESSION_LZ4;
		return 0;
#else
		snprintf(why, n, "table.compression=lz4 needs a build with lz4 (configure --with-table-lz4, liblz4)");
		return -1;
#endif
	}
	if (strcmp(name, "zstd") == 0) {
#ifdef HAVE_TABLE_ZSTD
		*out = PHP_TABLE_COMPRESSION_ZSTD;
		return 0;
#else
		snprintf(why, n, "table.compression=zstd needs a build with zstd (configure --with-table-zstd, libzstd)");
		return -1;
#endif
	}
	snprintf(why, n, "table.compression=%s is not valid; use none, lz4 or zstd", name);
	return -1;
}

bool php_table_compress(uint8_t type, const char *data, size_t len, zend_string **out)
{
	php_table_compressed_header h;
	zend_string *s;
	size_t bound = 0, got = 0, keep;

	(void)data;   /* unused in a build with no compressor */
	if (php_table_compress_algorithm == PHP_TABLE_COMPRESSION_NONE || len < php_table_compress_threshold
	    || len > UINT32_MAX - 4096u) {
		return false;
	}
	/* Worth keeping only when it saves at least one byte in eight (decompressing costs time). */
	keep = len - len / 8u - sizeof(h);
	switch (php_table_compress_algorithm) {
#ifdef HAVE_TABLE_LZ4
		case PHP_TABLE_COMPRESSION_LZ4:
			if (len > (size_t)LZ4_MAX_INPUT_SIZE) {
				return false;
			}
			bound = (size_t)LZ4_compressBound((int)len);
			break;
#endif
#ifdef HAVE_TABLE_ZSTD
		case PHP_TABLE_COMPRESSION_ZSTD:
			bound = ZSTD_compressBound(len);
			break;
#endif
		default:
			return false;
	}
	s = zend_string_alloc(sizeof(h) + bound, 0);
	switch (php_table_compress_algorithm) {
#ifdef HAVE_TABLE_LZ4
		case PHP_TABLE_COMPRESSION_LZ4: {
			int r = LZ4_compress_default(data, ZSTR_VAL(s) + sizeof(h), (int)len, (int)bound);
			got = r > 0 ? (size_t)r : 0;
			break;
		}
#endif
#ifdef HAVE_TABLE_ZSTD
		case PHP_TABLE_COMPRESSION_ZSTD: {
			size_t r = ZSTD_compress(ZSTR_VAL(s) + sizeof(h), bound, data, len, PHP_TABLE_ZSTD_LEVEL);
			got = ZSTD_isError(r) ? 0 : r;
			break;
		}
#endif
		default:
			break;
	}
	if (got == 0 || got > keep) {
		zend_string_efree(s);
		return false;
	}
	h.algorithm = (uint8_t)php_table_compress_algorithm;
	h.type = type;
	h.reserved = 0;
	h.len = (uint32_t)len;
	memcpy(ZSTR_VAL(s), &h, sizeof(h));
	ZSTR_LEN(s) = sizeof(h) + got;
	ZSTR_VAL(s)[ZSTR_LEN(s)] = '\0';
	*out = s;
	return true;
}

/* Beyond the decompressed string itself, what a request should still have to decode it (the zval, an
 * array's buckets are counted by the decoder's own bounds). */
#define PHP_TABLE_DECOMPRESS_MARGIN (1024u * 1024u)

/* Whether `len` bytes can be allocated without reaching memory_limit, which would end the request with
 * a fatal error no caller can catch. Not a guarantee (decoding the inner value takes more), a bound. */
static bool php_table_decompress_fits(uint32_t len)
{
	size_t used, limit;

	if (PG(memory_limit) <= 0) {
		return true;   /* memory_limit=-1 */
	}
	limit = (size_t)PG(memory_limit);
	used = zend_memory_usage(true);
	return used < limit && (size_t)len + PHP_TABLE_DECOMPRESS_MARGIN <= limit - used;
}

zend_result php_table_decompress(const void *data, uint32_t len, uint8_t *type, zend_string **out)
{
	php_table_compressed_header h;
	const char *src = (const char *)data + sizeof(h);
	const char *why;
	size_t srclen;
	zend_string *s = NULL;
	int ok = -1;   /* -1: an algorithm this build does not have; 0: corrupt; 1: done */

	/* The header, and its declared length against what the compressed bytes can produce. */
	if (tbl_frame_compressed(data, len, &h, &why) != TBL_OK) {
		php_table_throw_corrupt(why);
		return FAILURE;
	}
	srclen = len - sizeof(h);
	(void)src, (void)srclen;   /* unused in a build with no compressor */
	if (!php_table_decompress_fits(h.len)) {
		php_table_throw_unreadable("it is %" PRIu32 " bytes decompressed, more than memory_limit leaves", h.len);
		return FAILURE;
	}
	switch (h.algorithm) {
#ifdef HAVE_TABLE_LZ4
		case PHP_TABLE_COMPRESSION_LZ4:
			ok = 0;
			if (srclen <= (size_t)INT_MAX) {
				s = zend_string_alloc(h.len, 0);
				ok = LZ4_decompress_safe(src, ZSTR_VAL(s), (int)srclen, (int)h.len) == (int)h.len;
			}
			break;
#endif
#ifdef HAVE_TABLE_ZSTD
		case PHP_TABLE_COMPRESSION_ZSTD: {
			size_t r;

			s = zend_string_alloc(h.len, 0);
			r = ZSTD_decompress(ZSTR_VAL(s), h.len, src, srclen);
			ok = !ZSTD_isError(r) && r == h.len;
			break;
		}
#endif
		default:
			break;
	}
	if (ok < 0) {
		php_table_throw_corrupt(h.algorithm == PHP_TABLE_COMPRESSION_LZ4
			? "compressed with lz4, which this build does not have (--with-table-lz4)"
			: "compressed with zstd, which this build does not have (--with-table-zstd)");
		return FAILURE;
	}
	if (!ok) {
		if (s) {
			zend_string_efree(s);
		}
		php_table_throw_corrupt("compressed bytes that do not decompress");
		return FAILURE;
	}
	ZSTR_VAL(s)[h.len] = '\0';
	*type = h.type;
	*out = s;
	return SUCCESS;
}
