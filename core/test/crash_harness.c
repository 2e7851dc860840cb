/*
 * crash_harness.c - the reusable half of the crash-point harness (see crash_harness.h; the workload that
 * uses it is test_crash.c).
 *
 * Design: a core built with -DTBL_CRASH_POINTS calls tbl_crash_point(name) at every
 * TBL_CRASH_POINT("module.step"). This file defines it. Nothing lists the points: a discovery run of
 * the workload records every point it passes, and how often, in a registry in MAP_SHARED memory (so the
 * forked processes of a scenario all add to it, under a spin flag); then one scenario runs per (point,
 * pass) for passes 1 .. TBL_CRASH_PASSES and a late pass (next_pass()), each killing its victim with
 * SIGKILL at that pass of that point. A point added to any core file is therefore tested as soon as the
 * workload passes it. The anchor is SQLite's crash and fault-injection testing: every point, not a
 * random sample. Last, crash_report() scans the core's *.c and *.h files (inline helpers have points too)
 * for TBL_CRASH_POINT("...") and names the points no run passed (printed, not failed: some need a
 * situation the workload does not make).
 */
#include <dirent.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "crash.h"
#include "crash_harness.h"

#ifndef TBL_CORE_SRC_DIR
#define TBL_CORE_SRC_DIR "."   /* core/Makefile passes the absolute path of core/ */
#endif

typedef struct point {
	char name[CRASH_NAME_MAX];
	_Atomic unsigned passes;
} point_t;

typedef struct registry {
	atomic_flag lock;
	unsigned npoints;
	point_t points[CRASH_MAX_POINTS];
} registry_t;

static registry_t *reg;
static int recording;              /* this process records the points it passes (discovery) */
static const char *kill_name;      /* this process dies at the kill_at-th pass of kill_name */
static unsigned kill_at, kill_seen;
void (*crash_hook)(const char *name);

int crash_harness_init(void)
{
	reg = mmap(NULL, sizeof(*reg), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (reg == MAP_FAILED) {
		perror("mmap");
		reg = NULL;
		return -1;
	}
	memset(reg, 0, sizeof(*reg));
	return 0;
}

static point_t *point_find(const char *name, int add)
{
	unsigned i;
	point_t *p = NULL;

	while (atomic_flag_test_and_set(&reg->lock)) {
	}
	for (i = 0; i < reg->npoints; i++) {
		if (strcmp(reg->points[i].name, name) == 0) {
			p = &reg->points[i];
			break;
		}
	}
	if (!p && add && reg->npoints < CRASH_MAX_POINTS) {
		p = &reg->points[reg->npoints++];
		snprintf(p->name, sizeof(p->name), "%s", name);
	}
	atomic_flag_clear(&reg->lock);
	return p;
}

void tbl_crash_point(const char *name)
{
	if (recording) {
		point_t *p = point_find(name, 1);
		if (p) {
			atomic_fetch_add(&p->passes, 1);
		}
	}
	if (kill_name && strcmp(name, kill_name) == 0 && ++kill_seen == kill_at) {
		raise(SIGKILL);
	}
	if (crash_hook) {
		crash_hook(name);
	}
}

void crash_record(int on)
{
	recording = on;
}

void crash_kill_at(const char *name, unsigned pass)
{
	kill_name = name;
	kill_at = pass;
	kill_seen = 0;
}

void crash_forget(void)
{
	memset(reg->points, 0, sizeof(reg->points));
	reg->npoints = 0;
}

unsigned crash_passes(const char *name)
{
	point_t *p = point_find(name, 0);

	return p ? atomic_load(&p->passes) : 0;
}

/* 1, 2, .. TBL_CRASH_PASSES, then one late pass (7/8 of the way: for the points the fill passes, with
 * the table full; not the very last, whose number varies a little with the concurrent workers), then
 * past the end. */
static unsigned next_pass(unsigned pass, unsigned passes)
{
	unsigned late = passes - passes / 8;

	if (pass < TBL_CRASH_PASSES) {
		return pass + 1;
	}
	return pass < late ? late : passes + 1;
}

int crash_kill_everywhere(const char *label, crash_scenario_fn run, crash_tally_t *sum)
{
	const char *only = getenv("TBL_CRASH_ONLY");
	int verbose = getenv("TBL_CRASH_VERBOSE") != NULL;
	point_t found[CRASH_MAX_POINTS];
	unsigned npoints, i, j, pass;

	crash_forget();
	if (run(NULL, 0, 1) != CRASH_RUN_OK) {
		return -1;
	}
	npoints = reg->npoints;
	memcpy(found, reg->points, sizeof(found));
	for (i = 0; i < npoints; i++) {
		unsigned passes = atomic_load(&found[i].passes);

		for (j = 0; j < sum->nnames && strcmp(sum->names[j], found[i].name) != 0; j++) {
		}
		if (j == sum->nnames) {
			memcpy(sum->names[sum->nnames++], found[i].name, sizeof(found[i].name));
		}
		if (only && strcmp(only, found[i].name) != 0) {
			continue;
		}
		for (pass = 1; pass <= passes; pass = next_pass(pass, passes)) {
			int rc = run(found[i].name, pass, 0);

			sum->kills++;
			if (rc != CRASH_RUN_NOT_REACHED) {
				sum->point_kills[j]++;
			}
			if (rc == CRASH_RUN_NOT_REACHED) {
				sum->not_reached++;
			} else if (rc != CRASH_RUN_OK) {
				sum->failed++;
				fprintf(stderr, "FAIL: %s: killed at %s, pass %u: scenario status %d\n", label,
				        found[i].name, pass, rc);
			}
			if (verbose) {
				printf("  %-10s %-32s pass %u/%u: %s\n", label, found[i].name, pass, passes,
				       rc == CRASH_RUN_OK ? "ok" : rc == CRASH_RUN_NOT_REACHED ? "not reached" : "FAILED");
			}
		}
	}
	return (int)npoints;
}

/* The points named in the core's sources that no run passed: untested until a workload step reaches
 * them. Returns how many (0 also when the sources cannot be read, which it says). */
static unsigned report_unreached(const crash_tally_t *sum)
{
	static const char marker[] = "TBL_CRASH_POINT(\"";
	unsigned missing = 0, total = 0, i;
	struct dirent *d;
	DIR *dir = opendir(TBL_CORE_SRC_DIR);

	if (!dir) {
		printf("crash points in the core's sources: cannot read %s\n", TBL_CORE_SRC_DIR);
		return 0;
	}
	while ((d = readdir(dir)) != NULL) {
		size_t n = strlen(d->d_name);
		char line[512], path[4096];
		FILE *f;

		/* crash.h defines the macro, and its comment shows a made-up name. */
		if (n < 3 || (strcmp(d->d_name + n - 2, ".c") != 0 && strcmp(d->d_name + n - 2, ".h") != 0)
		    || strcmp(d->d_name, "crash.h") == 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", TBL_CORE_SRC_DIR, d->d_name);
		if (!(f = fopen(path, "r"))) {
			continue;
		}
		while (fgets(line, sizeof(line), f)) {
			char *p = strstr(line, marker), *q;
			if (!p || strstr(line, "#define")) {
				continue;
			}
			p += sizeof(marker) - 1;
			if (!(q = strchr(p, '"'))) {
				continue;
			}
			*q = '\0';
			total++;
			for (i = 0; i < sum->nnames && strcmp(sum->names[i], p) != 0; i++) {
			}
			if (i == sum->nnames) {
				printf("%s %s (%s)", missing++ ? "," : "crash points in the source never reached:", p, d->d_name);
			}
		}
		fclose(f);
	}
	closedir(dir);
	if (missing) {
		printf("\n");
	}
	printf("crash points in the core's sources: %u, reached by the workload: %u\n", total, total - missing);
	return missing;
}

unsigned crash_report(const crash_tally_t *sum)
{
	unsigned i;

	printf("crash points passed by the workload (kills there):");
	for (i = 0; i < sum->nnames; i++) {
		printf(" %s (%u)", sum->names[i], sum->point_kills[i]);
	}
	printf("\n");
	return report_unreached(sum);
}
