/*
 * test_segment.c - named, file-backed segments (shm_file.c, tbl_config_t.segment_path): processes that
 * open the same file share one table; the file's safety rules (0600, no symlink, no foreign owner, a
 * header that must match); first creation by exactly one of several racing processes; a creator killed
 * midway; an existing segment of another size; one from a previous boot; the creator's base address and
 * the fallback elsewhere; recovery after every process that had it mapped was SIGKILLed.
 *
 * Every test works in a directory of its own (mkdtemp under /dev/shm, else /tmp).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "table_fixture.h"
#include "epoch.h"
#include "shm.h"
#include "sync.h"

#define MB (1024u * 1024u)
#define RACE_RUNS 200

static char dir[256];
static char path[512];

static void make_dir(const char *test)
{
	snprintf(dir, sizeof(dir), "/dev/shm/tbl-%s-XXXXXX", test);
	if (!mkdtemp(dir)) {
		snprintf(dir, sizeof(dir), "/tmp/tbl-%s-XXXXXX", test);
		if (!mkdtemp(dir)) {
			perror("mkdtemp");
			exit(2);
		}
	}
	snprintf(path, sizeof(path), "%s/php-table.t", dir);
}

static void remove_dir(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "could not remove %s\n", dir);
	}
}

static tbl_config_t named_cfg(uint64_t memory)
{
	tbl_config_t cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = memory;
	cfg.policy = TBL_POLICY_NOEVICTION;
	cfg.segment_path = path;
	cfg.app_version = "1.0";
	return cfg;
}

static tbl_t *open_cfg(const tbl_config_t *cfg, tbl_status_t *st, char *err, size_t errlen)
{
	tbl_t *t = NULL;

	err[0] = '\0';
	*st = tbl_create(&t, cfg, err, errlen);
	return *st == TBL_OK ? t : NULL;
}

static tbl_t *open_named(uint64_t memory)
{
	tbl_config_t cfg = named_cfg(memory);
	char err[256];
	tbl_status_t st;
	tbl_t *t = open_cfg(&cfg, &st, err, sizeof(err));

	if (!t) {
		fprintf(stderr, "open %s: %s\n", path, err);
	}
	return t;
}

static tbl_segment_info_t info_of(tbl_t *t)
{
	tbl_segment_info_t i;
	tbl_segment_info(t, &i);
	return i;
}

static int value_is(tbl_t *t, const char *key, const char *want)
{
	char buf[128];
	return fixture_get(t, TBL_NS_DEFAULT, key, buf, sizeof(buf)) == TBL_OK && strcmp(buf, want) == 0;
}

TBL_TEST(test_two_handles_share_and_data_outlives_them)
{
	tbl_t *a, *b, *c;
	struct stat st;

	make_dir("share");
	REQUIRE((a = open_named(2 * MB)) != NULL);
	CHECK(info_of(a).named && info_of(a).created && info_of(a).same_base);
	CHECK(fixture_set(a, TBL_NS_DEFAULT, "k", "from a", 0) == TBL_OK);
	/* A second handle in this process: a's mapping holds the creator's address, so b lies elsewhere. */
	REQUIRE((b = open_named(2 * MB)) != NULL);
	CHECK(!info_of(b).created);
	CHECK(!info_of(b).same_base && info_of(b).base_shift != 0);
	CHECK(value_is(b, "k", "from a"));
	CHECK(fixture_set(b, TBL_NS_DEFAULT, "k2", "from b", 0) == TBL_OK);
	CHECK(value_is(a, "k2", "from b"));
	CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600);
	tbl_destroy(a);
	tbl_destroy(b);
	/* Nobody maps it now: the data stays in the file, and the creator's address is free again. */
	REQUIRE((c = open_named(2 * MB)) != NULL);
	CHECK(!info_of(c).created && info_of(c).same_base && info_of(c).base_shift == 0);
	CHECK(value_is(c, "k", "from a") && value_is(c, "k2", "from b"));
	CHECK_CONSISTENT(c);
	tbl_destroy(c);
	remove_dir();
}

TBL_TEST(test_mode_is_exact_whatever_the_umask)
{
	tbl_config_t cfg;
	char err[256];
	tbl_status_t st;
	struct stat sb;
	mode_t old = umask(077);
	tbl_t *t;

	make_dir("mode");
	cfg = named_cfg(MB);
	cfg.segment_mode = 0660;
	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(stat(path, &sb) == 0 && (sb.st_mode & 07777) == 0660);
	tbl_destroy(t);
	umask(old);
	remove_dir();
}

TBL_TEST(test_symlink_is_refused)
{
	tbl_config_t cfg;
	char err[256], target[600];
	tbl_status_t st;

	make_dir("symlink");
	snprintf(target, sizeof(target), "%s/elsewhere", dir);
	REQUIRE(symlink(target, path) == 0);
	cfg = named_cfg(MB);
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "symbolic link") != NULL);
	CHECK(access(target, F_OK) != 0);   /* nothing was created through it */
	remove_dir();
}

TBL_TEST(test_file_of_another_user_is_refused)
{
	tbl_config_t cfg;
	char err[256];
	tbl_status_t st;
	tbl_t *t;

	make_dir("owner");
	if (geteuid() != 0) {
		printf("  (not root: cannot make a file of another user; checked by the PHPT test when root)\n");
		remove_dir();
		return;
	}
	REQUIRE((t = open_named(MB)) != NULL);
	tbl_destroy(t);
	REQUIRE(chown(path, 65534, 65534) == 0);
	cfg = named_cfg(MB);
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "owned by uid 65534") != NULL);
	remove_dir();
}

TBL_TEST(test_header_mismatch_fails_or_recreates)
{
	tbl_config_t cfg;
	char err[256];
	tbl_status_t st;
	tbl_t *t, *old;
	int fd;

	make_dir("mismatch");
	REQUIRE((old = open_named(MB)) != NULL);
	CHECK(fixture_set(old, TBL_NS_DEFAULT, "k", "v1", 0) == TBL_OK);
	cfg = named_cfg(MB);
	cfg.app_version = "2.0";
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "version 1.0") != NULL && strstr(err, "segment_recreate") != NULL);
	/* Recreated: a new, empty table; the old one stays whole for the handle that still maps it. */
	cfg.segment_recreate = 1;
	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(info_of(t).created && info_of(t).replaced == TBL_SEG_REPLACED_MISMATCH);
	CHECK(!value_is(t, "k", "v1"));
	CHECK(value_is(old, "k", "v1"));
	CHECK_CONSISTENT(old);
	tbl_destroy(t);
	tbl_destroy(old);

	/* A file that is not a segment at all. */
	REQUIRE(unlink(path) == 0);
	REQUIRE((fd = open(path, O_CREAT | O_WRONLY, 0600)) >= 0);
	CHECK(write(fd, "#!/bin/sh\necho hello\n", 21) == 21);
	close(fd);
	cfg = named_cfg(MB);
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "not a table segment") != NULL);
	remove_dir();
}

TBL_TEST(test_other_size_attaches_at_existing_size)
{
	tbl_config_t cfg;
	char err[256];
	tbl_status_t st;
	tbl_stats_t s;
	tbl_t *a, *b;

	make_dir("size");
	REQUIRE((a = open_named(2 * MB)) != NULL);
	CHECK(fixture_set(a, TBL_NS_DEFAULT, "k", "v", 0) == TBL_OK);
	tbl_destroy(a);
	REQUIRE((b = open_named(4 * MB)) != NULL);
	CHECK(info_of(b).memory == 2 * MB && info_of(b).requested == 4 * MB && !info_of(b).created);
	tbl_get_stats(b, &s);
	CHECK_EQ_U64(s.segment_size, 2 * MB);
	CHECK(value_is(b, "k", "v"));
	tbl_destroy(b);
	cfg = named_cfg(4 * MB);
	cfg.segment_recreate = 1;
	REQUIRE((b = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(info_of(b).created && info_of(b).replaced == TBL_SEG_REPLACED_SIZE && info_of(b).memory == 4 * MB);
	CHECK(!value_is(b, "k", "v"));
	tbl_destroy(b);
	remove_dir();
}

TBL_TEST(test_segment_of_a_previous_boot_is_new)
{
	tbl_seg_prefix_t pre;
	tbl_t *t;
	int fd;

	make_dir("boot");
	REQUIRE((t = open_named(MB)) != NULL);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "k", "v", 0) == TBL_OK);
	tbl_destroy(t);
	REQUIRE((fd = open(path, O_RDWR)) >= 0);
	REQUIRE(pread(fd, &pre, sizeof(pre), 0) == (ssize_t)sizeof(pre));
	CHECK(pre.magic == TBL_SEG_MAGIC && pre.boot_id[0] != '\0');
	snprintf(pre.boot_id, sizeof(pre.boot_id), "00000000-0000-0000-0000-000000000000");
	CHECK(pwrite(fd, &pre, sizeof(pre), 0) == (ssize_t)sizeof(pre));
	close(fd);
	REQUIRE((t = open_named(MB)) != NULL);
	CHECK(info_of(t).created && info_of(t).replaced == TBL_SEG_REPLACED_BOOT);
	CHECK(!value_is(t, "k", "v"));
	tbl_destroy(t);
	remove_dir();
}

TBL_TEST(test_unfinished_segment_is_initialised_afresh)
{
	tbl_t *t;
	int fd;

	make_dir("unfinished");
	/* What a creator killed before it wrote the magic leaves: a sized file without a finished prefix. */
	REQUIRE((fd = open(path, O_CREAT | O_RDWR, 0600)) >= 0);
	CHECK(ftruncate(fd, 8 * MB) == 0);
	CHECK(pwrite(fd, "\0\0\0\0\0\0\0\0garbage", 15, 0) == 15);
	close(fd);
	REQUIRE((t = open_named(MB)) != NULL);
	CHECK(info_of(t).created && info_of(t).replaced == TBL_SEG_REINITIALISED);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "k", "v", 0) == TBL_OK && value_is(t, "k", "v"));
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
	remove_dir();
}

TBL_TEST(test_moved_mapping_is_reported)
{
	tbl_config_t cfg;
	char err[256];
	tbl_status_t st;
	tbl_t *a, *b;

	make_dir("move");
	REQUIRE((a = open_named(MB)) != NULL);
	tbl_destroy(a);
	cfg = named_cfg(MB);
	cfg.segment_move = 1;
	REQUIRE((b = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(!info_of(b).same_base && info_of(b).base_shift != 0);
	CHECK(fixture_set(b, TBL_NS_DEFAULT, "k", "v", 0) == TBL_OK && value_is(b, "k", "v"));
	tbl_destroy(b);
	REQUIRE((a = open_named(MB)) != NULL);
	CHECK(info_of(a).same_base);
	tbl_destroy(a);
	remove_dir();
}

/* One racer: wait at the barrier, open, count itself in, report whether it initialised. */
static void racer(int go_fd, int id)
{
	tbl_config_t cfg = named_cfg(MB);
	char err[256], key[32], c;
	int64_t r;
	tbl_t *t = NULL;

	if (read(go_fd, &c, 1) != 1) {
		_exit(20);
	}
	if (tbl_create(&t, &cfg, err, sizeof(err)) != TBL_OK) {
		fprintf(stderr, "racer %d: %s\n", id, err);
		_exit(21);
	}
	snprintf(key, sizeof(key), "racer%d", id);
	if (fixture_set(t, TBL_NS_DEFAULT, key, "here", 0) != TBL_OK
	    || tbl_incr(t, TBL_NS_DEFAULT, "count", 5, 1, 0, &r) != TBL_OK) {
		_exit(22);
	}
	_exit(info_of(t).created ? 1 : 0);
}

TBL_TEST(test_racing_creators_make_one_table)
{
	int run, bad = 0;

	make_dir("race");
	for (run = 0; run < RACE_RUNS && !bad; run++) {
		int go[2], i, created = 0, status;
		pid_t pids[2];
		tbl_t *t;
		int64_t count = -1;
		tbl_view_t v;

		unlink(path);
		REQUIRE(pipe(go) == 0);
		for (i = 0; i < 2; i++) {
			if ((pids[i] = fork()) == 0) {
				close(go[1]);
				racer(go[0], i);
			}
		}
		close(go[0]);
		CHECK(write(go[1], "gg", 2) == 2);
		close(go[1]);
		for (i = 0; i < 2; i++) {
			REQUIRE(waitpid(pids[i], &status, 0) == pids[i]);
			if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
				fprintf(stderr, "run %d: racer %d ended with status 0x%x\n", run, i, status);
				bad = 1;
			} else {
				created += WEXITSTATUS(status);
			}
		}
		if (created != 1) {
			fprintf(stderr, "run %d: %d racers initialised the segment\n", run, created);
			bad = 1;
		}
		REQUIRE((t = open_named(MB)) != NULL);
		if (tbl_read_begin(t) == TBL_OK) {
			if (tbl_lookup(t, TBL_NS_DEFAULT, "count", 5, &v, 0) == TBL_OK) {
				count = tbl_view_long(&v);
			}
			tbl_read_end(t);
		}
		if (count != 2 || !value_is(t, "racer0", "here") || !value_is(t, "racer1", "here")) {
			fprintf(stderr, "run %d: count %lld, racers' keys missing or wrong\n", run, (long long)count);
			bad = 1;
		}
		{
			char ck[256];
			if (tbl_check(t, ck, sizeof(ck)) != 0) {
				fprintf(stderr, "run %d: tbl_check: %s\n", run, ck);
				bad = 1;
			}
		}
		tbl_destroy(t);
	}
	CHECK(!bad);
	CHECK_EQ_U64(run, RACE_RUNS);
	remove_dir();
}

/* Processes that attached separately are all SIGKILLed: one inside a read section, one holding a stripe
 * lock, one holding the misc lock, one idle. The next process to attach finds a table that works. */
TBL_TEST(test_all_killed_then_reattached)
{
	int ready[2], i, status;
	pid_t pids[4] = { 0, 0, 0, 0 };
	tbl_stats_t s;
	tbl_t *t;
	char c;

	make_dir("killed");
	REQUIRE((t = open_named(2 * MB)) != NULL);
	for (i = 0; i < 50; i++) {
		char key[32];
		snprintf(key, sizeof(key), "base%d", i);
		CHECK(fixture_set(t, TBL_NS_DEFAULT, key, "v", 0) == TBL_OK);
	}
	tbl_destroy(t);   /* nobody maps it but the victims from now on */
	REQUIRE(pipe(ready) == 0);
	/* One at a time, the misc lock's holder last: attaching takes that lock, so nobody could attach after. */
	for (i = 3; i >= 0; i--) {
		if ((pids[i] = fork()) == 0) {
			tbl_t *v = open_named(2 * MB);
			close(ready[0]);
			/* Victim 0 is forked while victim 1 holds stripe 3: a write of its own would wait for that
			 * stripe whenever "victim" hashes to it (the secret is new each run), so it only attaches. */
			if (!v || (i > 0 && fixture_set(v, TBL_NS_DEFAULT, "victim", "was here", 0) != TBL_OK)) {
				_exit(30);
			}
			if (i == 2) {
				(void)tbl_read_begin(v);
			} else if (i == 1) {
				(void)tbl_stripe_lock(v, 3);
			} else if (i == 0) {
				(void)tbl_misc_lock(v);   /* forked last */
			}
			if (write(ready[1], "r", 1) != 1) {
				_exit(31);
			}
			for (;;) {
				pause();
			}
		}
		REQUIRE(pids[i] > 0);
		REQUIRE(read(ready[0], &c, 1) == 1);
	}
	close(ready[1]);
	close(ready[0]);
	for (i = 0; i < 4; i++) {
		kill(pids[i], SIGKILL);
		CHECK(waitpid(pids[i], &status, 0) == pids[i] && WIFSIGNALED(status));
	}
	REQUIRE((t = open_named(2 * MB)) != NULL);
	tbl_get_stats(t, &s);
	CHECK_EQ_U64(s.processes, 1);   /* the victims' slots were released on attach */
	CHECK(value_is(t, "victim", "was here") && value_is(t, "base7", "v"));
	for (i = 0; i < 2000; i++) {   /* every stripe, and the allocator, many times over */
		char key[32];
		snprintf(key, sizeof(key), "after%d", i);
		CHECK(fixture_set(t, TBL_NS_DEFAULT, key, "value after the kill", 0) == TBL_OK);
		CHECK(tbl_delete(t, TBL_NS_DEFAULT, key, strlen(key)) == TBL_OK);
	}
	CHECK_CONSISTENT(t);
	tbl_get_stats(t, &s);
	CHECK(s.lock_repairs >= 1);
	CHECK_EQ_U64(s.entries, 51);
	tbl_destroy(t);
	remove_dir();
}

/* The reaper must not take a live process's slot because it maps the segment at another address. */
TBL_TEST(test_live_process_elsewhere_is_not_reaped)
{
	int ready[2], done[2], status;
	tbl_stats_t s;
	pid_t pid;
	tbl_t *t;
	char c;

	make_dir("elsewhere");
	REQUIRE((t = open_named(MB)) != NULL);
	REQUIRE(pipe(ready) == 0 && pipe(done) == 0);
	if ((pid = fork()) == 0) {
		tbl_t *v;
		close(ready[0]);
		close(done[1]);
		/* The parent's mapping is inherited and sits at the creator's address: this one goes elsewhere. */
		v = open_named(MB);
		if (!v || info_of(v).same_base || fixture_set(v, TBL_NS_DEFAULT, "child", "alive", 0) != TBL_OK) {
			_exit(30);
		}
		if (write(ready[1], "r", 1) != 1 || read(done[0], &c, 1) != 1) {
			_exit(31);
		}
		_exit(0);
	}
	close(ready[1]);
	close(done[0]);
	REQUIRE(read(ready[0], &c, 1) == 1);
	CHECK(value_is(t, "child", "alive"));
	CHECK_EQ_U64(tbl_slots_reap(t, 0), 0);
	tbl_get_stats(t, &s);
	CHECK_EQ_U64(s.processes, 2);
	CHECK(write(done[1], "d", 1) == 1);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ_U64(tbl_slots_reap(t, 0), 1);   /* it _exit()ed without detaching: now it is gone */
	tbl_get_stats(t, &s);
	CHECK_EQ_U64(s.processes, 1);
	close(ready[0]);
	close(done[1]);
	tbl_destroy(t);
	remove_dir();
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_two_handles_share_and_data_outlives_them),
	TBL_TEST_ENTRY(test_mode_is_exact_whatever_the_umask),
	TBL_TEST_ENTRY(test_symlink_is_refused),
	TBL_TEST_ENTRY(test_file_of_another_user_is_refused),
	TBL_TEST_ENTRY(test_header_mismatch_fails_or_recreates),
	TBL_TEST_ENTRY(test_other_size_attaches_at_existing_size),
	TBL_TEST_ENTRY(test_segment_of_a_previous_boot_is_new),
	TBL_TEST_ENTRY(test_unfinished_segment_is_initialised_afresh),
	TBL_TEST_ENTRY(test_moved_mapping_is_reported),
	TBL_TEST_ENTRY(test_racing_creators_make_one_table),
	TBL_TEST_ENTRY(test_all_killed_then_reattached),
	TBL_TEST_ENTRY(test_live_process_elsewhere_is_not_reaped),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
