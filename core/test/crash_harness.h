/*
 * crash_harness.h - the reusable half of the crash-point harness (crash_harness.c): a registry of the
 * crash points a process passes, killing a process at the Nth pass of a named point, running a workload's
 * scenario once per (point, pass), tallies, and a scan of the core's sources for points never reached.
 * The workload, its model and its checks live in the test that uses it (test_crash.c).
 *
 * Only binaries of core/Makefile's `crash` flavour link it (core built with -DTBL_CRASH_POINTS): it
 * defines tbl_crash_point(), which every TBL_CRASH_POINT("module.step") of such a core calls.
 */
#ifndef TBL_CRASH_HARNESS_H
#define TBL_CRASH_HARNESS_H

#define TBL_CRASH_PASSES  3        /* kill at passes 1 .. this of every point, and at a late one */
#define CRASH_MAX_POINTS  256
#define CRASH_NAME_MAX    64

/* Exit codes a scenario reports besides its own failures. */
enum { CRASH_RUN_OK = 0, CRASH_RUN_NOT_REACHED = 10 };

typedef struct crash_tally {
	unsigned kills, not_reached, failed;
	char names[CRASH_MAX_POINTS][CRASH_NAME_MAX];   /* every distinct point passed, in order of discovery */
	unsigned point_kills[CRASH_MAX_POINTS];         /* per name: scenarios that killed there */
	unsigned nnames;
} crash_tally_t;

/* Run the workload once: with discover, record every point passed; with point, die at its pass-th
 * pass. Returns CRASH_RUN_OK, CRASH_RUN_NOT_REACHED (the point was not passed that often) or another
 * code when the table did not come through. */
typedef int (*crash_scenario_fn)(const char *point, unsigned pass, int discover);

/* Map the registry, shared with every process forked afterwards. 0, or -1 (perror'd). */
int crash_harness_init(void);

/* In this process (and its children forked after): record the points passed (on) or not. */
void crash_record(int on);
/* In this process: raise SIGKILL at the pass-th pass of point `name` (NULL: never). */
void crash_kill_at(const char *name, unsigned pass);
/* Called at every point this process passes, after the kill check (NULL: none). */
extern void (*crash_hook)(const char *name);

/* Empty the registry. */
void crash_forget(void);
/* How often the registry saw `name` passed (0: never). */
unsigned crash_passes(const char *name);

/* Discover the points `run` passes, then kill at passes 1 .. TBL_CRASH_PASSES of each and at a late
 * one, adding to `sum`; `label` names the run in messages. TBL_CRASH_ONLY=<point> kills at that point
 * only; TBL_CRASH_VERBOSE=1 prints each scenario. Returns how many points were discovered, or -1 when
 * the discovery run failed. */
int crash_kill_everywhere(const char *label, crash_scenario_fn run, crash_tally_t *sum);

/* Print the points passed with the kills at each, then the points named in the core's sources that no run passed, and the
 * count of each; returns how many no run passed. The sources are read from TBL_CORE_SRC_DIR (set by
 * core/Makefile), wherever the binary runs from. */
unsigned crash_report(const crash_tally_t *sum);

#endif /* TBL_CRASH_HARNESS_H */
