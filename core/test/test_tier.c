/*
 * test_tier.c - the Redis tier's bookkeeping (tier.c): stamps, fills that check them, invalidations,
 * the tier epoch, freshness and the helper's place; and the fill race across real processes, with a
 * counter in shared memory standing in for Redis.
 */
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "table_fixture.h"
#include "epoch.h"
#include "proc.h"
#include "tier.h"

#define MB (1024u * 1024u)

static tbl_value_t long_value(const int64_t *i)
{
	tbl_value_t v = { TBL_T_LONG, i, sizeof(*i), NULL };

	return v;
}

TBL_TEST(test_fill_stores_while_the_stamp_holds)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_value_t v = fixture_str("one");
	char buf[16];
	uint64_t stamp;

	REQUIRE(t != NULL);
	stamp = tbl_tier_stamp(t, 0, "k", 1);
	CHECK(tbl_fill(t, 0, "k", 1, &v, 0, stamp) == TBL_OK);
	CHECK(fixture_get(t, 0, "k", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "one") == 0);
	/* A fill does not move the stamp: the next one with it stores too. */
	CHECK(tbl_tier_stamp(t, 0, "k", 1) == stamp);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_invalidation_deletes_and_stops_fills_in_flight)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_value_t v = fixture_str("old");
	char buf[16];
	uint64_t stamp;
	tbl_ns_t ns;

	REQUIRE(t != NULL);
	REQUIRE(tbl_ns_get(t, "users", 5, &ns) == TBL_OK);
	CHECK(fixture_set(t, ns, "k", "cached", 0) == TBL_OK);
	stamp = tbl_tier_stamp(t, ns, "k", 1);
	CHECK(tbl_tier_invalidate(t, ns, "k", 1) == TBL_OK);
	CHECK(fixture_get(t, ns, "k", buf, sizeof(buf)) == TBL_ENOTFOUND);
	/* The fill read Redis before the invalidation: it must not store. */
	CHECK(tbl_fill(t, ns, "k", 1, &v, 0, stamp) == TBL_EMISMATCH);
	CHECK(fixture_get(t, ns, "k", buf, sizeof(buf)) == TBL_ENOTFOUND);
	/* Nothing to delete is still an invalidation: the stamp moves. */
	stamp = tbl_tier_stamp(t, ns, "k", 1);
	CHECK(tbl_tier_invalidate(t, ns, "k", 1) == TBL_ENOTFOUND);
	CHECK(tbl_tier_stamp(t, ns, "k", 1) != stamp);
	/* The same key in another namespace is another key. */
	CHECK(fixture_set(t, 0, "k", "default", 0) == TBL_OK);
	CHECK(tbl_tier_invalidate(t, ns, "k", 1) == TBL_ENOTFOUND);
	CHECK(fixture_get(t, 0, "k", buf, sizeof(buf)) == TBL_OK);
	CHECK(tbl_tier_invalidate(t, ns, "", 0) == TBL_EINVAL);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* Only the helper's invalidations are counted: a process that waits for the count to move (for another
 * host's write, or for the echo of its own) must not be misled by a writer dropping its own copy. */
TBL_TEST(test_only_the_helpers_invalidations_are_counted)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	char buf[16];
	uint64_t stamp;
	tbl_tier_stats_t st;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, 0, "k", "cached", 0) == TBL_OK);
	CHECK(tbl_tier_invalidate(t, 0, "k", 1) == TBL_OK);
	tbl_tier_stats(t, &st);
	CHECK_EQ_U64(st.invalidations, 0);
	CHECK(fixture_set(t, 0, "k", "cached", 0) == TBL_OK);
	stamp = tbl_tier_stamp(t, 0, "k", 1);
	CHECK(tbl_tier_apply_invalidation(t, 0, "k", 1) == TBL_OK);
	CHECK(fixture_get(t, 0, "k", buf, sizeof(buf)) == TBL_ENOTFOUND);
	CHECK(tbl_tier_stamp(t, 0, "k", 1) != stamp);
	/* With no copy it is still applied (the stamp moves), and counted. */
	CHECK(tbl_tier_apply_invalidation(t, 0, "k", 1) == TBL_ENOTFOUND);
	CHECK(tbl_tier_apply_invalidation(t, 0, "", 0) == TBL_EINVAL);
	tbl_tier_stats(t, &st);
	CHECK_EQ_U64(st.invalidations, 2);
	tbl_destroy(t);
}

TBL_TEST(test_advancing_the_epoch_stops_every_fill_in_flight)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_value_t v = fixture_str("x");
	uint64_t a, b;
	tbl_tier_stats_t st;

	REQUIRE(t != NULL);
	a = tbl_tier_stamp(t, 0, "a", 1);
	b = tbl_tier_stamp(t, 0, "b", 1);
	tbl_tier_advance_all(t);
	CHECK(tbl_fill(t, 0, "a", 1, &v, 0, a) == TBL_EMISMATCH);
	CHECK(tbl_fill(t, 0, "b", 1, &v, 0, b) == TBL_EMISMATCH);
	CHECK(tbl_fill(t, 0, "b", 1, &v, 0, tbl_tier_stamp(t, 0, "b", 1)) == TBL_OK);
	tbl_tier_stats(t, &st);
	CHECK_EQ_U64(st.flushes, 1);
	tbl_destroy(t);
}

TBL_TEST(test_freshness_and_the_helpers_place)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	tbl_tier_stats_t st;
	pid_t child;
	int status;

	REQUIRE(t != NULL);
	CHECK_EQ_U64(tbl_tier_fresh_ms(t), 0);
	tbl_tier_set_fresh_ms(t, 1234);
	CHECK_EQ_U64(tbl_tier_fresh_ms(t), 1234);

	/* The first claim wins; while the claim is young, nobody else takes the place. */
	CHECK(tbl_tier_helper_claim(t, 60000) == 1);
	CHECK(tbl_tier_helper_claim(t, 60000) == 0);
	/* A claim that never produced a helper expires. */
	CHECK(tbl_tier_helper_claim(t, 0) == 1);
	/* A registered helper that is alive keeps its place, whatever the claim's age. */
	tbl_tier_helper_register(t);
	CHECK(tbl_tier_helper_current(t) == 1);
	CHECK(tbl_tier_helper_claim(t, 0) == 0);
	tbl_tier_helper_leave(t);
	CHECK(tbl_tier_helper_current(t) == 0);
	CHECK_EQ_U64(tbl_tier_fresh_ms(t), 0);

	/* A helper that died leaves its place to the next claim. */
	child = fork();
	if (child == 0) {
		tbl_tier_helper_register(t);
		_exit(0);
	}
	REQUIRE(waitpid(child, &status, 0) == child);
	tbl_tier_stats(t, &st);
	CHECK(st.helper_pid == (int32_t)child);
	CHECK_EQ_U64(st.helper_starts, 2);
	CHECK(tbl_tier_helper_claim(t, 60000) == 1);
	tbl_destroy(t);
}

/* A registered helper that lives but stops beating is hung: a claim with a hang bound takes its place and
 * names it (pid and start time) for the claimer to end; one that beats keeps its place. */
TBL_TEST(test_a_helper_that_stops_beating_is_replaced)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int go[2], done[2];
	pid_t child;
	int32_t hung = -1;
	uint64_t hung_start = 1;
	char c = 0;
	int status;

	REQUIRE(t != NULL);
	REQUIRE(pipe(go) == 0 && pipe(done) == 0);
	child = fork();
	if (child == 0) {
		tbl_tier_helper_register(t);   /* beats once, then stays silent until told to go */
		if (write(done[1], &c, 1) != 1 || read(go[0], &c, 1) != 1) {
			_exit(1);
		}
		_exit(0);
	}
	REQUIRE(read(done[0], &c, 1) == 1);
	tbl_tier_set_fresh_ms(t, 777);
	/* Young beat: not hung, whatever the claim bound. */
	CHECK(tbl_tier_helper_claim_hung(t, 0, 60000, &hung, &hung_start) == 0);
	CHECK(hung == 0);
	/* Without a hang bound (tbl_tier_helper_claim), a live helper keeps its place. */
	CHECK(tbl_tier_helper_claim(t, 0) == 0);
	/* Silent for longer than the bound (0 ms here): its place is taken, it is named, and the freshness it
	 * published is withdrawn. */
	CHECK(tbl_tier_helper_claim_hung(t, 60000, 0, &hung, &hung_start) == 1);
	CHECK(hung == (int32_t)child);
	CHECK_EQ_U64(hung_start, tbl_proc_start_time(child));
	CHECK_EQ_U64(tbl_tier_fresh_ms(t), 0);
	/* The place is now a claim: the next claimer waits for it as for any young claim. */
	CHECK(tbl_tier_helper_claim_hung(t, 60000, 0, &hung, &hung_start) == 0);
	REQUIRE(write(go[1], &c, 1) == 1);
	REQUIRE(waitpid(child, &status, 0) == child);
	close(go[0]); close(go[1]); close(done[0]); close(done[1]);
	tbl_destroy(t);
}

/* The counters are shared: adds from several processes all land. */
TBL_TEST(test_tier_counters_add_up_across_processes)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	uint64_t c[TBL_TIER_NCOUNTERS];
	pid_t kids[4];
	int i, status;

	REQUIRE(t != NULL);
	tbl_tier_counters(t, c);
	for (i = 0; i < TBL_TIER_NCOUNTERS; i++) {
		CHECK_EQ_U64(c[i], 0);
	}
	/* Two rounds of four: L1 hits go to each process's slot (the second round's processes take the
	 * slots the first left, whether they detached or just exited), the rest to the header. */
	for (int round = 0; round < 2; round++) {
		for (i = 0; i < 4; i++) {
			kids[i] = fork();
			if (kids[i] == 0) {
				if (tbl_slot_ensure(t) != TBL_OK) {
					_exit(1);
				}
				for (int k = 0; k < 10000; k++) {
					tbl_tier_count_l1_hit(t);
					tbl_tier_count(t, TBL_TIER_READS, 2);
				}
				if (i & 1) {
					tbl_detach(t);
				}
				_exit(0);
			}
		}
		for (i = 0; i < 4; i++) {
			REQUIRE(waitpid(kids[i], &status, 0) == kids[i]);
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
		tbl_slots_reap_gone(t);
	}
	tbl_tier_count_l1_hit(t);   /* this process, with or without a slot */
	tbl_tier_counters(t, c);
	CHECK_EQ_U64(c[TBL_TIER_L1_HITS], 80001);
	CHECK_EQ_U64(c[TBL_TIER_READS], 160000);
	CHECK_EQ_U64(c[TBL_TIER_ERRORS], 0);
	tbl_destroy(t);
}

TBL_TEST(test_others_alive_sees_the_creator_and_slot_holders)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int pipefd[2];
	pid_t child;
	char c = 0;
	int status;

	REQUIRE(t != NULL);
	REQUIRE(pipe(pipefd) == 0);
	child = fork();
	if (child == 0) {
		/* The creator (the parent) lives and maps the table. */
		int r = tbl_tier_others_alive(t) == 1 ? 0 : 1;
		_exit(r);
	}
	REQUIRE(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The creator alone: nobody else. */
	CHECK(tbl_tier_others_alive(t) == 0);
	/* A child holding a reader slot counts while it lives. */
	child = fork();
	if (child == 0) {
		tbl_value_t v = fixture_str("v");

		close(pipefd[0]);
		tbl_store(t, 0, "slot", 4, &v, 0, TBL_STORE_SET);   /* claims its slot */
		(void)!write(pipefd[1], "x", 1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	REQUIRE(read(pipefd[0], &c, 1) == 1);
	CHECK(tbl_tier_others_alive(t) == 1);
	kill(child, SIGKILL);
	REQUIRE(waitpid(child, &status, 0) == child);
	CHECK(tbl_tier_others_alive(t) == 0);
	close(pipefd[0]);
	tbl_destroy(t);
}

/* ---- the fill race --------------------------------------------------------------------------------- */

#define FILL_ROUNDS 20000

/* A pause of 0 to ~2,000 iterations that varies with `seed`, so the steps of the race interleave. */
static void spin(int64_t seed)
{
	volatile uint32_t n = (uint32_t)((uint64_t)seed * 2654435761u >> 21) & 2047u;

	while (n) {
		n = n - 1;
	}
}

typedef struct fill_race {
	_Atomic int64_t redis;         /* the value "in Redis" */
	_Atomic uint32_t done;
	_Atomic uint64_t fills, refused, stale;
} fill_race_t;

TBL_TEST(test_a_fill_racing_invalidations_never_leaves_a_stale_copy)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	fill_race_t *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t fillers[2];
	int i, rounds, status, ok = 1;
	struct timespec start, now;

	REQUIRE(t != NULL && r != MAP_FAILED);
	memset(r, 0, sizeof(*r));
	for (i = 0; i < 2; i++) {
		fillers[i] = fork();
		if (fillers[i] == 0) {
			/* A reader that missed: stamp, read "Redis", fill. */
			while (!atomic_load(&r->done)) {
				uint64_t stamp = tbl_tier_stamp(t, 0, "key", 3);
				int64_t seen = atomic_load(&r->redis);
				tbl_value_t v = long_value(&seen);
				tbl_status_t st;

				spin(seen);   /* the round trip: the write and its invalidation may land meanwhile */
				st = tbl_fill(t, 0, "key", 3, &v, 0, stamp);

				atomic_fetch_add(st == TBL_OK ? &r->fills : &r->refused, 1);
			}
			tbl_detach(t);
			_exit(0);
		}
	}
	/* The writer: a new value in "Redis", then its invalidation, as Redis and the helper do. After the
	 * invalidation, the copy is either gone or at least as new as the write. It goes on past FILL_ROUNDS
	 * until a fill has been stored meanwhile: a loaded machine may not run the fillers during the first
	 * rounds at all (up to a minute: a bound for fills that are never stored, which fails below). */
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 1; i <= FILL_ROUNDS || atomic_load(&r->fills) == 0; i++) {
		if (i > FILL_ROUNDS && i % 1000 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - start.tv_sec > 60) {
				break;
			}
		}
		tbl_view_t view;
		int64_t copy = -1;

		atomic_store(&r->redis, i);
		tbl_tier_invalidate(t, 0, "key", 3);
		spin(i);   /* let fills in flight land */
		REQUIRE(tbl_read_begin(t) == TBL_OK);
		if (tbl_lookup(t, 0, "key", 3, &view, 0) == TBL_OK) {
			copy = tbl_view_long(&view);
		}
		tbl_read_end(t);
		if (copy != -1 && copy < i) {
			atomic_fetch_add(&r->stale, 1);
		}
	}
	rounds = i - 1;
	atomic_store(&r->done, 1);
	for (i = 0; i < 2; i++) {
		ok &= waitpid(fillers[i], &status, 0) == fillers[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	CHECK(ok);
	printf("    fill race: %d writes, %" PRIu64 " fills stored, %" PRIu64 " refused, %" PRIu64 " stale\n",
	       rounds, (uint64_t)atomic_load(&r->fills), (uint64_t)atomic_load(&r->refused),
	       (uint64_t)atomic_load(&r->stale));
	CHECK_EQ_U64(atomic_load(&r->stale), 0);
	CHECK(atomic_load(&r->fills) > 0);
	CHECK_CONSISTENT(t);
	munmap(r, sizeof(*r));
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_fill_stores_while_the_stamp_holds),
	TBL_TEST_ENTRY(test_invalidation_deletes_and_stops_fills_in_flight),
	TBL_TEST_ENTRY(test_only_the_helpers_invalidations_are_counted),
	TBL_TEST_ENTRY(test_advancing_the_epoch_stops_every_fill_in_flight),
	TBL_TEST_ENTRY(test_freshness_and_the_helpers_place),
	TBL_TEST_ENTRY(test_a_helper_that_stops_beating_is_replaced),
	TBL_TEST_ENTRY(test_tier_counters_add_up_across_processes),
	TBL_TEST_ENTRY(test_others_alive_sees_the_creator_and_slot_holders),
	TBL_TEST_ENTRY(test_a_fill_racing_invalidations_never_leaves_a_stale_copy),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
