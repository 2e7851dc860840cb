/*
 * php_table_metrics.c - Shm\Table::metrics(): the table's counters and gauges in the Prometheus text
 * exposition format (version 0.0.4), for a scrape endpoint such as
 *
 *     <?php header('Content-Type: text/plain; version=0.0.4'); echo Shm\Table::metrics();
 *
 * The figures are stats()'s own: metrics() calls stats() and writes what it returned, so the two can
 * never disagree, whatever figures the core adds or however it counts namespaces. Every table-wide
 * figure is one row of php_table_metric_defs naming its stats() key: a new figure is one line there, and
 * a row whose key stats() lacks is skipped (so rows for figures of other core versions can sit there
 * early). Counters end in _total and only grow while the segment lives (they restart at 0 with a new
 * segment, which Prometheus treats as a counter reset); everything else is a gauge. Per-namespace
 * figures carry the namespace as a label. Building stats()'s array costs a few microseconds: nothing
 * next to a scrape's HTTP request.
 *
 * Namespace names are binary and user-controlled, but a label value must be UTF-8, and the format can
 * only escape backslash, double quote and newline. A name that is valid UTF-8 without control
 * characters is written as namespace="..." (escaped); any other name is written hex-encoded as
 * namespace_hex="...", a label of its own, so that two names can never end up as the same series and
 * no byte of a name can break the output. The default namespace is namespace="" (which Prometheus
 * shows as the series without the label).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <stdio.h>
#include <string.h>
#include "php.h"
#include "zend_smart_str.h"
#include "php_table_internal.h"

/* A table-wide figure: one top-level key of the stats() array. A row whose key stats() does not have
 * (a figure another version of the core adds) is left out, so a row can be added before its figure. */
typedef struct php_table_metric_def {
	const char *name;     /* after the table_ prefix; counters end in _total */
	const char *type;     /* "counter" or "gauge" */
	const char *key;      /* the stats() key: an int, or a bool (written as 0/1) */
	const char *help;
} php_table_metric_def;

#define PHP_TABLE_COUNTER(name, key, help) { name, "counter", key, help }
#define PHP_TABLE_GAUGE(name, key, help)   { name, "gauge", key, help }

static const php_table_metric_def php_table_metric_defs[] = {
	PHP_TABLE_COUNTER("hits_total", "hits", "Lookups that found a live entry."),
	PHP_TABLE_COUNTER("misses_total", "misses", "Lookups that found no live entry."),
	PHP_TABLE_COUNTER("sets_total", "sets", "Writes that stored an entry."),
	PHP_TABLE_COUNTER("deletes_total", "deletes", "Entries removed by delete(), deleteIf() and deleteMany() (clear() is not counted)."),
	PHP_TABLE_COUNTER("evictions_total", "evictions", "Live entries evicted to make room for a write."),
	PHP_TABLE_COUNTER("evicted_bytes_total", "evicted_bytes", "Bytes of the live entries evicted to make room."),
	PHP_TABLE_COUNTER("eviction_runs_total", "eviction_runs", "Writes that had to evict to make room."),
	PHP_TABLE_COUNTER("eviction_moves_total", "eviction_moves", "Entries moved out of the way of an eviction instead of evicted (gdsf)."),
	PHP_TABLE_COUNTER("expirations_total", "expirations", "Expired entries removed."),
	PHP_TABLE_COUNTER("oom_total", "oom", "Writes that failed because memory was full and nothing could be evicted."),
	PHP_TABLE_COUNTER("lock_repairs_total", "lock_repairs", "Locks recovered from a process that died holding them."),
	PHP_TABLE_COUNTER("lock_timeouts_total", "lock_timeouts", "Waits for a lock that gave up after table.lock_timeout: its holder was stopped or stuck."),
	PHP_TABLE_COUNTER("gc_runs_total", "gc_runs", "Leak-recovery passes run after a writer died holding a lock."),
	PHP_TABLE_COUNTER("zero_copy_reads_total", "zero_copy_reads", "Hits handed to PHP straight from shared memory, without a copy."),
	PHP_TABLE_COUNTER("copied_reads_total", "copied_reads", "Hits whose value was copied out of shared memory."),
	PHP_TABLE_GAUGE("entries", "entries", "Live entries, all namespaces."),
	PHP_TABLE_GAUGE("memory_size_bytes", "memory_size", "Size of the shared-memory segment (table.memory)."),
	PHP_TABLE_GAUGE("memory_used_bytes", "memory_used", "Heap bytes in use, retired blocks included."),
	PHP_TABLE_GAUGE("memory_free_bytes", "memory_free", "Heap bytes free."),
	PHP_TABLE_GAUGE("memory_largest_free_bytes", "memory_largest_free", "Largest value one allocation could get right now."),
	PHP_TABLE_GAUGE("memory_retired_bytes", "retired_bytes", "Bytes retired and not yet freed: what readers and zero-copy holds keep back."),
	PHP_TABLE_GAUGE("memory_held_bytes", "held_bytes", "Bytes of the entries zero-copy readers hold right now."),
	PHP_TABLE_GAUGE("memory_held_retired_bytes", "held_retired_bytes", "Of the held bytes, those of retired entries: memory kept from reuse."),
	PHP_TABLE_GAUGE("held_entries", "held_entries", "Entries zero-copy readers hold right now."),
	PHP_TABLE_GAUGE("processes_attached", "slots_used", "Processes holding a reader slot."),
	PHP_TABLE_GAUGE("slots", "slots_total", "Reader slots in the segment (the most processes attached at once)."),
	PHP_TABLE_GAUGE("pins", "pins", "Reader slots holding zero-copy reads right now."),
	PHP_TABLE_GAUGE("buckets", "buckets", "Buckets of the hash index."),
	PHP_TABLE_GAUGE("max_chain", "max_chain", "Entries in the longest hash chain."),
	PHP_TABLE_GAUGE("zero_copy_enabled", "zero_copy", "1 when this process reads arrays without copying (table.zero_copy as resolved for its SAPI)."),
	PHP_TABLE_GAUGE("zero_copy_budget_bytes", "zero_copy_budget", "Retired bytes past which a request that is not holding entries yet copies arrays (table.zero_copy_budget)."),
	PHP_TABLE_GAUGE("start_time_seconds", "start_time", "Unix time at which the segment was created (the start of the master process); the counters count from it."),
	PHP_TABLE_GAUGE("segment_processes", "processes", "Live processes attached to the segment (reader slots, fork handovers aside)."),
	PHP_TABLE_GAUGE("segment_same_base", "segment_same_base", "1 when this process maps the segment at its creator's address (zero-copy possible here)."),
	PHP_TABLE_GAUGE("segment_created", "segment_created", "1 when this process made the segment rather than attaching to it."),
	PHP_TABLE_GAUGE("segment_memory_requested_bytes", "segment_memory_requested", "This process's table.memory (differs from memory_size when it attached to a segment of another size)."),
};

static void php_table_metric_head(smart_str *out, const char *name, const char *type, const char *help);

/* The Redis tier's figures: keys of stats()['redis'] (present when the build has the tier), as
 * table_redis_<name>. fresh_age_ms and helper_pid are not metrics: an age in ms that a scrape would sample
 * at random, and a process id. */
static const php_table_metric_def php_table_redis_metric_defs[] = {
	PHP_TABLE_GAUGE("redis_enabled", "enabled", "1 when table.redis is set: some namespaces are tiered."),
	PHP_TABLE_GAUGE("redis_fresh", "fresh", "1 while the L1 is fresh: reads of tiered namespaces may be answered by this host's table."),
	PHP_TABLE_COUNTER("redis_reads_total", "reads", "Reads of tiered namespaces (get, exists, getMany, ttl, getWithMeta calls) that went to Redis."),
	PHP_TABLE_COUNTER("redis_l1_hits_total", "l1_hits", "Keys of tiered namespaces answered by this host's table (the L1) while it was fresh."),
	PHP_TABLE_COUNTER("redis_misses_total", "misses", "Keys of tiered namespaces found neither in the L1 nor in Redis (with table.redis_on_error=miss, also those whose read failed)."),
	PHP_TABLE_COUNTER("redis_fills_total", "fills", "Values read from Redis and copied into the L1."),
	PHP_TABLE_COUNTER("redis_errors_total", "errors", "Calls to Redis of PHP processes that failed (connection, timeout, protocol or error reply); the helper's losses count as flushes and reconnects."),
	PHP_TABLE_COUNTER("redis_reconnects_total", "reconnects", "Connections to Redis opened again after one was lost, the helper's included."),
	PHP_TABLE_COUNTER("redis_failovers_total", "failovers", "Redis masters the helper followed to another server (sentinel://: a failover or a switch)."),
	PHP_TABLE_COUNTER("redis_bypasses_total", "bypasses", "Reads of tiered namespaces that went to Redis because the L1 was not fresh."),
	PHP_TABLE_COUNTER("redis_invalidations_total", "invalidations", "Keys the invalidation helper dropped from the L1 after Redis reported a change."),
	PHP_TABLE_COUNTER("redis_flushes_total", "flushes", "Times the tiered namespaces of the L1 were emptied (the helper's reconnects, FLUSHALL, clear())."),
	PHP_TABLE_COUNTER("redis_helper_starts_total", "helper_starts", "Invalidation helpers started."),
};

#undef PHP_TABLE_COUNTER
#undef PHP_TABLE_GAUGE

/* One table-wide figure per row whose key `figures` has (an int or a bool). */
static void php_table_metric_rows(smart_str *out, HashTable *figures, const php_table_metric_def *defs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const php_table_metric_def *d = &defs[i];
		zval *v = zend_hash_str_find(figures, d->key, strlen(d->key));
		zend_long value;
		if (!v) {
			continue;
		}
		switch (Z_TYPE_P(v)) {
			case IS_LONG:  value = Z_LVAL_P(v); break;
			case IS_TRUE:  value = 1; break;
			case IS_FALSE: value = 0; break;
			default: continue;
		}
		php_table_metric_head(out, d->name, d->type, d->help);
		smart_str_appends(out, "table_");
		smart_str_appends(out, d->name);
		smart_str_appendc(out, ' ');
		smart_str_append_long(out, value);
		smart_str_appendc(out, '\n');
	}
}

static void php_table_metric_head(smart_str *out, const char *name, const char *type, const char *help)
{
	smart_str_appends(out, "# HELP table_");
	smart_str_appends(out, name);
	smart_str_appendc(out, ' ');
	smart_str_appends(out, help);
	smart_str_appends(out, "\n# TYPE table_");
	smart_str_appends(out, name);
	smart_str_appendc(out, ' ');
	smart_str_appends(out, type);
	smart_str_appendc(out, '\n');
}

/* Whether a label value can be written as is (escaped): valid UTF-8 (shortest forms, no surrogates,
 * at most U+10FFFF) with no control character. */
static bool php_table_label_plain(const unsigned char *p, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = p[i];
		uint32_t cp;
		size_t n;
		if (c < 0x80) {
			if (c < 0x20 || c == 0x7f) {
				return false;
			}
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1; cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2; cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3; cp = c & 0x07;
		} else {
			return false;
		}
		if (len - i <= n) {
			return false;
		}
		for (size_t k = 1; k <= n; k++) {
			if ((p[i + k] & 0xc0) != 0x80) {
				return false;
			}
			cp = (cp << 6) | (p[i + k] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)
			|| (cp >= 0x80 && cp <= 0x9f)) {
			return false;
		}
		i += n + 1;
	}
	return true;
}

/* `label="..."` for a value that can be written as is (escaped), else `label_hex="..."`: its bytes in hex,
 * so that binary namespace names and paths stay valid Prometheus text. */
static void php_table_label(smart_str *out, const char *label, const char *value, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)value;

	smart_str_appends(out, label);
	if (php_table_label_plain(p, len)) {
		smart_str_appends(out, "=\"");
		for (size_t i = 0; i < len; i++) {
			/* Newlines are control characters, so never plain: only these two need escaping here. */
			if (p[i] == '\\' || p[i] == '"') {
				smart_str_appendc(out, '\\');
			}
			smart_str_appendc(out, (char)p[i]);
		}
	} else {
		smart_str_appends(out, "_hex=\"");
		for (size_t i = 0; i < len; i++) {
			smart_str_appendc(out, hex[p[i] >> 4]);
			smart_str_appendc(out, hex[p[i] & 15]);
		}
	}
	smart_str_appendc(out, '"');
}

/* `{namespace="..."}` or `{namespace_hex="..."}` for one namespace name. */
static void php_table_ns_label(smart_str *out, const char *name, size_t len)
{
	smart_str_appendc(out, '{');
	php_table_label(out, "namespace", name, len);
	smart_str_appendc(out, '}');
}

/* Per-namespace gauges from stats()['namespaces']: name => ['count' => int, 'memory' => int]. */
static void php_table_ns_metrics(smart_str *out, HashTable *nss, const char *name, const char *field, const char *help)
{
	zend_string *key;
	zend_ulong idx;
	zval *one, *v;

	php_table_metric_head(out, name, "gauge", help);
	ZEND_HASH_FOREACH_KEY_VAL(nss, idx, key, one) {
		char buf[MAX_LENGTH_OF_LONG + 1];
		const char *nsname = buf;
		size_t len;
		if (Z_TYPE_P(one) != IS_ARRAY || !(v = zend_hash_str_find(Z_ARRVAL_P(one), field, strlen(field))) || Z_TYPE_P(v) != IS_LONG) {
			continue;
		}
		if (key) {
			nsname = ZSTR_VAL(key);
			len = ZSTR_LEN(key);
		} else {
			/* A name of decimal digits is an integer key of the array. */
			len = (size_t)snprintf(buf, sizeof(buf), ZEND_LONG_FMT, (zend_long)idx);
		}
		smart_str_appends(out, "table_");
		smart_str_appends(out, name);
		php_table_ns_label(out, nsname, len);
		smart_str_appendc(out, ' ');
		smart_str_append_long(out, Z_LVAL_P(v));
		smart_str_appendc(out, '\n');
	} ZEND_HASH_FOREACH_END();
}

static void php_table_metric_string_label(smart_str *out, const char *label, zval *v)
{
	smart_str_appendc(out, ',');
	smart_str_appends(out, label);
	smart_str_appends(out, "=\"");
	if (v && Z_TYPE_P(v) == IS_STRING) {
		/* policy and serializer names: [a-z0-9_] */
		smart_str_append(out, Z_STR_P(v));
	}
	smart_str_appendc(out, '"');
}

PHP_METHOD(Shm_Table, metrics)
{
	zend_function *stats;
	zval st, *v;
	smart_str out = {0};

	ZEND_PARSE_PARAMETERS_NONE();

	/* The figures are stats()'s own, read by calling it: the two can never disagree. */
	stats = zend_hash_str_find_ptr(&php_table_ce->function_table, "stats", sizeof("stats") - 1);
	ZEND_ASSERT(stats != NULL);
	ZVAL_UNDEF(&st);
	zend_call_known_function(stats, NULL, php_table_ce, &st, 0, NULL, NULL);
	if (EG(exception) || Z_TYPE(st) != IS_ARRAY) {
		zval_ptr_dtor(&st);
		RETURN_THROWS();
	}

	php_table_metric_rows(&out, Z_ARRVAL(st), php_table_metric_defs,
	                      sizeof(php_table_metric_defs) / sizeof(php_table_metric_defs[0]));
	v = zend_hash_str_find(Z_ARRVAL(st), "redis", sizeof("redis") - 1);
	if (v && Z_TYPE_P(v) == IS_ARRAY) {
		php_table_metric_rows(&out, Z_ARRVAL_P(v), php_table_redis_metric_defs,
		                      sizeof(php_table_redis_metric_defs) / sizeof(php_table_redis_metric_defs[0]));
	}

	php_table_metric_head(&out, "info", "gauge", "Always 1; the labels name the version, the settings and the named segment (empty when anonymous).");
	smart_str_appends(&out, "table_info{version=\"" PHP_TABLE_VERSION "\"");
	php_table_metric_string_label(&out, "eviction_policy", zend_hash_str_find(Z_ARRVAL(st), "eviction_policy", sizeof("eviction_policy") - 1));
	php_table_metric_string_label(&out, "serializer", zend_hash_str_find(Z_ARRVAL(st), "serializer", sizeof("serializer") - 1));
	/* The named segment and its file; empty for the anonymous segment of a process tree. */
	for (size_t i = 0; i < 2; i++) {
		static const char *const keys[] = {"segment", "segment_path"};
		v = zend_hash_str_find(Z_ARRVAL(st), keys[i], strlen(keys[i]));
		smart_str_appendc(&out, ',');
		if (v && Z_TYPE_P(v) == IS_STRING) {
			php_table_label(&out, keys[i], Z_STRVAL_P(v), Z_STRLEN_P(v));
		} else {
			php_table_label(&out, keys[i], "", 0);
		}
	}
	smart_str_appends(&out, "} 1\n");

	v = zend_hash_str_find(Z_ARRVAL(st), "namespaces", sizeof("namespaces") - 1);
	if (v && Z_TYPE_P(v) == IS_ARRAY) {
		php_table_ns_metrics(&out, Z_ARRVAL_P(v), "namespace_entries", "count", "Live entries per namespace.");
		php_table_ns_metrics(&out, Z_ARRVAL_P(v), "namespace_bytes", "memory", "Bytes held by the entries of each namespace.");
	}
	zval_ptr_dtor(&st);

	RETURN_STR(smart_str_extract(&out));
}
