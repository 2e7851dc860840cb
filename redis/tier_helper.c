/*
 * tier_helper.c - the helper process of the Redis tier (tier_helper.h).
 *
 * Its loop, in order:
 *   1. Publish "not fresh", advance the tier epoch (fills in flight fail) and clear the tiered
 *      namespaces: whatever the L1 holds may predate changes nobody told us about.
 *   2. Connect and turn broadcast tracking on for the prefix (redis_tracker.h), then clear again: the
 *      L1 may have been filled between step 1 and the moment tracking started.
 *   3. Poll: apply each invalidated key (tbl_tier_apply_invalidation), clear on a flush, and publish
 *      the time of the latest answered PING as the L1's freshness: every invalidation sent before it is
 *      applied.
 *   4. On any error (connection lost, server frozen, restarted, failed over): publish "not fresh" at
 *      once and go back to 1, retrying with a growing pause (up to a second).
 * With sentinel:// every start asks the Sentinels for the master (redis_sentinel.h), so step 2 follows a
 * failover; a start on another server than the last counts one `failovers`. Once a second the helper
 * also asks the Sentinels whether they still name the master it tracks, and starts over (step 1) when
 * they name another: an old master cut off from the Sentinels but not from this host keeps its
 * connection open, and its invalidations are no longer the writers'.
 * With cluster:// the tracker listens on every master and publishes the minimum of their freshness; it
 * checks the cluster's topology once a second itself and fails the poll when it changed (step 4 then
 * starts over on the new masters). A start on another set of masters than the last counts one
 * `failovers` (a slot moved between the same masters does not).
 * Once a second it checks that it is still the table's helper and that another process still uses the
 * table; if not, it leaves. Readers stop trusting the L1 on their own when freshness stops advancing
 * (table.redis_max_stale), so a helper that dies or hangs costs speed, never correctness.
 *
 * Every turn of the loop it beats (tbl_tier_helper_beat). A process that finds the L1 not fresh and the
 * helper alive but silent for TIER_HANG_MS (stopped, stuck) takes its place as it would a dead one's,
 * kills it (SIGKILL: a stopped process cannot act on anything gentler) and starts another. No turn of
 * the loop can take that long: connecting and turning tracking on are at most five calls of
 * table.redis_timeout each, a poll waits at most 250 ms, a pause between retries at most a second.
 *
 * Its process title says what it is: `table: redis helper [<segment>]` (or `[anonymous]`) in its command
 * line (ps -f, ps aux, top -c; written where the PHP process's arguments and environment strings were,
 * on glibc, and only when argv[0] lies there: not under valgrind) and `table-redis` as its name (ps -e,
 * top, pgrep: the kernel keeps 15 bytes of it).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#ifdef __linux__
# include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>
#include "core/platform.h"
#include "redis_sentinel.h"
#include "redis_tracker.h"
#include "tier_helper.h"
#include "core/tier.h"
#include "core/proc.h"

#define TIER_CLAIM_MS      5000u   /* a claim whose helper never registered expires after this */
#define TIER_CHECK_MS      1000u   /* how often the helper checks it is still wanted */
#define TIER_RETRY_MAX_MS  1000u
/* A registered helper silent for this long is hung: longer than any turn of its loop can take (at most
 * five calls to start tracking, and with sentinel:// one more for asking the Sentinels, each bounded by
 * table.redis_timeout). With cluster:// a start is one CLUSTER SLOTS and five calls per master, and a
 * poll may ask CLUSTER SLOTS once too: the bound assumes at most TIER_CLUSTER_MASTERS masters (a turn
 * over more of them all timing out at once would be taken for a hang and restarted, nothing worse). */
#define TIER_CLUSTER_MASTERS 16u
#define TIER_HANG_MS(cfg)  (((cfg)->url.is_cluster ? 5u * TIER_CLUSTER_MASTERS + 3u : 6u) \
                            * (uint64_t)(cfg)->timeout_ms + 5000u)

typedef struct helper {
	tbl_t *t;
	const tbl_tier_config_t *cfg;
} helper_t;

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

/* Empty the tiered namespaces: "not fresh" first, then every stamp moved, then the entries. */
static void flush_tiered(helper_t *h)
{
	unsigned id, n;

	tbl_tier_set_fresh_ms(h->t, 0);
	tbl_tier_advance_all(h->t);
	n = tbl_ns_count_created(h->t);
	for (id = 0; id < n; id++) {
		tbl_ns_t ns = tbl_ns_handle(h->t, id);
		size_t len;
		const char *name = tbl_ns_name(h->t, ns, &len);
		uint64_t removed;

		if (name && tbl_tier_config_covers(h->cfg, name, len)) {
			tbl_clear_ns(h->t, ns, &removed);
			tbl_tier_helper_beat(h->t);   /* a big L1 takes a while: still alive, not hung */
		}
	}
}

#ifdef __linux__
extern char **environ;

/* The areas of the process's arguments and environment strings, from /proc/self/stat: arg_start, arg_end,
 * env_start, env_end (fields 48 to 51). 0, or -1 when unknown. */
static int title_areas(unsigned long long v[4])
{
	char buf[2048], *p;
	ssize_t n;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), field;

	if (fd < 0) {
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		return -1;
	}
	buf[n] = '\0';
	/* The name (field 2) is in parentheses and may hold anything: count fields after its last ')'. */
	if (!(p = strrchr(buf, ')'))) {
		return -1;
	}
	for (field = 2; *p && field < 48; p++) {
		if (*p == ' ') {
			field++;
		}
	}
	if (sscanf(p, "%llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3]) != 4 || v[1] <= v[0] || v[1] - v[0] > (1u << 20)) {
		return -1;
	}
	return 0;
}
#endif

/* `table: redis helper [<segment>]` where ps shows a command line, `table-redis` where it shows a name.
 *
 * The command line is the memory of the PHP process's arguments (what /proc/PID/cmdline reads), which
 * nothing here reads any more. When the environment's strings follow it (they do, on the stack), they
 * are copied to the heap first and the title may run on over them, as setproctitle() does: the kernel
 * then reads past the arguments' end up to the title's NUL. Without that room the title is cut. */
static void set_title(const tbl_tier_config_t *cfg)
{
#ifdef __linux__
	char title[192], *area;
	unsigned long long v[4];
	size_t cap, len;

	prctl(PR_SET_NAME, "table-redis", 0, 0, 0);
	snprintf(title, sizeof(title), "table: redis helper [%s]", cfg->segment[0] ? cfg->segment : "anonymous");
	if (title_areas(v) != 0) {
		return;
	}
#ifdef __GLIBC__
	/* Only memory that is this program's own arguments: argv[0] must lie there. Under valgrind the
	 * kernel's argument area is valgrind's, and the program's are a copy elsewhere: leave both alone. */
	if ((uintptr_t)program_invocation_name < v[0] || (uintptr_t)program_invocation_name >= v[1]) {
		return;
	}
#else
	return;   /* no way to tell that the area is ours */
#endif
	area = (char *)(uintptr_t)v[0];
	cap = (size_t)(v[1] - v[0]);
	len = strlen(title);
	if (len + 1 > cap && v[2] == v[1] && v[3] > v[2] && v[3] - v[2] < (1u << 20)) {
		/* Move every environment string that lives there to the heap (getenv keeps working), then
		 * take the room. A string that cannot be copied keeps the room as it is. */
		int moved = 1;

		for (char **e = environ; e && *e; e++) {
			if ((uintptr_t)*e >= v[2] && (uintptr_t)*e < v[3]) {
				char *copy = strdup(*e);

				if (!copy) {
					moved = 0;
					break;
				}
				*e = copy;
			}
		}
		if (moved) {
			cap = (size_t)(v[3] - v[0]);
		}
	}
	if (cap < 2) {
		return;
	}
	if (len > cap - 1) {
		len = cap - 1;
	}
	memcpy(area, title, len);
	memset(area + len, 0, cap - len);
#else
	(void)cfg;
#endif
}

static void on_key(void *ctx, const char *rkey, size_t rlen)
{
	helper_t *h = ctx;
	const char *name, *key;
	size_t nslen, klen;
	tbl_ns_t ns;

	if (!tbl_tier_redis_key_parse(h->cfg, rkey, rlen, &name, &nslen, &key, &klen)
	    || !tbl_tier_config_covers(h->cfg, name, nslen)) {
		return;
	}
	if (nslen == 0) {
		ns = 0;
	} else if (tbl_ns_find(h->t, name, nslen, &ns) != TBL_OK) {
		/* Never created here: no copy, and no fill in flight either (a fill creates the namespace before
		 * it takes its stamp, and its read comes after this change). */
		return;
	}
	tbl_tier_apply_invalidation(h->t, ns, key, klen);
}

static void on_flush(void *ctx)
{
	flush_tiered(ctx);
}

/* What Sentinel `first` (or, when it does not answer, the next that does: *answered) names, as
 * tbl_redis_url_describe writes an address; "" when none answers. */
static void named_master(const tbl_tier_config_t *cfg, uint64_t deadline, int first, int *answered, char *out,
                         size_t cap)
{
	char host[256], err[512];
	int port;

	out[0] = '\0';
	if (tbl_redis_sentinel_master(&cfg->url, cfg->timeout_ms, deadline, first, host,
	                              sizeof(host), &port, answered, err, sizeof(err)) == TBL_REDIS_OK) {
		snprintf(out, cap, strchr(host, ':') ? "[%s]:%d" : "%s:%d", host, port);
	}
}

/* sentinel://: whether a majority of the Sentinels name one master other than `tracked`. The first is
 * asked each time; the others only when it names another, since right after a failover the Sentinels
 * learn the new master one after another, and one that still names the old (or names the new before the
 * helper got there) must not make the helper start over each second. No answer is no news: the tracking
 * connection's own failure is what reports an unreachable master. All of it within one
 * table.redis_timeout, so that a turn of the loop stays as short as TIER_HANG_MS assumes. */
static int master_moved(const tbl_tier_config_t *cfg, const char *tracked)
{
	char first[300], other[300];
	int n = cfg->url.nsentinels, votes = 0, answered = -1;
	uint64_t deadline = tbl_redis_monotonic_ms() + cfg->timeout_ms;

	named_master(cfg, deadline, 0, &answered, first, sizeof(first));
	if (first[0] == '\0' || strcmp(first, tracked) == 0) {
		return 0;
	}
	for (int i = 0; i < n; i++) {
		int who = -1;

		if (i == answered) {
			votes++;
			continue;
		}
		named_master(cfg, deadline, i, &who, other, sizeof(other));
		votes += who == i && strcmp(other, first) == 0;
	}
	return votes > n / 2;
}

void tbl_tier_helper_run(tbl_t *t, const tbl_tier_config_t *cfg)
{
	helper_t h = { t, cfg };
	tbl_redis_tracker_events_t ev = { &h, on_key, on_flush };
	tbl_redis_tracker_t *tr;
	unsigned ping_ms = cfg->max_stale_ms / 4u, retry_ms = 50u;
	uint64_t next_check = 0;
	int tracking = 0, tracked_before = 0;
	/* the server tracking last started on (sentinel://: the master then; cluster://: the masters) */
	char tracked[TBL_REDIS_TRACKER_SERVER_MAX] = "";

	if (ping_ms > 250u) {
		ping_ms = 250u;
	}
	if (ping_ms < 5u) {
		ping_ms = 5u;
	}
	tbl_tier_helper_register(t);
	tbl_release_holds(t);   /* zero-copy holds inherited from the PHP process that forked us */
	flush_tiered(&h);
	tr = tbl_redis_tracker_new(&cfg->url, cfg->timeout_ms, cfg->prefix, cfg->prefix_len);
	if (!tr) {
		tbl_tier_helper_leave(t);
		return;
	}
	for (;;) {
		uint64_t now = tbl_clock_monotonic_ms(), fresh = 0;

		tbl_tier_helper_beat(t);
		if (now >= next_check) {
			if (!tbl_tier_helper_current(t) || !tbl_tier_others_alive(t)) {
				break;
			}
			next_check = now + TIER_CHECK_MS;
			if (tracking && cfg->url.is_sentinel && master_moved(cfg, tracked)) {
				/* The Sentinels name another master while ours still answers (cut off from them, not
				 * from us): what it tells us is no longer what others write. Start over on the new one. */
				tracking = 0;
				flush_tiered(&h);
				continue;
			}
		}
		if (!tracking) {
			if (tbl_redis_tracker_start(tr) != TBL_REDIS_OK) {
				tbl_tier_set_fresh_ms(t, 0);
				sleep_ms(retry_ms);
				retry_ms = retry_ms * 2u > TIER_RETRY_MAX_MS ? TIER_RETRY_MAX_MS : retry_ms * 2u;
				continue;
			}
			if (tracked_before) {
				tbl_tier_count(t, TBL_TIER_RECONNECTS, 1);
			}
			/* Another server than before: the Sentinels moved the master (a failover, or a switch by
			 * hand), or another set of a cluster's masters. The flush below empties what the old one's
			 * lost invalidations may have left. */
			if ((cfg->url.is_sentinel || cfg->url.is_cluster) && tracked[0]
			    && strcmp(tracked, tbl_redis_tracker_server(tr)) != 0) {
				tbl_tier_count(t, TBL_TIER_FAILOVERS, 1);
			}
			snprintf(tracked, sizeof(tracked), "%s", tbl_redis_tracker_server(tr));
			tracking = tracked_before = 1;
			retry_ms = 50u;
			flush_tiered(&h);
		}
		if (tbl_redis_tracker_poll(tr, ping_ms, ping_ms, &ev, &fresh) != TBL_REDIS_OK) {
			tracking = 0;
			flush_tiered(&h);
			continue;
		}
		if (fresh != 0 && tbl_tier_helper_current(t)) {
			tbl_tier_set_fresh_ms(t, fresh);
		}
	}
	tbl_redis_tracker_free(tr);
	flush_tiered(&h);
	tbl_tier_helper_leave(t);
}

void tbl_tier_detach_process(int keep)
{
	struct rlimit rl;
	sigset_t all;
	int fd, sig, max = 1024;

	setsid();
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536) {
		max = (int)rl.rlim_cur;
	}
	for (fd = 3; fd < max; fd++) {
		if (fd != keep) {
			close(fd);
		}
	}
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2) {
			close(fd);
		}
	}
	for (sig = 1; sig < NSIG; sig++) {
		if (sig != SIGKILL && sig != SIGSTOP) {
			signal(sig, sig == SIGPIPE ? SIG_IGN : SIG_DFL);
		}
	}
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
}

int tbl_tier_helper_ensure(tbl_t *t, const tbl_tier_config_t *cfg)
{
	pid_t child;
	int status;
	int32_t hung;
	uint64_t hung_start;

	if (!tbl_tier_helper_claim_hung(t, TIER_CLAIM_MS, TIER_HANG_MS(cfg), &hung, &hung_start)) {
		return 0;
	}
	/* A hung helper's place is ours now: end it (it is stopped, or stuck), the same process still, not
	 * one that took its pid since. Were it to run on, it would leave at its next check. */
	if (hung != 0 && tbl_proc_alive((pid_t)hung, hung_start)) {
		kill((pid_t)hung, SIGKILL);
	}
	child = fork();
	if (child < 0) {
		return -1;
	}
	if (child == 0) {
		/* The go-between: fork the helper and leave at once, so that init adopts it (no zombie for the
		 * PHP process to reap, no helper killed with a php-fpm worker's process group). */
		pid_t helper = fork();

		if (helper == 0) {
			tbl_tier_detach_process(-1);
			set_title(cfg);
			tbl_tier_helper_run(t, cfg);
			tbl_detach(t);   /* its reader slot, now, rather than when a reaper finds it dead */
			_exit(0);
		}
		_exit(helper < 0 ? 1 : 0);
	}
	while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
	}
	return 1;
}
