/*
 * php_table_apcu_info.c - apcu_cache_info(), apcu_sma_info(), apcu_key_info(): APCu's array shapes (the
 * same keys, types and order), filled from the table's own figures. What the table does not keep is
 * approximated, and docs/apcu.md lists it:
 *   - num_hits, num_misses, num_inserts count the whole table (every namespace), as stats() does: the
 *     table counts per process, not per namespace. num_entries and mem_size are the apcu namespace's.
 *   - expunges is 0: the table evicts entries one by one under memory pressure, never wipes the cache.
 *   - per entry: num_hits and ref_count are 0 (no per-entry counters: readers never write to an entry);
 *     access_time is the last write (no access times, for the same reason); deletion_time is 0.
 *   - deleted_list and slot_distribution are empty; apcu_sma_info()'s block_lists has one segment with
 *     no blocks listed (the allocator's free lists are not exposed); avail_mem is the free memory.
 * The scans run in bounded chunks (tbl_scan opens and closes a read section per chunk); their callback
 * only allocates and never calls into the table.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"

#include "php_table.h"
#include "php_table_apcu.h"

/* One cache_list entry, as APCu's apc_cache_link_info() shapes it. */
static int php_table_apcu_link_cb(void *arg, tbl_ns_t ns, const char *key, size_t klen, const tbl_view_t *v)
{
	zval *list = arg, link;
	(void)ns;

	array_init_size(&link, 9);
	add_assoc_stringl(&link, "info", key, klen);
	add_assoc_long(&link, "ttl", php_table_apcu_entry_ttl(v));
	add_assoc_double(&link, "num_hits", 0.0);
	add_assoc_long(&link, "mtime", (zend_long)v->updated);
	add_assoc_long(&link, "creation_time", (zend_long)v->created);
	add_assoc_long(&link, "deletion_time", 0);
	add_assoc_long(&link, "access_time", (zend_long)v->updated);
	add_assoc_long(&link, "ref_count", 0);
	add_assoc_long(&link, "mem_size", (zend_long)v->size);
	add_next_index_zval(list, &link);
	return 0;
}

PHP_FUNCTION(apcu_cache_info)
{
	bool limited = false;
	tbl_t *t;
	tbl_ns_t ns;
	tbl_stats_t s;
	int r;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(limited)
	ZEND_PARSE_PARAMETERS_END();

	if (!(t = php_table_apcu_table(false))) {
		php_error_docref(NULL, E_WARNING,
			"No APC info available.  Perhaps APC is not enabled? Check apc.enabled in your ini file");
		RETURN_FALSE;
	}
	if ((r = php_table_apcu_ns_read(t, &ns)) < 0) {
		RETURN_THROWS();
	}
	tbl_get_stats(t, &s);
	array_init(return_value);
	add_assoc_long(return_value, "num_slots", (zend_long)s.buckets);
	add_assoc_long(return_value, "ttl", PHP_TABLE_APCU_G(ttl));
	add_assoc_double(return_value, "num_hits", (double)s.hits);
	add_assoc_double(return_value, "num_misses", (double)s.misses);
	add_assoc_double(return_value, "num_inserts", (double)s.sets);
	add_assoc_long(return_value, "num_entries", r ? (zend_long)tbl_ns_entries(t, ns) : 0);
	add_assoc_double(return_value, "expunges", 0.0);
	add_assoc_long(return_value, "start_time", php_table_start_time);
	add_assoc_double(return_value, "mem_size", r ? (double)tbl_ns_bytes(t, ns) : 0.0);
	add_assoc_string(return_value, "memory_type", "mmap");
	if (!limited) {
		zval list, empty;
		uint64_t cursor = 0;

		array_init(&list);
		if (r) {
			do {
				tbl_scan(t, ns, &cursor, PHP_TABLE_SCAN_CHUNK, php_table_apcu_link_cb, &list);
			} while (cursor != 0);
		}
		add_assoc_zval(return_value, "cache_list", &list);
		array_init(&empty);
		add_assoc_zval(return_value, "deleted_list", &empty);
		array_init(&empty);
		add_assoc_zval(return_value, "slot_distribution", &empty);
	}
}

PHP_FUNCTION(apcu_sma_info)
{
	bool limited = false;
	tbl_t *t;
	tbl_stats_t s;
	zval lists, one;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(limited)
	ZEND_PARSE_PARAMETERS_END();

	if (!(t = php_table_apcu_table(false))) {
		php_error_docref(NULL, E_WARNING, "No APC SMA info available.  Perhaps APC is disabled via apc.enabled?");
		RETURN_FALSE;
	}
	tbl_get_stats(t, &s);
	array_init(return_value);
	add_assoc_long(return_value, "num_seg", 1);
	add_assoc_double(return_value, "seg_size", (double)s.segment_size);
	add_assoc_double(return_value, "avail_mem", (double)s.free_bytes);
	if (!limited) {
		array_init(&lists);
		array_init(&one);
		add_next_index_zval(&lists, &one);
		add_assoc_zval(return_value, "block_lists", &lists);
	}
}

PHP_FUNCTION(apcu_key_info)
{
	zend_string *key;
	tbl_t *t;
	tbl_ns_t ns;
	tbl_view_t v;
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	if (!(t = php_table_apcu_table(false)) || !php_table_key_ok(key)) {
		RETURN_NULL();
	}
	if ((r = php_table_apcu_ns_read(t, &ns)) > 0) {
		r = php_table_peek(t, ns, key, &v);
	}
	if (r < 0) {
		RETURN_THROWS();
	}
	if (r == 0) {
		RETURN_NULL();
	}
	array_init_size(return_value, 7);
	add_assoc_long(return_value, "hits", 0);
	add_assoc_long(return_value, "access_time", (zend_long)v.updated);
	add_assoc_long(return_value, "mtime", (zend_long)v.updated);
	add_assoc_long(return_value, "creation_time", (zend_long)v.created);
	add_assoc_long(return_value, "deletion_time", 0);
	add_assoc_long(return_value, "ttl", php_table_apcu_entry_ttl(&v));
	add_assoc_long(return_value, "refs", 0);
}
