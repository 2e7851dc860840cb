/*
 * fuzz_ops.c - libFuzzer target: random operation sequences against the table and against a plain
 * model (an array indexed by namespace and key id), compared after every step, with the full
 * consistency check at the end of each input.
 *
 * Input bytes are read as a stream of operations: [op][ns][key][arg...]. 3 namespaces x 32 keys,
 * values up to 1 KiB, policy noeviction in a table large enough that nothing is ever evicted, so the
 * model is exact. No TTLs (time would make runs irreproducible).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "table_core.h"

#define NS 3
#define KEYS 32
#define MAXV 1024

typedef struct model_entry {
	int present;
	uint8_t type;
	uint32_t len;
	unsigned char data[MAXV];
} model_entry_t;

static tbl_t *table;
static tbl_ns_t ns_ids[NS];
static model_entry_t model[NS][KEYS];

typedef struct reader {
	const uint8_t *p;
	size_t n;
} reader_t;

static int take(reader_t *r, uint8_t *out)
{
	if (!r->n) {
		return 0;
	}
	*out = *r->p++;
	r->n--;
	return 1;
}

static void key_name(char *buf, size_t size, uint8_t k)
{
	snprintf(buf, size, "key-%u%s", k, k % 5 == 0 ? "-with-a-longer-tail-to-vary-lengths" : "");
}

static void make_value(unsigned char *buf, uint32_t len, uint8_t seed)
{
	uint32_t i;
	for (i = 0; i < len; i++) {
		buf[i] = (unsigned char)(seed + i * 31u);
	}
}

static void setup(void)
{
	tbl_config_t cfg;
	char err[256];
	int i;

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = 4u * 1024 * 1024;
	cfg.policy = TBL_POLICY_NOEVICTION;
	/* A fixed hash key: the same input then builds the same chains, so a crash reproduces. */
	cfg.fixed_hash_key = 1;
	cfg.hash_key[0] = 0x66757a7a6b657930ull;
	cfg.hash_key[1] = 0x66757a7a6b657931ull;
	if (tbl_create(&table, &cfg, err, sizeof(err)) != TBL_OK) {
		fprintf(stderr, "tbl_create: %s\n", err);
		abort();
	}
	ns_ids[0] = TBL_NS_DEFAULT;
	for (i = 1; i < NS; i++) {
		char name[16];
		snprintf(name, sizeof(name), "ns%d", i);
		if (tbl_ns_get(table, name, strlen(name), &ns_ids[i]) != TBL_OK) {
			abort();
		}
	}
}

static void check_key(int ns, uint8_t k)
{
	model_entry_t *m = &model[ns][k];
	char key[64];
	tbl_view_t v;
	tbl_status_t st;

	key_name(key, sizeof(key), k);
	tbl_read_begin(table);
	st = tbl_lookup(table, ns_ids[ns], key, strlen(key), &v, 0);
	if ((st == TBL_OK) != m->present) {
		abort();
	}
	if (st == TBL_OK) {
		/* A value may lie in pieces (TBL_T_SPLIT) when the heap was fragmented: compare its bytes. */
		unsigned char *got = malloc(v.len ? v.len : 1);

		if (!got || (v.type & ~TBL_T_SPLIT) != m->type || v.len != m->len) {
			abort();
		}
		tbl_view_copy(table, &v, got);
		if (memcmp(got, m->data, v.len) != 0) {
			abort();
		}
		free(got);
	}
	tbl_read_end(table);
}

static void model_set(model_entry_t *m, uint8_t type, const void *data, uint32_t len)
{
	m->present = 1;
	m->type = type;
	m->len = len;
	memcpy(m->data, data, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	reader_t r = { data, size };
	uint8_t op, nsb, kb, a, b;
	uint64_t removed;
	int ns, i;

	if (!table) {
		setup();
	}
	tbl_clear_all(table, NULL);
	memset(model, 0, sizeof(model));
	while (take(&r, &op) && take(&r, &nsb) && take(&r, &kb) && take(&r, &a) && take(&r, &b)) {
		unsigned char val[MAXV];
		uint32_t len = ((uint32_t)a * 4u + b) % MAXV;
		uint8_t k = kb % KEYS;
		model_entry_t *m;
		tbl_value_t v = { TBL_T_STRING, val, len, NULL };
		char key[64];
		tbl_status_t st;

		ns = nsb % NS;
		m = &model[ns][k];
		key_name(key, sizeof(key), k);
		make_value(val, len, b);
		switch (op % 8) {
		case 0: /* set */
			if (tbl_store(table, ns_ids[ns], key, strlen(key), &v, 0, TBL_STORE_SET) != TBL_OK) abort();
			model_set(m, TBL_T_STRING, val, len);
			break;
		case 1: /* add */
			st = tbl_store(table, ns_ids[ns], key, strlen(key), &v, 0, TBL_STORE_ADD);
			if (st != (m->present ? TBL_EEXIST : TBL_OK)) abort();
			if (st == TBL_OK) model_set(m, TBL_T_STRING, val, len);
			break;
		case 2: /* delete */
			st = tbl_delete(table, ns_ids[ns], key, strlen(key));
			if (st != (m->present ? TBL_OK : TBL_ENOTFOUND)) abort();
			m->present = 0;
			break;
		case 3: { /* incr */
			int64_t cur = 0, res = 0, delta = (int64_t)(int8_t)a * 1000 + b;
			st = tbl_incr(table, ns_ids[ns], key, strlen(key), delta, 0, &res);
			if (m->present && m->type != TBL_T_LONG) {
				if (st != TBL_ETYPE) abort();
				break;
			}
			if (m->present) memcpy(&cur, m->data, 8);
			if (st != TBL_OK || res != cur + delta) abort();
			cur += delta;
			model_set(m, TBL_T_LONG, &cur, 8);
			break;
		}
		case 4: { /* cas with the current value or a wrong one */
			tbl_value_t expected = { m->type, m->data, m->len, NULL };
			unsigned char wrong = 0xEE;
			if (a & 1) { expected.type = TBL_T_STRING; expected.data = &wrong; expected.len = 1; }
			st = tbl_cas(table, ns_ids[ns], key, strlen(key), &expected, &v);
			if (!m->present) { if (st != TBL_ENOTFOUND) abort(); break; }
			if ((a & 1) && !(m->type == TBL_T_STRING && m->len == 1 && m->data[0] == 0xEE)) {
				if (st != TBL_EMISMATCH) abort();
				break;
			}
			if (st != TBL_OK) abort();
			model_set(m, TBL_T_STRING, val, len);
			break;
		}
		case 5: /* clear one namespace */
			if (a % 16 == 0) {
				uint64_t live = 0;
				for (i = 0; i < KEYS; i++) live += model[ns][i].present;
				if (tbl_clear_ns(table, ns_ids[ns], &removed) != TBL_OK || removed != live) abort();
				memset(model[ns], 0, sizeof(model[ns]));
			}
			break;
		default: /* read */
			break;
		}
		check_key(ns, k);
	}
	for (ns = 0; ns < NS; ns++) {
		uint64_t live = 0;
		for (i = 0; i < KEYS; i++) {
			check_key(ns, (uint8_t)i);
			live += model[ns][i].present;
		}
		if (tbl_ns_entries(table, ns_ids[ns]) != live) abort();
	}
	{
		char err[512];
		if (tbl_check(table, err, sizeof(err)) != 0) {
			fprintf(stderr, "tbl_check: %s\n", err);
			abort();
		}
	}
	return 0;
}
