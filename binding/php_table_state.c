/*
 * php_table_state.c - the process's table: the INI values resolved, the segment created (MINIT) or the
 * named one attached (first use in each process), and the state every method reads (php_table_internal.h).
 *
 * Beneath the methods and beside nothing: table.c's module start-up and shutdown call
 * php_table_state_startup/_shutdown, the methods reach the table through php_table_handle() (whose
 * slow path, php_table_handle_slow, attaches here), and nothing here calls a method file or table.c.
 * What it needs of the files above it, table.c hands down to php_table_state_startup: the Redis tier's
 * settings resolver (validated among the others, in the same order as always) and the start of a user's
 * view (php_table_users.c), so that nothing here calls up; the switches those set (php_table_tier_on,
 * _default, php_table_user_tag_len) live here, where the namespaces' fast path reads them
 * (scripts/check-binding-layers.sh checks that nothing here refers upwards).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <time.h>
#include <inttypes.h>
#include <stdlib.h>

#include "php.h"
#include "SAPI.h"
#include "zend_exceptions.h"

#include "php_table.h"
#include "php_table_internal.h"
#include "serializer/image.h"
#include "serializer/compress.h"

ZEND_DECLARE_MODULE_GLOBALS(table)

zend_class_entry *php_table_exception_ce;
zend_class_entry *php_table_ce;

/* Process state (see php_table_internal.h). Under ZTS the process's handle is php_table_proc, and
 * php_table_tbl and php_table_holding are each thread's (module globals). */
#ifdef ZTS
tbl_t *php_table_proc;
#else
tbl_t *php_table_tbl;
bool php_table_holding;
#endif
const php_table_serializer *php_table_ser;
tbl_policy_t php_table_policy;
bool php_table_zero_copy;
uint64_t php_table_zero_copy_budget;
zend_long php_table_start_time;
const char *const php_table_policy_names[4] = { "noeviction", "lru", "random", "gdsf" };
char php_table_reason[PHP_TABLE_REASON_MAX];         /* why the table is unavailable */
/* Named segments (table.segment): attached on first use in each process, after fork, so that php-fpm
 * workers see their pool's php_admin_value. php_table_anon is the anonymous segment MINIT made when no
 * name was set globally (a pool may still name one); php_table_named says php_table_tbl is a named one. */
static tbl_t *php_table_anon;
bool php_table_named;
bool php_table_default_ns_slow;
uint32_t php_table_ns_epoch;
char php_table_segment_name[PHP_TABLE_SEGMENT_NAME_MAX + 1];
char php_table_segment_path[PHP_TABLE_SEGMENT_PATH_MAX];
/* The named segment this process used was removed or replaced (php_table_segment_check): it attaches again
 * on first use, but never replaces what it finds then (tbl_segment_current). For the process's life. */
static bool php_table_reattach;
/* When php_table_segment_check last looked (time(NULL)): at most once a second. */
static time_t php_table_checked_at;

void php_table_default_ns_update(void)
{
	__atomic_add_fetch(&php_table_ns_epoch, 1, __ATOMIC_RELAXED);   /* threads read it unlocked (ZTS) */
#ifdef HAVE_TABLE_HIREDIS
	php_table_default_ns_slow = php_table_tier_default || php_table_user_tag_len;
#else
	php_table_default_ns_slow = php_table_user_tag_len != 0;
#endif
}

/* ---- opening the segment --------------------------------------------------------------------------- */

/* The core brackets every critical section with these, so that no signal handler (and no timeout)
 * runs PHP code while a stripe lock is held. */
static void php_table_block_signals(void)
{
	HANDLE_BLOCK_INTERRUPTIONS();
}

static void php_table_unblock_signals(void)
{
	HANDLE_UNBLOCK_INTERRUPTIONS();
}

/* SAPIs whose processes end every request, so that the request's zero-copy holds are released regularly. CLI,
 * phpdbg and embed run one request for the process's whole life; FrankenPHP's worker mode, Swoole and
 * RoadRunner run under the cli or frankenphp SAPI and never end theirs either. The same under ZTS, where
 * each thread holds in a slot of its own until its request ends (apache2handler under the event MPM:
 * tests/apache/run.sh). */
static const char *const php_table_request_scoped_sapis[] = {
	"fpm-fcgi", "apache2handler", "cgi-fcgi", "litespeed"
};

/* A size setting written with a minus sign. zend_ini_parse_uquantity() accepts "-1" and wraps it to
 * 2^64 - 1, which would surface as an mmap() of 18446744073709551615 bytes; sizes are never negative. */
static bool php_table_ini_negative(const char *value)
{
	while (*value == ' ' || *value == '\t') {
		value++;
	}
	return *value == '-';
}

/* A size setting's bytes: `value` in bytes or with K, M or G. false when it does not parse (the caller
 * has rejected a negative one first, with its own message). */
static bool php_table_ini_size(const char *value, zend_ulong *out)
{
	zend_string *str = zend_string_init(value, strlen(value), 1), *errstr = NULL;

	*out = zend_ini_parse_uquantity(str, &errstr);
	zend_string_release(str);
	if (errstr) {
		zend_string_release(errstr);
		return false;
	}
	return true;
}

/* table.zero_copy and table.zero_copy_budget. false with php_table_reason set when invalid. */
static bool php_table_zero_copy_resolve(zend_ulong memory)
{
	const char *zc = TABLE_G(zero_copy) ? TABLE_G(zero_copy) : "";
	const char *budget = TABLE_G(zero_copy_budget) ? TABLE_G(zero_copy_budget) : "";
	size_t i;

	if (strcmp(zc, "auto") == 0) {
		php_table_zero_copy = false;
		for (i = 0; i < sizeof(php_table_request_scoped_sapis) / sizeof(php_table_request_scoped_sapis[0]); i++) {
			if (sapi_module.name && strcmp(sapi_module.name, php_table_request_scoped_sapis[i]) == 0) {
				php_table_zero_copy = true;
			}
		}
	} else if (strcmp(zc, "1") == 0 || zend_binary_strcasecmp(zc, strlen(zc), "on", 2) == 0) {
		php_table_zero_copy = true;
	} else if (strcmp(zc, "0") == 0 || zend_binary_strcasecmp(zc, strlen(zc), "off", 3) == 0 || zc[0] == '\0') {
		php_table_zero_copy = false;
	} else {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.zero_copy=%s is not valid; use auto, 1 or 0", zc);
		return false;
	}
#ifdef PHP_WIN32
	/* Each process maps the segment at its own address there; images hold absolute pointers. */
	php_table_zero_copy = false;
#endif

	php_table_zero_copy_budget = memory / 8;
	if (php_table_ini_negative(budget)) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.zero_copy_budget=%s is negative; use a size in bytes or with K, M or G, or leave it empty", budget);
		return false;
	}
	if (budget[0]) {
		zend_ulong bytes;

		if (!php_table_ini_size(budget, &bytes)) {
			snprintf(php_table_reason, sizeof(php_table_reason),
				"table.zero_copy_budget=%s is not a valid size; use bytes or a number with K, M or G", budget);
			return false;
		}
		php_table_zero_copy_budget = bytes;
	}
	php_table_encode_images = php_table_zero_copy;
	return true;
}

/* table.segment, table.segment_dir and table.segment_mode. false with php_table_reason set when invalid;
 * an empty name is valid (the anonymous segment). Fills the name, the path and *mode. */
static bool php_table_segment_resolve(uint32_t *mode)
{
	const char *name = TABLE_G(segment) ? TABLE_G(segment) : "";
	const char *dir = TABLE_G(segment_dir) ? TABLE_G(segment_dir) : "";
	const char *m = TABLE_G(segment_mode) ? TABLE_G(segment_mode) : "";
	size_t i, len = strlen(name), dlen;
	unsigned long bits = 0;

	php_table_segment_name[0] = php_table_segment_path[0] = '\0';
	if (len == 0) {
		return true;
	}
	if (len > PHP_TABLE_SEGMENT_NAME_MAX) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.segment=%.80s%s is too long; use 1 to %u characters of A-Z, a-z, 0-9, '.', '_' and '-'",
			name, len > 80 ? "..." : "", PHP_TABLE_SEGMENT_NAME_MAX);
		return false;
	}
	for (i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
		      || c == '-')) {
			snprintf(php_table_reason, sizeof(php_table_reason),
				"table.segment=%s is not valid; use 1 to %u characters of A-Z, a-z, 0-9, '.', '_' and '-'",
				name, PHP_TABLE_SEGMENT_NAME_MAX);
			return false;
		}
	}
	dlen = strlen(dir);
	while (dlen > 1 && dir[dlen - 1] == '/') {
		dlen--;
	}
	if (dir[0] != '/') {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.segment_dir=%.200s is not valid; use an absolute directory path (e.g. /dev/shm)", dir);
		return false;
	}
	if ((size_t)snprintf(php_table_segment_path, sizeof(php_table_segment_path), "%.*s/php-table.%s",
	                     (int)(dlen == 1 ? 0 : dlen), dir, name) >= sizeof(php_table_segment_path)) {
		snprintf(php_table_reason, sizeof(php_table_reason), "table.segment_dir=%.200s... is too long", dir);
		php_table_segment_path[0] = '\0';
		return false;
	}
	for (i = 0; m[i]; i++) {
		if (m[i] < '0' || m[i] > '7' || i >= 4) {
			bits = ~0ul;
			break;
		}
		bits = bits * 8 + (unsigned long)(m[i] - '0');
	}
	if (i == 0 || bits > 0777 || (bits & 0600) != 0600) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.segment_mode=%.40s is not valid; use octal permission bits that include 0600 (owner read "
			"and write), e.g. 0600, or 0660 to share with the file's group", m);
		php_table_segment_path[0] = '\0';
		return false;
	}
	/* Whoever can open the file can read every value, or hold its lock; whoever can write it is trusted as
	 * the owner is (core/shm_file.c). Its group gets both or nothing, other users nothing. */
	if ((bits & 0007) || ((bits & 0060) != 0 && (bits & 0060) != 0060)) {
		snprintf(php_table_reason, sizeof(php_table_reason), "table.segment_mode=%.40s %s; use 0600, or 0660 to share "
			"it with the file's group", m, (bits & 0007) ? "opens the table to every user of this host"
			: "gives the file's group some access, but sharing needs read and write");
		php_table_segment_path[0] = '\0';
		return false;
	}
	*mode = (uint32_t)bits;
	memcpy(php_table_segment_name, name, len + 1);
	return true;
}

/* After attaching a named segment: zero-copy only where it lies at its creator's address (images hold
 * absolute pointers), a warning when it has another size than table.memory asks for. */
static void php_table_named_attached(const char *mem)
{
	tbl_segment_info_t info;
	tbl_stats_t s;

	tbl_segment_info(php_table_proc, &info);
	php_table_image_shift = (ptrdiff_t)info.base_shift;
	if (!info.same_base) {
		/* Images here would hold this process's addresses, and images read here were written for the
		 * creator's: store arrays compactly, and copy images out, relocating their pointers. */
		php_table_zero_copy = false;
		php_table_encode_images = false;
	}
	tbl_get_stats(php_table_proc, &s);
	php_table_policy = s.policy;   /* the segment's own, whatever this process's INI says */
#ifdef ZTS
	tbl_detach(php_table_proc);    /* its threads read through handles of their own: it keeps no slot */
#endif
	if (info.replaced_version) {
		/* Once, by the process that replaced it; the error log, not the request's output. */
		char line[PHP_TABLE_SEGMENT_PATH_MAX + 512];

		snprintf(line, sizeof(line), "Shm\\Table: segment \"%s\" (%s) %s; a new, empty one took its place (processes still "
			"using the old one keep it until they end or, at their next request, move to the new one)",
			php_table_segment_name, php_table_segment_path, info.note);
		php_log_err(line);
	}
	if (info.memory != info.requested) {
		php_error_docref(NULL, E_WARNING,
			"table.memory=%s asks for %" PRIu64 " bytes, but segment \"%s\" (%s) has %" PRIu64 ": attached at its "
			"size; to resize it, remove the file or set table.segment_recreate=1", mem, info.requested,
			php_table_segment_name, php_table_segment_path, info.memory);
	}
}

/* table.compression and table.compression_threshold (serializer/compress.h). */
static bool php_table_compression_resolve(void)
{
	const char *name = TABLE_G(compression) ? TABLE_G(compression) : "";
	const char *thr = TABLE_G(compression_threshold) ? TABLE_G(compression_threshold) : "";
	php_table_compression c;
	zend_ulong bytes = 0;

	if (php_table_compression_parse(name, &c, php_table_reason, sizeof(php_table_reason)) != 0) {
		return false;
	}
	if (php_table_ini_negative(thr) || !php_table_ini_size(thr, &bytes) || bytes > UINT32_MAX) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.compression_threshold=%s is not valid; use a size in bytes, or with K or M (e.g. 1K)", thr);
		return false;
	}
	php_table_compress_algorithm = c;
	php_table_compress_threshold = (uint32_t)bytes;
	return true;
}

/* What table.c handed down: the Redis tier's settings resolver and the users' view (files above this). */
static php_table_state_hooks php_table_hooks;
bool php_table_tier_on;
bool php_table_tier_default;
size_t php_table_user_tag_len;
#ifdef ZTS
/* The named segment's configuration as MINIT resolved it (php_table_state_named_config). */
static tbl_config_t php_table_named_cfg;
static bool php_table_named_cfg_set;
#endif

/* Validate the INI values and create the segment. With a named segment (table.segment), only validate
 * unless `attach`: every process attaches on its first use (php_table_handle_slow). On failure
 * php_table_reason says why. */
static void php_table_open(bool attach)
{
	const char *policy = TABLE_G(eviction_policy) ? TABLE_G(eviction_policy) : "";
	const char *ser = TABLE_G(serializer) ? TABLE_G(serializer) : "";
	const char *mem = TABLE_G(memory) ? TABLE_G(memory) : "";
	zend_ulong bytes;
	tbl_config_t cfg;
	tbl_status_t st;
	uint32_t mode = 0600;
	size_t i;
	char errbuf[512];

	if (php_table_ini_negative(mem)) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.memory=%s is negative; use a size of at least 1M, in bytes or with K, M or G (e.g. 64M)", mem);
		return;
	}
	if (!php_table_ini_size(mem, &bytes)) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.memory=%s is not a valid size; use bytes or a number with K, M or G (e.g. 64M)", mem);
		return;
	}
	if (bytes < 1024 * 1024) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.memory=%s is too small; it must be at least 1M", mem);
		return;
	}

	for (i = 0; i < sizeof(php_table_policy_names) / sizeof(php_table_policy_names[0]); i++) {
		if (strcmp(policy, php_table_policy_names[i]) == 0) {
			break;
		}
	}
	if (i == sizeof(php_table_policy_names) / sizeof(php_table_policy_names[0])) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.eviction_policy=%s is not valid; use noeviction, lru, random or gdsf", policy);
		return;
	}
	php_table_policy = (tbl_policy_t)i;

	php_table_ser = php_table_serializer_find(ser);
	if (!php_table_ser) {
#ifndef HAVE_TABLE_IGBINARY
		if (strcmp(ser, "igbinary") == 0) {
			snprintf(php_table_reason, sizeof(php_table_reason),
				"table.serializer=igbinary needs table built with --enable-table-igbinary");
			return;
		}
		snprintf(php_table_reason, sizeof(php_table_reason), "table.serializer=%s is not valid; use php", ser);
#else
		snprintf(php_table_reason, sizeof(php_table_reason),
			"table.serializer=%s is not valid; use php or igbinary", ser);
#endif
		return;
	}

	if (!php_table_compression_resolve()) {
		return;
	}
	if (!php_table_zero_copy_resolve(bytes)) {
		return;
	}
	if (!php_table_segment_resolve(&mode)) {
		return;
	}
#ifdef ZTS
	/* Threads read the tier's settings without a lock: resolved at MINIT only. */
	if (!attach && php_table_hooks.resolve_tier && !php_table_hooks.resolve_tier()) {
		return;
	}
#else
	if (php_table_hooks.resolve_tier && !php_table_hooks.resolve_tier()) {
		return;
	}
#endif
	if (TABLE_G(lock_timeout) < 0 || TABLE_G(lock_timeout) > PHP_TABLE_LOCK_TIMEOUT_MAX) {
		snprintf(php_table_reason, sizeof(php_table_reason), "table.lock_timeout=" ZEND_LONG_FMT " is not valid; use "
			"milliseconds from 1 to %d, or 0 for 10 s plus 1 s per GiB of table.memory", TABLE_G(lock_timeout),
			PHP_TABLE_LOCK_TIMEOUT_MAX);
		return;
	}
	php_table_default_ns_update();

	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = bytes;
	cfg.policy = php_table_policy;
	cfg.lock_wait_ms = (uint32_t)TABLE_G(lock_timeout);
	cfg.hooks.block_signals = php_table_block_signals;
	cfg.hooks.unblock_signals = php_table_unblock_signals;
	if (getenv("TABLE_TEST_HOOKS") && strcmp(getenv("TABLE_TEST_HOOKS"), "1") == 0 && getenv("TABLE_TEST_SLOTS")) {
		cfg.slots = (uint32_t)atoi(getenv("TABLE_TEST_SLOTS"));   /* tests: run out of reader slots */
	}
	if (php_table_segment_name[0]) {
		cfg.segment_path = php_table_segment_path;
		cfg.segment_mode = mode;
		/* Found removed or replaced before: join what is there, never replace it (a process of an older
		 * build would otherwise replace the newer one's segment back, and so on). */
		cfg.segment_recreate = php_table_reattach ? 0 : TABLE_G(segment_recreate);
		cfg.segment_keep_versions = php_table_reattach;
		cfg.app_version = PHP_TABLE_VERSION;
		if (getenv("TABLE_TEST_HOOKS") && strcmp(getenv("TABLE_TEST_HOOKS"), "1") == 0
		    && getenv("TABLE_TEST_SEGMENT_MOVE") && strcmp(getenv("TABLE_TEST_SEGMENT_MOVE"), "1") == 0) {
			cfg.segment_move = 1;   /* tests: map away from the creator's address (the copying fallback) */
		}
	}
#ifdef ZTS
	if (php_table_segment_name[0] && !attach) {
		php_table_named_cfg = cfg;
		php_table_named_cfg_set = true;
	}
#endif
	if (php_table_segment_name[0] && !attach) {
		return;
	}
	errbuf[0] = '\0';
	st = tbl_create(&php_table_proc, &cfg, errbuf, sizeof(errbuf));
	if (st == TBL_OK) {
		/* An array whose image could not fit even under the longest key is stored natively instead. */
		php_table_image_limit = (size_t)tbl_value_max(php_table_proc, TBL_KEY_MAX);
		/* stats()['start_time']: the segment is created here, before workers fork, so they all agree. */
		php_table_start_time = (zend_long)time(NULL);
		php_table_reason[0] = '\0';
		if (php_table_segment_name[0]) {
			php_table_named = true;
			php_table_named_attached(mem);
		}
	}
	if (st != TBL_OK) {
		php_table_proc = NULL;
		if (php_table_segment_name[0]) {
			snprintf(php_table_reason, sizeof(php_table_reason), "segment \"%s\"%s: %s", php_table_segment_name,
				php_table_reattach ? " was removed or replaced while this process used it, and it does not replace "
				"what is there now (restart it)" : "", errbuf[0] ? errbuf : tbl_status_str(st));
		} else {
			snprintf(php_table_reason, sizeof(php_table_reason), "%s%s", errbuf[0] ? errbuf : tbl_status_str(st),
				st == TBL_ESYS ? "; lower table.memory" : "");
		}
	}
}

#ifdef ZTS
/* Threads (ZTS). The process's state above (the segments, the user view) is set up once per process, under
 * this lock, by whichever thread comes first; every thread then reads through a handle of its own
 * (tbl_thread_open: its own reader slot, zero-copy holds, claims and counters), TABLE_G(thread_tbl), made
 * from the process's handle at its first request and closed when the thread ends (GSHUTDOWN). A thread
 * that ends without that (killed, or its SAPI skips the cleanup) leaves its slot to the reaper, which
 * checks the thread's id. */
static MUTEX_T php_table_proc_lock;
/* MSHUTDOWN ran: the segments are unmapped, and threads' handles can only be forgotten. */
static bool php_table_unmapped;
/* The process handles threads have handles onto. A named segment found removed or replaced
 * (php_table_segment_check) is let go by the process at once, but unmapped only when the last thread
 * still reading it has moved on (at its next request) or ended. */
#define PHP_TABLE_PROCS_MAX 8
static struct {
	tbl_t *proc;
	unsigned threads;   /* thread handles open onto it */
	bool retired;       /* no longer the process's: destroyed when `threads` reaches 0 */
} php_table_procs[PHP_TABLE_PROCS_MAX];

/* `proc`'s entry, made when missing with `make` (-1 when there is none, or all are taken). Under php_table_proc_lock. */
static int php_table_proc_entry(tbl_t *proc, bool make)
{
	int i, free_at = -1;

	for (i = 0; i < PHP_TABLE_PROCS_MAX; i++) {
		if (php_table_procs[i].proc == proc) {
			return i;
		}
		if (!php_table_procs[i].proc && free_at < 0) {
			free_at = i;
		}
	}
	if (!make || free_at < 0) {
		return -1;
	}
	php_table_procs[free_at].proc = proc;
	php_table_procs[free_at].threads = 0;
	php_table_procs[free_at].retired = false;
	return free_at;
}

/* Close a thread handle onto `proc`; the last one onto a retired process handle unmaps it. Under the lock. */
static void php_table_thread_close(tbl_t *thread, tbl_t *proc)
{
	int i = php_table_proc_entry(proc, false);

	tbl_thread_close(thread);
	if (i >= 0 && php_table_procs[i].threads > 0 && --php_table_procs[i].threads == 0 && php_table_procs[i].retired) {
		tbl_destroy(proc);
		php_table_procs[i].proc = NULL;
	}
}

/* The process lets its named segment go (php_table_segment_check): unmapped now, or by the last thread
 * that still has a handle onto it. Under the lock. */
static void php_table_proc_retire(tbl_t *proc)
{
	int i = php_table_proc_entry(proc, false);

	if (i < 0 || php_table_procs[i].threads == 0) {
		tbl_destroy(proc);
		if (i >= 0) {
			php_table_procs[i].proc = NULL;
		}
		return;
	}
	tbl_detach(proc);
	php_table_procs[i].retired = true;
}

/* Point TABLE_G(tbl) at this thread's handle onto php_table_proc, made now when the thread has none yet (or
 * one onto another segment: the anonymous one before the named one was attached, or a named one the
 * process let go). NULL when the table is unavailable. Under php_table_proc_lock. */
static tbl_t *php_table_thread_bind(void)
{
	int i;

	if (TABLE_G(thread_tbl) && TABLE_G(thread_of) != php_table_proc) {
		php_table_thread_close(TABLE_G(thread_tbl), TABLE_G(thread_of));
		TABLE_G(thread_tbl) = NULL;
		TABLE_G(thread_of) = NULL;
	}
	if (php_table_proc && !TABLE_G(thread_tbl)) {
		if ((i = php_table_proc_entry(php_table_proc, true)) < 0
		    || tbl_thread_open(php_table_proc, &TABLE_G(thread_tbl)) != TBL_OK) {
			TABLE_G(thread_tbl) = NULL;
			TABLE_G(tbl) = NULL;
			return NULL;   /* out of memory: this request throws "unavailable" */
		}
		php_table_procs[i].threads++;
		TABLE_G(thread_of) = php_table_proc;
	}
	TABLE_G(tbl) = php_table_proc ? TABLE_G(thread_tbl) : NULL;
	return TABLE_G(tbl);
}

/* GSHUTDOWN, for the thread whose globals these are (from another thread too, at process shutdown). */
void php_table_thread_end(zend_table_globals *g)
{
	if (g->thread_tbl) {
		if (php_table_unmapped) {
			tbl_thread_forget(g->thread_tbl);
		} else {
			tsrm_mutex_lock(php_table_proc_lock);
			php_table_thread_close(g->thread_tbl, g->thread_of);
			tsrm_mutex_unlock(php_table_proc_lock);
		}
	}
	g->thread_tbl = g->tbl = NULL;
	g->thread_of = NULL;
}
#endif

#ifdef ZTS
const tbl_config_t *php_table_state_named_config(void)
{
	return php_table_named_cfg_set ? &php_table_named_cfg : NULL;
}
#endif

/* "disabled" or "unavailable: <reason>": the state's own answer, thrown when there is no table. */
ZEND_COLD void php_table_throw_unavailable(void)
{
	if (!TABLE_G(enabled)) {
		zend_throw_exception(php_table_exception_ce,
			"Shm\\Table is disabled; set table.enabled=1 to use it", 0);
	} else {
		zend_throw_exception_ex(php_table_exception_ce, 0, "Shm\\Table is unavailable: %s", php_table_reason);
	}
}

/* php_table_handle() found no table: attach the named segment this process's settings name (its first
 * use since start or fork: php-fpm workers get their pool's php_admin_value), else throw. */
tbl_t *php_table_handle_slow(void)
{
#ifdef ZTS
	tbl_t *t;

	tsrm_mutex_lock(php_table_proc_lock);
	if (TABLE_G(enabled) && !php_table_named && TABLE_G(segment) && TABLE_G(segment)[0]) {
		php_table_open(true);
	}
	t = php_table_thread_bind();
	tsrm_mutex_unlock(php_table_proc_lock);
	if (t) {
		return t;
	}
#else
	if (TABLE_G(enabled) && !php_table_named && TABLE_G(segment) && TABLE_G(segment)[0]) {
		php_table_open(true);
		if (php_table_proc) {
			return php_table_proc;
		}
	}
#endif
	php_table_throw_unavailable();
	return NULL;
}

/* RINIT of a process attached to a named segment: whether its file was removed (`rm`) or replaced (a new
 * segment at the path: made after an rm, or by another version) since this process attached. Then every
 * process started from now on uses another table, so this one lets its old one go and attaches again on
 * first use (issue 33, finding 6: a pool's workers were split between two tables for good). Nothing of
 * the old one is held here: the previous request's zero-copy holds were released after it ended, its
 * claims and read sections at its RSHUTDOWN (under ZTS: this thread's; other threads may still be in a
 * request on the old one, which stays mapped until the last of them moves on). At most once a second: an
 * lstat() costs about 2 us on a 2-core VM, 1-2% of the shortest php-fpm request; time() is a vDSO read. A
 * CLI has one request: it keeps the table it attached to until it ends (documented). */
static void php_table_segment_check(void)
{
	time_t now = time(NULL);

	if (EXPECTED(now == php_table_checked_at)) {
		return;
	}
	php_table_checked_at = now;
	if (EXPECTED(tbl_segment_current(php_table_proc) == TBL_SEGMENT_CURRENT)) {
		return;
	}
#ifdef ZTS
	php_table_proc_retire(php_table_proc);   /* unmapped once no thread reads it any more */
#else
	tbl_destroy(php_table_proc);   /* releases its reader slot and unmaps: the old file's memory is freed with its last user */
#endif
	php_table_proc = NULL;
	php_table_named = false;
	php_table_reattach = true;
}

/* RINIT. A named segment is attached on first use, in this process: a php-fpm worker's pool may name one
 * (php_admin_value) although the master, which made the anonymous segment, did not; one attached already
 * is checked (php_table_segment_check). The anonymous one is claimed for its first user, or seen
 * partitioned by a process of another user (php_table_users.c). */
void php_table_state_rinit(void)
{
#ifdef ZTS
	tsrm_mutex_lock(php_table_proc_lock);
#endif
	if (php_table_named && php_table_proc && php_table_proc != php_table_anon) {
		php_table_segment_check();
	}
	if (UNEXPECTED(!php_table_named) && TABLE_G(enabled) && TABLE_G(segment) && TABLE_G(segment)[0]) {
		php_table_proc = NULL;
	} else if (php_table_proc && php_table_proc == php_table_anon && php_table_hooks.user_view_start
	           && !php_table_hooks.user_view_start(php_table_proc)) {
		php_table_proc = NULL;   /* every call throws php_table_reason */
	}
#ifdef ZTS
	php_table_thread_bind();
	tsrm_mutex_unlock(php_table_proc_lock);
#endif
}

/* MINIT, once the classes are registered: validate the INI values and create the anonymous segment (a
 * named one is only validated here and attached on first use). */
void php_table_state_startup(const php_table_state_hooks *hooks)
{
	php_table_hooks = *hooks;
	php_table_reason[0] = '\0';
	php_table_ser = &php_table_serializer_php;
#ifdef ZTS
	php_table_proc_lock = tsrm_mutex_alloc();
	php_table_unmapped = false;
#endif
	if (TABLE_G(enabled)) {
		php_table_open(false);
		php_table_anon = php_table_proc;
	}
}

/* MSHUTDOWN: detach from the segments this process opened. */
void php_table_state_shutdown(void)
{
#ifdef ZTS
	/* This thread's handle goes first; other threads' (ended already, as a SAPI ends them before its
	 * module shutdown) are forgotten at their GSHUTDOWN, which runs after this. */
	php_table_thread_end(ZEND_MODULE_GLOBALS_BULK(table));
	php_table_unmapped = true;
	for (int i = 0; i < PHP_TABLE_PROCS_MAX; i++) {
		if (php_table_procs[i].retired) {
			tbl_destroy(php_table_procs[i].proc);
		}
		php_table_procs[i].proc = NULL;
	}
#endif
	if (php_table_proc && php_table_proc != php_table_anon) {
		tbl_destroy(php_table_proc);
	}
	if (php_table_anon) {
		tbl_destroy(php_table_anon);
	}
	php_table_proc = php_table_anon = NULL;
	php_table_named = false;
#ifdef ZTS
	tsrm_mutex_free(php_table_proc_lock);
	php_table_proc_lock = NULL;
#endif
}
