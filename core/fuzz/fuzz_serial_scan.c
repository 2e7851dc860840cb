/*
 * fuzz_serial_scan.c - libFuzzer target: arbitrary bytes as a serialize() value from Redis
 * (serial_scan.c), the scan the php serializer runs before it unserializes a tiered namespace's value.
 *
 * The input is scanned as it is (libFuzzer's buffer is exactly its size, so ASan sees a read past it),
 * with the production depth limit and with a small one taken from its length, and with four callbacks:
 * none, one allowing every class (recording what it is given), one refusing every class, and one
 * refusing the k-th class only. What must hold:
 *   - every name given to a callback, and a refused one, lies inside the input and is not empty;
 *   - allowing every class is the same as no callback, and neither can refuse;
 *   - refusing every class refuses exactly when some class was named, and names the first one;
 *     refusing the k-th refuses that one, after the same k - 1 calls;
 *   - the depth limit only ends a scan early: a result other than TOO_DEEP under a small limit is the
 *     result under a larger one;
 *   - the same bytes, the same result.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "serial_scan.h"

#define FUZZ_CHECK(cond) do { if (!(cond)) abort(); } while (0)

#define DEPTH      4096
#define MAX_NAMES  64

typedef struct names {
	const char *buf;
	size_t len;
	size_t calls;
	size_t refuse_at;   /* refuse the call with this number (1-based); 0: allow all; SIZE_MAX: refuse all */
	size_t off[MAX_NAMES], n[MAX_NAMES];
} names_t;

static int record(void *ctx, const char *name, size_t len)
{
	names_t *c = ctx;

	FUZZ_CHECK(name >= c->buf && len >= 1 && len <= c->len && (size_t)(name - c->buf) <= c->len - len);
	if (c->calls < MAX_NAMES) {
		c->off[c->calls] = (size_t)(name - c->buf);
		c->n[c->calls] = len;
	}
	c->calls++;
	if (c->refuse_at == SIZE_MAX) {
		return 0;
	}
	return c->calls != c->refuse_at;
}

static tbl_serial_scan_t run(const char *p, size_t n, size_t depth, names_t *c, size_t refuse_at, size_t *off,
                             size_t *len)
{
	tbl_serial_scan_t r;

	memset(c, 0, sizeof(*c));
	c->buf = p;
	c->len = n;
	c->refuse_at = refuse_at;
	*off = *len = SIZE_MAX;
	r = tbl_serial_scan(p, n, depth, record, c, off, len);
	if (r == TBL_SERIAL_REFUSED) {
		FUZZ_CHECK(*len >= 1 && *len <= n && *off <= n - *len);
		FUZZ_CHECK(c->calls >= 1);
		if (c->calls <= MAX_NAMES) {
			FUZZ_CHECK(*off == c->off[c->calls - 1] && *len == c->n[c->calls - 1]);
		}
	} else {
		FUZZ_CHECK(*off == SIZE_MAX && *len == SIZE_MAX);
	}
	return r;
}

static void one_depth(const char *p, size_t n, size_t depth)
{
	names_t all, none, kth;
	size_t off, len, k;
	tbl_serial_scan_t plain, r_all, r_none, r_kth;

	off = len = SIZE_MAX;
	plain = tbl_serial_scan(p, n, depth, NULL, NULL, &off, &len);
	FUZZ_CHECK(plain == TBL_SERIAL_OK || plain == TBL_SERIAL_CORRUPT || plain == TBL_SERIAL_TOO_DEEP);
	FUZZ_CHECK(off == SIZE_MAX && len == SIZE_MAX);
	FUZZ_CHECK(tbl_serial_scan(p, n, depth, NULL, NULL, NULL, NULL) == plain);

	r_all = run(p, n, depth, &all, 0, &off, &len);
	FUZZ_CHECK(r_all == plain);

	r_none = run(p, n, depth, &none, SIZE_MAX, &off, &len);
	if (all.calls == 0) {
		FUZZ_CHECK(r_none == plain && none.calls == 0);
	} else {
		FUZZ_CHECK(r_none == TBL_SERIAL_REFUSED && none.calls == 1);
		FUZZ_CHECK(off == all.off[0] && len == all.n[0]);
	}

	if (all.calls > 1) {
		k = 1 + n % (all.calls < MAX_NAMES ? all.calls : MAX_NAMES);
		r_kth = run(p, n, depth, &kth, k, &off, &len);
		FUZZ_CHECK(r_kth == TBL_SERIAL_REFUSED && kth.calls == k);
		FUZZ_CHECK(off == all.off[k - 1] && len == all.n[k - 1]);
		FUZZ_CHECK(memcmp(kth.off, all.off, (k - 1) * sizeof(size_t)) == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data;
	size_t small = size % 8;
	tbl_serial_scan_t r_small, r_big;

	one_depth(p, size, DEPTH);
	one_depth(p, size, small);

	r_small = tbl_serial_scan(p, size, small, NULL, NULL, NULL, NULL);
	r_big = tbl_serial_scan(p, size, DEPTH, NULL, NULL, NULL, NULL);
	if (r_small != TBL_SERIAL_TOO_DEEP) {
		FUZZ_CHECK(r_big == r_small);
	}
	if (r_big == TBL_SERIAL_TOO_DEEP) {
		FUZZ_CHECK(r_small == TBL_SERIAL_TOO_DEEP);
	}
	return 0;
}
