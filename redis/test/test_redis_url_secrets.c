/*
 * test_redis_url_secrets.c - the password of table.redis (issue 33, finding 8): masked for display
 * (redis_url_mask.h), never quoted by a message, and read from auth_env= or auth_file= instead of the URL.
 * No server needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../redis_url.h"
#include "../redis_url_mask.h"
#include "../tier_config.h"

#define SECRET "s3cr3t-pw"

static int mask_is(const char *in, const char *want)
{
	char out[TBL_REDIS_URL_MASK_MAX(256)];
	size_t n = tbl_redis_url_mask(in, strlen(in), out, sizeof(out));
	if (n != strlen(want) || strcmp(out, want) != 0) {
		fprintf(stderr, "  mask(\"%s\") = \"%s\" (%zu), expected \"%s\"\n", in, out, n, want);
		return 0;
	}
	return 1;
}

static void test_mask(void)
{
	CHECK(mask_is("", ""));
	CHECK(mask_is("tcp://127.0.0.1:6379", "tcp://127.0.0.1:6379"));
	CHECK(mask_is("tcp://h?auth=" SECRET, "tcp://h?auth=***"));
	CHECK(mask_is("tcp://h:1?user=app&auth=" SECRET "&db=2", "tcp://h:1?user=app&auth=***&db=2"));
	CHECK(mask_is("unix:///run/r.sock?db=1&auth=a%26b", "unix:///run/r.sock?db=1&auth=***"));
	CHECK(mask_is("tcp://h?auth=", "tcp://h?auth=***"));
	CHECK(mask_is("tcp://h?password=" SECRET, "tcp://h?password=***"));
	CHECK(mask_is("tcp://app:" SECRET "@h:1?db=2", "tcp://***@h:1?db=2"));
	CHECK(mask_is("unix:///a@b.sock", "unix:///a@b.sock"));
	/* Names that are no secrets, and lookalikes, are kept. */
	CHECK(mask_is("tcp://h?auth_env=REDIS_PW&db=1", "tcp://h?auth_env=REDIS_PW&db=1"));
	CHECK(mask_is("tcp://h?auth_file=/etc/pw", "tcp://h?auth_file=/etc/pw"));
	CHECK(mask_is("tcp://h?xauth=1&authx=2", "tcp://h?xauth=1&authx=2"));
	CHECK(mask_is("tcp://h?auth=a=b&&auth", "tcp://h?auth=***&&auth"));
	/* A small buffer: truncated and terminated, the full length returned. */
	char small[8];
	CHECK(tbl_redis_url_mask("tcp://h?auth=x", 14, small, sizeof(small)) == 16);
	CHECK(strcmp(small, "tcp://h") == 0);
}

/* No refusal quotes the password's bytes. */
static void test_messages_never_quote_it(void)
{
	static const char *const bad[] = {
		"tcp://app:" SECRET "@127.0.0.1",
		"tcp://" SECRET "@127.0.0.1:6379",
		"tcp://h?auth=" SECRET "%zz",
		"tcp://h:99999?auth=" SECRET,
		"tcp://h?auth=" SECRET "&auth=" SECRET,
		"tcp://h?password=" SECRET,
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tbl_tier_config_t cfg;
		char err[512] = "";
		CHECK(tbl_tier_config_parse(&cfg, bad[i], "*", "table:", 1000, 1000, err, sizeof(err)) == -1);
		if (strstr(err, SECRET) || strstr(err, "3cr")) {
			fprintf(stderr, "  \"%s\": message quotes the password: %s\n", bad[i], err);
			test_failures++;
		}
	}
}

static void test_auth_env(void)
{
	tbl_redis_url_t u;
	char err[256];
	const char *s;
	setenv("TBL_TEST_REDIS_PW", SECRET, 1);
	s = "tcp://h?user=app&auth_env=TBL_TEST_REDIS_PW&db=2";
	CHECK(tbl_redis_url_parse(s, strlen(s), &u, err, sizeof(err)) == 0);
	CHECK(strcmp(u.auth, SECRET) == 0 && strcmp(u.user, "app") == 0 && u.db == 2);
	s = "tcp://h?auth_env=TBL_TEST_REDIS_UNSET";
	unsetenv("TBL_TEST_REDIS_UNSET");
	CHECK(tbl_redis_url_parse(s, strlen(s), &u, err, sizeof(err)) == -1 && strstr(err, "not set"));
	s = "tcp://h?auth_env=TBL_TEST_REDIS_PW&auth=x";
	CHECK(tbl_redis_url_parse(s, strlen(s), &u, err, sizeof(err)) == -1 && strstr(err, "twice"));
	CHECK(!strstr(err, SECRET));
	s = "tcp://h?auth_env=";
	CHECK(tbl_redis_url_parse(s, strlen(s), &u, err, sizeof(err)) == -1 && strstr(err, "empty"));
	unsetenv("TBL_TEST_REDIS_PW");
}

static void test_auth_file(void)
{
	char path[] = "/tmp/tbl-redis-pw.XXXXXX";
	int fd = mkstemp(path);
	REQUIRE(fd >= 0);
	char url[128], err[256];
	tbl_redis_url_t u;
	snprintf(url, sizeof(url), "unix:///run/r.sock?auth_file=%s", path);

	REQUIRE(write(fd, SECRET "\r\n", sizeof(SECRET) + 1) == (ssize_t)sizeof(SECRET) + 1);
	CHECK(tbl_redis_url_parse(url, strlen(url), &u, err, sizeof(err)) == 0);
	CHECK(strcmp(u.auth, SECRET) == 0);
	/* Without a newline; with two, only one is dropped. */
	REQUIRE(ftruncate(fd, 0) == 0 && pwrite(fd, "pw\n\n", 4, 0) == 4);
	CHECK(tbl_redis_url_parse(url, strlen(url), &u, err, sizeof(err)) == 0 && strcmp(u.auth, "pw\n") == 0);
	REQUIRE(ftruncate(fd, 0) == 0 && pwrite(fd, "pw", 2, 0) == 2);
	CHECK(tbl_redis_url_parse(url, strlen(url), &u, err, sizeof(err)) == 0 && strcmp(u.auth, "pw") == 0);
	/* Empty, too long, a NUL byte, missing, relative. */
	REQUIRE(ftruncate(fd, 0) == 0);
	CHECK(tbl_redis_url_parse(url, strlen(url), &u, err, sizeof(err)) == -1 && strstr(err, "empty"));
	char big[400];
	memset(big, 'x', sizeof(big));
	REQUIRE(pwrite(fd, big, sizeof(big), 0) == (ssize_t)sizeof(big));
	CHECK(tbl_redis_url_parse(url, strlen(url), &u, err, sizeof(err)) == -1 && strstr(err, "too long"));
	REQUIRE(ftruncate(fd, 0) == 0 && pwrite(fd, "a\0b", 3, 0) == 3);
	CHECK(tbl_redis_url_parse(url, strlen(url), &u, err, sizeof(err)) == -1 && strstr(err, "NUL"));
	close(fd);
	unlink(path);
	CHECK(tbl_redis_url_parse(url, strlen(url), &u, err, sizeof(err)) == -1 && strstr(err, "open failed"));
	const char *rel = "tcp://h?auth_file=pw.txt";
	CHECK(tbl_redis_url_parse(rel, strlen(rel), &u, err, sizeof(err)) == -1 && strstr(err, "absolute"));
}

static const test_case_t tests[] = {
	TEST_ENTRY(test_mask),
	TEST_ENTRY(test_messages_never_quote_it),
	TEST_ENTRY(test_auth_env),
	TEST_ENTRY(test_auth_file),
};

int main(int argc, char **argv)
{
	(void)argc;
	return test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
