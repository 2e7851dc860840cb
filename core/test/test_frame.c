/*
 * test_frame.c - frame.c: what the Redis tier accepts from Redis, and the declared length of a
 * compressed value (issue 33, findings 3 and 4).
 *
 * The tier's encoding: integers as Redis keeps them, the types it writes behind the NUL byte with the
 * lengths they have, and everything else refused: a zero-copy image above all (it holds pointers), an
 * integer behind the NUL, unknown types. Compressed headers: a declared length that the bytes after it
 * cannot produce is refused before anything would be allocated for it (lz4: 255 bytes out per byte in;
 * zstd: the frame's content size and blocks), checked on frames the zstd tool wrote and on crafted ones,
 * every prefix of a valid frame, and every single-byte change of one.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "frame.h"

/* Frames the zstd tool (1.5) wrote for files, so with their content size, as ZSTD_compress writes it. */
/* "hello " x 8 less its last space (47 bytes), --no-check: single segment, one compressed block. */
static const unsigned char zstd_hello[] = {
	0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x2f, 0x65, 0x00, 0x00, 0x30, 0x68, 0x65,
	0x6c, 0x6c, 0x6f, 0x20, 0x01, 0x00, 0x02, 0x95, 0x22
};
/* The same with its content checksum. */
static const unsigned char zstd_hello_checked[] = {
	0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x2f, 0x65, 0x00, 0x00, 0x30, 0x68, 0x65,
	0x6c, 0x6c, 0x6f, 0x20, 0x01, 0x00, 0x02, 0x95, 0x22, 0x5a, 0xb1, 0x76,
	0x1b
};
/* 300,000 zero bytes: single segment, a 4-byte content size, three blocks. */
static const unsigned char zstd_zeros[] = {
	0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0xe0, 0x93, 0x04, 0x00, 0x54, 0x00, 0x00,
	0x10, 0x00, 0x00, 0x01, 0x00, 0xfb, 0xff, 0x39, 0xc0, 0x02, 0x02, 0x00,
	0x10, 0x00, 0x03, 0x9f, 0x04, 0x00
};

static size_t put_header(unsigned char *out, uint8_t algorithm, uint8_t type, uint32_t len)
{
	tbl_frame_compressed_t h = { algorithm, type, 0, len };

	memcpy(out, &h, sizeof(h));
	return sizeof(h);
}

/* A compressed value: header + `n` bytes. */
static size_t compressed(unsigned char *out, uint8_t algorithm, uint8_t type, uint32_t len, const void *src,
                         size_t n)
{
	size_t at = put_header(out, algorithm, type, len);

	memcpy(out + at, src, n);
	return at + n;
}

static tbl_status_t check_compressed(const void *data, size_t len)
{
	tbl_frame_compressed_t h;
	const char *why = NULL;
	tbl_status_t st = tbl_frame_compressed(data, len, &h, &why);

	if (st != TBL_OK && why == NULL) {
		return TBL_ESYS;   /* a refusal must say why */
	}
	return st;
}

/* A zstd frame of `blocks` RLE blocks of 128 KiB (the last one marked last), declaring `content` bytes
 * in an 8-byte content size, with a window of 2 MiB (not single segment). */
static size_t zstd_rle_frame(unsigned char *out, uint64_t content, unsigned blocks)
{
	size_t n = 0;
	unsigned i;

	out[n++] = 0x28, out[n++] = 0xb5, out[n++] = 0x2f, out[n++] = 0xfd;
	out[n++] = 0xc0;   /* 8-byte content size, window descriptor, no checksum, no dictionary */
	out[n++] = 0x58;   /* window 2^21 */
	for (i = 0; i < 8; i++) {
		out[n++] = (unsigned char)(content >> (8 * i));
	}
	for (i = 0; i < blocks; i++) {
		uint32_t head = (128u * 1024u) << 3 | 1u << 1 | (i + 1 == blocks ? 1u : 0u);

		out[n++] = (unsigned char)head, out[n++] = (unsigned char)(head >> 8), out[n++] = (unsigned char)(head >> 16);
		out[n++] = 0;   /* the byte repeated */
	}
	return n;
}

TBL_TEST(test_tier_integers)
{
	static const char *const good[] = { "0", "42", "-7", "9223372036854775807", "-9223372036854775808" };
	static const int64_t want[] = { 0, 42, -7, INT64_MAX, INT64_MIN };
	static const char *const bad[] = { "007", "-0", "-", "1a", " 1", "9223372036854775808",
	                                   "-9223372036854775809", "12345678901234567890" };
	tbl_value_t v;
	int64_t scratch;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		REQUIRE(tbl_frame_tier(good[i], strlen(good[i]), &v, &scratch, &why) == TBL_OK);
		CHECK(v.type == TBL_T_LONG && v.len == 8 && v.data == &scratch);
		CHECK(scratch == want[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(tbl_frame_tier(bad[i], strlen(bad[i]), &v, &scratch, &why) == TBL_EINVAL);
	}
	CHECK(tbl_frame_tier("", 0, &v, &scratch, &why) == TBL_EINVAL);
}

TBL_TEST(test_tier_types_it_writes)
{
	unsigned char buf[64];
	tbl_value_t v;
	int64_t scratch;
	const char *why;
	double d = 1.5;

	buf[0] = 0;
	for (uint8_t t = TBL_T_NULL; t <= TBL_T_TRUE; t++) {
		buf[1] = t;
		REQUIRE(tbl_frame_tier(buf, 2, &v, &scratch, &why) == TBL_OK);
		CHECK(v.type == t && v.len == 0);
		CHECK(tbl_frame_tier(buf, 3, &v, &scratch, &why) == TBL_EINVAL);
	}
	buf[1] = TBL_T_DOUBLE;
	memcpy(buf + 2, &d, 8);
	REQUIRE(tbl_frame_tier(buf, 10, &v, &scratch, &why) == TBL_OK);
	CHECK(v.type == TBL_T_DOUBLE && v.len == 8 && v.data == buf + 2);
	CHECK(tbl_frame_tier(buf, 9, &v, &scratch, &why) == TBL_EINVAL);
	CHECK(tbl_frame_tier(buf, 11, &v, &scratch, &why) == TBL_EINVAL);
	for (uint8_t t = TBL_T_STRING; t <= TBL_T_SERIAL_IGBINARY; t++) {
		buf[1] = t;
		memcpy(buf + 2, "abc", 3);
		REQUIRE(tbl_frame_tier(buf, 5, &v, &scratch, &why) == TBL_OK);
		CHECK(v.type == t && v.len == 3 && memcmp(v.data, "abc", 3) == 0);
		REQUIRE(tbl_frame_tier(buf, 2, &v, &scratch, &why) == TBL_OK);
		CHECK(v.len == 0);
	}
	/* A compressed one, valid and not. */
	buf[1] = TBL_T_COMPRESSED;
	{
		size_t n = 2 + compressed(buf + 2, TBL_FRAME_ZSTD, TBL_T_STRING, 47, zstd_hello, sizeof(zstd_hello));

		REQUIRE(tbl_frame_tier(buf, n, &v, &scratch, &why) == TBL_OK);
		CHECK(v.type == TBL_T_COMPRESSED && v.len == n - 2);
		put_header(buf + 2, TBL_FRAME_ZSTD, TBL_T_STRING, 48);
		CHECK(tbl_frame_tier(buf, n, &v, &scratch, &why) == TBL_EINVAL);
	}
}

/* Finding 3: a type the tier never writes is corrupt, above all a zero-copy image (raw pointers). */
TBL_TEST(test_tier_refuses_what_it_never_writes)
{
	unsigned char buf[4096];
	tbl_value_t v;
	int64_t scratch;
	const char *why = NULL;

	memset(buf, 0x41, sizeof(buf));
	buf[0] = 0;
	buf[1] = TBL_T_IMAGE;
	CHECK(tbl_frame_tier(buf, sizeof(buf), &v, &scratch, &why) == TBL_EINVAL);
	CHECK(why != NULL && strstr(why, "zero-copy image") != NULL);
	CHECK(tbl_frame_tier(buf, 2, &v, &scratch, &why) == TBL_EINVAL);
	buf[1] = TBL_T_LONG;   /* integers go to Redis as text */
	CHECK(tbl_frame_tier(buf, 10, &v, &scratch, &why) == TBL_EINVAL);
	for (unsigned t = TBL_T_COMPRESSED + 1; t < 256; t++) {
		buf[1] = (unsigned char)t;
		CHECK(tbl_frame_tier(buf, 10, &v, &scratch, &why) == TBL_EINVAL);
	}
	CHECK(tbl_frame_tier(buf, 1, &v, &scratch, &why) == TBL_EINVAL);   /* the NUL alone */
}

TBL_TEST(test_compressed_header)
{
	unsigned char buf[64] = { 0 }, src[16];
	tbl_frame_compressed_t h;
	const char *why;

	memset(src, 0, sizeof(src));
	CHECK(check_compressed(buf, 0) == TBL_EINVAL);
	compressed(buf, TBL_FRAME_LZ4, TBL_T_STRING, 100, src, sizeof(src));
	CHECK(check_compressed(buf, 7) == TBL_EINVAL);   /* shorter than the header */
	REQUIRE(tbl_frame_compressed(buf, 8 + sizeof(src), &h, &why) == TBL_OK);
	CHECK(h.algorithm == TBL_FRAME_LZ4 && h.type == TBL_T_STRING && h.len == 100);
	for (unsigned t = 0; t < 256; t++) {
		int inner = t == TBL_T_STRING || t == TBL_T_ARRAY || t == TBL_T_SERIAL_PHP || t == TBL_T_SERIAL_IGBINARY;

		compressed(buf, TBL_FRAME_LZ4, (uint8_t)t, 100, src, sizeof(src));
		CHECK(check_compressed(buf, 8 + sizeof(src)) == (inner ? TBL_OK : TBL_EINVAL));
	}
	for (unsigned a = 0; a < 256; a++) {
		compressed(buf, (uint8_t)a, TBL_T_STRING, 47, zstd_hello, sizeof(zstd_hello));
		CHECK(check_compressed(buf, 8 + sizeof(zstd_hello))
		      == (a == TBL_FRAME_LZ4 || a == TBL_FRAME_ZSTD ? TBL_OK : TBL_EINVAL));
	}
	compressed(buf, TBL_FRAME_LZ4, TBL_T_STRING, 100, src, sizeof(src));
	buf[2] = 1;   /* reserved */
	CHECK(check_compressed(buf, 8 + sizeof(src)) == TBL_EINVAL);
}

/* Finding 4: lz4's declared length is bounded by what its bytes can produce (255 per byte). */
TBL_TEST(test_lz4_declared_length)
{
	unsigned char buf[64], src[16];

	memset(src, 0xff, sizeof(src));
	compressed(buf, TBL_FRAME_LZ4, TBL_T_STRING, 255u * sizeof(src), src, sizeof(src));
	CHECK(check_compressed(buf, 8 + sizeof(src)) == TBL_OK);
	compressed(buf, TBL_FRAME_LZ4, TBL_T_STRING, 255u * sizeof(src) + 1, src, sizeof(src));
	CHECK(check_compressed(buf, 8 + sizeof(src)) == TBL_EINVAL);
	compressed(buf, TBL_FRAME_LZ4, TBL_T_ARRAY, TBL_FRAME_LZ4_MAX, src, sizeof(src));
	CHECK(check_compressed(buf, 8 + sizeof(src)) == TBL_EINVAL);
	compressed(buf, TBL_FRAME_LZ4, TBL_T_STRING, UINT32_MAX, src, sizeof(src));
	CHECK(check_compressed(buf, 8 + sizeof(src)) == TBL_EINVAL);
	compressed(buf, TBL_FRAME_LZ4, TBL_T_STRING, 1, src, 0);   /* no compressed bytes at all */
	CHECK(check_compressed(buf, 8) == TBL_EINVAL);
}

TBL_TEST(test_zstd_frames_the_tool_wrote)
{
	unsigned char buf[64];
	size_t n;

	n = compressed(buf, TBL_FRAME_ZSTD, TBL_T_STRING, 47, zstd_hello, sizeof(zstd_hello));
	CHECK(check_compressed(buf, n) == TBL_OK);
	n = compressed(buf, TBL_FRAME_ZSTD, TBL_T_STRING, 47, zstd_hello_checked, sizeof(zstd_hello_checked));
	CHECK(check_compressed(buf, n) == TBL_OK);
	n = compressed(buf, TBL_FRAME_ZSTD, TBL_T_STRING, 300000, zstd_zeros, sizeof(zstd_zeros));
	CHECK(check_compressed(buf, n) == TBL_OK);
	/* A declared length other than the frame's content size, either way. */
	n = compressed(buf, TBL_FRAME_ZSTD, TBL_T_STRING, 46, zstd_hello, sizeof(zstd_hello));
	CHECK(check_compressed(buf, n) == TBL_EINVAL);
	n = compressed(buf, TBL_FRAME_ZSTD, TBL_T_STRING, UINT32_MAX, zstd_zeros, sizeof(zstd_zeros));
	CHECK(check_compressed(buf, n) == TBL_EINVAL);
	/* Trailing bytes (a second frame would be one). */
	n = compressed(buf, TBL_FRAME_ZSTD, TBL_T_STRING, 47, zstd_hello, sizeof(zstd_hello));
	buf[n++] = 0;
	CHECK(check_compressed(buf, n) == TBL_EINVAL);
}

TBL_TEST(test_zstd_every_prefix_and_byte)
{
	unsigned char buf[64];
	size_t n = compressed(buf, TBL_FRAME_ZSTD, TBL_T_STRING, 47, zstd_hello_checked, sizeof(zstd_hello_checked));
	unsigned refused = 0;

	for (size_t len = 0; len < n; len++) {
		CHECK(check_compressed(buf, len) == TBL_EINVAL);
	}
	/* Any byte of the frame's header or block header changed: refused, or at least never a crash (the
	 * compressed bytes themselves are for the decompressor to judge). */
	for (size_t at = 8; at < n; at++) {
		unsigned char keep = buf[at];

		for (unsigned b = 0; b < 256; b++) {
			buf[at] = (unsigned char)b;
			refused += check_compressed(buf, n) == TBL_EINVAL;
		}
		buf[at] = keep;
	}
	CHECK(refused > 0);
	CHECK(check_compressed(buf, n) == TBL_OK);
}

TBL_TEST(test_zstd_declared_length_bounded_by_blocks)
{
	static unsigned char buf[8 + 14 + 64 * 4];
	size_t n;

	/* 40 RLE blocks of 128 KiB hold exactly 5 MiB: that is what they may declare, no more, no less. */
	n = put_header(buf, TBL_FRAME_ZSTD, TBL_T_STRING, 40u << 17);
	n += zstd_rle_frame(buf + n, 40u << 17, 40);
	CHECK(check_compressed(buf, n) == TBL_OK);
	n = put_header(buf, TBL_FRAME_ZSTD, TBL_T_STRING, (40u << 17) + 1);
	n += zstd_rle_frame(buf + n, (40u << 17) + 1, 40);
	CHECK(check_compressed(buf, n) == TBL_EINVAL);
	n = put_header(buf, TBL_FRAME_ZSTD, TBL_T_STRING, (40u << 17) - 1);
	n += zstd_rle_frame(buf + n, (40u << 17) - 1, 40);
	CHECK(check_compressed(buf, n) == TBL_EINVAL);
	/* 4 GiB declared in a few bytes. */
	n = put_header(buf, TBL_FRAME_ZSTD, TBL_T_STRING, UINT32_MAX);
	n += zstd_rle_frame(buf + n, UINT32_MAX, 1);
	CHECK(check_compressed(buf, n) == TBL_EINVAL);
	/* A dictionary, a reserved bit, no content size: never what the table writes. */
	n = put_header(buf, TBL_FRAME_ZSTD, TBL_T_STRING, 1u << 17);
	n += zstd_rle_frame(buf + n, 1u << 17, 1);
	CHECK(check_compressed(buf, n) == TBL_OK);
	buf[8 + 4] = 0xc1;
	CHECK(check_compressed(buf, n) == TBL_EINVAL);
	buf[8 + 4] = 0xc8;
	CHECK(check_compressed(buf, n) == TBL_EINVAL);
	buf[8 + 4] = 0x00;
	CHECK(check_compressed(buf, n) == TBL_EINVAL);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_tier_integers),
	TBL_TEST_ENTRY(test_tier_types_it_writes),
	TBL_TEST_ENTRY(test_tier_refuses_what_it_never_writes),
	TBL_TEST_ENTRY(test_compressed_header),
	TBL_TEST_ENTRY(test_lz4_declared_length),
	TBL_TEST_ENTRY(test_zstd_frames_the_tool_wrote),
	TBL_TEST_ENTRY(test_zstd_every_prefix_and_byte),
	TBL_TEST_ENTRY(test_zstd_declared_length_bounded_by_blocks),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
