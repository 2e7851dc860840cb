/*
 * test_lock.c - robust process-shared locks: a holder that dies hands the lock over with a
 * "recovered" result instead of wedging every other process.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"
#include "lock.h"

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
	CHECK(tbl_lock_acquire(l) == TBL_LOCK_ACQUIRED);
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
		tbl_lock_acquire(l);
		(void)!write(to_parent[1], "x", 1);
		(void)!read(to_child[0], &c, 1);
		tbl_lock_release(l);
		_exit(0);
	}
	CHECK(read(to_parent[0], &c, 1) == 1);
	CHECK(tbl_lock_try(l) == TBL_LOCK_BUSY);
	CHECK(write(to_child[1], "y", 1) == 1);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(tbl_lock_acquire(l) == TBL_LOCK_ACQUIRED);
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
		tbl_lock_acquire(l);
		raise(SIGKILL);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
	CHECK(tbl_lock_acquire(l) == TBL_LOCK_RECOVERED);
	tbl_lock_release(l);
	CHECK(tbl_lock_acquire(l) == TBL_LOCK_ACQUIRED);   /* consistent again */
	tbl_lock_release(l);
	munmap(l, sizeof(*l));
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_acquire_release_try),
	TBL_TEST_ENTRY(test_try_sees_another_process_holding_it),
	TBL_TEST_ENTRY(test_dead_holder_is_recovered_once),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
