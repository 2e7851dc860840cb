/*
 * fuzz_frame.c - libFuzzer target: arbitrary bytes as a Redis value of the tier (frame.c), the checks
 * the binding runs before it decodes anything read from Redis or allocates for a compressed value.
 *
 * Each input is tried three ways: as a whole Redis value; behind the NUL and a type byte taken from its
 * first byte (so every type the tier refuses or accepts is reached with any body); and as a compressed
 * value's bytes on their own (what a segment's entry holds). Whatever it accepts must be what the tier
 * writes and must fit the input: the type is one of those, the view lies inside the input, fixed-size
 * types have their size, and a compressed value's declared length is one its bytes can produce (for
 * lz4 at most 255 bytes out per byte in; for zstd the frame's content size, re-read here).
 */
#include <stdlib.h>
#include <string.h>
#include "frame.h"

#define FUZZ_CHECK(cond) do { if (!(cond)) abort(); } while (0)

static void check_compressed_ok(const unsigned char *p, size_t n, const tbl_frame_compressed_t *h)
{
	FUZZ_CHECK(n >= sizeof(*h));
	FUZZ_CHECK(h->type == TBL_T_STRING || h->type == TBL_T_ARRAY || h->type == TBL_T_SERIAL_PHP
	           || h->type == TBL_T_SERIAL_IGBINARY);
	FUZZ_CHECK(h->reserved == 0);
	if (h->algorithm == TBL_FRAME_LZ4) {
		FUZZ_CHECK((uint64_t)h->len <= (uint64_t)(n - sizeof(*h)) * 255u);
	} else {
		FUZZ_CHECK(h->algorithm == TBL_FRAME_ZSTD);
		FUZZ_CHECK(n >= sizeof(*h) + 6);
		FUZZ_CHECK(p[sizeof(*h)] == 0x28 && p[sizeof(*h) + 3] == 0xfd);
	}
}

static void one_value(const unsigned char *p, size_t n)
{
	tbl_value_t v;
	int64_t scratch;
	const char *why = NULL;
	tbl_frame_compressed_t h;

	if (tbl_frame_tier(p, n, &v, &scratch, &why) != TBL_OK) {
		FUZZ_CHECK(why != NULL);
		return;
	}
	if (v.type == TBL_T_LONG) {
		FUZZ_CHECK(v.data == &scratch && v.len == sizeof(scratch) && n > 0 && p[0] != 0);
		return;
	}
	FUZZ_CHECK(n >= 2 && p[0] == 0 && v.type == p[1]);
	FUZZ_CHECK((const unsigned char *)v.data == p + 2 && v.len == n - 2);
	switch (v.type) {
		case TBL_T_NULL:
		case TBL_T_FALSE:
		case TBL_T_TRUE:
			FUZZ_CHECK(v.len == 0);
			break;
		case TBL_T_DOUBLE:
			FUZZ_CHECK(v.len == 8);
			break;
		case TBL_T_STRING:
		case TBL_T_ARRAY:
		case TBL_T_SERIAL_PHP:
		case TBL_T_SERIAL_IGBINARY:
			break;
		case TBL_T_COMPRESSED:
			FUZZ_CHECK(tbl_frame_compressed(v.data, v.len, &h, &why) == TBL_OK);
			check_compressed_ok(v.data, v.len, &h);
			break;
		default:
			abort();   /* a type the tier never writes was accepted */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *framed;
	tbl_frame_compressed_t h;
	const char *why = NULL;

	one_value(data, size);
	/* Behind the marker, with the first byte as the type (copied so ASan sees the exact bounds). */
	if (size > 0) {
		framed = malloc(size + 1);
		if (!framed) {
			return 0;
		}
		framed[0] = 0;
		framed[1] = data[0] % 16u;
		memcpy(framed + 2, data + 1, size - 1);
		one_value(framed, size + 1);
		free(framed);
	}
	if (tbl_frame_compressed(data, size, &h, &why) == TBL_OK) {
		check_compressed_ok(data, size, &h);
	} else {
		FUZZ_CHECK(why != NULL);
	}
	return 0;
}
