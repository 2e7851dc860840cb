/*
 * eviction_replay.c - the eviction benchmark's trace replayed against the core alone, with no PHP: a
 * fixed-seed sequence of key ids drawn from a Zipf distribution, each key with a log-normal value size
 * (median 1 KiB, sigma 1.2, clipped to 100 B..100 KiB), replayed as get-or-set (get the key; on a miss,
 * set it to a value of its size). Hits are counted over the last 2/3 of the operations, after the
 * table has filled. The segment's hash key is fixed, so a policy whose ranking reads no clock gives
 * the same hit ratio on every run; this program runs each policy twice and says whether it did.
 *
 * It is the quick loop for working on evict.c: the same trace as benchmarks/eviction (not the same
 * operations, since PHP's generator is not reimplemented here), in about a second per policy.
 *
 *   eviction_replay [--memory MB] [--keys N] [--ops N] [--zipf X] [--seed N] [--policy NAME ...]
 *
 * Output: one line per policy: "policy P: hit ratio H (hits/counted), evictions E, failed sets F,
 * S s[, same on a second run | DIFFERENT on a second run]", then what an eviction run (one window) cost on
 * average: the entries it evicted, the heap blocks it looked at (the time is too noisy on a shared
 * machine to compare), the entries it moved.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "table_core.h"
#include "segment.h"   /* struct tbl's evict_looked: what the evictions cost */

typedef struct trace {
	uint32_t nops, nkeys;
	uint32_t *ops;           /* key ids, 0 the most popular */
	uint32_t *size;          /* value bytes per key */
} trace_t;

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double unit(uint64_t *s)
{
	return ((double)(splitmix(s) >> 11) + 0.5) / 9007199254740992.0;
}

static void trace_make(trace_t *tr, uint32_t nops, uint32_t nkeys, double zipf, uint64_t seed)
{
	double *cdf = malloc(sizeof(double) * nkeys), sum = 0;
	uint64_t s = seed;
	uint32_t i;

	tr->nops = nops;
	tr->nkeys = nkeys;
	tr->ops = malloc(sizeof(uint32_t) * nops);
	tr->size = malloc(sizeof(uint32_t) * nkeys);
	if (!cdf || !tr->ops || !tr->size) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (i = 0; i < nkeys; i++) {
		cdf[i] = sum += 1.0 / pow(i + 1.0, zipf);
	}
	for (i = 0; i < nops; i++) {
		double u = unit(&s) * sum;
		uint32_t lo = 0, hi = nkeys - 1;

		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (cdf[mid] < u) {
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		tr->ops[i] = lo;
	}
	for (i = 0; i < nkeys; i++) {
		/* Box-Muller, one draw per key: the size is a function of the key and the seed alone. */
		double z = sqrt(-2.0 * log(unit(&s))) * cos(2.0 * M_PI * unit(&s));
		double v = 1024.0 * exp(1.2 * z);

		tr->size[i] = v < 100 ? 100 : v > 102400 ? 102400 : (uint32_t)v;
	}
	free(cdf);
}

typedef struct result {
	uint64_t hits, counted, failed, evictions, runs, moves, entries, entry_bytes, heap, looked;
	double seconds;
} result_t;

static int replay(const trace_t *tr, uint64_t memory, tbl_policy_t policy, result_t *r)
{
	static char value[102400];
	tbl_config_t cfg;
	tbl_stats_t st;
	tbl_t *t;
	char err[256], key[16];
	struct timespec a, b;
	uint32_t i, from = tr->nops / 3;

	memset(&cfg, 0, sizeof(cfg));
	memset(r, 0, sizeof(*r));
	cfg.memory = memory;
	cfg.policy = policy;
	cfg.fixed_hash_key = 1;
	cfg.hash_key[0] = 0x0123456789ABCDEFull;
	cfg.hash_key[1] = 0xFEDCBA9876543210ull;
	if (tbl_create(&t, &cfg, err, sizeof(err)) != TBL_OK) {
		fprintf(stderr, "tbl_create: %s\n", err);
		return -1;
	}
	memset(value, 'v', sizeof(value));
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < tr->nops; i++) {
		uint32_t id = tr->ops[i];
		size_t klen = (size_t)snprintf(key, sizeof(key), "k%u", id);
		tbl_view_t v;

		int hit;

		tbl_read_begin(t);
		hit = tbl_lookup(t, 0, key, klen, &v, 1) == TBL_OK;
		tbl_read_end(t);
		if (hit) {
			r->hits += i >= from;
		} else {
			tbl_value_t val = { TBL_T_STRING, value, tr->size[id], NULL };
			r->failed += tbl_store(t, 0, key, klen, &val, 0, TBL_STORE_SET) != TBL_OK;
		}
		r->counted += i >= from;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	tbl_get_stats(t, &st);
	r->evictions = st.evictions;
	r->runs = st.evict_runs;
	r->moves = st.evict_moves;
	r->entries = st.entries;
	r->entry_bytes = st.entry_bytes;
	r->heap = st.heap_size;
	r->looked = t->evict_looked;
	tbl_destroy(t);
	return 0;
}

static int policy_of(const char *name, tbl_policy_t *out)
{
	static const struct { const char *name; tbl_policy_t p; } known[] = {
		{ "lru", TBL_POLICY_LRU }, { "random", TBL_POLICY_RANDOM }, { "gdsf", TBL_POLICY_GDSF },
		{ "noeviction", TBL_POLICY_NOEVICTION },
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strcmp(name, known[i].name) == 0) {
			*out = known[i].p;
			return 0;
		}
	}
	return -1;
}

int main(int argc, char **argv)
{
	uint64_t memory = 32, seed = 1;
	uint32_t nkeys = 200000, nops = 600000;
	double zipf = 0.99;
	const char *policies[8];
	int npolicies = 0, i;
	trace_t tr;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val) {
			fprintf(stderr, "%s needs a value\n", arg);
			return 2;
		}
		i++;
		if (strcmp(arg, "--memory") == 0) {
			memory = strtoull(val, NULL, 10);
		} else if (strcmp(arg, "--keys") == 0) {
			nkeys = (uint32_t)strtoul(val, NULL, 10);
		} else if (strcmp(arg, "--ops") == 0) {
			nops = (uint32_t)strtoul(val, NULL, 10);
		} else if (strcmp(arg, "--zipf") == 0) {
			zipf = strtod(val, NULL);
		} else if (strcmp(arg, "--seed") == 0) {
			seed = strtoull(val, NULL, 10);
		} else if (strcmp(arg, "--policy") == 0 && npolicies < 8) {
			policies[npolicies++] = val;
		} else {
			fprintf(stderr, "unknown option %s\n", arg);
			return 2;
		}
	}
	if (!npolicies) {
		policies[npolicies++] = "lru";
		policies[npolicies++] = "random";
		policies[npolicies++] = "gdsf";
	}
	if (!nkeys || !nops || memory < 1) {
		fprintf(stderr, "--keys, --ops and --memory must be positive\n");
		return 2;
	}
	trace_make(&tr, nops, nkeys, zipf, seed);
	printf("trace: %u ops, Zipf %.2f over %u keys, log-normal sizes (median 1 KiB), %llu MiB, last 2/3 counted\n",
	       nops, zipf, nkeys, (unsigned long long)memory);
	for (i = 0; i < npolicies; i++) {
		tbl_policy_t p;
		result_t r1, r2;

		if (policy_of(policies[i], &p) != 0) {
			fprintf(stderr, "unknown policy %s\n", policies[i]);
			return 2;
		}
		if (replay(&tr, memory << 20, p, &r1) != 0 || replay(&tr, memory << 20, p, &r2) != 0) {
			return 1;
		}
		double runs = r1.runs ? (double)r1.runs : 1.0;

		printf("policy %-10s hit ratio %.4f (%llu/%llu), evictions %llu in %llu runs (%llu moved), failed sets %llu, "
		       "%llu entries hold %.1f%% of the %.1f MiB heap, %.2f s, %s on a second run\n",
		       policies[i], (double)r1.hits / (double)r1.counted, (unsigned long long)r1.hits,
		       (unsigned long long)r1.counted, (unsigned long long)r1.evictions, (unsigned long long)r1.runs, (unsigned long long)r1.moves,
		       (unsigned long long)r1.failed, (unsigned long long)r1.entries,
		       100.0 * (double)r1.entry_bytes / (double)r1.heap, (double)r1.heap / 1048576.0,
		       r1.seconds, r1.hits == r2.hits ? "same" : "DIFFERENT");
		printf("    per run: %.2f evicted, %.1f blocks looked at, %.2f moved\n", (double)r1.evictions / runs,
		       (double)r1.looked / runs, (double)r1.moves / runs);
	}
	free(tr.ops);
	free(tr.size);
	return 0;
}
