/*
 * test_epoch.c - reader slots and reclamation: a retired entry is freed only after every reader that
 * could see it has left; slots of exited and killed processes are given back; a forked child gets a
 * slot of its own; a pin outlives read_end until unpin, is handed over across fork(), and a killed
 * pinned process is reaped.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "epoch.h"
#include "sync.h"
#include "table_fixture.h"

#define MB (1024u * 1024u)

static uint64_t retired(tbl_t *t)
{
	tbl_stats_t st;
	tbl_get_stats(t, &st);
	return st.retired_blocks;
}

static void reclaim(tbl_t *t)
{
	tbl_alloc_lock(t);
	tbl_reclaim_locked(t, 1);
	tbl_alloc_unlock(t);
}

TBL_TEST(test_reclaim_waits_for_an_active_reader)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int ready[2], release[2], status;
	char c;
	pid_t pid;

	REQUIRE(t != NULL);
	REQUIRE(pipe(ready) == 0 && pipe(release) == 0);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	pid = fork();
	if (pid == 0) {
		tbl_read_begin(t);
		(void)!write(ready[1], "r", 1);
		(void)!read(release[0], &c, 1);
		tbl_read_end(t);
		(void)!write(ready[1], "d", 1);
		tbl_detach(t);
		_exit(0);
	}
	CHECK(read(ready[0], &c, 1) == 1);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);   /* retires "old" */
	reclaim(t);
	CHECK_EQ_U64(retired(t), 1);                          /* the child may still see it */
	CHECK(write(release[1], "x", 1) == 1);
	CHECK(read(ready[0], &c, 1) == 1);
	reclaim(t);
	CHECK_EQ_U64(retired(t), 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_forked_child_claims_its_own_slot_and_returns_it)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_stats_t before, after;
	int status;
	pid_t pid;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, 0, "parent", "1", 0) == TBL_OK);
	tbl_get_stats(t, &before);
	pid = fork();
	if (pid == 0) {
		tbl_stats_t mid;
		int ok = fixture_set(t, 0, "child", "1", 0) == TBL_OK;
		tbl_get_stats(t, &mid);
		ok = ok && mid.slots_used == before.slots_used + 1;
		tbl_detach(t);
		_exit(ok ? 0 : 1);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tbl_get_stats(t, &after);
	CHECK_EQ_U64(after.slots_used, before.slots_used);
	CHECK_EQ_U64(after.sets, 2);   /* the child's counters were folded in when it left */
	tbl_destroy(t);
}

TBL_TEST(test_killed_processes_slots_are_reaped)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_stats_t st;
	int i, status;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, 0, "k", "v", 0) == TBL_OK);
	for (i = 0; i < 5; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			fixture_set(t, 0, "k", "w", 0);
			raise(SIGKILL);
			_exit(0);
		}
		waitpid(pid, &status, 0);
	}
	tbl_get_stats(t, &st);
	CHECK_EQ_U64(st.slots_used, 6);
	CHECK_EQ_U64(tbl_slots_reap(t, 0), 5);
	tbl_get_stats(t, &st);
	CHECK_EQ_U64(st.slots_used, 1);
	tbl_destroy(t);
}


static uint64_t pins(tbl_t *t)
{
	tbl_stats_t st;
	tbl_get_stats(t, &st);
	return st.pins;
}

/* A pinned section outlives tbl_read_end and tbl_read_reset: what it saw stays allocated until unpin. */
TBL_TEST(test_pin_keeps_what_it_saw_until_unpin)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_view_t v;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	REQUIRE(tbl_read_begin(t) == TBL_OK);
	REQUIRE(tbl_lookup(t, 0, "k", 1, &v, 1) == TBL_OK);
	tbl_pin(t);
	tbl_read_end(t);
	tbl_read_reset(t);
	CHECK(tbl_pinned(t));
	CHECK_EQ_U64(pins(t), 1);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);   /* retires "old" */
	CHECK(fixture_set(t, 0, "j", "x", 0) == TBL_OK);
	reclaim(t);
	CHECK_EQ_U64(retired(t), 1);
	CHECK(v.len == 3 && memcmp(v.data, "old", 3) == 0);
	tbl_unpin(t);
	CHECK(!tbl_pinned(t));
	CHECK_EQ_U64(pins(t), 0);
	reclaim(t);
	CHECK_EQ_U64(retired(t), 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* fork() while pinned: the child owns a pinned slot at the parent's epoch from its first instant, so the
 * parent may unpin at once and the child's inherited view stays allocated until the child unpins. */
TBL_TEST(test_pin_is_handed_over_across_fork)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int ready[2], release[2], status;
	tbl_view_t v;
	char c;
	pid_t pid;

	REQUIRE(t != NULL);
	REQUIRE(pipe(ready) == 0 && pipe(release) == 0);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	REQUIRE(tbl_read_begin(t) == TBL_OK);
	REQUIRE(tbl_lookup(t, 0, "k", 1, &v, 1) == TBL_OK);
	tbl_pin(t);
	pid = fork();
	if (pid == 0) {
		int ok = tbl_pinned(t);
		(void)!write(ready[1], ok ? "p" : "u", 1);
		(void)!read(release[0], &c, 1);
		ok = ok && v.len == 3 && memcmp(v.data, "old", 3) == 0;
		tbl_unpin(t);
		(void)!write(ready[1], "d", 1);
		tbl_detach(t);
		_exit(ok ? 0 : 1);
	}
	tbl_unpin(t);
	CHECK(read(ready[0], &c, 1) == 1 && c == 'p');
	CHECK_EQ_U64(pins(t), 1);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);
	reclaim(t);
	CHECK_EQ_U64(retired(t), 1);                          /* the child's pin holds "old" */
	CHECK(write(release[1], "x", 1) == 1);
	CHECK(read(ready[0], &c, 1) == 1);
	reclaim(t);
	CHECK_EQ_U64(retired(t), 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ_U64(pins(t), 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* A pinned process that is SIGKILLed is reaped like any reader: its pin stops holding memory back. */
TBL_TEST(test_killed_pinned_process_is_reaped)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int ready[2], status;
	char c;
	pid_t pid;

	REQUIRE(t != NULL);
	REQUIRE(pipe(ready) == 0);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	pid = fork();
	if (pid == 0) {
		tbl_view_t v;
		tbl_read_begin(t);
		tbl_lookup(t, 0, "k", 1, &v, 1);
		tbl_pin(t);
		(void)!write(ready[1], "p", 1);
		for (;;) {
			pause();
		}
	}
	CHECK(read(ready[0], &c, 1) == 1);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);
	reclaim(t);
	CHECK_EQ_U64(retired(t), 1);
	kill(pid, SIGKILL);
	CHECK(waitpid(pid, &status, 0) == pid);
	reclaim(t);                                           /* reaps the dead pinned slot */
	CHECK_EQ_U64(retired(t), 0);
	CHECK_EQ_U64(pins(t), 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_reclaim_waits_for_an_active_reader),
	TBL_TEST_ENTRY(test_forked_child_claims_its_own_slot_and_returns_it),
	TBL_TEST_ENTRY(test_killed_processes_slots_are_reaped),
	TBL_TEST_ENTRY(test_pin_keeps_what_it_saw_until_unpin),
	TBL_TEST_ENTRY(test_pin_is_handed_over_across_fork),
	TBL_TEST_ENTRY(test_killed_pinned_process_is_reaped),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
