/*
 * test_lock.c - robust process-shared locks: a holder that dies hands the lock over with a
 * "recovered" result instead of wedging every other process; a lock that is unusable is never entered;
 * a holder that is alive but stopped makes the others give up after the bound, not wait forever.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "table_fixture.h"
#include "lock.h"
#include "sync.h"

static tbl_lock_t *shared_lock(void)
{
	void *p = mmap(NULL, sizeof(tbl_lock_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char err[128];

	if (p == MAP_FAILED || tbl_lock_init(p, err, sizeof(err)) != TBL_OK) {
		return NULL;
	}
	return p;
}

TBL_TEST(test_acquire_release_try)
{
	tbl_lock_t *l = shared_lock();

	REQUIRE(l != NULL);
	CHECK(tbl_lock_acquire(l, 0) == TBL_LOCK_ACQUIRED);
	tbl_lock_release(l);
	CHECK(tbl_lock_try(l) == TBL_LOCK_ACQUIRED);
	tbl_lock_release(l);
	munmap(l, sizeof(*l));
}

TBL_TEST(test_try_sees_another_process_holding_it)
{
	tbl_lock_t *l = shared_lock();
	int to_parent[2], to_child[2], status;
	char c = 0;
	pid_t pid;

	REQUIRE(l != NULL);
	REQUIRE(pipe(to_parent) == 0 && pipe(to_child) == 0);
	pid = fork();
	if (pid == 0) {
		tbl_lock_acquire(l, 0);
		(void)!write(to_parent[1], "x", 1);
		(void)!read(to_child[0], &c, 1);
		tbl_lock_release(l);
		_exit(0);
	}
	CHECK(read(to_parent[0], &c, 1) == 1);
	CHECK(tbl_lock_try(l) == TBL_LOCK_BUSY);
	CHECK(write(to_child[1], "y", 1) == 1);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(tbl_lock_acquire(l, 0) == TBL_LOCK_ACQUIRED);
	tbl_lock_release(l);
	munmap(l, sizeof(*l));
}

TBL_TEST(test_dead_holder_is_recovered_once)
{
	tbl_lock_t *l = shared_lock();
	int status;
	pid_t pid;

	REQUIRE(l != NULL);
	pid = fork();
	if (pid == 0) {
		tbl_lock_acquire(l, 0);
		raise(SIGKILL);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
	CHECK(tbl_lock_acquire(l, 0) == TBL_LOCK_RECOVERED);
	tbl_lock_release(l);
	CHECK(tbl_lock_acquire(l, 0) == TBL_LOCK_ACQUIRED);   /* consistent again */
	tbl_lock_release(l);
	munmap(l, sizeof(*l));
}

/* Make a robust mutex permanently unusable, the one way POSIX allows: a holder dies, and the next owner
 * (told EOWNERDEAD) unlocks it without marking it consistent. Every later lock gets ENOTRECOVERABLE. */
static int make_unrecoverable(tbl_lock_t *l)
{
	pthread_mutex_t *m = (pthread_mutex_t *)(void *)l->storage;
	int status;
	pid_t pid;

	if ((pid = fork()) == 0) {
		pthread_mutex_lock(m);
		raise(SIGKILL);
		_exit(1);
	}
	waitpid(pid, &status, 0);
	if ((pid = fork()) == 0) {
		int rc = pthread_mutex_lock(m);
		pthread_mutex_unlock(m);
		_exit(rc == EOWNERDEAD ? 0 : 1);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int depth;
static void count_block(void) { depth++; }
static void count_unblock(void) { depth--; }

/* A 2M noeviction table whose signal hooks count the blocking depth, holding "kept" = "value". */
static tbl_t *counted_table(void)
{
	tbl_config_t cfg;
	char err[256];
	tbl_t *t = NULL;

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = 2 * 1024 * 1024;
	cfg.policy = TBL_POLICY_NOEVICTION;
	cfg.hooks.block_signals = count_block;
	cfg.hooks.unblock_signals = count_unblock;
	if (tbl_create(&t, &cfg, err, sizeof(err)) != TBL_OK) {
		return NULL;
	}
	if (fixture_set(t, TBL_NS_DEFAULT, "kept", "value", 0) != TBL_OK) {
		tbl_destroy(t);
		return NULL;
	}
	return t;
}

TBL_TEST(test_lock_reports_failure)
{
	tbl_lock_t *l = shared_lock();

	REQUIRE(l != NULL);
	REQUIRE(make_unrecoverable(l) == 0);
	CHECK(tbl_lock_acquire(l, 0) == TBL_LOCK_FAILED);
	CHECK(errno == ENOTRECOVERABLE);
	munmap(l, sizeof(*l));
}

/* Issue 10, item 4: a lock that fails (ENOTRECOVERABLE) used to fall through into its critical section.
 * Now every operation that needs it returns TBL_ESYS, names the failure, holds nothing, and leaves the
 * signal-blocking depth balanced; the lock-free read path keeps working. */
TBL_TEST(test_an_unusable_lock_is_never_entered)
{
	char err[256], buf[32];
	tbl_t *t = counted_table();
	tbl_ns_t ns;
	uint64_t n;
	uint32_t s;
	int64_t r;

	REQUIRE(t != NULL);
	REQUIRE(tbl_ns_get(t, "made", 4, &ns) == TBL_OK);

	/* The namespace lock: creating fails, finding what exists still works. */
	REQUIRE(make_unrecoverable(tbl_lock_at(t, TBL_LOCK_NS(t->hdr))) == 0);
	CHECK(tbl_ns_get(t, "new", 3, &ns) == TBL_ESYS);
	CHECK(strstr(tbl_errstr(t), "namespace lock") != NULL);
	CHECK(strstr(tbl_errstr(t), strerror(ENOTRECOVERABLE)) != NULL);
	CHECK(tbl_ns_find(t, "made", 4, &ns) == TBL_OK);
	CHECK(depth == 0);

	/* Every stripe lock: every write fails, reads go on. */
	for (s = 0; s < t->hdr->nstripes; s++) {
		REQUIRE(make_unrecoverable(tbl_lock_at(t, s)) == 0);
	}
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "kept", "other", 0) == TBL_ESYS);
	CHECK(strstr(tbl_errstr(t), "stripe lock") != NULL);
	CHECK(tbl_delete(t, TBL_NS_DEFAULT, "kept", 4) == TBL_ESYS);
	CHECK(tbl_incr(t, TBL_NS_DEFAULT, "n", 1, 1, 0, &r) == TBL_ESYS);
	CHECK(tbl_clear_all(t, &n) == TBL_ESYS);
	CHECK(tbl_check(t, err, sizeof(err)) != 0 && strstr(err, "stripe lock") != NULL);
	CHECK(fixture_get(t, TBL_NS_DEFAULT, "kept", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "value") == 0);
	CHECK(depth == 0);
	tbl_destroy(t);
}

/* The allocator and misc locks: a write that needs memory gets none rather than allocating unlocked;
 * a process that has no slot yet cannot claim one. */
TBL_TEST(test_unusable_allocator_and_misc_locks_are_never_entered)
{
	char err[256];
	tbl_t *t = counted_table();
	int status;
	pid_t pid;

	REQUIRE(t != NULL);
	REQUIRE(make_unrecoverable(tbl_lock_at(t, TBL_LOCK_ALLOC(t->hdr))) == 0);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "new", "value", 0) == TBL_ESYS);   /* not "no room" */
	CHECK(strstr(tbl_errstr(t), "allocator lock") != NULL);
	CHECK(depth == 0);
	REQUIRE(make_unrecoverable(tbl_lock_at(t, TBL_LOCK_MISC(t->hdr))) == 0);
	if ((pid = fork()) == 0) {
		char buf[32];
		/* a new process: its first call needs a slot, which needs the misc lock */
		_exit(fixture_get(t, TBL_NS_DEFAULT, "kept", buf, sizeof(buf)) == TBL_ESYS && depth == 0 ? 0 : 1);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(tbl_check(t, err, sizeof(err)) != 0 && strstr(err, "allocator lock") != NULL);
	CHECK(depth == 0);
	tbl_destroy(t);
}

/* Fork a child that runs `take` and then stops itself (SIGSTOP) holding what it took; return once it is
 * stopped (waitpid WUNTRACED: an event, no sleep). The child, continued, runs `give` and exits 0. */
static pid_t stopped_holder(void (*take)(void *), void (*give)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		take(arg);
		raise(SIGSTOP);
		give(arg);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status)) {
		return -1;
	}
	return pid;
}

static int continued_and_exited(pid_t pid)
{
	int status;

	return kill(pid, SIGCONT) == 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)
	       && WEXITSTATUS(status) == 0;
}

static void take_lock(void *l) { (void)tbl_lock_acquire(l, 0); }
static void give_lock(void *l) { tbl_lock_release(l); }

/* #33: a stopped holder (SIGSTOP, a debugger) used to block every waiter for as long as it stayed
 * stopped. The wait gives up after the bound, marks the lock stuck on that holder, and the next waiter
 * gives up at once while the same holder still has it; once it lets go, the lock works as before. */
TBL_TEST(test_a_stopped_holder_bounds_the_wait)
{
	tbl_lock_t *l = shared_lock();
	pid_t pid;

	REQUIRE(l != NULL);
	REQUIRE((pid = stopped_holder(take_lock, give_lock, l)) > 0);
	CHECK(tbl_lock_holder(l) == (uint32_t)pid);
	errno = 0;
	CHECK(tbl_lock_acquire(l, 50) == TBL_LOCK_TIMEDOUT);
	CHECK(errno == ETIMEDOUT);
	CHECK(tbl_lock_acquire(l, 60000) == TBL_LOCK_TIMEDOUT);   /* marked stuck: no second minute-long wait */
	CHECK(tbl_lock_try(l) == TBL_LOCK_BUSY);
	CHECK(continued_and_exited(pid));
	CHECK(tbl_lock_holder(l) == 0);
	CHECK(tbl_lock_acquire(l, 50) == TBL_LOCK_ACQUIRED);
	tbl_lock_release(l);
	/* A new holder that stops is waited for again (the mark named the old one and is gone). */
	REQUIRE((pid = stopped_holder(take_lock, give_lock, l)) > 0);
	CHECK(tbl_lock_acquire(l, 50) == TBL_LOCK_TIMEDOUT);
	/* Killed while stopped: the next taker recovers it, as from any dead holder. */
	CHECK(kill(pid, SIGKILL) == 0 && waitpid(pid, NULL, 0) == pid);
	CHECK(tbl_lock_acquire(l, 50) == TBL_LOCK_RECOVERED);
	tbl_lock_release(l);
	CHECK(tbl_lock_acquire(l, 0) == TBL_LOCK_ACQUIRED);
	tbl_lock_release(l);
	munmap(l, sizeof(*l));
}

static void take_stripes(void *t)
{
	uint32_t s;

	for (s = 0; s < ((tbl_t *)t)->hdr->nstripes; s++) {
		(void)tbl_stripe_lock(t, s);
	}
}

static void give_stripes(void *t)
{
	uint32_t s;

	for (s = 0; s < ((tbl_t *)t)->hdr->nstripes; s++) {
		tbl_stripe_unlock(t, s);
	}
}

static void take_alloc(void *t) { (void)tbl_alloc_lock(t); }
static void give_alloc(void *t) { tbl_alloc_unlock(t); }
static void take_misc(void *t) { (void)tbl_misc_lock(t); }
static void give_misc(void *t) { tbl_misc_unlock(t); }

/* The same through the table: writes fail with TBL_ESYS naming the lock and its holder, nothing is held
 * afterwards, reads go on, and everything works again once the holder continues. */
TBL_TEST(test_a_stopped_writer_does_not_wedge_the_table)
{
	char buf[32], pidstr[32];
	tbl_t *t = counted_table();
	tbl_stats_t st;
	pid_t pid;

	REQUIRE(t != NULL);
	t->lock_wait_ms = 50;
	REQUIRE((pid = stopped_holder(take_stripes, give_stripes, t)) > 0);
	snprintf(pidstr, sizeof(pidstr), "by process (thread) %d,", (int)pid);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "kept", "other", 0) == TBL_ESYS);
	CHECK(strstr(tbl_errstr(t), "stripe lock has been held for more than 50 ms") != NULL);
	CHECK(strstr(tbl_errstr(t), pidstr) != NULL);
	CHECK(tbl_delete(t, TBL_NS_DEFAULT, "kept", 4) == TBL_ESYS);
	CHECK(fixture_get(t, TBL_NS_DEFAULT, "kept", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "value") == 0);
	CHECK(atomic_load(&t->hdr->lock_timeouts) >= 2);
	CHECK(depth == 0);
	CHECK(continued_and_exited(pid));
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "kept", "other", 0) == TBL_OK);

	REQUIRE((pid = stopped_holder(take_alloc, give_alloc, t)) > 0);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "new", "value", 0) == TBL_ESYS);
	CHECK(strstr(tbl_errstr(t), "allocator lock has been held") != NULL);
	CHECK(depth == 0);
	CHECK(continued_and_exited(pid));
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "new", "value", 0) == TBL_OK);
	CHECK(fixture_get(t, TBL_NS_DEFAULT, "kept", buf, sizeof(buf)) == TBL_OK && strcmp(buf, "other") == 0);

	/* The misc lock: the statistics are still read (they once came back all 0). */
	REQUIRE((pid = stopped_holder(take_misc, give_misc, t)) > 0);
	tbl_get_stats(t, &st);
	CHECK(st.entries == 2 && st.sets == 3 && st.hits == 2 && st.heap_size > 0);
	CHECK(depth == 0);
	CHECK(continued_and_exited(pid));
	tbl_destroy(t);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_a_stopped_holder_bounds_the_wait),
	TBL_TEST_ENTRY(test_a_stopped_writer_does_not_wedge_the_table),
	TBL_TEST_ENTRY(test_lock_reports_failure),
	TBL_TEST_ENTRY(test_an_unusable_lock_is_never_entered),
	TBL_TEST_ENTRY(test_unusable_allocator_and_misc_locks_are_never_entered),
	TBL_TEST_ENTRY(test_acquire_release_try),
	TBL_TEST_ENTRY(test_try_sees_another_process_holding_it),
	TBL_TEST_ENTRY(test_dead_holder_is_recovered_once),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
