/*
 * test_concurrency.c - the core across real processes: fork, concurrent writers and lock-free readers,
 * reclamation while readers are inside, and writers SIGKILLed at random points.
 */
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "epoch.h"
#include "sync.h"
#include "table_fixture.h"

#define MB (1024u * 1024u)

/* Run `fn(t, i)` in n children; returns the number of children that exited 0. */
static int run_children(tbl_t *t, int n, int (*fn)(tbl_t *, int))
{
	pid_t pids[64];
	int i, ok = 0, status;

	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			int rc = fn(t, i);
			tbl_detach(t);
			_exit(rc);
		}
	}
	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			ok++;
		}
	}
	return ok;
}

static int incr_5000(tbl_t *t, int id)
{
	int64_t r;
	int i;

	(void)id;
	for (i = 0; i < 5000; i++) {
		if (tbl_incr(t, 0, "counter", 7, 1, 0, &r) != TBL_OK) {
			return 1;
		}
	}
	return 0;
}

TBL_TEST(test_parallel_increments_are_exact)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	int64_t r = 0;

	REQUIRE(t != NULL);
	CHECK(run_children(t, 4, incr_5000) == 4);
	CHECK(tbl_incr(t, 0, "counter", 7, 0, 0, &r) == TBL_OK);
	CHECK(r == 20000);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* ---- lock-free increments against the writers that seal (integer.h) ---------------------------------- */

#define RACE_MIN_INCRS 20000
#define RACE_ROUNDS 1200

/* What the processes of a race report, in MAP_SHARED memory. */
typedef struct race_ledger {
	_Atomic int64_t added;         /* increments that returned TBL_OK, times their delta */
	_Atomic int64_t removed;       /* integers taken out by delete_if, which removes exactly what it names */
	_Atomic int64_t put_back;      /* integers put in by add() where the key was missing */
	_Atomic int64_t cas_same, cas_to_string, deletes, adds;   /* what the disturber did */
	_Atomic uint32_t disturbed;    /* the disturber's rounds are done: the incrementers stop */
} race_ledger_t;

static race_ledger_t *ledger;

static int incr_counting(tbl_t *t, int id)
{
	int64_t r, delta = id % 2 ? 3 : 1;
	int i, bad = 0;

	for (i = 0; i < RACE_MIN_INCRS || !atomic_load(&ledger->disturbed); i++) {
		tbl_status_t st = tbl_incr(t, 0, "counter", 7, delta, 0, &r);

		if (st == TBL_OK) {
			atomic_fetch_add(&ledger->added, delta);
		} else if (st != TBL_ETYPE) {   /* ETYPE: the disturber holds a string there for a moment */
			bad++;
		}
	}
	return bad ? 1 : 0;
}

static int read_counter(tbl_t *t, int64_t *out)
{
	tbl_view_t v;
	int found = 0;

	if (tbl_read_begin(t) != TBL_OK) {
		return -1;
	}
	if (tbl_lookup(t, 0, "counter", 7, &v, 0) == TBL_OK && v.type == TBL_T_LONG) {
		*out = tbl_view_long(&v);
		found = 1;
	}
	tbl_read_end(t);
	return found;
}

/* One round of the disturber, retried until it has done its operation: 0 a cas to the same integer (a
 * new entry), 1 a cas to a string and back (increments in between fail with ETYPE and are not counted),
 * 2 a delete_if of the integer just read (removed). A missing key is put back with add() first. */
static int disturb_once(tbl_t *t, int kind)
{
	for (;;) {
		int64_t cur = 0;
		tbl_value_t want = { TBL_T_LONG, &cur, sizeof(cur), NULL }, str;
		char s[32];
		int found = read_counter(t, &cur);

		if (found < 0) {
			return 1;
		}
		if (!found) {
			int64_t x = 1000;
			tbl_value_t v = { TBL_T_LONG, &x, sizeof(x), NULL };

			if (tbl_store(t, 0, "counter", 7, &v, 0, TBL_STORE_ADD) == TBL_OK) {
				atomic_fetch_add(&ledger->put_back, x);
				atomic_fetch_add(&ledger->adds, 1);
			}
			continue;
		}
		if (kind == 0) {
			if (tbl_cas(t, 0, "counter", 7, &want, &want) == TBL_OK) {
				atomic_fetch_add(&ledger->cas_same, 1);
				return 0;
			}
		} else if (kind == 1) {
			snprintf(s, sizeof(s), "S%lld", (long long)cur);
			str = fixture_str(s);
			if (tbl_cas(t, 0, "counter", 7, &want, &str) == TBL_OK) {
				atomic_fetch_add(&ledger->cas_to_string, 1);
				/* Nobody else writes strings here: this cas back cannot miss. */
				return tbl_cas(t, 0, "counter", 7, &str, &want) == TBL_OK ? 0 : 1;
			}
		} else if (tbl_delete_if(t, 0, "counter", 7, &want) == TBL_OK) {
			atomic_fetch_add(&ledger->removed, cur);
			atomic_fetch_add(&ledger->deletes, 1);
			return 0;
		}
	}
}

static int disturb(tbl_t *t, int id)
{
	int r, bad = 0;

	(void)id;
	for (r = 0; r < RACE_ROUNDS; r++) {
		bad += disturb_once(t, r % 3);
	}
	atomic_store(&ledger->disturbed, 1);
	return bad ? 1 : 0;
}

static int race_role(tbl_t *t, int id)
{
	return id < 2 ? incr_counting(t, id) : disturb(t, id);
}

/* Two processes increment one key without its lock while a third replaces it by cas (the same integer,
 * or a string and back), removes it by delete_if and puts it back by add(), 400 times each. Every
 * increment that returned TBL_OK is in the total: counter = added - removed + put back, exactly. */
TBL_TEST(test_lock_free_increments_stay_exact_against_racing_writers)
{
	tbl_t *t = fixture_open(8 * MB, TBL_POLICY_GDSF);
	int64_t final = 0;

	REQUIRE(t != NULL);
	ledger = mmap(NULL, sizeof(*ledger), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	REQUIRE(ledger != MAP_FAILED);
	memset(ledger, 0, sizeof(*ledger));
	CHECK(run_children(t, 3, race_role) == 3);
	CHECK(read_counter(t, &final) >= 0);
	fprintf(stderr, "  (%lld added, %lld add() of the missing key)\n", (long long)ledger->added,
	        (long long)ledger->adds);
	CHECK_EQ_U64(ledger->cas_same, RACE_ROUNDS / 3);
	CHECK_EQ_U64(ledger->cas_to_string, RACE_ROUNDS / 3);
	CHECK_EQ_U64(ledger->deletes, RACE_ROUNDS / 3);
	CHECK(final == ledger->added - ledger->removed + ledger->put_back);
	CHECK_CONSISTENT(t);
	munmap(ledger, sizeof(*ledger));
	tbl_destroy(t);
}

/* Counters incremented while a writer makes gdsf evict and move, in MAP_SHARED memory. */
#define MOVE_COUNTERS 256u

typedef struct move_record {
	_Atomic uint32_t ready;        /* incrementers past their first round: the writer starts */
	_Atomic uint32_t filled;       /* the writer is done: the incrementers stop */
	_Atomic uint32_t rounds[2];    /* full rounds over every counter, per incrementer */
	_Atomic int64_t added[MOVE_COUNTERS];     /* increments that returned TBL_OK */
	_Atomic uint32_t created[MOVE_COUNTERS];  /* of them, those that returned 1: the key was missing */
	uint64_t at[MOVE_COUNTERS];    /* incrementer 0: where it last saw each counter */
	uint32_t relocated;            /* and how often it found one at another offset */
} move_record_t;

static move_record_t *moves;

static int incr_round_robin(tbl_t *t, int id)
{
	char key[16];
	uint32_t i, c;
	int64_t r;

	for (i = 0; !atomic_load(&moves->filled) || i < 4 * MOVE_COUNTERS; i++) {
		c = i % MOVE_COUNTERS;
		snprintf(key, sizeof(key), "c%u", c);
		if (tbl_incr(t, 0, key, strlen(key), 1, 0, &r) != TBL_OK) {
			return 1;
		}
		atomic_fetch_add(&moves->added[c], 1);
		if (r == 1) {
			atomic_fetch_add(&moves->created[c], 1);
		}
		if (i == MOVE_COUNTERS) {
			atomic_fetch_add(&moves->ready, 1);
		}
		if (c == MOVE_COUNTERS - 1) {
			atomic_fetch_add(&moves->rounds[id], 1);
		}
		if (id == 0) {
			tbl_view_t v;

			if (tbl_read_begin(t) != TBL_OK) {
				return 1;
			}
			if (tbl_lookup(t, 0, key, strlen(key), &v, 0) == TBL_OK) {
				moves->relocated += moves->at[c] && v.entry != moves->at[c];
				moves->at[c] = v.entry;
			}
			tbl_read_end(t);
		}
	}
	return 0;
}

static uint32_t fewest_rounds(void)
{
	uint32_t a = atomic_load(&moves->rounds[0]), b = atomic_load(&moves->rounds[1]);

	return a < b ? a : b;
}

/* The writer goes in batches, and after each waits until both incrementers have made a round over every
 * counter since the batch began: the counters are read (and their gdsf priority raised) all through the
 * fill, and incrementer 0 looks at each between batches, however the machine schedules the three
 * processes. Without that, a loaded machine that kept the incrementers off the CPU for the whole fill
 * let it evict every counter, or move them unseen (whole and relocated below then come out 0). The
 * wait is bounded (a minute: for a hang, an incrementer that failed and returned) and then goes on. */
static int fill_while_counting(tbl_t *t, int id)
{
	char key[32], val[2048];
	uint32_t before = 0;
	int i;

	memset(val, 'a' + id, sizeof(val));
	while (atomic_load(&moves->ready) < 2) {
		sched_yield();
	}
	for (i = 0; i < 12000; i++) {
		tbl_value_t v = { TBL_T_STRING, val, 0, NULL };

		if (i % 200 == 0) {
			struct timespec start, now;

			clock_gettime(CLOCK_MONOTONIC, &start);
			while (i > 0 && fewest_rounds() < before + 2) {   /* a whole round since the batch began */
				clock_gettime(CLOCK_MONOTONIC, &now);
				if (now.tv_sec - start.tv_sec > 60) {
					break;
				}
				sched_yield();
			}
			before = fewest_rounds();
		}
		snprintf(key, sizeof(key), "f%d", i);
		v.len = 100u + ((uint32_t)i * 2654435761u >> 8) % 1900u;
		(void)tbl_store(t, 0, key, strlen(key), &v, 0, TBL_STORE_SET);
	}
	atomic_store(&moves->filled, 1);
	return 0;
}

static int move_role(tbl_t *t, int id)
{
	return id < 2 ? incr_round_robin(t, id) : fill_while_counting(t, id);
}

/* The same while gdsf evicts around 256 counters in a table too small for what a third process writes,
 * and moves the counters (read often, small) out of the runs it evicts. A counter that eviction took
 * starts again from 0 (an increment then returns 1 a second time); every other one holds exactly the
 * increments made to it. */
TBL_TEST(test_lock_free_increments_stay_exact_while_gdsf_moves_them)
{
	tbl_t *t = fixture_open(2 * MB, TBL_POLICY_GDSF);
	uint32_t c, whole = 0, exact = 0;
	char key[16];

	REQUIRE(t != NULL);
	moves = mmap(NULL, sizeof(*moves), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	REQUIRE(moves != MAP_FAILED);
	memset(moves, 0, sizeof(*moves));
	CHECK(run_children(t, 3, move_role) == 3);
	for (c = 0; c < MOVE_COUNTERS; c++) {
		int64_t v = -1;
		tbl_view_t view;

		snprintf(key, sizeof(key), "c%u", c);
		REQUIRE(tbl_read_begin(t) == TBL_OK);
		if (tbl_lookup(t, 0, key, strlen(key), &view, 0) == TBL_OK) {
			v = tbl_view_long(&view);
		}
		tbl_read_end(t);
		if (v >= 0 && moves->created[c] == 1) {
			whole++;
			exact += v == moves->added[c];
		}
	}
	fprintf(stderr, "  (counters moved %u times; %u of %u never evicted, %u of them exact)\n", moves->relocated,
	        whole, MOVE_COUNTERS, exact);
	CHECK(moves->relocated > 0);
	CHECK(whole > 0);
	CHECK_EQ_U64(exact, whole);
	CHECK_CONSISTENT(t);
	munmap(moves, sizeof(*moves));
	tbl_destroy(t);
}

/* A value whose every byte derives from a seed: a torn or reused block cannot pass verify(). */
static size_t make_value(char *buf, uint32_t seed)
{
	size_t len = 16 + seed % 400, i;
	uint32_t x = seed * 2654435761u;

	memcpy(buf, &seed, 4);
	for (i = 4; i < len; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (char)(x >> 24);
	}
	return len;
}

static int verify(const char *data, size_t len)
{
	char expect[512];
	uint32_t seed;

	if (len < 4) {
		return 0;
	}
	memcpy(&seed, data, 4);
	return make_value(expect, seed) == len && memcmp(expect, data, len) == 0;
}

static uint32_t churn_keys = 1000;   /* keys churn_and_verify draws from */

static int churn_and_verify(tbl_t *t, int id)
{
	char key[32], val[512];
	uint32_t x = 77u + (uint32_t)id * 7919u;
	int i, bad = 0;

	for (i = 0; i < 40000; i++) {
		uint32_t k;
		x = x * 1664525u + 1013904223u;
		k = (x >> 8) % churn_keys;
		snprintf(key, sizeof(key), "k%u", k);
		if (x % 4 == 0) {
			tbl_value_t v = { TBL_T_STRING, val, 0, NULL };
			v.len = (uint32_t)make_value(val, x);
			if (tbl_store(t, 0, key, strlen(key), &v, 0, TBL_STORE_SET) != TBL_OK) {
				bad++;
			}
		} else if (x % 29 == 1) {
			tbl_delete(t, 0, key, strlen(key));
		} else {
			tbl_view_t v;
			if (tbl_read_begin(t) != TBL_OK) {
				return 2;
			}
			if (tbl_lookup(t, 0, key, strlen(key), &v, 1) == TBL_OK && !verify(v.data, v.len)) {
				bad++;
			}
			tbl_read_end(t);
		}
	}
	return bad ? 1 : 0;
}

TBL_TEST(test_readers_never_see_torn_values)
{
	tbl_t *t = fixture_open(8 * MB, TBL_POLICY_LRU);
	tbl_stats_t st;

	REQUIRE(t != NULL);
	CHECK(run_children(t, 4, churn_and_verify) == 4);
	CHECK_CONSISTENT(t);
	/* How much was still waiting when the children ended depends on scheduling; what does not is that
	 * once every reader is gone, one reclamation pass frees all of it. */
	tbl_alloc_lock(t);
	tbl_reclaim_locked(t, 1);
	tbl_alloc_unlock(t);
	tbl_get_stats(t, &st);
	CHECK_EQ_U64(st.retired_blocks, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* The same under gdsf in a table too small for the keys: writers evict, and move the entries readers
 * have read out of the runs they evict, while readers read them. No value is ever torn, and the table
 * is consistent after. */
TBL_TEST(test_readers_never_see_torn_values_while_entries_move)
{
	tbl_t *t = fixture_open(2 * MB, TBL_POLICY_GDSF);
	tbl_stats_t st;

	REQUIRE(t != NULL);
	churn_keys = 12000;   /* about 3.5 MB of entries for 2 MB */
	CHECK(run_children(t, 4, churn_and_verify) == 4);
	churn_keys = 1000;
	tbl_get_stats(t, &st);
	fprintf(stderr, "  (gdsf under 4 processes: %llu evictions, %llu entries moved)\n",
	        (unsigned long long)st.evictions, (unsigned long long)st.evict_moves);
	CHECK(st.evictions > 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_retired_entry_survives_while_a_reader_is_inside)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	char copy[512], val[512];
	tbl_value_t nv = { TBL_T_STRING, val, 0, NULL };
	tbl_view_t v;
	int i, status;
	pid_t pid;

	REQUIRE(t != NULL);
	nv.len = (uint32_t)make_value(val, 12345);
	CHECK(tbl_store(t, 0, "k", 1, &nv, 0, TBL_STORE_SET) == TBL_OK);
	REQUIRE(tbl_read_begin(t) == TBL_OK);
	REQUIRE(tbl_lookup(t, 0, "k", 1, &v, 0) == TBL_OK);
	memcpy(copy, v.data, v.len);
	/* Another process overwrites and deletes the key many times over, churning the heap. */
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < 20000; i++) {
			nv.len = (uint32_t)make_value(val, (uint32_t)i);
			tbl_store(t, 0, "k", 1, &nv, 0, TBL_STORE_SET);
			if (i % 3 == 0) {
				tbl_delete(t, 0, "k", 1);
			}
		}
		tbl_detach(t);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Our view still points at the original bytes: they were retired, not freed. */
	CHECK(memcmp(copy, v.data, v.len) == 0);
	CHECK(verify(v.data, v.len));
	tbl_read_end(t);
	tbl_destroy(t);
}

TBL_TEST(test_dead_reader_does_not_pin_forever)
{
	tbl_t *t = fixture_open(2 * MB, TBL_POLICY_NOEVICTION);
	char key[32], val[1000];
	tbl_value_t nv = { TBL_T_STRING, val, sizeof(val), NULL };
	int i, status, failures = 0;
	pid_t pid;

	REQUIRE(t != NULL);
	memset(val, 'x', sizeof(val));
	pid = fork();
	if (pid == 0) {
		tbl_read_begin(t);   /* enter a read section and die inside it */
		raise(SIGKILL);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
	/* Rewrite the same keys far more often than the heap could hold without reclamation. */
	for (i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "k%d", i % 100);
		failures += tbl_store(t, 0, key, strlen(key), &nv, 0, TBL_STORE_SET) != TBL_OK;
	}
	CHECK_EQ_U64(failures, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

static int writer_forever(tbl_t *t, int id)
{
	char key[32], val[512];
	uint32_t x = 99u + (uint32_t)id;
	int64_t r;

	for (;;) {
		tbl_value_t v = { TBL_T_STRING, val, 0, NULL };
		x = x * 1664525u + 1013904223u;
		snprintf(key, sizeof(key), "k%u", (x >> 8) % 500);
		v.len = (uint32_t)make_value(val, x);
		switch (x % 4) {
		case 0: tbl_store(t, 0, key, strlen(key), &v, 0, TBL_STORE_SET); break;
		case 1: tbl_delete(t, 0, key, strlen(key)); break;
		case 2: tbl_incr(t, 0, "n", 1, 1, 0, &r); break;
		default: tbl_clear_all(t, NULL); break;
		}
	}
	return 0;
}

TBL_TEST(test_sigkilled_writers_never_wedge_or_corrupt)
{
	tbl_t *t = fixture_open(2 * MB, TBL_POLICY_LRU);
	tbl_stats_t st;
	pid_t pids[3];
	int round, i, status;
	char val[64];

	REQUIRE(t != NULL);
	for (round = 0; round < 60; round++) {
		for (i = 0; i < 3; i++) {
			if ((pids[i] = fork()) == 0) {
				writer_forever(t, round * 3 + i);
				_exit(0);
			}
		}
		usleep(2000 + (useconds_t)(round % 7) * 1500);
		for (i = 0; i < 3; i++) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], &status, 0);
		}
	}
	/* Every lock is usable and a write repairs whatever the kills left behind. */
	CHECK(fixture_set(t, 0, "after", "ok", 0) == TBL_OK);
	CHECK(fixture_get(t, 0, "after", val, sizeof(val)) == TBL_OK && strcmp(val, "ok") == 0);
	CHECK_CONSISTENT(t);
	tbl_get_stats(t, &st);
	fprintf(stderr, "  (lock repairs after 180 kills: %llu)\n", (unsigned long long)st.lock_repairs);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_parallel_increments_are_exact),
	TBL_TEST_ENTRY(test_lock_free_increments_stay_exact_against_racing_writers),
	TBL_TEST_ENTRY(test_lock_free_increments_stay_exact_while_gdsf_moves_them),
	TBL_TEST_ENTRY(test_readers_never_see_torn_values),
	TBL_TEST_ENTRY(test_readers_never_see_torn_values_while_entries_move),
	TBL_TEST_ENTRY(test_retired_entry_survives_while_a_reader_is_inside),
	TBL_TEST_ENTRY(test_dead_reader_does_not_pin_forever),
	TBL_TEST_ENTRY(test_sigkilled_writers_never_wedge_or_corrupt),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
