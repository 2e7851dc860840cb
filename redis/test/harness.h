/*
 * harness.h - the header-only test harness of redis/test (redis/ is usable by itself, so it does not
 * borrow core/test's). A test is a void function listed in a table handed to test_main(), which runs the
 * tests in order, prints "ok <name>" or "FAIL <name>" for each, and ends with exactly
 * "<binary>: N passed, N failed"; the exit status is 1 when any failed. TEST_ONLY=<name> runs one test.
 *
 * CHECK(expr) records a failure and carries on; REQUIRE(expr) also returns from the test function (use it
 * in the test function itself). CHECK_ST(call, status) compares tbl_redis_status_t values and prints both
 * names on a mismatch, with extra context from the message function given to test_main.
 */
#ifndef TBL_REDIS_TEST_HARNESS_H
#define TBL_REDIS_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../redis_client.h"

typedef struct test_case {
	const char *name;
	void (*fn)(void);
} test_case_t;

#define TEST_ENTRY(name) { #name, name }

static int test_failures;

static inline void test_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: %s failed\n", file, line, what);
	fflush(stderr);
	test_failures++;
}

#define CHECK(expr) ((expr) ? (void)0 : test_fail(__FILE__, __LINE__, "CHECK(" #expr ")"))
#define REQUIRE(expr) do { if (!(expr)) { test_fail(__FILE__, __LINE__, "REQUIRE(" #expr ")"); return; } } while (0)

/* The client whose last_error CHECK_ST prints on a mismatch (set it in each test). */
static const tbl_redis_t *test_client;

static inline int test_check_status(const char *file, int line, const char *expr, tbl_redis_status_t got,
                                    tbl_redis_status_t want)
{
	if (got == want) return 1;
	fprintf(stderr, "%s:%d: %s is %s (%d), expected %s (%d)%s%s\n", file, line, expr, tbl_redis_status_str(got),
	        (int)got, tbl_redis_status_str(want), (int)want, test_client ? "; last error: " : "",
	        test_client ? tbl_redis_last_error(test_client) : "");
	fflush(stderr);
	test_failures++;
	return 0;
}
#define CHECK_ST(call, want) test_check_status(__FILE__, __LINE__, #call, (call), (want))
#define REQUIRE_ST(call, want) do { if (!CHECK_ST(call, want)) return; } while (0)

static inline int test_main(const char *argv0, const test_case_t *tests, size_t n)
{
	const char *only = getenv("TEST_ONLY");
	const char *name = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
	int passed = 0, failed = 0;
	for (size_t i = 0; i < n; i++) {
		if (only && *only && strcmp(only, tests[i].name) != 0) continue;
		int before = test_failures;
		test_client = NULL;
		tests[i].fn();
		if (test_failures == before) {
			printf("ok %s\n", tests[i].name);
			passed++;
		} else {
			printf("FAIL %s\n", tests[i].name);
			failed++;
		}
		fflush(stdout);
	}
	printf("%s: %d passed, %d failed\n", name, passed, failed);
	return failed ? 1 : 0;
}

#endif
