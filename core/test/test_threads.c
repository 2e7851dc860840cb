/*
 * test_threads.c - thread handles (tbl_thread_open), the core's side of thread-safe PHP: every thread
 * of a process reads and writes through a handle of its own, with a reader slot of its own owned by
 * (pid, tid). Threads increment shared counters exactly; a thread that ends closes its slot, and one that
 * vanishes (ends without tbl_thread_close, or inside a read section, or holding a zero-copy hold) is
 * found dead by its thread id and cannot hold reclamation back; a remember() claim belongs to its thread,
 * not to its process; a fork from a thread gives the child one slot, for the forking thread.
 */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include "epoch.h"
#include "sync.h"
#include "table_fixture.h"

#define MB (1024u * 1024u)
#define THREADS 8
#define ROUNDS 2000

static tbl_stats_t stats(tbl_t *t)
{
	tbl_stats_t st;
	tbl_get_stats(t, &st);
	return st;
}

static void reclaim(tbl_t *t)
{
	tbl_alloc_lock(t);
	tbl_reclaim_locked(t, 1);
	tbl_alloc_unlock(t);
}

static int64_t get_long(tbl_t *t, const char *key)
{
	tbl_view_t v;
	int64_t n = -1;

	if (tbl_read_begin(t) != TBL_OK) {
		return -1;
	}
	if (tbl_lookup(t, 0, key, strlen(key), &v, 0) == TBL_OK && v.type == TBL_T_LONG) {
		n = tbl_view_long(&v);
	}
	tbl_read_end(t);
	return n;
}

typedef struct worker {
	tbl_t *proc;
	int index;
	int failures;
	pthread_t thread;
} worker_t;

/* Each thread: its own handle; the shared counter and its own, a value it writes and reads back. */
static void *count_worker(void *arg)
{
	worker_t *w = arg;
	tbl_t *t;
	char key[32], val[32], buf[32];
	int64_t out;
	int i;

	if (tbl_thread_open(w->proc, &t) != TBL_OK) {
		w->failures++;
		return NULL;
	}
	snprintf(key, sizeof(key), "own%d", w->index);
	for (i = 0; i < ROUNDS; i++) {
		w->failures += tbl_incr(t, 0, "shared", 6, 1, 0, &out) != TBL_OK;
		w->failures += tbl_incr(t, 0, key, strlen(key), 1, 0, &out) != TBL_OK;
		snprintf(val, sizeof(val), "%d:%d", w->index, i);
		w->failures += fixture_set(t, 0, "text", val, 0) != TBL_OK;
		w->failures += fixture_get(t, 0, "text", buf, sizeof(buf)) != TBL_OK;
	}
	tbl_thread_close(t);
	return NULL;
}

TBL_TEST(test_threads_count_exactly_and_give_their_slots_back)
{
	tbl_t *t = fixture_open(8 * MB, TBL_POLICY_LRU);
	worker_t w[THREADS];
	tbl_stats_t st;
	char key[32];
	int i;

	REQUIRE(t != NULL);
	for (i = 0; i < THREADS; i++) {
		w[i] = (worker_t){ t, i, 0, 0 };
		REQUIRE(pthread_create(&w[i].thread, NULL, count_worker, &w[i]) == 0);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(w[i].thread, NULL);
		CHECK_EQ_U64(w[i].failures, 0);
	}
	CHECK_EQ_U64(get_long(t, "shared"), (uint64_t)THREADS * ROUNDS);
	for (i = 0; i < THREADS; i++) {
		snprintf(key, sizeof(key), "own%d", i);
		CHECK_EQ_U64(get_long(t, key), ROUNDS);
	}
	st = stats(t);
	CHECK_EQ_U64(st.slots_used, 1);    /* the main handle's own; each thread gave its slot back */
	CHECK_EQ_U64(st.processes, 1);
	CHECK_EQ_U64(st.sets, 3u * THREADS * ROUNDS);   /* two increments and a set a round, folded in */
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* A thread that opens a read section (or takes a hold) and ends without closing anything. */
typedef struct vanishing {
	tbl_t *proc;
	int hold;           /* take a zero-copy hold on "k" instead of staying inside a read section */
	int ok;
	tbl_t *left;        /* the handle it left behind */
} vanishing_t;

static void *vanish_worker(void *arg)
{
	vanishing_t *v = arg;
	tbl_view_t view;
	tbl_t *t;

	if (tbl_thread_open(v->proc, &t) != TBL_OK || tbl_read_begin(t) != TBL_OK) {
		return NULL;
	}
	v->left = t;
	v->ok = tbl_lookup(t, 0, "k", 1, &view, 0) == TBL_OK;
	if (v->hold) {
		v->ok = v->ok && tbl_hold(t, &view, UINT64_MAX) == TBL_OK;
		tbl_read_end(t);
	}
	/* Gone without tbl_thread_close: the handle leaks, the slot stays claimed by this thread's id. */
	return NULL;
}

static void thread_vanishes(int hold)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU);
	vanishing_t v = { t, hold, 0, NULL };
	pthread_t th;
	tbl_stats_t st;

	REQUIRE(t != NULL);
	CHECK(fixture_set(t, 0, "k", "old", 0) == TBL_OK);
	REQUIRE(pthread_create(&th, NULL, vanish_worker, &v) == 0);
	pthread_join(th, NULL);
	REQUIRE(v.ok);
	CHECK(fixture_set(t, 0, "k", "new", 0) == TBL_OK);    /* retires "old", which the thread could see */
	/* The process lives on, so kill(pid, 0) would call the slot's owner alive: its thread id says not. */
	reclaim(t);
	st = stats(t);
	CHECK_EQ_U64(st.retired_blocks, 0);
	CHECK_EQ_U64(st.held_entries, 0);
	CHECK_EQ_U64(st.pins, 0);
	CHECK_EQ_U64(st.slots_used, 1);
	CHECK_CONSISTENT(t);
	tbl_thread_forget(v.left);   /* what an embedder's process shutdown does with it */
	tbl_destroy(t);
}

TBL_TEST(test_thread_gone_inside_a_read_does_not_hold_reclamation_back)
{
	thread_vanishes(0);
}

TBL_TEST(test_thread_gone_holding_is_reaped)
{
	thread_vanishes(1);
}

/* remember()'s claims: another thread of the same process is another claimant. */
typedef struct claimer {
	tbl_t *proc;
	tbl_status_t st;
	int close;
	tbl_t *left;
} claimer_t;

static void *claim_worker(void *arg)
{
	claimer_t *c = arg;
	tbl_t *t;

	if (tbl_thread_open(c->proc, &t) != TBL_OK) {
		c->st = TBL_ENOMEM;
		return NULL;
	}
	c->left = t;
	c->st = tbl_claim(t, 0, "key", 3, 60000);
	if (c->close) {
		if (c->st == TBL_OK) {
			tbl_claim_release(t, 0, "key", 3);
		}
		tbl_thread_close(t);
	}
	return NULL;   /* otherwise gone holding its claim */
}

TBL_TEST(test_claims_belong_to_a_thread)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU), *mine;
	claimer_t first = { NULL, TBL_EINVAL, 1, NULL }, second = { NULL, TBL_EINVAL, 0, NULL };
	pthread_t th;

	REQUIRE(t != NULL);
	REQUIRE(tbl_thread_open(t, &mine) == TBL_OK);
	first.proc = second.proc = t;
	CHECK(tbl_claim(mine, 0, "key", 3, 60000) == TBL_OK);
	REQUIRE(pthread_create(&th, NULL, claim_worker, &first) == 0);
	pthread_join(th, NULL);
	CHECK(first.st == TBL_EBUSY);                         /* the same process, but not the same thread */
	tbl_claim_release(mine, 0, "key", 3);
	REQUIRE(pthread_create(&th, NULL, claim_worker, &second) == 0);
	pthread_join(th, NULL);
	CHECK(second.st == TBL_OK);
	/* Its claimant ended holding it: the claim is taken over, not waited for until its deadline. */
	CHECK(tbl_claim(mine, 0, "key", 3, 60000) == TBL_OK);
	tbl_claim_release(mine, 0, "key", 3);
	tbl_thread_close(mine);
	tbl_get_stats(t, &(tbl_stats_t){ 0 });   /* reaps the slot the second claimant left */
	tbl_thread_forget(second.left);
	tbl_destroy(t);
}

/* fork() from a thread: the child goes on with the forking thread's handle, on a slot of its own; the
 * other threads' handles have no slot there (their threads do not exist in the child). */
typedef struct forker {
	tbl_t *proc;
	int ok;
} forker_t;

static void *fork_worker(void *arg)
{
	forker_t *f = arg;
	tbl_t *t;
	int status;
	pid_t pid;

	if (tbl_thread_open(f->proc, &t) != TBL_OK || fixture_set(t, 0, "before", "1", 0) != TBL_OK) {
		return NULL;
	}
	pid = fork();
	if (pid == 0) {
		char buf[8];
		int ok = fixture_get(t, 0, "before", buf, sizeof(buf)) == TBL_OK && fixture_set(t, 0, "child", "1", 0) == TBL_OK
		         && stats(t).processes == 2;
		tbl_thread_close(t);
		_exit(ok ? 0 : 1);
	}
	f->ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	f->ok = f->ok && fixture_set(t, 0, "parent", "1", 0) == TBL_OK;
	tbl_thread_close(t);
	return NULL;
}

TBL_TEST(test_fork_from_a_thread)
{
	tbl_t *t = fixture_open(4 * MB, TBL_POLICY_LRU), *other;
	forker_t f = { NULL, 0 };
	pthread_t th;
	tbl_stats_t st;

	REQUIRE(t != NULL);
	REQUIRE(tbl_thread_open(t, &other) == TBL_OK);
	CHECK(fixture_set(other, 0, "main", "1", 0) == TBL_OK);   /* the main thread has a slot of its own */
	f.proc = t;
	REQUIRE(pthread_create(&th, NULL, fork_worker, &f) == 0);
	pthread_join(th, NULL);
	CHECK(f.ok);
	st = stats(t);
	CHECK_EQ_U64(st.processes, 1);
	CHECK_EQ_U64(st.slots_used, 2);   /* the main thread's handle, and `t` (stats claimed one) */
	tbl_thread_close(other);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_threads_count_exactly_and_give_their_slots_back),
	TBL_TEST_ENTRY(test_thread_gone_inside_a_read_does_not_hold_reclamation_back),
	TBL_TEST_ENTRY(test_thread_gone_holding_is_reaped),
	TBL_TEST_ENTRY(test_claims_belong_to_a_thread),
	TBL_TEST_ENTRY(test_fork_from_a_thread),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
