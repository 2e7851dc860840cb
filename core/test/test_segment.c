/*
 * test_segment.c - named, file-backed segments (shm_file.c, tbl_config_t.segment_path): processes that
 * open the same file share one table; the file's safety rules (0600, no symlink, no foreign owner, a
 * header that must match); first creation by exactly one of several racing processes; a creator killed
 * midway; an existing segment of another size; one from a previous boot; the creator's base address and
 * the fallback elsewhere; recovery after every process that had it mapped was SIGKILLed; the trust rules
 * (no mode for 'other' users, a group trusted only when asked for); a bounded wait for a lock another
 * process holds; a full file system failing the creation or a namespace's first use, never a SIGBUS; a
 * file removed or replaced under a handle, noticed (tbl_segment_current); another version's segment
 * replaced at once, a damaged one only when asked.
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
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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
	cfg.segment_keep_versions = 1;
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "version 1.0") != NULL && strstr(err, "segment_recreate") == NULL);
	/* By default another version's segment is replaced at once: a new, empty table; the old one stays
	 * whole for the handle that still maps it, which sees that the path names another file now. */
	cfg.segment_keep_versions = 0;
	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(info_of(t).created && info_of(t).replaced == TBL_SEG_REPLACED_VERSION && info_of(t).replaced_version);
	CHECK(strstr(info_of(t).note, "made by version 1.0, this is version 2.0") != NULL);
	CHECK(!value_is(t, "k", "v1"));
	CHECK(value_is(old, "k", "v1"));
	CHECK_CONSISTENT(old);
	CHECK(tbl_segment_current(old) == TBL_SEGMENT_REPLACED && tbl_segment_current(t) == TBL_SEGMENT_CURRENT);
	tbl_destroy(t);
	tbl_destroy(old);
	/* An older build does not replace a newer one's segment (a cron job still on the old table.so would
	 * empty the upgraded table again and again): it refuses, saying how to downgrade; with
	 * table.segment_recreate=1 it replaces it. */
	cfg = named_cfg(MB);
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "made by a newer build") != NULL && strstr(err, "version 2.0") != NULL
	      && strstr(err, "segment_recreate=1") != NULL);
	cfg.app_version = "1.10";   /* number by number: 1.10 is older than 2.0 */
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL && st == TBL_EINVAL);
	cfg.app_version = "2.0.1";  /* newer than 2.0: replaces it */
	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(info_of(t).replaced == TBL_SEG_REPLACED_VERSION);
	tbl_destroy(t);
	cfg = named_cfg(MB);
	cfg.segment_recreate = 1;
	REQUIRE((old = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(info_of(old).replaced == TBL_SEG_REPLACED_VERSION);   /* the 2.0.1 segment, replaced by 1.0 on request */
	tbl_destroy(old);
	/* Another layout: the same, and the note names both. */
	{
		tbl_seg_prefix_t pre;
		REQUIRE((fd = open(path, O_RDWR)) >= 0);
		REQUIRE(pread(fd, &pre, sizeof(pre), 0) == (ssize_t)sizeof(pre));
		pre.layout_version = TBL_LAYOUT_VERSION - 1;
		REQUIRE(pwrite(fd, &pre, sizeof(pre), 0) == (ssize_t)sizeof(pre));
		close(fd);
	}
	REQUIRE((t = open_named(MB)) != NULL);
	CHECK(info_of(t).created && info_of(t).replaced_version && strstr(info_of(t).note, "layout") != NULL);
	tbl_destroy(t);
	/* A newer layout is refused as a newer version is; one made in a previous boot nobody can be using,
	 * so it is replaced. */
	{
		tbl_seg_prefix_t pre;
		REQUIRE((fd = open(path, O_RDWR)) >= 0);
		REQUIRE(pread(fd, &pre, sizeof(pre), 0) == (ssize_t)sizeof(pre));
		pre.layout_version = TBL_LAYOUT_VERSION + 1;
		REQUIRE(pwrite(fd, &pre, sizeof(pre), 0) == (ssize_t)sizeof(pre));
		CHECK(open_named(MB) == NULL);
		pre.boot_id[0] ^= 1;
		REQUIRE(pwrite(fd, &pre, sizeof(pre), 0) == (ssize_t)sizeof(pre));
		close(fd);
	}
	REQUIRE((t = open_named(MB)) != NULL);
	CHECK(info_of(t).created && info_of(t).replaced_version);
	tbl_destroy(t);
	/* A damaged header is another matter: only table.segment_recreate replaces it. */
	{
		tbl_seg_prefix_t pre;
		REQUIRE((fd = open(path, O_RDWR)) >= 0);
		REQUIRE(pread(fd, &pre, sizeof(pre), 0) == (ssize_t)sizeof(pre));
		pre.memory = pre.map_size + 1;
		REQUIRE(pwrite(fd, &pre, sizeof(pre), 0) == (ssize_t)sizeof(pre));
		close(fd);
	}
	cfg = named_cfg(MB);
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "damaged") != NULL && strstr(err, "segment_recreate") != NULL);
	cfg.segment_recreate = 1;
	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(info_of(t).replaced == TBL_SEG_REPLACED_MISMATCH && !info_of(t).replaced_version);
	tbl_destroy(t);

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

TBL_TEST(test_modes_open_to_others_are_refused)
{
	tbl_config_t cfg;
	char err[512];
	tbl_status_t st;
	tbl_t *t;

	make_dir("others");
	cfg = named_cfg(MB);
	cfg.segment_mode = 0666;
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "every user of this host") != NULL);
	CHECK(access(path, F_OK) != 0);
	REQUIRE((t = open_named(MB)) != NULL);
	tbl_destroy(t);
	REQUIRE(chmod(path, 0604) == 0);
	cfg.segment_mode = 0;
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "has mode 0604") != NULL);
	/* Its own user's file shared with the group: the owner may use it whatever its own mode says. */
	REQUIRE(chmod(path, 0660) == 0);
	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	tbl_destroy(t);
	remove_dir();
}

TBL_TEST(test_group_is_trusted_only_when_asked)
{
	tbl_config_t cfg;
	char err[512];
	tbl_status_t st;
	tbl_t *t;
	gid_t group = 65534;

	make_dir("group");
	if (geteuid() != 0) {
		printf("  (not root: cannot make a file of another user; checked by the PHPT test when root)\n");
		remove_dir();
		return;
	}
	REQUIRE((t = open_named(MB)) != NULL);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "k", "v", 0) == TBL_OK);
	tbl_destroy(t);
	REQUIRE(chown(path, 65534, group) == 0 && chmod(path, 0660) == 0);
	cfg = named_cfg(MB);
	cfg.segment_mode = 0660;
	/* Root is not in that group. */
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "which this process's user (uid 0) is not in") != NULL);
	REQUIRE(setegid(group) == 0);
	/* Now it is: a member of the file's group shares the table... */
	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(value_is(t, "k", "v"));
	tbl_destroy(t);
	/* ... unless it trusts no one but its own user ... */
	cfg.segment_mode = 0600;
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "owned by uid 65534, not by this process's user") != NULL
	      && strstr(err, "table.segment_mode=0660") != NULL);
	/* ... or the file is not its group's. */
	cfg.segment_mode = 0660;
	REQUIRE(chmod(path, 0640) == 0);
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_EINVAL && strstr(err, "not shared with its group (mode 0640)") != NULL);
	REQUIRE(setegid(0) == 0);
	remove_dir();
}

TBL_TEST(test_lock_held_elsewhere_is_a_bounded_wait)
{
	tbl_config_t cfg;
	char err[512], want[64], c;
	int ready[2], go[2], status;
	tbl_status_t st;
	pid_t pid;
	tbl_t *t;

	make_dir("lockwait");
	REQUIRE((t = open_named(MB)) != NULL);
	tbl_destroy(t);
	REQUIRE(pipe(ready) == 0 && pipe(go) == 0);
	if ((pid = fork()) == 0) {
		int fd = open(path, O_RDONLY);   /* read access is enough to hold flock() */
		close(ready[0]);
		close(go[1]);
		if (fd < 0 || flock(fd, LOCK_EX) != 0 || write(ready[1], "l", 1) != 1) {
			_exit(30);
		}
		_exit(read(go[0], &c, 1) >= 0 ? 0 : 31);
	}
	REQUIRE(pid > 0);
	close(ready[1]);
	close(go[0]);
	REQUIRE(read(ready[0], &c, 1) == 1);
	cfg = named_cfg(MB);
	cfg.lock_wait_ms = 200;
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	snprintf(want, sizeof(want), "is locked by another process (pid %ld)", (long)pid);
	CHECK(st == TBL_EBUSY && strstr(err, want) != NULL && strstr(err, "within 0.2 s") != NULL);
	close(go[1]);   /* let go: the next open attaches */
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(!info_of(t).created);
	tbl_destroy(t);
	close(ready[0]);
	remove_dir();
}

static uint64_t free_bytes(void)
{
	struct statvfs vs;

	return statvfs(dir, &vs) == 0 ? (uint64_t)vs.f_bavail * vs.f_frsize : 0;
}

/* A tmpfs of 4 MiB: a segment that does not fit is refused whole, one that does is reserved at once,
 * and what is used later (a namespace's pages) fails with TBL_ESYS when the file system is full. */
TBL_TEST(test_full_file_system_is_an_error_not_a_sigbus)
{
	tbl_config_t cfg;
	char err[512], filler[600], name[32];
	static char block[4096];
	tbl_status_t st = TBL_OK;
	uint64_t free0, need;
	tbl_ns_t ns;
	tbl_t *t;
	int fd, i;

	make_dir("full");
	if (geteuid() != 0 || mount("tmpfs", dir, "tmpfs", 0, "size=4m") != 0) {
		printf("  (cannot mount a tmpfs here: checked by the PHPT test where it can)\n");
		remove_dir();
		return;
	}
	cfg = named_cfg(8 * MB);
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_ESYS && strstr(err, "no room for a segment of") != NULL && strstr(err, path) != NULL
	      && strstr(err, "bytes free there") != NULL);
	CHECK(access(path, F_OK) != 0);   /* nothing left behind */

	/* Room for the table, not for the default namespace's pages (reserved after it is initialised): the
	 * unpublished file is removed as well. */
	cfg = named_cfg(MB);
	cfg.namespaces = 300;
	free0 = free_bytes();
	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	tbl_destroy(t);
	need = free0 - free_bytes();
	REQUIRE(unlink(path) == 0 && need > 64 * 1024);
	snprintf(filler, sizeof(filler), "%s/filler", dir);
	memset(block, 1, sizeof(block));
	REQUIRE((fd = open(filler, O_CREAT | O_WRONLY, 0600)) >= 0);
	while (free_bytes() > need - 64 * 1024 && write(fd, block, sizeof(block)) == (ssize_t)sizeof(block)) {
	}
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL);
	CHECK(st == TBL_ESYS && strstr(err, "no room for the default namespace") != NULL);
	CHECK(access(path, F_OK) != 0);
	REQUIRE(ftruncate(fd, 0) == 0);

	REQUIRE((t = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	while (write(fd, block, sizeof(block)) == (ssize_t)sizeof(block)) {
	}
	close(fd);
	CHECK(fixture_set(t, TBL_NS_DEFAULT, "k", "v", 0) == TBL_OK);   /* the heap was reserved */
	for (i = 1; i <= 200; i++) {
		snprintf(name, sizeof(name), "ns%d", i);
		if ((st = tbl_ns_get(t, name, strlen(name), &ns)) != TBL_OK) {
			break;
		}
	}
	CHECK(st == TBL_ESYS && i > 1 && strstr(tbl_errstr(t), "no room for a new namespace") != NULL);
	REQUIRE(unlink(filler) == 0);
	CHECK(tbl_ns_get(t, name, strlen(name), &ns) == TBL_OK);
	CHECK(fixture_set(t, ns, "k", "v", 0) == TBL_OK && fixture_set(t, TBL_NS_DEFAULT, "k2", "v", 0) == TBL_OK);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
	CHECK(umount(dir) == 0);
	remove_dir();
}

/* Finding 6 of issue 33: `rm` of the file, or a new segment in its place, left every process attached
 * before on the old table for good. tbl_segment_current() tells; a new handle joins the new table. */
TBL_TEST(test_removed_or_replaced_is_noticed)
{
	tbl_t *a, *b, *c, *anon;
	tbl_config_t cfg;
	char err[256];
	tbl_status_t st;

	make_dir("noticed");
	REQUIRE((a = open_named(MB)) != NULL);
	CHECK(tbl_segment_current(a) == TBL_SEGMENT_CURRENT);
	CHECK(fixture_set(a, TBL_NS_DEFAULT, "k", "old", 0) == TBL_OK);
	REQUIRE(unlink(path) == 0);
	CHECK(tbl_segment_current(a) == TBL_SEGMENT_REMOVED);
	CHECK(value_is(a, "k", "old"));   /* still mapped, whole */
	/* Someone starts after the rm: a new, empty file at the path. */
	REQUIRE((b = open_named(MB)) != NULL);
	CHECK(info_of(b).created);
	CHECK(tbl_segment_current(a) == TBL_SEGMENT_REPLACED && tbl_segment_current(b) == TBL_SEGMENT_CURRENT);
	CHECK(fixture_set(b, TBL_NS_DEFAULT, "k", "new", 0) == TBL_OK);
	/* a re-attaches as the binding does: never replacing what it finds. */
	tbl_destroy(a);
	cfg = named_cfg(2 * MB);
	cfg.segment_keep_versions = 1;
	REQUIRE((a = open_cfg(&cfg, &st, err, sizeof(err))) != NULL);
	CHECK(!info_of(a).created && info_of(a).memory == MB && tbl_segment_current(a) == TBL_SEGMENT_CURRENT);
	CHECK(value_is(a, "k", "new"));
	CHECK(fixture_set(a, TBL_NS_DEFAULT, "k2", "from a", 0) == TBL_OK && value_is(b, "k2", "from a"));
	/* ... and a process of another version that finds its file replaced refuses rather than replace back. */
	cfg = named_cfg(MB);
	cfg.app_version = "0.9";
	cfg.segment_keep_versions = 1;
	CHECK(open_cfg(&cfg, &st, err, sizeof(err)) == NULL && st == TBL_EINVAL);
	CHECK_CONSISTENT(b);
	tbl_destroy(a);
	tbl_destroy(b);
	/* A path that names a directory now (it can't be opened as a segment): replaced, not current. */
	REQUIRE((c = open_named(MB)) != NULL);
	REQUIRE(unlink(path) == 0 && mkdir(path, 0700) == 0);
	CHECK(tbl_segment_current(c) == TBL_SEGMENT_REPLACED);
	tbl_destroy(c);
	REQUIRE(rmdir(path) == 0);
	/* An anonymous segment is always current. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = MB;
	REQUIRE(tbl_create(&anon, &cfg, err, sizeof(err)) == TBL_OK);
	CHECK(tbl_segment_current(anon) == TBL_SEGMENT_CURRENT);
	tbl_destroy(anon);
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
	TBL_TEST_ENTRY(test_modes_open_to_others_are_refused),
	TBL_TEST_ENTRY(test_group_is_trusted_only_when_asked),
	TBL_TEST_ENTRY(test_lock_held_elsewhere_is_a_bounded_wait),
	TBL_TEST_ENTRY(test_full_file_system_is_an_error_not_a_sigbus),
	TBL_TEST_ENTRY(test_removed_or_replaced_is_noticed),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
