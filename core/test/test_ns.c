/*
 * test_ns.c - namespaces: binary-safe names up to 255 bytes, stable ids shared across processes,
 * lookups that never create, a clear error at the limit, and 10,000 of them on a small table.
 */
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "segment.h"
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
	CHECK(fixture_set(t, first, "k", "v", 0) == TBL_OK && tbl_delete(t, first, "k", 1) == TBL_OK);
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

/* Issue 10, item 3: with the namespace table full and one empty namespace, two creators used to take
 * that id from each other over and over (each recycle made the other's handle stale). A namespace just
 * made is not recycled until its first write (or TBL_NS_FRESH_MS), so the second creator is told the
 * table is full, and the first one's write goes through. */
TBL_TEST(test_a_fresh_namespace_is_not_recycled_under_its_creator)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_LRU);
	tbl_ns_t a, b, ns;
	unsigned i, limit;
	char name[32], buf[16];

	REQUIRE(t != NULL);
	limit = tbl_ns_limit(t);
	for (i = 1; i < limit; i++) {
		snprintf(name, sizeof(name), "full%u", i);
		REQUIRE(tbl_ns_get(t, name, strlen(name), &ns) == TBL_OK);
		CHECK(fixture_set(t, ns, "k", "v", 0) == TBL_OK);
	}
	/* Empty one of them: it is the one id that can be recycled. */
	CHECK(tbl_ns_find(t, "full7", 5, &ns) == TBL_OK && tbl_delete(t, ns, "k", 1) == TBL_OK);
	CHECK(tbl_ns_get(t, "a", 1, &a) == TBL_OK);      /* creator A recycles it ... */
	CHECK(tbl_ns_get(t, "b", 1, &b) == TBL_ENSFULL); /* ... and B does not take it back */
	CHECK(fixture_set(t, a, "k", "from-a", 0) == TBL_OK);
	CHECK(fixture_get(t, a, "k", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "from-a") == 0);
	/* Written and emptied again, it is recyclable at once. */
	CHECK(tbl_delete(t, a, "k", 1) == TBL_OK);
	CHECK(tbl_ns_get(t, "b", 1, &b) == TBL_OK && tbl_ns_id(b) == tbl_ns_id(a));
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

static int count_keys(void *ctx, tbl_ns_t ns, const char *key, size_t klen, const tbl_view_t *v)
{
	(void)ns; (void)key; (void)klen; (void)v;
	(*(unsigned *)ctx)++;
	return 0;
}

/* Issue 10, item 3: a handle from before its namespace was recycled clears, counts and lists nothing of
 * the namespace that now has its id (clear used to check once, without a lock; count and keys never). */
TBL_TEST(test_a_stale_handle_counts_lists_and_clears_nothing)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_LRU);
	tbl_ns_t old, fresh, ns;
	unsigned i, limit, keys = 0;
	uint64_t removed = 99, cursor = 0;
	char name[32], buf[16];

	REQUIRE(t != NULL);
	limit = tbl_ns_limit(t);
	REQUIRE(tbl_ns_get(t, "old", 3, &old) == TBL_OK);
	CHECK(fixture_set(t, old, "k", "v", 0) == TBL_OK && tbl_delete(t, old, "k", 1) == TBL_OK);
	for (i = 2; i < limit; i++) {
		snprintf(name, sizeof(name), "full%u", i);
		REQUIRE(tbl_ns_get(t, name, strlen(name), &ns) == TBL_OK);
		CHECK(fixture_set(t, ns, "k", "v", 0) == TBL_OK);
	}
	REQUIRE(tbl_ns_get(t, "new", 3, &fresh) == TBL_OK && tbl_ns_id(fresh) == tbl_ns_id(old));
	CHECK(fixture_set(t, fresh, "k1", "a", 0) == TBL_OK && fixture_set(t, fresh, "k2", "b", 0) == TBL_OK);
	CHECK_EQ_U64(tbl_ns_entries(t, old), 0);
	CHECK_EQ_U64(tbl_ns_bytes(t, old), 0);
	CHECK_EQ_U64(tbl_ns_entries(t, fresh), 2);
	CHECK_EQ_U64(tbl_ns_entries(t, tbl_ns_handle(t, tbl_ns_id(fresh))), 2);
	do {
		tbl_scan(t, old, &cursor, 1u << 20, count_keys, &keys);
	} while (cursor);
	CHECK_EQ_U64(keys, 0);
	CHECK(tbl_clear_ns(t, old, &removed) == TBL_OK);
	CHECK_EQ_U64(removed, 0);
	CHECK(fixture_get(t, fresh, "k1", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "a") == 0);
	CHECK_EQ_U64(tbl_ns_entries(t, fresh), 2);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* Issue 20, item 6: a namespace per tenant. 10,000 namespaces on a 16 MiB table (the old limit was
 * table.memory / 64 KiB: 256): created, counted, found, one cleared, then all of them. */
TBL_TEST(test_ten_thousand_namespaces_on_a_small_table)
{
	tbl_t *t = fixture_open_ns(16 * MB, TBL_POLICY_NOEVICTION, 0);
	unsigned i, n = 10000, bad = 0;
	uint64_t removed = 0;
	tbl_ns_t ns;
	char name[32], buf[32];

	REQUIRE(t != NULL);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "tenant%u", i);
		if (tbl_ns_get(t, name, strlen(name), &ns) != TBL_OK || fixture_set(t, ns, "k", name, 0) != TBL_OK
		    || fixture_set(t, ns, "k2", "x", 0) != TBL_OK) {
			bad++;
		}
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(tbl_ns_count_created(t), n + 1);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "tenant%u", i);
		if (tbl_ns_find(t, name, strlen(name), &ns) != TBL_OK || tbl_ns_entries(t, ns) != 2
		    || fixture_get(t, ns, "k", buf, sizeof(buf)) != TBL_OK || strcmp(buf, name) != 0) {
			bad++;
		}
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_CONSISTENT(t);
	REQUIRE(tbl_ns_find(t, "tenant4242", 10, &ns) == TBL_OK);
	CHECK(tbl_clear_ns(t, ns, &removed) == TBL_OK);
	CHECK_EQ_U64(removed, 2);
	CHECK_EQ_U64(tbl_ns_entries(t, ns), 0);
	REQUIRE(tbl_ns_find(t, "tenant4243", 10, &ns) == TBL_OK);
	CHECK_EQ_U64(tbl_ns_entries(t, ns), 2);
	CHECK(tbl_clear_all(t, &removed) == TBL_OK);
	CHECK_EQ_U64(removed, 2 * (n - 1));
	CHECK_EQ_U64(tbl_ns_entries(t, ns), 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* Bytes of [off, off + len) of the mapping that are resident (faulted in). */
static uint64_t resident_bytes(tbl_t *t, uint64_t off, uint64_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t npages = (size_t)((len + (uint64_t)page - 1) / (uint64_t)page), i;
	unsigned char *vec = calloc(npages ? npages : 1, 1);
	uint64_t n = 0;

	if (!vec || mincore(t->base + off, (size_t)len, vec) != 0) {
		free(vec);
		return UINT64_MAX;
	}
	for (i = 0; i < npages; i++) {
		n += (vec[i] & 1u) ? (uint64_t)page : 0;
	}
	free(vec);
	return n;
}

/* The namespace pages are sized for every id but live outside table.memory and are touched in id order:
 * what a table uses grows with the namespaces it has (about 1.3 KiB each), not with the 65,533 it could. */
TBL_TEST(test_namespace_memory_grows_with_use)
{
	tbl_t *t = fixture_open_ns(4 * MB, TBL_POLICY_LRU, 0);
	uint64_t off, len, before, after;
	unsigned i;
	tbl_ns_t ns;
	char name[32];

	REQUIRE(t != NULL);
	off = t->hdr->off_nscounts;
	len = t->hdr->map_size - off;
	CHECK(off >= t->hdr->segment_size);   /* not taken from table.memory */
	CHECK(len > 65533ull * (sizeof(tbl_nscount_t) * TBL_NSTRIPES + sizeof(tbl_nsrec_t)));
	before = resident_bytes(t, off, len);
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "n%u", i);
		REQUIRE(tbl_ns_get(t, name, strlen(name), &ns) == TBL_OK);
		CHECK(fixture_set(t, ns, "k", "v", 0) == TBL_OK);
	}
	after = resident_bytes(t, off, len);
	REQUIRE(before != UINT64_MAX && after != UINT64_MAX);
	/* 1,000 x (32 counters + a record), a page per stripe row and region of slack, the index */
	CHECK(after <= 1000u * (sizeof(tbl_nscount_t) * TBL_NSTRIPES + sizeof(tbl_nsrec_t))
	               + (TBL_NSTRIPES + 2u) * 4096u + t->hdr->nsindex_size * sizeof(uint16_t));
	CHECK(after < len / 16);
	tbl_destroy(t);
}

/* With every id taken by a namespace that holds an entry, a new name is refused (TBL_ENSFULL, which the
 * binding turns into a TableException); once one is emptied, its id is reused. */
TBL_TEST(test_the_limit_is_the_id_space)
{
	tbl_t *t = fixture_open_ns(16 * MB, TBL_POLICY_NOEVICTION, 0);
	unsigned i, bad = 0;
	tbl_ns_t ns, fresh;
	char name[32];

	REQUIRE(t != NULL);
	CHECK_EQ_U64(tbl_ns_limit(t), TBL_NS_NAMED_MAX + 1u);
	for (i = 1; i <= TBL_NS_NAMED_MAX; i++) {
		snprintf(name, sizeof(name), "%u", i);
		if (tbl_ns_get(t, name, strlen(name), &ns) != TBL_OK || fixture_set(t, ns, "k", "v", 0) != TBL_OK) {
			bad++;
		}
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(tbl_ns_count_created(t), TBL_NS_NAMED_MAX + 1u);
	CHECK(tbl_ns_get(t, "one-more", 8, &fresh) == TBL_ENSFULL);
	REQUIRE(tbl_ns_find(t, "777", 3, &ns) == TBL_OK);
	CHECK(tbl_delete(t, ns, "k", 1) == TBL_OK);
	CHECK(tbl_ns_get(t, "one-more", 8, &fresh) == TBL_OK && tbl_ns_id(fresh) == tbl_ns_id(ns));
	CHECK(tbl_ns_find(t, "65533", 5, &ns) == TBL_OK && tbl_ns_entries(t, ns) == 1);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_ten_thousand_namespaces_on_a_small_table),
	TBL_TEST_ENTRY(test_namespace_memory_grows_with_use),
	TBL_TEST_ENTRY(test_the_limit_is_the_id_space),
	TBL_TEST_ENTRY(test_a_fresh_namespace_is_not_recycled_under_its_creator),
	TBL_TEST_ENTRY(test_a_stale_handle_counts_lists_and_clears_nothing),
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
