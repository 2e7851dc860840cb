/*
 * test_evict.c - eviction frees what a write needs, and no more (core/evict.c, issue 9 A).
 *
 * Every scenario fills a table with one mix of value sizes until it evicts, then keeps writing new
 * keys, and checks each write against the bound: making room for a write that takes S bytes of heap
 * (its whole block: entry header, key, value, block header) evicts at most 2*S bytes plus one entry.
 * The bytes evicted per write come from stats (evicted_bytes, the blocks of the live entries evicted),
 * read before and after every write; "one entry" is the largest block the scenario ever stored. Each
 * mix runs under lru and random. Then: keys read recently survive under lru while the table turns over
 * three times, and the table passes tbl_check after every scenario.
 *
 * TBL_EVICT_VERBOSE=1 prints each scenario's figures.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "platform.h"
#include "table_fixture.h"

#define KiB 1024u
#define MiB (1024u * 1024u)
#define VMAX (100u * KiB)

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double rng_unit(void)
{
	return ((double)(rng() >> 11) + 0.5) / 9007199254740992.0;
}

/* Log-normal with a median of 1 KiB, clamped to [100 B, 100 KiB] (the benchmark's mix). */
static uint32_t size_lognormal(void)
{
	double z = sqrt(-2.0 * log(rng_unit())) * cos(6.283185307179586 * rng_unit());
	double s = 1024.0 * exp(1.2 * z);

	return s < 100.0 ? 100u : s > VMAX ? VMAX : (uint32_t)s;
}

/* The heap bytes a write takes, computed from the layout rather than asked of the allocator. */
static uint64_t block_of(size_t klen, size_t vlen)
{
	uint64_t entry = 64 + ((klen + 7) & ~(uint64_t)7) + vlen;   /* tbl_entry_t, key padded to 8, value */
	uint64_t block = (entry + 16 + 15) & ~(uint64_t)15;          /* block header, 16-byte granularity */

	return block < 32 ? 32 : block;
}

static char value_buf[VMAX];

/* ---- the clock ------------------------------------------------------------------------------------ */

/* This file's own definitions of core/clock_posix.c's three functions, which keep that member of
 * libtblcore.a out of this binary: they read the same clocks, except that a test may take the LRU tick
 * into its own hands (lru_clock_manual), and then a tick passes when the test says so and at no other
 * time. What a test of LRU order compares is then exactly what it wrote, read and let pass, not how
 * many 100 ms ticks a loaded machine happened to take over it. Seconds (TTLs) and the monotonic clock
 * (deadlines) stay real. */
static int lru_manual;
static uint32_t lru_tick;

static tbl_now_t clock_read(clockid_t id)
{
	struct timespec ts;
	tbl_now_t now;

	clock_gettime(id, &ts);
	now.sec = (uint32_t)ts.tv_sec;
	now.tick = lru_manual ? lru_tick : (uint32_t)((uint64_t)ts.tv_sec * 10u + (uint64_t)ts.tv_nsec / 100000000u);
	return now;
}

tbl_now_t tbl_clock_now(void)
{
	return clock_read(CLOCK_REALTIME);
}

uint32_t tbl_clock_seconds(void)
{
	return clock_read(CLOCK_REALTIME).sec;
}

uint64_t tbl_clock_monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* From now on the LRU tick moves only through lru_clock_advance(); lru_clock_real() gives it back. */
static void lru_clock_manual(void)
{
	lru_tick = tbl_clock_now().tick;
	lru_manual = 1;
}

static void lru_clock_advance(uint32_t ticks)
{
	lru_tick += ticks;
}

static void lru_clock_real(void)
{
	lru_manual = 0;
}

typedef struct run {
	tbl_t *t;
	const char *name;
	uint64_t writes, failed, violations;
	uint64_t evicting_writes;      /* writes that evicted anything */
	uint64_t evicted, written;     /* bytes: evicted in all, taken by the writes that evicted */
	uint64_t max_block;            /* the largest entry ever stored: the bound's "one entry" */
	uint64_t worst_excess;         /* largest evicted - 2*S seen, when positive */
	double worst_ratio;            /* largest evicted / S of one write */
} run_t;

static void run_open(run_t *r, const char *name, tbl_policy_t policy, uint64_t memory)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->t = fixture_open(memory, policy);
}

static uint64_t evicted_bytes(tbl_t *t)
{
	tbl_stats_t s;

	tbl_get_stats(t, &s);
	return s.evicted_bytes;
}

/* Store key => vlen bytes and check the bound for that one write. */
static int write_checked(run_t *r, const char *key, uint32_t vlen)
{
	uint64_t before = evicted_bytes(r->t), after, S = block_of(strlen(key), vlen), ev;
	tbl_value_t v = { TBL_T_STRING, value_buf, vlen, NULL };
	tbl_status_t st = tbl_store(r->t, TBL_NS_DEFAULT, key, strlen(key), &v, 0, TBL_STORE_SET);

	after = evicted_bytes(r->t);
	ev = after - before;
	r->writes++;
	if (st != TBL_OK) {
		r->failed++;
		return 0;
	}
	if (S > r->max_block) {
		r->max_block = S;
	}
	if (ev) {
		r->evicting_writes++;
		r->evicted += ev;
		r->written += S;
		if ((double)ev / (double)S > r->worst_ratio) {
			r->worst_ratio = (double)ev / (double)S;
		}
		if (ev > 2 * S && ev - 2 * S > r->worst_excess) {
			r->worst_excess = ev - 2 * S;
		}
	}
	if (ev > 2 * S + r->max_block) {
		if (r->violations++ < 5) {
			fprintf(stderr, "%s: write %llu of %u value bytes (S=%llu) evicted %llu bytes > 2*S + %llu\n",
			        r->name, (unsigned long long)r->writes, vlen, (unsigned long long)S,
			        (unsigned long long)ev, (unsigned long long)r->max_block);
		}
	}
	return 1;
}

static void run_report(run_t *r)
{
	tbl_stats_t s;

	tbl_get_stats(r->t, &s);
	if (getenv("TBL_EVICT_VERBOSE")) {
		printf("  %-34s writes %7llu evicting %7llu evicted/written %.3f worst %.2fxS excess-over-2S %6llu"
		       " entries %6llu free %8llu largest-free %7llu\n",
		       r->name, (unsigned long long)r->writes, (unsigned long long)r->evicting_writes,
		       r->written ? (double)r->evicted / (double)r->written : 0.0, r->worst_ratio,
		       (unsigned long long)r->worst_excess, (unsigned long long)s.entries,
		       (unsigned long long)s.free_bytes, (unsigned long long)s.largest_free);
	}
	CHECK_EQ_U64(r->failed, 0);
	CHECK_EQ_U64(r->violations, 0);
	CHECK(r->evicting_writes > 0);   /* the scenario did reach a full table */
	CHECK_CONSISTENT(r->t);
	/* Nothing is wiped: the table stays well filled. */
	CHECK(s.free_bytes < s.heap_size / 4);
}

typedef uint32_t (*size_fn)(unsigned i);

/* Fill with fill(i)-sized values until the table has evicted for `turnover` times its heap in bytes
 * written, writing one post(i)-sized value every `every` writes (0: never). */
static void scenario(const char *name, tbl_policy_t policy, uint64_t memory, size_fn fill, size_fn post,
                     unsigned every, double turnover)
{
	run_t r;
	char key[32];
	uint64_t bytes = 0, heap;
	tbl_stats_t s;
	unsigned i;

	rng_state = 0x5EED0000u + (uint64_t)policy;
	run_open(&r, name, policy, memory);
	if (!r.t) {
		CHECK(r.t != NULL);
		return;
	}
	tbl_get_stats(r.t, &s);
	heap = s.heap_size;
	for (i = 0; bytes < (uint64_t)(turnover * (double)heap) + heap; i++) {
		uint32_t vlen = every && i % every == every - 1 ? post(i) : fill(i);

		snprintf(key, sizeof(key), "k%u", i);
		write_checked(&r, key, vlen);
		bytes += block_of(strlen(key), vlen);
	}
	run_report(&r);
	tbl_destroy(r.t);
}

static uint32_t sz_1k(unsigned i) { (void)i; return 1000; }
static uint32_t sz_20k(unsigned i) { (void)i; return 20 * KiB; }
static uint32_t sz_100(unsigned i) { (void)i; return 100; }
static uint32_t sz_100k(unsigned i) { (void)i; return VMAX; }
static uint32_t sz_logn(unsigned i) { (void)i; return size_lognormal(); }
/* Values 20 bytes larger than the first half of the writes. */
static uint32_t sz_grow20(unsigned i) { return i < 10000 ? 1000 : 1020; }
/* Two narrow modes a size class apart, as sessions next to rendered fragments. */
static uint32_t sz_bimodal(unsigned i) { return (rng() & 3) ? 200 + (i & 63) : 4000 + (i & 1023); }


#define SCENARIO(id, desc, mem, fill, post, every, turnover) \
	TBL_TEST(id##_lru) { scenario(desc " (lru)", TBL_POLICY_LRU, mem, fill, post, every, turnover); } \
	TBL_TEST(id##_random) { scenario(desc " (random)", TBL_POLICY_RANDOM, mem, fill, post, every, turnover); } \
	TBL_TEST(id##_gdsf) { scenario(desc " (gdsf)", TBL_POLICY_GDSF, mem, fill, post, every, turnover); }

SCENARIO(test_uniform_1k, "uniform 1000 B", 16 * MiB, sz_1k, NULL, 0, 1.0)
SCENARIO(test_1k_then_20k, "1000 B, one 20 KiB write in 200", 16 * MiB, sz_1k, sz_20k, 200, 1.0)
SCENARIO(test_100_then_100k, "100 B, one 100 KiB write in 2000", 16 * MiB, sz_100, sz_100k, 2000, 1.0)
SCENARIO(test_20_bytes_larger, "1000 B, then 1020 B", 16 * MiB, sz_grow20, NULL, 0, 2.0)
SCENARIO(test_lognormal, "log-normal 100 B..100 KiB", 16 * MiB, sz_logn, NULL, 0, 2.0)
SCENARIO(test_bimodal, "bimodal 200 B / 4 KiB", 16 * MiB, sz_bimodal, NULL, 0, 1.5)

/* The measurements, one write at a time: a single large write into a table full of small
 * entries evicts a few dozen entries, not thousands. */
static void one_big_write(tbl_policy_t policy, uint32_t small, uint32_t big)
{
	tbl_t *t = fixture_open(16 * MiB, policy);
	tbl_stats_t s0, s1;
	char key[32];
	run_t r;
	unsigned i;
	uint64_t S = block_of(3, big), per = block_of(7, small);

	REQUIRE(t != NULL);
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.name = "one big write";
	for (i = 0;; i++) {
		snprintf(key, sizeof(key), "s%06u", i);
		write_checked(&r, key, small);
		tbl_get_stats(t, &s0);
		if (s0.evictions > 0) {
			break;
		}
	}
	CHECK(write_checked(&r, "big", big));
	tbl_get_stats(t, &s1);
	/* 2*S bytes of small entries, plus one. */
	CHECK(s1.evictions - s0.evictions <= 2 * S / per + 1);
	CHECK(s1.evicted_bytes - s0.evicted_bytes <= 2 * S + per);
	CHECK(s1.evict_runs - s0.evict_runs == 1);
	CHECK(fixture_get(t, TBL_NS_DEFAULT, "big", value_buf, 8) == TBL_OK);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_one_20k_among_1k_lru) { one_big_write(TBL_POLICY_LRU, 1000, 20 * KiB); }
TBL_TEST(test_one_20k_among_1k_random) { one_big_write(TBL_POLICY_RANDOM, 1000, 20 * KiB); }
TBL_TEST(test_one_100k_among_100_lru) { one_big_write(TBL_POLICY_LRU, 100, VMAX); }
TBL_TEST(test_one_100k_among_100_random) { one_big_write(TBL_POLICY_RANDOM, 100, VMAX); }
TBL_TEST(test_one_20k_among_1k_gdsf) { one_big_write(TBL_POLICY_GDSF, 1000, 20 * KiB); }
TBL_TEST(test_one_100k_among_100_gdsf) { one_big_write(TBL_POLICY_GDSF, 100, VMAX); }

/* Read hot0 .. hot<n-1> when the LRU clock has moved on since *last (a 100 ms wall-clock tick); returns
 * how many were missing. Called before every write, it keeps the hot keys read in the current tick
 * however many ticks a loaded machine makes a round of writes span, so that what the test compares
 * (keys read lately against keys written long ago) does not depend on the machine's speed. */
static unsigned read_hot_each_tick(tbl_t *t, unsigned n, uint32_t *last)
{
	uint32_t now = tbl_clock_now().tick;
	char key[32], buf[16];
	unsigned i, lost = 0;

	if (now == *last) {
		return 0;
	}
	*last = now;
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "hot%u", i);
		lost += fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf)) != TBL_OK;
	}
	return lost;
}

/* lru: keys read in every round survive three turnovers of the table; cold keys do not. */
TBL_TEST(test_lru_recently_read_survive)
{
	enum { HOT = 20, COLD = 2000 };
	tbl_t *t = fixture_open(16 * MiB, TBL_POLICY_LRU);
	tbl_stats_t s;
	char key[32], buf[16];
	uint64_t written = 0, heap;
	unsigned i, n = 0, hot_lost = 0, cold_left = 0, round;
	uint32_t tick = 0;
	run_t r;

	REQUIRE(t != NULL);
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.name = "lru hot keys";
	rng_state = 42;
	tbl_get_stats(t, &s);
	heap = s.heap_size;
	for (i = 0; i < HOT; i++) {
		snprintf(key, sizeof(key), "hot%u", i);
		write_checked(&r, key, size_lognormal());
	}
	for (i = 0; i < COLD; i++) {
		snprintf(key, sizeof(key), "cold%u", i);
		write_checked(&r, key, 1000);
	}
	/* The LRU clock ticks every 100 ms: let it move on around the reads. */
	usleep(250000);
	for (round = 0; written < 3 * heap; round++) {
		for (i = 0; i < HOT; i++) {
			snprintf(key, sizeof(key), "hot%u", i);
			hot_lost += fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf)) != TBL_OK;
		}
		usleep(110000);
		/* A tenth of the heap per round. The sleep above makes every round at least one tick, so the cold
		 * keys and the older new ones are many ticks old; the hot keys are read again whenever a tick
		 * passes within the round (on a quiet machine a round fits in one). */
		for (uint64_t b = 0; b < heap / 10; n++) {
			uint32_t vlen = size_lognormal();

			hot_lost += read_hot_each_tick(t, HOT, &tick);
			snprintf(key, sizeof(key), "new%u", n);
			write_checked(&r, key, vlen);
			b += block_of(strlen(key), vlen);
			written += block_of(strlen(key), vlen);
		}
	}
	for (i = 0; i < HOT; i++) {
		snprintf(key, sizeof(key), "hot%u", i);
		hot_lost += fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf)) != TBL_OK;
	}
	for (i = 0; i < COLD; i++) {
		snprintf(key, sizeof(key), "cold%u", i);
		cold_left += fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf)) == TBL_OK;
	}
	if (getenv("TBL_EVICT_VERBOSE")) {
		printf("  lru: %u rounds, hot lost %u of %u, cold left %u of %u\n", round, hot_lost, HOT, cold_left,
		       COLD);
	}
	CHECK_EQ_U64(hot_lost, 0);
	CHECK(cold_left < COLD / 20);
	CHECK_EQ_U64(r.failed, 0);
	CHECK_EQ_U64(r.violations, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* lru: a new entry starts part of the way down the LRU order (midpoint insertion), so under churn the
 * keys that were read after being written outlive the keys written at the same time and never read.
 * The LRU tick is the test's (lru_clock_manual): one tick passes between the rounds of writes, as it
 * would on a quiet machine, and never more in the middle of one. */
TBL_TEST(test_lru_read_once_outlives_never_read)
{
	enum { N = 300 };
	tbl_t *t = fixture_open(16 * MiB, TBL_POLICY_LRU);
	tbl_stats_t s;
	char key[32], buf[16];
	uint64_t written = 0, heap;
	unsigned i, n = 0, read_left = 0, unread_left = 0;
	run_t r;

	REQUIRE(t != NULL);
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.name = "lru midpoint";
	tbl_get_stats(t, &s);
	heap = s.heap_size;
	lru_clock_manual();
	/* Churn first, so the table is full and knows the age at which entries get evicted. */
	for (int round = 0; round < 10; round++) {
		for (uint64_t b = 0; b < heap / 5; n++) {
			snprintf(key, sizeof(key), "pre%u", n);
			write_checked(&r, key, 1000);
			b += block_of(strlen(key), 1000);
		}
		lru_clock_advance(1);
	}
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "read%u", i);
		write_checked(&r, key, 1000);
		snprintf(key, sizeof(key), "unread%u", i);
		write_checked(&r, key, 1000);
	}
	lru_clock_advance(1);
	/* Read each once. (Writing these keys into a full table may already have evicted a few of them: an
	 * entry never read is a prime victim, which is the point.) */
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "read%u", i);
		fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf));
	}
	while (written < heap / 2) {
		for (uint64_t b = 0; b < heap / 10; n++) {
			snprintf(key, sizeof(key), "new%u", n);
			write_checked(&r, key, 1000);
			b += block_of(strlen(key), 1000);
			written += block_of(strlen(key), 1000);
		}
		lru_clock_advance(1);
	}
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "read%u", i);
		read_left += fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf)) == TBL_OK;
		snprintf(key, sizeof(key), "unread%u", i);
		unread_left += fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf)) == TBL_OK;
	}
	if (getenv("TBL_EVICT_VERBOSE")) {
		printf("  lru midpoint: read once %u of %u left, never read %u of %u left\n", read_left, N, unread_left, N);
	}
	CHECK(read_left > unread_left + N / 5);
	CHECK_EQ_U64(r.failed, 0);
	CHECK_EQ_U64(r.violations, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
	lru_clock_real();
}

/* A burst of same-sized writes into a full table (all within a tick or two) must not turn eviction into
 * "evict the newest": a fragment left by a split sits right below the entry just written, and a window
 * grown upwards from it would take that entry every time. At least 20 of the last 25 writes survive. */
static void newest_survive(tbl_policy_t policy)
{
	static const uint32_t sizes[] = { 1500, 1400, 1300, 1200, 1100, 1000 };
	char key[32], buf[16];
	unsigned k, i, n = 8000;

	/* Several sizes, so that some fill leaves a fragment at the heap's start. */
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		tbl_t *t = fixture_open(4 * MiB, policy);
		unsigned left = 0;

		REQUIRE(t != NULL);
		for (i = 0; i < n; i++) {
			tbl_value_t v = { TBL_T_STRING, value_buf, sizes[k], NULL };

			snprintf(key, sizeof(key), "b%u", i);
			CHECK(tbl_store(t, TBL_NS_DEFAULT, key, strlen(key), &v, 0, TBL_STORE_SET) == TBL_OK);
		}
		for (i = n - 25; i < n; i++) {
			snprintf(key, sizeof(key), "b%u", i);
			left += fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf)) == TBL_OK;
		}
		if (getenv("TBL_EVICT_VERBOSE")) {
			printf("  %u-byte values: %u of the newest 25 writes left\n", sizes[k], left);
		}
		CHECK(left >= 20);
		CHECK_CONSISTENT(t);
		tbl_destroy(t);
	}
}

TBL_TEST(test_newest_writes_survive_lru) { newest_survive(TBL_POLICY_LRU); }
TBL_TEST(test_newest_writes_survive_random) { newest_survive(TBL_POLICY_RANDOM); }
TBL_TEST(test_newest_writes_survive_gdsf) { newest_survive(TBL_POLICY_GDSF); }

/* Writers SIGKILLed at random moments while every write evicts a window (a full 2 MiB table, sizes up
 * to 100 KiB): nothing wedges, the next writer repairs what a kill left (stripe recount, allocator
 * rebuild, GC of an entry unlinked but not yet retired), tbl_check passes, and the bound holds again
 * for the writes after. */
static void killed_evictors(tbl_policy_t policy)
{
	tbl_t *t = fixture_open(2 * MiB, policy);
	char key[32], buf[16];
	pid_t pids[2];
	int round, i, status;
	run_t r;

	REQUIRE(t != NULL);
	for (round = 0; round < 40; round++) {
		for (i = 0; i < 2; i++) {
			if ((pids[i] = fork()) == 0) {
				rng_state = (uint64_t)round * 2 + (uint64_t)i + 1;
				for (unsigned n = 0;; n++) {
					tbl_value_t v = { TBL_T_STRING, value_buf, size_lognormal(), NULL };

					snprintf(key, sizeof(key), "r%dw%dn%u", round, i, n);
					tbl_store(t, TBL_NS_DEFAULT, key, strlen(key), &v, 0, TBL_STORE_SET);
				}
			}
		}
		usleep(3000 + (useconds_t)(round % 7) * 2000);
		for (i = 0; i < 2; i++) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], &status, 0);
		}
	}
	memset(&r, 0, sizeof(r));
	r.t = t;
	r.name = "after kills";
	r.max_block = block_of(16, VMAX);   /* "one entry": the children stored values up to 100 KiB */
	rng_state = 7;
	for (i = 0; i < 2000; i++) {
		snprintf(key, sizeof(key), "after%d", i);
		write_checked(&r, key, size_lognormal());
	}
	CHECK(fixture_get(t, TBL_NS_DEFAULT, "after1999", buf, sizeof(buf)) == TBL_OK);
	CHECK_EQ_U64(r.failed, 0);
	CHECK_EQ_U64(r.violations, 0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_killed_evictors_lru) { killed_evictors(TBL_POLICY_LRU); }
TBL_TEST(test_killed_evictors_random) { killed_evictors(TBL_POLICY_RANDOM); }
TBL_TEST(test_killed_evictors_gdsf) { killed_evictors(TBL_POLICY_GDSF); }

/* ---- gdsf ---------------------------------------------------------------------------------------- */

/* A get-or-set replay of a skewed trace (keys drawn with a squared uniform, so low ids are hot; value
 * sizes log-normal per key) into a 4 MiB table whose hash key is `k0`. Every value holds its key id,
 * checked on every hit. Returns the hits; *moves and *evictions get the table's counters. */
static uint64_t gdsf_replay(uint64_t k0, uint64_t *moves, uint64_t *evictions)
{
	enum { KEYS = 40000, OPS = 120000 };
	static uint32_t sizes[KEYS];
	tbl_config_t cfg;
	tbl_stats_t s;
	char err[256], key[32];
	uint64_t hits = 0, bad = 0;
	tbl_t *t = NULL;
	unsigned i;

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = 4 * MiB;
	cfg.policy = TBL_POLICY_GDSF;
	cfg.namespaces = FIXTURE_NAMESPACES;
	cfg.fixed_hash_key = 1;
	cfg.hash_key[0] = k0;
	cfg.hash_key[1] = ~k0;
	if (tbl_create(&t, &cfg, err, sizeof(err)) != TBL_OK) {
		fprintf(stderr, "tbl_create: %s\n", err);
		CHECK(0);
		return 0;
	}
	rng_state = 0x7EACE;
	for (i = 0; i < KEYS; i++) {
		sizes[i] = size_lognormal() / 8 + 16;
	}
	for (i = 0; i < OPS; i++) {
		double u = rng_unit();
		uint32_t id = (uint32_t)(u * u * KEYS), got = 0;
		tbl_view_t v;

		snprintf(key, sizeof(key), "g%u", id);
		if (tbl_read_begin(t) != TBL_OK) {
			CHECK(0);
			break;
		}
		if (tbl_lookup(t, TBL_NS_DEFAULT, key, strlen(key), &v, 1) == TBL_OK) {
			memcpy(&got, v.data, sizeof(got));
			bad += v.len != sizes[id] || got != id;
			hits++;
			tbl_read_end(t);
		} else {
			tbl_value_t val = { TBL_T_STRING, value_buf, sizes[id], NULL };

			tbl_read_end(t);
			memcpy(value_buf, &id, sizeof(id));
			CHECK(tbl_store(t, TBL_NS_DEFAULT, key, strlen(key), &val, 0, TBL_STORE_SET) == TBL_OK);
		}
	}
	CHECK_EQ_U64(bad, 0);
	tbl_get_stats(t, &s);
	*moves = s.evict_moves;
	*evictions = s.evictions;
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
	return hits;
}

/* gdsf ranks by frequency, size and a clock that only evictions move: the same trace evicts the same
 * entries on every run, whatever the segment's hash key (which decides which bucket, and stripe, a key
 * lands in) and however fast it runs. It also moves entries out of the runs it frees, and a moved
 * entry keeps its value (checked on every hit above). */
TBL_TEST(test_gdsf_same_on_every_run)
{
	uint64_t m1, m2, e1, e2, h1 = gdsf_replay(0x1234, &m1, &e1), h2;

	usleep(250000);   /* a different wall-clock tick: none is read */
	h2 = gdsf_replay(0xFEDCBA987654321ull, &m2, &e2);
	if (getenv("TBL_EVICT_VERBOSE")) {
		printf("  gdsf replay: %llu hits, %llu evictions, %llu moves\n", (unsigned long long)h1,
		       (unsigned long long)e1, (unsigned long long)m1);
	}
	CHECK_EQ_U64(h1, h2);
	CHECK_EQ_U64(e1, e2);
	CHECK_EQ_U64(m1, m2);
	CHECK(e1 > 10000);   /* it did evict, a lot */
	CHECK(m1 > 0);       /* and moved entries */
}

/* gdsf keeps what is small and read often over what is large and never read: a table holds 200 small
 * keys read after every write and large keys written once; after the large ones have turned the table
 * over four times, every small key is still there. */
TBL_TEST(test_gdsf_keeps_small_read_often)
{
	enum { HOT = 200 };
	tbl_t *t = fixture_open(4 * MiB, TBL_POLICY_GDSF);
	char key[32], buf[16];
	uint64_t written = 0;
	unsigned i, n, lost = 0;
	tbl_stats_t s;

	REQUIRE(t != NULL);
	tbl_get_stats(t, &s);
	for (i = 0; i < HOT; i++) {
		snprintf(key, sizeof(key), "hot%u", i);
		CHECK(fixture_set(t, TBL_NS_DEFAULT, key, "a small value", 0) == TBL_OK);
	}
	for (n = 0; written < 4 * s.heap_size; n++) {
		tbl_value_t v = { TBL_T_STRING, value_buf, 6000 + (n % 7) * 1000, NULL };

		snprintf(key, sizeof(key), "cold%u", n);
		CHECK(tbl_store(t, TBL_NS_DEFAULT, key, strlen(key), &v, 0, TBL_STORE_SET) == TBL_OK);
		written += v.len;
		for (i = n % 10; i < HOT; i += 10) {   /* each hot key read once every ten writes */
			snprintf(key, sizeof(key), "hot%u", i);
			lost += fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf)) != TBL_OK;
		}
	}
	CHECK_EQ_U64(lost, 0);
	tbl_get_stats(t, &s);
	CHECK(s.evictions > 1000);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_one_20k_among_1k_lru),
	TBL_TEST_ENTRY(test_one_20k_among_1k_random),
	TBL_TEST_ENTRY(test_one_20k_among_1k_gdsf),
	TBL_TEST_ENTRY(test_one_100k_among_100_lru),
	TBL_TEST_ENTRY(test_one_100k_among_100_random),
	TBL_TEST_ENTRY(test_one_100k_among_100_gdsf),
	TBL_TEST_ENTRY(test_uniform_1k_lru),
	TBL_TEST_ENTRY(test_uniform_1k_random),
	TBL_TEST_ENTRY(test_uniform_1k_gdsf),
	TBL_TEST_ENTRY(test_1k_then_20k_lru),
	TBL_TEST_ENTRY(test_1k_then_20k_random),
	TBL_TEST_ENTRY(test_1k_then_20k_gdsf),
	TBL_TEST_ENTRY(test_100_then_100k_lru),
	TBL_TEST_ENTRY(test_100_then_100k_random),
	TBL_TEST_ENTRY(test_100_then_100k_gdsf),
	TBL_TEST_ENTRY(test_20_bytes_larger_lru),
	TBL_TEST_ENTRY(test_20_bytes_larger_random),
	TBL_TEST_ENTRY(test_20_bytes_larger_gdsf),
	TBL_TEST_ENTRY(test_lognormal_lru),
	TBL_TEST_ENTRY(test_lognormal_random),
	TBL_TEST_ENTRY(test_lognormal_gdsf),
	TBL_TEST_ENTRY(test_bimodal_lru),
	TBL_TEST_ENTRY(test_bimodal_random),
	TBL_TEST_ENTRY(test_bimodal_gdsf),
	TBL_TEST_ENTRY(test_lru_recently_read_survive),
	TBL_TEST_ENTRY(test_lru_read_once_outlives_never_read),
	TBL_TEST_ENTRY(test_newest_writes_survive_lru),
	TBL_TEST_ENTRY(test_newest_writes_survive_random),
	TBL_TEST_ENTRY(test_newest_writes_survive_gdsf),
	TBL_TEST_ENTRY(test_killed_evictors_lru),
	TBL_TEST_ENTRY(test_killed_evictors_random),
	TBL_TEST_ENTRY(test_killed_evictors_gdsf),
	TBL_TEST_ENTRY(test_gdsf_same_on_every_run),
	TBL_TEST_ENTRY(test_gdsf_keeps_small_read_often),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
