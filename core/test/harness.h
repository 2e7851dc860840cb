/*
 * harness.h - the header-only test harness shared by the core unit tests (core/test/test_*.c).
 *
 * One test binary per file. A test is a void function; the file lists its tests in a table and hands
 * the table to tbl_test_main(), which runs them in order and prints one line per test and a summary:
 *
 *     #include "harness.h"
 *
 *     TBL_TEST(test_something) {
 *         CHECK(1 + 1 == 2);
 *         CHECK_EQ_U64(f(), 42);
 *         REQUIRE(p != NULL);          // like CHECK, but leaves the test on failure
 *     }
 *
 *     static const tbl_test_t tests[] = { TBL_TEST_ENTRY(test_something) };
 *     int main(int argc, char **argv) {
 *         (void)argc;
 *         return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
 *     }
 *
 * A failed assertion prints "file:line: CHECK(expr) failed" (with both values for CHECK_EQ_U64) and marks
 * the running test failed; CHECK carries on, REQUIRE returns from the test function (so use it only in
 * the test function itself, not in helpers returning a value). The last line of output is exactly
 * "<binary name>: N passed, N failed" and the exit status is 1 when any test failed, else 0.
 * Set TBL_TEST_ONLY=<name> in the environment to run one test.
 */
#ifndef TBL_TEST_HARNESS_H
#define TBL_TEST_HARNESS_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tbl_test {
	const char *name;
	void (*fn)(void);
} tbl_test_t;

#define TBL_TEST(name) static void name(void)
#define TBL_TEST_ENTRY(name) { #name, name }

/* Failed assertions in the running test. */
static int tbl_test_failures;

static inline void tbl_test_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: %s failed\n", file, line, what);
	fflush(stderr);
	tbl_test_failures++;
}

static inline void tbl_test_fail_u64(const char *file, int line, const char *a, const char *b, uint64_t va,
                                     uint64_t vb)
{
	fprintf(stderr, "%s:%d: CHECK_EQ_U64(%s, %s) failed: %" PRIu64 " != %" PRIu64 "\n", file, line, a, b, va,
	        vb);
	fflush(stderr);
	tbl_test_failures++;
}

#define CHECK(cond) \
	do { if (!(cond)) tbl_test_fail(__FILE__, __LINE__, "CHECK(" #cond ")"); } while (0)

#define REQUIRE(cond) \
	do { if (!(cond)) { tbl_test_fail(__FILE__, __LINE__, "REQUIRE(" #cond ")"); return; } } while (0)

#define CHECK_EQ_U64(a, b) \
	do { \
		uint64_t tbl_test_a_ = (uint64_t)(a), tbl_test_b_ = (uint64_t)(b); \
		if (tbl_test_a_ != tbl_test_b_) \
			tbl_test_fail_u64(__FILE__, __LINE__, #a, #b, tbl_test_a_, tbl_test_b_); \
	} while (0)

static inline int tbl_test_main(const char *argv0, const tbl_test_t *tests, size_t n)
{
	const char *prog = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
	const char *only = getenv("TBL_TEST_ONLY");
	unsigned passed = 0, failed = 0;
	size_t i;

	/* Keep output ordered with the child processes some tests fork. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < n; i++) {
		if (only && *only && strcmp(only, tests[i].name) != 0)
			continue;
		tbl_test_failures = 0;
		tests[i].fn();
		if (tbl_test_failures) {
			printf("FAIL %s (%d failed checks)\n", tests[i].name, tbl_test_failures);
			failed++;
		} else {
			printf("ok   %s\n", tests[i].name);
			passed++;
		}
	}
	printf("%s: %u passed, %u failed\n", prog, passed, failed);
	fflush(stdout);
	return failed ? 1 : 0;
}

#endif
