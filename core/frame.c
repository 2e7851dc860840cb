/*
 * frame.c - checking bytes the table did not write itself before anything is built from them (frame.h).
 *
 * Two ways bytes reach a decoder from outside this process's own writes:
 *   - A Redis value of the tier. Anyone who can write to that Redis can put any bytes there. The tier
 *     writes an integer as its decimal text and everything else as NUL, type byte, encoded bytes; only
 *     the types it writes are accepted. A zero-copy image (TBL_T_IMAGE) is the one that must never be:
 *     it is an array laid out with pointers, valid only where the table built it, and decoding one from
 *     Redis reads wherever those pointers say.
 *   - A compressed value, from Redis or from the segment. Its header declares the length before
 *     compression, which the decoder allocates before decompressing: trusted, a few crafted (or damaged)
 *     bytes would make it allocate up to 4 GiB, and PHP ends the request when that exceeds
 *     memory_limit. So the declared length is checked against what the bytes after the header can
 *     produce at most in the format of their algorithm:
 *       lz4 (block format): a sequence's output beyond its literals comes from its match length, which
 *         grows by at most 255 per byte of input (a token, a 2-byte offset, then length bytes of 255),
 *         so no input yields more than 255 times its size.
 *       zstd: one frame (what ZSTD_compress writes), with its content size stated and equal to the
 *         declared length, no dictionary, and blocks that end exactly with the bytes: a raw or RLE block
 *         produces its stated size, a compressed one at most the frame's block maximum (its window,
 *         capped at 128 KiB). The sum of those bounds must reach the declared length.
 *     The caller adds its own bound (what the request can still allocate) on top.
 *
 * Nothing here decompresses or parses an array or a serialized value: those decoders check their own
 * bytes (serializer/native.c bounds every count by the bytes left). Zend-free, so that a libFuzzer
 * target (core/fuzz/fuzz_frame.c) can feed it anything.
 */
#include <string.h>
#include "frame.h"

#define ZSTD_MAGIC     0xFD2FB528u
#define ZSTD_BLOCK_MAX (128u * 1024u)

static uint32_t le16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le24(const unsigned char *p)
{
	return le16(p) | (uint32_t)p[2] << 16;
}

static uint32_t le32(const unsigned char *p)
{
	return le24(p) | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* NULL when `n` bytes at `p` are one zstd frame that can produce exactly `declared` bytes (see above). */
static const char *zstd_check(const unsigned char *p, size_t n, uint32_t declared)
{
	static const char *const truncated = "a zstd frame cut short";
	uint64_t window = 0, content = 0, out_max = 0, exact = 0, block_max;
	size_t i, content_size;
	uint8_t fhd;

	if (n < 5 || le32(p) != ZSTD_MAGIC) {
		return "compressed bytes without zstd's magic number";
	}
	fhd = p[4];
	i = 5;
	if (fhd & 0x08) {
		return "a zstd frame header with its reserved bit set";
	}
	if (fhd & 0x03) {
		return "a zstd frame that needs a dictionary";
	}
	switch (fhd >> 6) {
		case 0:
			content_size = (fhd & 0x20) ? 1 : 0;
			break;
		case 1:
			content_size = 2;
			break;
		case 2:
			content_size = 4;
			break;
		default:
			content_size = 8;
			break;
	}
	if (content_size == 0) {
		return "a zstd frame that does not state its content size";
	}
	if (!(fhd & 0x20)) {
		/* The window descriptor: 2^(10 + exponent), plus eighths of that. */
		uint8_t wd;

		if (i >= n) {
			return truncated;
		}
		wd = p[i++];
		window = (uint64_t)1 << (10u + (wd >> 3));
		window += (window >> 3) * (wd & 7u);
	}
	if (n - i < content_size) {
		return truncated;
	}
	switch (content_size) {
		case 1:
			content = p[i];
			break;
		case 2:
			content = (uint64_t)le16(p + i) + 256u;
			break;
		case 4:
			content = le32(p + i);
			break;
		default:
			content = le64(p + i);
			break;
	}
	i += content_size;
	if (content != declared) {
		return "a zstd frame whose content size is not the declared length";
	}
	if (fhd & 0x20) {
		window = content;   /* a single segment: the window is the whole content */
	}
	block_max = window < ZSTD_BLOCK_MAX ? window : ZSTD_BLOCK_MAX;
	for (;;) {
		uint32_t head, size, type;
		size_t takes;

		if (n - i < 3) {
			return truncated;
		}
		head = le24(p + i);
		i += 3;
		type = (head >> 1) & 3u;
		size = head >> 3;
		if (type == 3) {
			return "a zstd block of the reserved type";
		}
		if (size > block_max) {
			return "a zstd block larger than its frame allows";
		}
		takes = type == 1 ? 1 : size;   /* RLE: one byte, repeated `size` times */
		if (n - i < takes) {
			return truncated;
		}
		i += takes;
		out_max += type == 2 ? block_max : size;
		exact += type == 2 ? 0 : size;
		if (head & 1u) {
			break;
		}
	}
	if (fhd & 0x04) {
		if (n - i < 4) {
			return truncated;
		}
		i += 4;   /* the content checksum */
	}
	if (i != n) {
		return "bytes after the zstd frame";
	}
	if (out_max < declared) {
		return "a declared length longer than its zstd blocks can hold";
	}
	if (exact > declared) {
		return "zstd blocks that hold more than the declared length";
	}
	return NULL;
}

tbl_status_t tbl_frame_compressed(const void *data, size_t len, tbl_frame_compressed_t *h, const char **why)
{
	const unsigned char *src = (const unsigned char *)data + sizeof(*h);
	size_t srclen;

	if (len < sizeof(*h)) {
		*why = "a compressed value shorter than its header";
		return TBL_EINVAL;
	}
	memcpy(h, data, sizeof(*h));
	srclen = len - sizeof(*h);
	if (h->type != TBL_T_STRING && h->type != TBL_T_ARRAY && h->type != TBL_T_SERIAL_PHP
	    && h->type != TBL_T_SERIAL_IGBINARY) {
		*why = "a compressed value of an unknown type";
		return TBL_EINVAL;
	}
	if (h->reserved != 0) {
		*why = "a compressed value's header with reserved bits set";
		return TBL_EINVAL;
	}
	switch (h->algorithm) {
		case TBL_FRAME_LZ4:
			if (h->len > TBL_FRAME_LZ4_MAX || srclen == 0 || (uint64_t)h->len > (uint64_t)srclen * 255u) {
				*why = "a declared length longer than its lz4 bytes can hold";
				return TBL_EINVAL;
			}
			return TBL_OK;
		case TBL_FRAME_ZSTD:
			if ((*why = zstd_check(src, srclen, h->len)) != NULL) {
				return TBL_EINVAL;
			}
			return TBL_OK;
		default:
			*why = "compressed with an unknown algorithm";
			return TBL_EINVAL;
	}
}

/* An integer's decimal text as Redis keeps it: an optional minus, digits, no leading zero. */
static int parse_long(const char *s, size_t len, int64_t *out)
{
	int neg = len > 0 && s[0] == '-';
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX, v = 0;
	size_t i = (size_t)neg;

	if (i == len || len - i > 19 || (s[i] == '0' && len - i > 1) || (neg && s[i] == '0')) {
		return 0;
	}
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (limit - (uint64_t)(s[i] - '0')) / 10u) {
			return 0;
		}
		v = v * 10u + (uint64_t)(s[i] - '0');
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 1;
}

tbl_status_t tbl_frame_tier(const void *buf, size_t len, tbl_value_t *v, int64_t *scratch, const char **why)
{
	const char *s = (const char *)buf;
	tbl_frame_compressed_t h;
	size_t blen;
	uint8_t type;

	if (len > 0 && s[0] != '\0') {
		if (!parse_long(s, len, scratch)) {
			*why = "neither an integer nor a value this extension encodes";
			return TBL_EINVAL;
		}
		*v = (tbl_value_t){ TBL_T_LONG, scratch, sizeof(*scratch), NULL };
		return TBL_OK;
	}
	if (len < 2 || len - 2 > UINT32_MAX) {
		*why = "neither an integer nor a value this extension encodes";
		return TBL_EINVAL;
	}
	type = (uint8_t)s[1];
	blen = len - 2;
	switch (type) {
		case TBL_T_NULL:
		case TBL_T_FALSE:
		case TBL_T_TRUE:
			if (blen != 0) {
				*why = "a null or boolean with bytes";
				return TBL_EINVAL;
			}
			break;
		case TBL_T_DOUBLE:
			if (blen != sizeof(double)) {
				*why = "a float that is not 8 bytes";
				return TBL_EINVAL;
			}
			break;
		case TBL_T_STRING:
		case TBL_T_ARRAY:
		case TBL_T_SERIAL_PHP:
		case TBL_T_SERIAL_IGBINARY:
			break;
		case TBL_T_COMPRESSED:
			if (tbl_frame_compressed(s + 2, blen, &h, why) != TBL_OK) {
				return TBL_EINVAL;
			}
			break;
		case TBL_T_IMAGE:
			*why = "a zero-copy image, which the tier never writes";
			return TBL_EINVAL;
		default:
			/* TBL_T_LONG too: the tier writes integers as text, for INCRBY. */
			*why = "a type the tier never writes";
			return TBL_EINVAL;
	}
	*v = (tbl_value_t){ type, s + 2, (uint32_t)blen, NULL };
	return TBL_OK;
}
