/*
 * raw_bench.c - the core without PHP: times the index, the allocator and reclamation on set/get/delete
 * mixes over a data set, in the manner of hiredis's raw benchmark. Compare two builds with hyperfine.
 *
 *   raw_bench gen N FILE            write a data set: N keys with value sizes (16 B .. 4 KiB, skewed small)
 *   raw_bench run FILE [options]    load it into a fresh table, then time a mix
 *       --ops N        operations to time (default 2,000,000)
 *       --get P --set P --del P   the mix in percent (default 90/9/1)
 *       --memory MB    segment size (default: 3x the data set, at least 64)
 *       --policy lru|random|noeviction
 *   raw_bench                        gen 100,000 keys in memory and run the default mix plus pure get/set
 *
 * Output: one line per run, "mix get/set/del: N ops in S s = X Mops/s (hits H, set failures F)".
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "table_core.h"

typedef struct dataset {
	size_t n;
	char **keys;
	uint32_t *klen;
	uint32_t *vlen;
	uint64_t total_bytes;
} dataset_t;

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint32_t value_size(void)
{
	/* Mostly small values, a long tail up to 4 KiB: like real cache contents. */
	uint32_t r = (uint32_t)(rng() % 100);
	if (r < 70) {
		return 16 + (uint32_t)(rng() % 240);
	}
	if (r < 95) {
		return 256 + (uint32_t)(rng() % 768);
	}
	return 1024 + (uint32_t)(rng() % 3072);
}

static void dataset_add(dataset_t *d, const char *key, uint32_t vlen)
{
	d->keys[d->n] = strdup(key);
	d->klen[d->n] = (uint32_t)strlen(key);
	d->vlen[d->n] = vlen;
	d->total_bytes += vlen + d->klen[d->n] + 96;
	d->n++;
}

static void dataset_alloc(dataset_t *d, size_t cap)
{
	memset(d, 0, sizeof(*d));
	d->keys = calloc(cap, sizeof(char *));
	d->klen = calloc(cap, sizeof(uint32_t));
	d->vlen = calloc(cap, sizeof(uint32_t));
	if (!d->keys || !d->klen || !d->vlen) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
}

static void dataset_generate(dataset_t *d, size_t n)
{
	char key[64];
	size_t i;

	dataset_alloc(d, n);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "app:object:%zu:%llx", i, (unsigned long long)(rng() & 0xFFFF));
		dataset_add(d, key, value_size());
	}
}

static int dataset_load(dataset_t *d, const char *path)
{
	char line[256], key[200];
	size_t cap = 1024;
	unsigned vlen;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	dataset_alloc(d, cap);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%199s %u", key, &vlen) != 2) {
			continue;
		}
		if (d->n == cap) {
			cap *= 2;
			d->keys = realloc(d->keys, cap * sizeof(char *));
			d->klen = realloc(d->klen, cap * sizeof(uint32_t));
			d->vlen = realloc(d->vlen, cap * sizeof(uint32_t));
		}
		dataset_add(d, key, vlen);
	}
	fclose(f);
	return d->n ? 0 : -1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct mix {
	unsigned get, set, del;
} mix_t;

static void run_mix(tbl_t *t, const dataset_t *d, const char *value, uint64_t ops, mix_t m)
{
	uint64_t i, hits = 0, failures = 0;
	double start, secs;

	start = now_s();
	for (i = 0; i < ops; i++) {
		size_t k = (size_t)(rng() % d->n);
		unsigned r = (unsigned)(rng() % 100);

		if (r < m.get) {
			tbl_view_t v;
			tbl_read_begin(t);
			if (tbl_lookup(t, 0, d->keys[k], d->klen[k], &v, 1) == TBL_OK) {
				hits += ((const unsigned char *)v.data)[0] == 'v';
			}
			tbl_read_end(t);
		} else if (r < m.get + m.set) {
			tbl_value_t v = { TBL_T_STRING, value, d->vlen[k], NULL };
			failures += tbl_store(t, 0, d->keys[k], d->klen[k], &v, 0, TBL_STORE_SET) != TBL_OK;
		} else {
			tbl_delete(t, 0, d->keys[k], d->klen[k]);
		}
	}
	secs = now_s() - start;
	printf("mix %u/%u/%u: %llu ops in %.3f s = %.2f Mops/s (hits %llu, set failures %llu)\n", m.get, m.set, m.del,
	       (unsigned long long)ops, secs, (double)ops / secs / 1e6, (unsigned long long)hits,
	       (unsigned long long)failures);
}

static tbl_t *open_table(uint64_t memory, tbl_policy_t policy)
{
	tbl_config_t cfg;
	char err[256];
	tbl_t *t;

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = memory;
	cfg.policy = policy;
	if (tbl_create(&t, &cfg, err, sizeof(err)) != TBL_OK) {
		fprintf(stderr, "tbl_create: %s\n", err);
		exit(1);
	}
	return t;
}

static void seed(tbl_t *t, const dataset_t *d, const char *value)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		tbl_value_t v = { TBL_T_STRING, value, d->vlen[i], NULL };
		if (tbl_store(t, 0, d->keys[i], d->klen[i], &v, 0, TBL_STORE_SET) != TBL_OK) {
			fprintf(stderr, "seeding failed at key %zu: the table is too small\n", i);
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	static char value[8192];
	uint64_t ops = 2000000, memory_mb = 0;
	tbl_policy_t policy = TBL_POLICY_LRU;
	mix_t m = { 90, 9, 1 };
	dataset_t d;
	tbl_t *t;
	int i;

	memset(value, 'v', sizeof(value));
	if (argc >= 4 && strcmp(argv[1], "gen") == 0) {
		size_t n = strtoull(argv[2], NULL, 10), k;
		FILE *f = fopen(argv[3], "w");
		if (!f || n == 0) {
			fprintf(stderr, "usage: raw_bench gen N FILE\n");
			return 2;
		}
		dataset_generate(&d, n);
		for (k = 0; k < d.n; k++) {
			fprintf(f, "%s %u\n", d.keys[k], d.vlen[k]);
		}
		fclose(f);
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "run") == 0) {
		if (dataset_load(&d, argv[2]) != 0) {
			fprintf(stderr, "cannot load data set %s\n", argv[2]);
			return 2;
		}
		for (i = 3; i + 1 < argc; i += 2) {
			if (!strcmp(argv[i], "--ops")) ops = strtoull(argv[i + 1], NULL, 10);
			else if (!strcmp(argv[i], "--get")) m.get = (unsigned)atoi(argv[i + 1]);
			else if (!strcmp(argv[i], "--set")) m.set = (unsigned)atoi(argv[i + 1]);
			else if (!strcmp(argv[i], "--del")) m.del = (unsigned)atoi(argv[i + 1]);
			else if (!strcmp(argv[i], "--memory")) memory_mb = strtoull(argv[i + 1], NULL, 10);
			else if (!strcmp(argv[i], "--policy")) {
				policy = !strcmp(argv[i + 1], "random") ? TBL_POLICY_RANDOM
				         : !strcmp(argv[i + 1], "noeviction") ? TBL_POLICY_NOEVICTION : TBL_POLICY_LRU;
			} else {
				fprintf(stderr, "unknown option %s\n", argv[i]);
				return 2;
			}
		}
		if (m.get + m.set + m.del != 100) {
			fprintf(stderr, "--get + --set + --del must be 100\n");
			return 2;
		}
	} else if (argc > 1) {
		fprintf(stderr, "usage: raw_bench [gen N FILE | run FILE [--ops N] [--get P --set P --del P] "
		                "[--memory MB] [--policy P]]\n");
		return 2;
	} else {
		dataset_generate(&d, 100000);
	}
	if (!memory_mb) {
		memory_mb = d.total_bytes * 3 / (1024 * 1024) + 64;
	}
	t = open_table(memory_mb * 1024 * 1024, policy);
	seed(t, &d, value);
	printf("data set: %zu keys, %.1f MiB; table %llu MiB\n", d.n, (double)d.total_bytes / 1048576.0,
	       (unsigned long long)memory_mb);
	run_mix(t, &d, value, ops, m);
	if (argc == 1) {
		run_mix(t, &d, value, ops, (mix_t){ 100, 0, 0 });
		run_mix(t, &d, value, ops / 4, (mix_t){ 0, 100, 0 });
	}
	tbl_destroy(t);
	return 0;
}
