/*
 * php_table_metrics.c - Shm\Table::metrics(): the table's counters and gauges in the Prometheus text
 * exposition format (version 0.0.4), for a scrape endpoint such as
 *
 *     <?php header('Content-Type: text/plain; version=0.0.4'); echo Shm\Table::metrics();
 *
 * The figures are the ones stats() reports, read with the same tbl_get_stats() call, so the two never
 * disagree about what a figure means. Every table-wide figure is one row of php_table_metric_defs: a new
 * field in tbl_stats_t is one line there. Counters end in _total and only grow while the segment lives
 * (they restart at 0 with a new segment, which Prometheus treats as a counter reset); everything else is
 * a gauge. Per-namespace figures carry the namespace as a label.
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

#include <stddef.h>
#include "php.h"
#include "zend_smart_str.h"
#include "php_table_internal.h"

/* A table-wide figure: a field of tbl_stats_t, or a value derived from several (derive != NULL). */
typedef struct php_table_metric_def {
	const char *name;     /* after the table_ prefix; counters end in _total */
	const char *type;     /* "counter" or "gauge" */
	const char *help;
	size_t off;           /* offsetof(tbl_stats_t, field) when derive is NULL */
	uint64_t (*derive)(const tbl_stats_t *s);
} php_table_metric_def;

static uint64_t php_table_copied_reads(const tbl_stats_t *s)
{
	return s->hits >= s->zero_copy_reads ? s->hits - s->zero_copy_reads : 0;
}

#define PHP_TABLE_COUNTER(name, field, help) { name, "counter", help, offsetof(tbl_stats_t, field), NULL }
#define PHP_TABLE_GAUGE(name, field, help)   { name, "gauge", help, offsetof(tbl_stats_t, field), NULL }

static const php_table_metric_def php_table_metric_defs[] = {
	PHP_TABLE_COUNTER("hits_total", hits, "Lookups that found a live entry."),
	PHP_TABLE_COUNTER("misses_total", misses, "Lookups that found no live entry."),
	PHP_TABLE_COUNTER("sets_total", sets, "Writes that stored an entry."),
	PHP_TABLE_COUNTER("deletes_total", deletes, "Entries removed by delete() and deleteMany() (clear() is not counted)."),
	PHP_TABLE_COUNTER("evictions_total", evictions, "Live entries evicted to make room for a write."),
	PHP_TABLE_COUNTER("expirations_total", expirations, "Expired entries removed."),
	PHP_TABLE_COUNTER("oom_total", oom, "Writes that failed because memory was full and nothing could be evicted."),
	PHP_TABLE_COUNTER("lock_repairs_total", lock_repairs, "Locks recovered from a process that died holding them."),
	PHP_TABLE_COUNTER("gc_runs_total", gc_runs, "Leak-recovery passes run after a writer died holding a lock."),
	PHP_TABLE_COUNTER("zero_copy_reads_total", zero_copy_reads, "Hits handed to PHP straight from shared memory, without a copy."),
	{ "copied_reads_total", "counter", "Hits whose value was copied out of shared memory.", 0, php_table_copied_reads },
	PHP_TABLE_GAUGE("entries", entries, "Live entries, all namespaces."),
	PHP_TABLE_GAUGE("entry_bytes", entry_bytes, "Bytes held by live entries, all namespaces."),
	PHP_TABLE_GAUGE("memory_size_bytes", segment_size, "Size of the shared-memory segment (table.memory)."),
	PHP_TABLE_GAUGE("memory_heap_bytes", heap_size, "Part of the segment usable for entries."),
	PHP_TABLE_GAUGE("memory_used_bytes", used_bytes, "Heap bytes in use, retired blocks included."),
	PHP_TABLE_GAUGE("memory_free_bytes", free_bytes, "Heap bytes free."),
	PHP_TABLE_GAUGE("memory_largest_free_bytes", largest_free, "Largest value one allocation could get right now."),
	PHP_TABLE_GAUGE("memory_retired_bytes", retired_bytes, "Bytes retired and not yet freed: what readers and zero-copy pins hold back."),
	PHP_TABLE_GAUGE("retired_blocks", retired_blocks, "Blocks retired and not yet freed."),
	PHP_TABLE_GAUGE("processes_attached", slots_used, "Processes holding a reader slot."),
	PHP_TABLE_GAUGE("slots", slots_total, "Reader slots in the segment (the most processes attached at once)."),
	PHP_TABLE_GAUGE("pins", pins, "Reader slots pinned by zero-copy reads right now."),
	PHP_TABLE_GAUGE("namespaces_created", namespaces, "Namespaces created, the default one included."),
	PHP_TABLE_GAUGE("buckets", buckets, "Buckets of the hash index."),
};

#undef PHP_TABLE_COUNTER
#undef PHP_TABLE_GAUGE

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

static void php_table_metric_value(smart_str *out, const char *name, uint64_t v)
{
	smart_str_appends(out, "table_");
	smart_str_appends(out, name);
	smart_str_appendc(out, ' ');
	smart_str_append_unsigned(out, (zend_ulong)v);
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

/* `{namespace="..."}` or `{namespace_hex="..."}` for one namespace name. */
static void php_table_ns_label(smart_str *out, const char *name, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)name;

	if (php_table_label_plain(p, len)) {
		smart_str_appends(out, "{namespace=\"");
		for (size_t i = 0; i < len; i++) {
			/* Newlines are control characters, so never plain: only these two need escaping here. */
			if (p[i] == '\\' || p[i] == '"') {
				smart_str_appendc(out, '\\');
			}
			smart_str_appendc(out, (char)p[i]);
		}
	} else {
		smart_str_appends(out, "{namespace_hex=\"");
		for (size_t i = 0; i < len; i++) {
			smart_str_appendc(out, hex[p[i] >> 4]);
			smart_str_appendc(out, hex[p[i] & 15]);
		}
	}
	smart_str_appends(out, "\"}");
}

/* Per-namespace gauges: the default namespace always, the others while they hold an entry (as in
 * stats()['namespaces']). */
static void php_table_ns_metrics(smart_str *out, tbl_t *t, const char *name, const char *help,
                                 uint64_t (*figure)(tbl_t *, tbl_ns_t))
{
	unsigned n = tbl_ns_count_created(t);

	php_table_metric_head(out, name, "gauge", help);
	for (unsigned i = 0; i < n; i++) {
		size_t len;
		const char *nsname;
		if (i != TBL_NS_DEFAULT && tbl_ns_entries(t, (tbl_ns_t)i) == 0) {
			continue;
		}
		nsname = tbl_ns_name(t, (tbl_ns_t)i, &len);
		smart_str_appends(out, "table_");
		smart_str_appends(out, name);
		php_table_ns_label(out, nsname, len);
		smart_str_appendc(out, ' ');
		smart_str_append_unsigned(out, (zend_ulong)figure(t, (tbl_ns_t)i));
		smart_str_appendc(out, '\n');
	}
}

PHP_METHOD(Shm_Table, metrics)
{
	tbl_t *t;
	tbl_stats_t s;
	smart_str out = {0};

	ZEND_PARSE_PARAMETERS_NONE();

	if (!(t = php_table_handle())) {
		RETURN_THROWS();
	}
	tbl_get_stats(t, &s);

	for (size_t i = 0; i < sizeof(php_table_metric_defs) / sizeof(php_table_metric_defs[0]); i++) {
		const php_table_metric_def *d = &php_table_metric_defs[i];
		uint64_t v = d->derive ? d->derive(&s) : *(const uint64_t *)((const char *)&s + d->off);
		php_table_metric_head(&out, d->name, d->type, d->help);
		php_table_metric_value(&out, d->name, v);
	}

	/* This process's settings: the same in every worker of one master. */
	php_table_metric_head(&out, "zero_copy_enabled", "gauge",
		"1 when this process reads arrays without copying (table.zero_copy as resolved for its SAPI).");
	php_table_metric_value(&out, "zero_copy_enabled", php_table_zero_copy ? 1 : 0);
	php_table_metric_head(&out, "zero_copy_budget_bytes", "gauge",
		"Retired bytes past which a request that is not pinned yet copies arrays (table.zero_copy_budget).");
	php_table_metric_value(&out, "zero_copy_budget_bytes", php_table_zero_copy_budget);
	php_table_metric_head(&out, "info", "gauge", "Always 1; the labels name the version and the settings.");
	smart_str_appends(&out, "table_info{version=\"" PHP_TABLE_VERSION "\",eviction_policy=\"");
	smart_str_appends(&out, php_table_policy_names[php_table_policy]);
	smart_str_appends(&out, "\",serializer=\"");
	smart_str_appends(&out, php_table_ser->name);
	smart_str_appends(&out, "\"} 1\n");

	php_table_ns_metrics(&out, t, "namespace_entries", "Live entries per namespace.", tbl_ns_entries);
	php_table_ns_metrics(&out, t, "namespace_bytes", "Bytes held by the entries of each namespace.", tbl_ns_bytes);

	RETURN_STR(smart_str_extract(&out));
}
