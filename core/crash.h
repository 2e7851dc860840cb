/*
 * crash.h - named crash points: where a multi-step change may be cut short by a SIGKILL.
 *
 * Every multi-step mutation of the segment (chain links, allocator split/merge/free, retire/reclaim,
 * namespace create/recycle/clear, claims, slot claim/reap, pins and fork handover, GC, eviction) marks
 * the places between its steps with TBL_CRASH_POINT("module.step"). The names are string literals,
 * unique per place, "module.step" in lower case (for example "ns.recycle.gen_odd").
 *
 * In the extension and in ordinary builds the macro is nothing at all. Only a build with
 * -DTBL_CRASH_POINTS (the crash-point harness in core/test/) compiles them into calls to
 * tbl_crash_point(), which the harness defines: it can list every point a workload passes and kill
 * the process at the Nth pass of a chosen point, so that every point, not a random sample, is tested.
 */
#ifndef TBL_CRASH_H
#define TBL_CRASH_H

#ifdef TBL_CRASH_POINTS
void tbl_crash_point(const char *name);
#define TBL_CRASH_POINT(name) tbl_crash_point(name)
#else
#define TBL_CRASH_POINT(name) ((void)0)
#endif

#endif /* TBL_CRASH_H */
