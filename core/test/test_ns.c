/*
 * test_ns.c - namespaces: binary-safe names up to 255 bytes, stable ids shared across processes,
 * lookups that never create, and a clear error at the limit.
 */
#include <sys/wait.h>
#include <unistd.h>
#include "table_fixture.h"

#define MB (1024u * 1024u)

TBL_TEST(test_names_are_binary_safe_and_bounded)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	const char with_nul[] = { 'a', 0, 'b' };
	char longest[255];
	tbl_ns_t a, b, c;
	size_t len;

	REQUIRE(t != NULL);
	memset(longest, 'n', sizeof(longest));
	CHECK(tbl_ns_get(t, with_nul, 3, &a) == TBL_OK);
	CHECK(tbl_ns_get(t, "a", 1, &b) == TBL_OK && a != b);
	CHECK(tbl_ns_get(t, longest, 255, &c) == TBL_OK);
	CHECK(tbl_ns_get(t, longest, 256, &c) == TBL_EINVAL);
	CHECK(tbl_ns_get(t, "", 0, &c) == TBL_EINVAL);
	CHECK(tbl_ns_find(t, with_nul, 3, &c) == TBL_OK && c == a);
	CHECK(memcmp(tbl_ns_name(t, a, &len), with_nul, 3) == 0 && len == 3);
	CHECK(tbl_ns_name(t, TBL_NS_DEFAULT, &len) != NULL && len == 0);
	tbl_destroy(t);
}

TBL_TEST(test_find_never_creates)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_ns_t ns;

	REQUIRE(t != NULL);
	CHECK(tbl_ns_find(t, "ghost", 5, &ns) == TBL_ENOTFOUND);
	CHECK_EQ_U64(tbl_ns_count_created(t), 1);
	tbl_destroy(t);
}

TBL_TEST(test_ids_are_shared_across_processes)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_ns_t child_ns = 0, found;
	char buf[8];
	int status;
	pid_t pid;

	REQUIRE(t != NULL);
	pid = fork();
	if (pid == 0) {
		int ok = tbl_ns_get(t, "shared", 6, &child_ns) == TBL_OK
		         && fixture_set(t, child_ns, "k", "from-child", 0) == TBL_OK;
		tbl_detach(t);
		_exit(ok ? 0 : 1);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(tbl_ns_find(t, "shared", 6, &found) == TBL_OK);
	CHECK(fixture_get(t, found, "k", buf, sizeof(buf)) == TBL_OK);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_names_are_binary_safe_and_bounded),
	TBL_TEST_ENTRY(test_find_never_creates),
	TBL_TEST_ENTRY(test_ids_are_shared_across_processes),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
