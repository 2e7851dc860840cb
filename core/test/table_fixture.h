/*
 * table_fixture.h - helpers shared by the core tests that need a whole table.
 */
#ifndef TBL_TEST_TABLE_FIXTURE_H
#define TBL_TEST_TABLE_FIXTURE_H

#include <string.h>
#include "harness.h"
#include "table_core.h"

/* A table with at most `namespaces` named namespaces (0: TBL_NS_NAMED_MAX, what the extension gets). */
static inline tbl_t *fixture_open_ns(uint64_t memory, tbl_policy_t policy, uint32_t namespaces)
{
	tbl_config_t cfg;
	char err[256];
	tbl_t *t = NULL;

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = memory;
	cfg.policy = policy;
	cfg.namespaces = namespaces;
	if (tbl_create(&t, &cfg, err, sizeof(err)) != TBL_OK) {
		fprintf(stderr, "tbl_create: %s\n", err);
		return NULL;
	}
	return t;
}

/* Tests that fill the namespace table (recycling, its crash points) do it with 128 namespaces, not
 * 65,533, which would not fit their small tables' entries. */
#define FIXTURE_NAMESPACES 128u

static inline tbl_t *fixture_open(uint64_t memory, tbl_policy_t policy)
{
	return fixture_open_ns(memory, policy, FIXTURE_NAMESPACES);
}

static inline tbl_value_t fixture_str(const char *s)
{
	tbl_value_t v = { TBL_T_STRING, s, (uint32_t)strlen(s), NULL };
	return v;
}

static inline tbl_status_t fixture_set(tbl_t *t, tbl_ns_t ns, const char *key, const char *val, uint32_t ttl)
{
	tbl_value_t v = fixture_str(val);
	return tbl_store(t, ns, key, strlen(key), &v, ttl, TBL_STORE_SET);
}

/* Copies the value of `key` into buf (NUL-terminated). Returns the lookup status. */
static inline tbl_status_t fixture_get(tbl_t *t, tbl_ns_t ns, const char *key, char *buf, size_t buflen)
{
	tbl_view_t v;
	tbl_status_t st;

	if ((st = tbl_read_begin(t)) != TBL_OK) {
		return st;
	}
	st = tbl_lookup(t, ns, key, strlen(key), &v, 1);
	if (st == TBL_OK) {
		size_t n = v.len < buflen - 1 ? v.len : buflen - 1;
		memcpy(buf, v.data, n);
		buf[n] = '\0';
	}
	tbl_read_end(t);
	return st;
}

/* Hold the default namespace's `key` as a zero-copy reader does (no budget, not counted as a hit). */
static inline tbl_status_t fixture_hold(tbl_t *t, const char *key)
{
	tbl_view_t v;
	tbl_status_t st;

	if ((st = tbl_read_begin(t)) != TBL_OK) {
		return st;
	}
	st = tbl_lookup(t, TBL_NS_DEFAULT, key, strlen(key), &v, 0);
	if (st == TBL_OK) {
		st = tbl_hold(t, &v, UINT64_MAX);
	}
	tbl_read_end(t);
	return st;
}

/* CHECK that the table passes its full consistency check, printing the reason if not. */
#define CHECK_CONSISTENT(t) do { \
		char ck_err_[512]; \
		int ck_rc_ = tbl_check((t), ck_err_, sizeof(ck_err_)); \
		if (ck_rc_ != 0) { fprintf(stderr, "tbl_check: %s\n", ck_err_); } \
		CHECK(ck_rc_ == 0); \
	} while (0)

#endif
