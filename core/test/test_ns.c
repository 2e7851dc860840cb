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

TBL_TEST(test_empty_namespaces_are_recycled_and_old_handles_go_stale)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_LRU);
	tbl_ns_t first, ns, fresh;
	unsigned i, limit;
	char name[32], buf[16];

	REQUIRE(t != NULL);
	limit = tbl_ns_limit(t);
	REQUIRE(tbl_ns_get(t, "first", 5, &first) == TBL_OK);
	for (i = 2; i < limit; i++) {
		snprintf(name, sizeof(name), "full%u", i);
		REQUIRE(tbl_ns_get(t, name, strlen(name), &ns) == TBL_OK);
		CHECK(fixture_set(t, ns, "k", "v", 0) == TBL_OK);   /* every namespace but "first" holds a key */
	}
	/* The table is full; only "first" is empty, so it is the one recycled. */
	CHECK(tbl_ns_get(t, "fresh", 5, &fresh) == TBL_OK);
	CHECK(tbl_ns_id(fresh) == tbl_ns_id(first) && fresh != first);
	CHECK(tbl_ns_find(t, "first", 5, &ns) == TBL_ENOTFOUND);
	CHECK(fixture_set(t, fresh, "k", "new", 0) == TBL_OK);
	/* The old handle neither sees nor writes the new namespace. */
	CHECK(fixture_get(t, first, "k", buf, sizeof(buf)) == TBL_ENOTFOUND);
	CHECK(fixture_set(t, first, "k", "stale", 0) == TBL_ESTALE);
	CHECK(fixture_get(t, fresh, "k", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "new") == 0);
	/* With every namespace holding something, nothing can be recycled. */
	CHECK(tbl_ns_get(t, "one-more", 8, &ns) == TBL_ENSFULL);
	/* Names are found after a recycle, through the tombstone the old name left in the index. */
	for (i = 2; i < limit; i++) {
		snprintf(name, sizeof(name), "full%u", i);
		CHECK(tbl_ns_find(t, name, strlen(name), &ns) == TBL_OK);
	}
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_empty_namespaces_are_recycled_and_old_handles_go_stale),
	TBL_TEST_ENTRY(test_names_are_binary_safe_and_bounded),
	TBL_TEST_ENTRY(test_find_never_creates),
	TBL_TEST_ENTRY(test_ids_are_shared_across_processes),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
