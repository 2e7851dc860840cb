/*
 * test_epoch.c - reader slots and reclamation: a retired entry is freed only after every reader that
 * could see it has left; slots of exited and killed processes are given back; a forked child gets a
 * slot of its own; a zero-copy hold keeps its one entry (and nothing else) past read_end until
 * release, is copied across fork(), and a killed or exec'd holder is reaped; 300 processes get slots
 * at 1 MiB.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "epoch.h"
#include "gc.h"
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
	/* stats() counts live processes only: it gives the dead ones' slots back first. */
	tbl_get_stats(t, &st);
	CHECK_EQ_U64(st.slots_used, 1);
	CHECK_EQ_U64(tbl_slots_reap(t, 0), 0);
	tbl_destroy(t);
}


static void set_sized(tbl_t *t, const char *key, size_t len, tbl_status_t expect);

static tbl_stats_t stats(tbl_t *t)
{
	tbl_stats_t st;
	tbl_get_stats(t, &st);
	return st;
}

/* Look `key` up and hold it (zero-copy); the view stays valid after the read section. */
static tbl_status_t hold(tbl_t *t, const char *key, tbl_view_t *v, uint64_t budget)
{
	tbl_status_t st;

	if ((st = tbl_read_begin(t)) != TBL_OK) {
		return st;
	}
	st = tbl_lookup(t, 0, key, strlen(key), v, 1);
	if (st == TBL_OK) {
		st = tbl_hold(t, v, budget);
	}
	tbl_read_end(t);
	return st;
}

/* A hold keeps its one entry past the read section; every other retired entry is reclaimed as usual,
 * and the held one is freed at release. */
TBL_TEST(test_hold_keeps_only_the_held_entry)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_view_t v;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	CHECK(fixture_set(t, 0, "j", "j1", 0) == TBL_OK);
	REQUIRE(hold(t, "k", &v, UINT64_MAX) == TBL_OK);
	CHECK(hold(t, "k", &v, UINT64_MAX) == TBL_OK);        /* again: still one hold */
	CHECK_EQ_U64(tbl_holds(t), 1);
	CHECK_EQ_U64(stats(t).held_entries, 1);
	CHECK_EQ_U64(stats(t).held_bytes, v.size);
	CHECK_EQ_U64(stats(t).pins, 1);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);   /* retires "old", which is held */
	CHECK(fixture_set(t, 0, "j", "j2", 0) == TBL_OK);    /* retires "j1", which is not */
	reclaim(t);
	CHECK_EQ_U64(retired(t), 0);                          /* nothing waits on epochs any more */
	CHECK_EQ_U64(stats(t).held_retired_bytes, v.size);   /* "old" waits for its holder */
	CHECK(v.len == 3 && memcmp(v.data, "old", 3) == 0);
	CHECK_CONSISTENT(t);
	tbl_release_holds(t);
	CHECK_EQ_U64(tbl_holds(t), 0);
	CHECK_EQ_U64(stats(t).held_entries, 0);
	CHECK_EQ_U64(stats(t).held_bytes, 0);
	CHECK_EQ_U64(stats(t).held_retired_bytes, 0);
	CHECK_EQ_U64(stats(t).pins, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* Past the budget (bytes held by all processes) a hold is refused, unless the entry is held already. */
TBL_TEST(test_hold_budget)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_view_t v, w;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, 0, "a", "aaaa", 0) == TBL_OK);
	CHECK(fixture_set(t, 0, "b", "bbbb", 0) == TBL_OK);
	CHECK(hold(t, "a", &v, 0) == TBL_ENOMEM);
	CHECK_EQ_U64(tbl_holds(t), 0);
	CHECK(hold(t, "a", &v, v.size) == TBL_OK);
	CHECK(hold(t, "b", &w, v.size) == TBL_ENOMEM);       /* a + b would pass the budget */
	CHECK(hold(t, "a", &v, 0) == TBL_OK);                 /* held already: nothing more to hold */
	CHECK_EQ_U64(stats(t).held_bytes, v.size);
	tbl_release_holds(t);
	CHECK_EQ_U64(stats(t).held_bytes, 0);
	tbl_destroy(t);
}

/* A replaced entry that is still held counts in held_retired_bytes from the moment it is retired, also
 * while it waits in the retire queue (before reclamation moved it to the held list). */
TBL_TEST(test_held_retired_bytes_count_the_retire_queue)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_view_t v;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	REQUIRE(hold(t, "k", &v, UINT64_MAX) == TBL_OK);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);   /* retires "old": queued, not reclaimed yet */
	CHECK_EQ_U64(retired(t), 1);
	CHECK_EQ_U64(stats(t).held_retired_bytes, v.size);
	CHECK_EQ_U64(stats(t).held_bytes, v.size);
	reclaim(t);                                           /* now on the held list: still counted once */
	CHECK_EQ_U64(stats(t).held_retired_bytes, v.size);
	tbl_release_holds(t);
	CHECK_EQ_U64(stats(t).held_retired_bytes, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* The budget is taken in one atomic step: processes that hold different entries at once, each of the
 * whole budget's size, never make held_bytes pass it (checking first and adding after let two through). */
TBL_TEST(test_hold_budget_is_never_exceeded)
{
	tbl_t *t = fixture_open(8 * MB, TBL_POLICY_LRU);
	enum { NPROC = 6, ROUNDS = 200000 };
	int go[2], i, status, over = 0;
	uint64_t budget;
	pid_t pids[NPROC];
	tbl_view_t v;

	REQUIRE(t != NULL);
	REQUIRE(pipe(go) == 0);
	for (i = 0; i < NPROC; i++) {
		char key[32];
		snprintf(key, sizeof(key), "k%d", i);
		set_sized(t, key, 1000, TBL_OK);
	}
	REQUIRE(hold(t, "k0", &v, UINT64_MAX) == TBL_OK);
	budget = v.size;                                      /* room for exactly one of them */
	tbl_release_holds(t);
	for (i = 0; i < NPROC; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			char key[32], c;
			int r, bad = 0;
			snprintf(key, sizeof(key), "k%d", i);
			close(go[1]);
			(void)!read(go[0], &c, 1);                    /* EOF once the parent closed its end */
			for (r = 0; r < ROUNDS; r++) {
				tbl_view_t w;
				if (hold(t, key, &w, budget) == TBL_OK) {
					bad |= atomic_load(&t->hdr->held_bytes) > budget;
					tbl_release_holds(t);
				}
			}
			_exit(bad);
		}
	}
	close(go[0]);
	close(go[1]);                                         /* all start together */
	for (i = 0; i < NPROC; i++) {
		CHECK(waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status));
		over += WEXITSTATUS(status) != 0;
	}
	CHECK_EQ_U64(over, 0);
	CHECK_EQ_U64(stats(t).held_bytes, 0);
	tbl_destroy(t);
}

/* Holding many entries of a full table does not make writes fail: only the held entries stay. */
TBL_TEST(test_full_table_takes_writes_beside_holds)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_LRU);
	char key[32], val[200];
	tbl_view_t v;
	int i, failed = 0, held = 0;

	REQUIRE(t != NULL);
	memset(val, 'x', sizeof(val) - 1);
	val[sizeof(val) - 1] = '\0';
	for (i = 0; i < 8000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		fixture_set(t, 0, key, val, 0);
	}
	for (i = 7900; i < 8000; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		held += hold(t, key, &v, UINT64_MAX) == TBL_OK;
	}
	CHECK(held > 50);
	for (i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "n%d", i % 9000);
		failed += fixture_set(t, 0, key, val, 0) != TBL_OK;
	}
	CHECK_EQ_U64(failed, 0);
	CHECK(v.len == sizeof(val) - 1 && v.data != NULL && ((const char *)v.data)[0] == 'x');
	CHECK_CONSISTENT(t);
	tbl_release_holds(t);
	reclaim(t);
	CHECK_EQ_U64(stats(t).held_retired_bytes, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* fork() while holding: the child owns a copy of the holds from its first instant, so the parent may
 * release at once and the child's inherited view stays allocated until the child releases. */
TBL_TEST(test_holds_are_handed_over_across_fork)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int ready[2], release[2], status;
	tbl_view_t v;
	char c;
	pid_t pid;

	REQUIRE(t != NULL);
	REQUIRE(pipe(ready) == 0 && pipe(release) == 0);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	REQUIRE(hold(t, "k", &v, UINT64_MAX) == TBL_OK);
	pid = fork();
	if (pid == 0) {
		int ok = tbl_holds(t) == 1;
		(void)!write(ready[1], ok ? "p" : "u", 1);
		(void)!read(release[0], &c, 1);
		ok = ok && v.len == 3 && memcmp(v.data, "old", 3) == 0;
		tbl_release_holds(t);
		(void)!write(ready[1], "d", 1);
		tbl_detach(t);
		_exit(ok ? 0 : 1);
	}
	tbl_release_holds(t);
	CHECK(read(ready[0], &c, 1) == 1 && c == 'p');
	CHECK_EQ_U64(stats(t).pins, 1);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);
	reclaim(t);
	CHECK_EQ_U64(stats(t).held_retired_bytes, v.size);  /* the child's hold keeps "old" */
	CHECK(write(release[1], "x", 1) == 1);
	CHECK(read(ready[0], &c, 1) == 1);
	CHECK_EQ_U64(stats(t).held_retired_bytes, 0);       /* freed by the child's release */
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ_U64(stats(t).pins, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* A holder that is SIGKILLed, or that exec's another program (which never calls in again), holds
 * nothing: reclamation releases its holds. */
static void holder_gone(int exec_instead)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int ready[2], go[2], status;
	char c;
	pid_t pid;

	REQUIRE(t != NULL);
	REQUIRE(pipe(ready) == 0 && pipe(go) == 0);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	pid = fork();
	if (pid == 0) {
		tbl_view_t v;
		hold(t, "k", &v, UINT64_MAX);
		(void)!write(ready[1], "p", 1);
		(void)!read(go[0], &c, 1);   /* stats() would release the holds of a program already exec'd */
		if (exec_instead) {
			execl("/bin/sleep", "sleep", "60", (char *)NULL);
		}
		for (;;) {
			pause();
		}
	}
	CHECK(read(ready[0], &c, 1) == 1);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);
	reclaim(t);
	CHECK(stats(t).held_retired_bytes > 0);
	CHECK(write(go[1], "g", 1) == 1);
	if (exec_instead) {
		/* Wait until the child runs the other program (its maps no longer show the segment). */
		char path[64], exe[256];
		ssize_t n = 0;
		int i;
		snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
		for (i = 0; i < 60000; i++) {   /* a minute at least: a bound for a hang, not a guess at load */
			n = readlink(path, exe, sizeof(exe) - 1);
			if (n > 0 && (exe[n] = '\0', strstr(exe, "sleep") != NULL)) {
				break;
			}
			usleep(1000);
		}
		CHECK(n > 0 && strstr(exe, "sleep") != NULL);
	} else {
		kill(pid, SIGKILL);
		CHECK(waitpid(pid, &status, 0) == pid);
	}
	reclaim(t);                                           /* reaps the holder */
	CHECK_EQ_U64(stats(t).held_retired_bytes, 0);
	CHECK_EQ_U64(stats(t).held_entries, 0);
	CHECK_EQ_U64(stats(t).pins, 0);
	CHECK_CONSISTENT(t);
	if (exec_instead) {
		kill(pid, SIGKILL);
		CHECK(waitpid(pid, &status, 0) == pid);
	}
	tbl_destroy(t);
}

TBL_TEST(test_killed_holder_is_reaped)
{
	holder_gone(0);
}

TBL_TEST(test_holder_that_execs_is_reaped)
{
	holder_gone(1);
}

/* Fork `n` children that share out the keys k0, k<every>, k<2 * every>, ... below k<nkeys> and hold them,
 * then SIGKILL them all once they hold. The held entries stay live (nobody replaces them). */
static void holders_killed(tbl_t *t, int n, int nkeys, int every)
{
	int ready[2], i, status;
	pid_t pids[8];
	char c;

	if (pipe(ready) != 0) {
		CHECK(0);
		return;
	}
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			int k, ok = 1;
			for (k = i * every; k < nkeys; k += n * every) {
				char key[32];
				tbl_view_t v;
				snprintf(key, sizeof(key), "k%d", k);
				ok &= hold(t, key, &v, UINT64_MAX) == TBL_OK;
			}
			(void)!write(ready[1], ok ? "y" : "n", 1);
			for (;;) {
				pause();
			}
		}
	}
	for (i = 0; i < n; i++) {
		CHECK(read(ready[0], &c, 1) == 1 && c == 'y');
	}
	for (i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		CHECK(waitpid(pids[i], &status, 0) == pids[i]);
	}
	close(ready[0]);
	close(ready[1]);
}

static void set_sized(tbl_t *t, const char *key, size_t len, tbl_status_t expect)
{
	char *buf = malloc(len);
	tbl_value_t v = { TBL_T_STRING, buf, (uint32_t)len, NULL };

	REQUIRE(buf != NULL);
	memset(buf, 'x', len);
	CHECK(tbl_store(t, 0, key, strlen(key), &v, 0, TBL_STORE_SET) == expect);
	free(buf);
}

/* Holders SIGKILLed while their entries stay live hold nothing: stats() counts live holders and slots
 * only, and gives the budget they took back, so the next process reads zero-copy again. */
TBL_TEST(test_killed_holders_of_live_entries_are_released_by_stats)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	uint64_t budget = 0;
	tbl_stats_t st;
	int i, status;
	pid_t pid;

	REQUIRE(t != NULL);
	for (i = 0; i < 60; i++) {
		char key[32];
		snprintf(key, sizeof(key), "k%d", i);
		set_sized(t, key, 1000, TBL_OK);
	}
	holders_killed(t, 3, 30, 1);
	st = stats(t);
	CHECK_EQ_U64(st.pins, 0);
	CHECK_EQ_U64(st.slots_used, 1);
	CHECK_EQ_U64(st.held_entries, 0);
	CHECK_EQ_U64(st.held_bytes, 0);
	/* A fresh process may hold as much as they did, of other entries: the budget is free again. */
	budget = 30 * (uint64_t)tbl_entry_alloc_size(3, TBL_T_STRING, 1000) + 30 * 32;
	pid = fork();
	if (pid == 0) {
		int ok = 1;
		for (i = 30; i < 60; i++) {
			char key[32];
			tbl_view_t v;
			snprintf(key, sizeof(key), "k%d", i);
			ok &= hold(t, key, &v, budget) == TBL_OK;
		}
		tbl_release_holds(t);
		_exit(ok ? 0 : 1);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* The same, found by a write: entries held by dead processes, spread over the heap, are barriers no
 * eviction window crosses. The write that finds no window checks their holders and evicts them. */
TBL_TEST(test_killed_holders_of_live_entries_are_released_by_eviction)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_LRU);
	uint64_t heap;
	int i, n;

	REQUIRE(t != NULL);
	heap = stats(t).heap_size;
	/* Fill the heap with 16 KB entries (without evicting any); every fourth is held below. */
	n = (int)(heap / 16200) - 1;
	REQUIRE(n > 8);
	for (i = 0; i < n; i++) {
		char key[32];
		snprintf(key, sizeof(key), "k%d", i);
		set_sized(t, key, 16000, TBL_OK);
	}
	CHECK_EQ_U64(stats(t).evictions, 0);
	holders_killed(t, 2, n, 4);
	/* Half the heap: every window of that size crosses an entry the dead held. */
	set_sized(t, "big", (size_t)(heap / 2), TBL_OK);
	CHECK_EQ_U64(stats(t).pins, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* A writer killed between tbl_alloc() handing it a block and its writing the entry's header leaves a
 * block full of whatever was there before (here: 0xFF everywhere, so a hold count of 65535). Recovery
 * trusts the allocator's header (the block was never initialised), not those bytes: the GC retires the
 * block, reclamation frees it, and nothing is left on the held list (no process ever held anything). */
TBL_TEST(test_block_of_a_writer_killed_before_its_header_is_freed)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_stats_t before, after;
	int status;
	pid_t pid;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, 0, "k", "v", 0) == TBL_OK);
	before = stats(t);
	pid = fork();
	if (pid == 0) {
		uint64_t off;
		if (tbl_alloc_lock(t) != TBL_OK) {
			_exit(1);
		}
		off = tbl_alloc(&t->hdr->alloc, t->base, 100000);
		memset(t->base + off, 0xFF, 100000);   /* the bytes a writer had not written yet */
		raise(SIGKILL);
		_exit(2);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
	CHECK(fixture_set(t, 0, "k", "w", 0) == TBL_OK);   /* repairs the allocator lock: gc_needed */
	tbl_gc_if_needed(t);
	CHECK_EQ_U64(stats(t).gc_runs, 1);
	reclaim(t);
	reclaim(t);
	after = stats(t);
	CHECK_EQ_U64(t->hdr->held_head, 0);
	CHECK_EQ_U64(after.held_retired_bytes, 0);
	CHECK_EQ_U64(after.retired_bytes, 0);
	CHECK_EQ_U64(after.used_bytes, before.used_bytes);
	CHECK_EQ_U64(after.free_bytes, before.free_bytes);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* Slots do not depend on table.memory: 300 live processes all get one at 1 MiB. */
TBL_TEST(test_300_processes_at_1m)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_LRU);
	int ready[2], release[2], i, ok = 0, status;
	pid_t pids[300];
	char c;

	REQUIRE(t != NULL);
	CHECK_EQ_U64(stats(t).slots_total, 4096);
	REQUIRE(pipe(ready) == 0 && pipe(release) == 0);
	for (i = 0; i < 300; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			char key[32], buf[32];
			close(release[1]);
			snprintf(key, sizeof(key), "p%d", i);
			int good = fixture_set(t, 0, key, "v", 0) == TBL_OK
			           && fixture_get(t, 0, key, buf, sizeof(buf)) == TBL_OK;
			(void)!write(ready[1], good ? "y" : "n", 1);
			(void)!read(release[0], &c, 1);   /* stay alive until all 300 have a slot */
			_exit(0);
		}
	}
	for (i = 0; i < 300; i++) {
		ok += read(ready[0], &c, 1) == 1 && c == 'y';
	}
	CHECK_EQ_U64(ok, 300);
	CHECK(stats(t).slots_used >= 301);
	close(release[1]);
	for (i = 0; i < 300; i++) {
		waitpid(pids[i], &status, 0);
	}
	tbl_destroy(t);
}

/* A process that finds every slot taken still reads, under the stripe lock, from a copy. */
TBL_TEST(test_reads_without_a_slot)
{
	tbl_config_t cfg;
	char err[256];
	tbl_t *t = NULL;
	int ready[2], release[2], status;
	pid_t holder, reader;
	char c;

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = 4 * MB;
	cfg.policy = TBL_POLICY_LRU;
	cfg.slots = 2;
	REQUIRE(tbl_create(&t, &cfg, err, sizeof(err)) == TBL_OK);
	REQUIRE(pipe(ready) == 0 && pipe(release) == 0);
	CHECK(fixture_set(t, 0, "k", "value", 0) == TBL_OK);   /* the parent takes slot 1 */
	holder = fork();
	if (holder == 0) {
		char buf[16];
		fixture_get(t, 0, "k", buf, sizeof(buf));           /* slot 2 */
		(void)!write(ready[1], "h", 1);
		(void)!read(release[0], &c, 1);
		tbl_detach(t);
		_exit(0);
	}
	CHECK(read(ready[0], &c, 1) == 1);
	reader = fork();
	if (reader == 0) {
		tbl_view_t v;
		void *copy = NULL;
		int ok = tbl_read_begin(t) == TBL_ENOSLOT;
		ok = ok && tbl_lookup_copy(t, 0, "k", 1, &v, &copy) == TBL_OK && v.len == 5 && memcmp(copy, "value", 5) == 0;
		free(copy);
		ok = ok && tbl_lookup_copy(t, 0, "nope", 4, &v, &copy) == TBL_ENOTFOUND && copy == NULL;
		_exit(ok ? 0 : 1);
	}
	CHECK(waitpid(reader, &status, 0) == reader && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(write(release[1], "x", 1) == 1);
	CHECK(waitpid(holder, &status, 0) == holder);
	tbl_destroy(t);
}

/* The held list's audit (epoch.c, held_audit_locked: after a kill left a count no hold record backs)
 * sets a count down to the records that name the entry, never below: the holds of live holders, here
 * one in this process and one in a child, keep the entry until both are released. */
TBL_TEST(test_held_list_audit_keeps_the_holds_of_live_holders)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int ready[2], release[2], status;
	tbl_entry_t *e;
	tbl_view_t v;
	char c = 0;
	pid_t pid;

	REQUIRE(t != NULL);
	REQUIRE(pipe(ready) == 0 && pipe(release) == 0);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	pid = fork();
	if (pid == 0) {
		c = hold(t, "k", &v, UINT64_MAX) == TBL_OK ? 'h' : 'x';
		(void)!write(ready[1], &c, 1);
		(void)!read(release[0], &c, 1);
		tbl_release_holds(t);
		(void)!write(ready[1], "r", 1);
		(void)!read(release[0], &c, 1);
		tbl_detach(t);
		_exit(0);
	}
	REQUIRE(read(ready[0], &c, 1) == 1 && c == 'h');
	REQUIRE(hold(t, "k", &v, UINT64_MAX) == TBL_OK);
	e = tbl_entry_at(t, v.entry);
	CHECK_EQ_U64(atomic_load(&e->holds), 2);
	/* What a holder killed between its record and the count leaves: one count more, its record dropped. */
	atomic_fetch_add(&e->holds, 1);
	atomic_store(&t->hdr->holds_lost, 1);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);   /* retires "old" */
	reclaim(t);                                           /* onto the held list */
	reclaim(t);                                           /* audited: two records */
	CHECK(t->hdr->held_head == v.entry);
	CHECK_EQ_U64(atomic_load(&e->holds), 2);
	CHECK_EQ_U64(atomic_load(&t->hdr->holds_lost), 0);
	CHECK_EQ_U64(stats(t).held_entries, 1);
	CHECK_EQ_U64(stats(t).held_retired_bytes, v.size);
	CHECK(write(release[1], "x", 1) == 1);               /* the child releases */
	CHECK(read(ready[0], &c, 1) == 1);
	reclaim(t);
	CHECK_EQ_U64(atomic_load(&e->holds), 1);
	CHECK_EQ_U64(stats(t).held_retired_bytes, v.size);
	CHECK(v.len == 3 && memcmp(v.data, "old", 3) == 0);
	tbl_release_holds(t);                                 /* the last hold: swept */
	CHECK_EQ_U64(stats(t).held_entries, 0);
	CHECK_EQ_U64(stats(t).held_bytes, 0);
	CHECK_EQ_U64(stats(t).held_retired_bytes, 0);
	CHECK(t->hdr->held_head == 0);
	CHECK(write(release[1], "x", 1) == 1);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_held_list_audit_keeps_the_holds_of_live_holders),
	TBL_TEST_ENTRY(test_reads_without_a_slot),
	TBL_TEST_ENTRY(test_reclaim_waits_for_an_active_reader),
	TBL_TEST_ENTRY(test_forked_child_claims_its_own_slot_and_returns_it),
	TBL_TEST_ENTRY(test_killed_processes_slots_are_reaped),
	TBL_TEST_ENTRY(test_hold_keeps_only_the_held_entry),
	TBL_TEST_ENTRY(test_hold_budget),
	TBL_TEST_ENTRY(test_held_retired_bytes_count_the_retire_queue),
	TBL_TEST_ENTRY(test_hold_budget_is_never_exceeded),
	TBL_TEST_ENTRY(test_full_table_takes_writes_beside_holds),
	TBL_TEST_ENTRY(test_holds_are_handed_over_across_fork),
	TBL_TEST_ENTRY(test_killed_holder_is_reaped),
	TBL_TEST_ENTRY(test_holder_that_execs_is_reaped),
	TBL_TEST_ENTRY(test_killed_holders_of_live_entries_are_released_by_stats),
	TBL_TEST_ENTRY(test_killed_holders_of_live_entries_are_released_by_eviction),
	TBL_TEST_ENTRY(test_block_of_a_writer_killed_before_its_header_is_freed),
	TBL_TEST_ENTRY(test_300_processes_at_1m),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
