/*
 * php_table_ns.c - whole-namespace and whole-table methods: count, memory, clear, clearAll, namespaces,
 * stats. Counters come from the core in O(stripes); nothing here materializes values.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_table_internal.h"
#include "serializer/compress.h"

/* count() and memory(): one per-namespace total; a namespace never created has none. */
static void php_table_ns_total(INTERNAL_FUNCTION_PARAMETERS, uint64_t (*total)(tbl_t *, tbl_ns_t))
{
	zend_string *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;
	int r;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_ns(ns, 1) || !(t = php_table_handle()) || (r = php_table_ns_read(t, ns, &nsid)) < 0) {
		RETURN_THROWS();
	}
	RETURN_LONG(r ? (zend_long)total(t, nsid) : 0);
}

PHP_METHOD(Shm_Table, count)
{
	php_table_ns_total(INTERNAL_FUNCTION_PARAM_PASSTHRU, tbl_ns_entries);
}

PHP_METHOD(Shm_Table, memory)
{
	php_table_ns_total(INTERNAL_FUNCTION_PARAM_PASSTHRU, tbl_ns_bytes);
}

PHP_METHOD(Shm_Table, clear)
{
	zend_string *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;
	tbl_status_t st;
	uint64_t removed;
	int r;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_ns(ns, 1) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if (!php_table_tier_clear(t, ns)) {
			if (EG(exception)) {
				RETURN_THROWS();
			}
			RETURN_FALSE;   /* table.redis_on_error=miss */
		}
		RETURN_TRUE;
	}
#endif
	if ((r = php_table_ns_read(t, ns, &nsid)) < 0) {
		RETURN_THROWS();
	}
	if (r > 0 && (st = tbl_clear_ns(t, nsid, &removed)) != TBL_OK && php_table_throw(t, st, NULL, 0)) {
		RETURN_THROWS();
	}
	RETURN_TRUE;
}

/* Whether processes of another user than the table's have namespaces in it (php_table_users.c). */
static bool php_table_ns_of_other_users(tbl_t *t)
{
	unsigned n = tbl_ns_count_created(t);

	for (unsigned i = 1; i < n; i++) {
		size_t len;
		const char *name = tbl_ns_name(t, (tbl_ns_t)i, &len);

		if (len > 0 && name[0] == '\x01') {
			return true;
		}
	}
	return false;
}

PHP_METHOD(Shm_Table, clearAll)
{
	tbl_t *t;
	tbl_status_t st;
	uint64_t removed = 0;

	ZEND_PARSE_PARAMETERS_NONE();

	if (!(t = php_table_handle())) {
		RETURN_THROWS();
	}
	if (php_table_user_tag_len || php_table_ns_of_other_users(t)) {
		/* Only the namespaces this process's user sees (php_table_users.c), one by one. */
		unsigned n = tbl_ns_count_created(t);

		for (unsigned i = 0; i < n; i++) {
			size_t len;
			const char *name = tbl_ns_name(t, (tbl_ns_t)i, &len);
			uint64_t one = 0;

			if (php_table_user_ns_shown(i == TBL_NS_DEFAULT, name, len, &name, &len) == PHP_TABLE_NS_HIDDEN) {
				continue;
			}
			if ((st = tbl_clear_ns(t, tbl_ns_handle(t, i), &one)) != TBL_OK && php_table_throw(t, st, NULL, 0)) {
				RETURN_THROWS();
			}
			removed += one;
		}
		RETURN_LONG((zend_long)removed);
	}
	if ((st = tbl_clear_all(t, &removed)) != TBL_OK && php_table_throw(t, st, NULL, 0)) {
		RETURN_THROWS();
	}
	RETURN_LONG((zend_long)removed);
}

PHP_METHOD(Shm_Table, namespaces)
{
	tbl_t *t;
	unsigned n;

	ZEND_PARSE_PARAMETERS_NONE();

	if (!(t = php_table_handle())) {
		RETURN_THROWS();
	}
	n = tbl_ns_count_created(t);
	array_init(return_value);
	for (unsigned i = 1; i < n; i++) {
		size_t len, shown_len;
		const char *name, *shown;
		if (tbl_ns_entries(t, tbl_ns_handle(t, i)) == 0) {
			continue;
		}
		name = tbl_ns_name(t, (tbl_ns_t)i, &len);
		/* Another user's, or this user's default namespace (listed by no one: it is null). */
		if (php_table_user_ns_shown(false, name, len, &shown, &shown_len) != PHP_TABLE_NS_SHOWN) {
			continue;
		}
		add_next_index_stringl(return_value, shown, shown_len);
	}
}

PHP_METHOD(Shm_Table, stats)
{
	tbl_t *t;
	tbl_stats_t s;
	tbl_segment_info_t seg;
	zval nss, one;
	unsigned n;

	ZEND_PARSE_PARAMETERS_NONE();

	if (!(t = php_table_handle())) {
		RETURN_THROWS();
	}
	tbl_get_stats(t, &s);
	array_init_size(return_value, 43);
	add_assoc_long(return_value, "hits", (zend_long)s.hits);
	add_assoc_long(return_value, "misses", (zend_long)s.misses);
	add_assoc_long(return_value, "sets", (zend_long)s.sets);
	add_assoc_long(return_value, "deletes", (zend_long)s.deletes);
	add_assoc_long(return_value, "evictions", (zend_long)s.evictions);
	add_assoc_long(return_value, "evicted_bytes", (zend_long)s.evicted_bytes);
	add_assoc_long(return_value, "eviction_runs", (zend_long)s.evict_runs);
	add_assoc_long(return_value, "eviction_moves", (zend_long)s.evict_moves);
	add_assoc_long(return_value, "expirations", (zend_long)s.expirations);
	add_assoc_long(return_value, "oom", (zend_long)s.oom);
	add_assoc_long(return_value, "entries", (zend_long)s.entries);
	add_assoc_long(return_value, "memory_used", (zend_long)s.used_bytes);
	add_assoc_long(return_value, "memory_free", (zend_long)s.free_bytes);
	add_assoc_long(return_value, "memory_size", (zend_long)s.segment_size);
	add_assoc_string(return_value, "eviction_policy", (char *)php_table_policy_names[php_table_policy]);
	add_assoc_string(return_value, "serializer", (char *)php_table_ser->name);
	add_assoc_string(return_value, "compression", (char *)php_table_compression_name(php_table_compress_algorithm));
	add_assoc_long(return_value, "slots_used", (zend_long)s.slots_used);
	add_assoc_long(return_value, "slots_total", (zend_long)s.slots_total);
	add_assoc_long(return_value, "retired_bytes", (zend_long)s.retired_bytes);
	add_assoc_bool(return_value, "zero_copy", php_table_zero_copy);
	add_assoc_long(return_value, "zero_copy_budget", (zend_long)php_table_zero_copy_budget);
	add_assoc_long(return_value, "pins", (zend_long)s.pins);
	add_assoc_long(return_value, "held_entries", (zend_long)s.held_entries);
	add_assoc_long(return_value, "held_bytes", (zend_long)s.held_bytes);
	add_assoc_long(return_value, "held_retired_bytes", (zend_long)s.held_retired_bytes);
	add_assoc_long(return_value, "zero_copy_reads", (zend_long)s.zero_copy_reads);
	add_assoc_long(return_value, "copied_reads", (zend_long)(s.hits - s.zero_copy_reads));
	add_assoc_long(return_value, "lock_repairs", (zend_long)s.lock_repairs);
	add_assoc_long(return_value, "lock_timeouts", (zend_long)s.lock_timeouts);
	add_assoc_long(return_value, "gc_runs", (zend_long)s.gc_runs);
	add_assoc_long(return_value, "memory_largest_free", (zend_long)s.largest_free);
	add_assoc_long(return_value, "buckets", (zend_long)s.buckets);
	add_assoc_long(return_value, "max_chain", (zend_long)s.max_chain);
	tbl_segment_info(t, &seg);
	/* A named segment outlives processes: its own creation time, whoever made it (this process may only
	 * have attached). An anonymous one was made by this process tree's MINIT. */
	add_assoc_long(return_value, "start_time", seg.named && seg.created_at ? (zend_long)seg.created_at : php_table_start_time);
	if (php_table_named) {
		add_assoc_string(return_value, "segment", php_table_segment_name);
		add_assoc_string(return_value, "segment_path", php_table_segment_path);
	} else {
		add_assoc_null(return_value, "segment");
		add_assoc_null(return_value, "segment_path");
	}
	add_assoc_bool(return_value, "segment_same_base", seg.same_base);
	add_assoc_bool(return_value, "segment_created", seg.created);
	add_assoc_long(return_value, "segment_memory_requested", (zend_long)seg.requested);
	if (seg.note[0]) {
		add_assoc_string(return_value, "segment_note", seg.note);
	} else {
		add_assoc_null(return_value, "segment_note");
	}
	add_assoc_long(return_value, "processes", (zend_long)s.processes);

	array_init(&nss);
	n = tbl_ns_count_created(t);
	for (unsigned i = 0; i < n; i++) {
		uint64_t entries = tbl_ns_entries(t, tbl_ns_handle(t, i));
		size_t len;
		const char *name;
		int shown;
		name = tbl_ns_name(t, (tbl_ns_t)i, &len);
		shown = php_table_user_ns_shown(i == TBL_NS_DEFAULT, name, len, &name, &len);
		if (shown == PHP_TABLE_NS_HIDDEN || (shown == PHP_TABLE_NS_SHOWN && entries == 0)) {
			continue;   /* another user's, or empty (the default namespace is always listed, as "") */
		}
		if (shown == PHP_TABLE_NS_SHOWN_DEFAULT) {
			name = "";
			len = 0;
		}
		array_init_size(&one, 2);
		add_assoc_long(&one, "count", (zend_long)entries);
		add_assoc_long(&one, "memory", (zend_long)tbl_ns_bytes(t, tbl_ns_handle(t, i)));
		zend_symtable_str_update(Z_ARRVAL(nss), name, len, &one);
	}
	if (!zend_hash_str_exists(Z_ARRVAL(nss), "", 0)) {
		/* A process of another user than the table's (php_table_users.c) whose default namespace was
		 * never written: listed all the same, as the owner's always is. */
		array_init_size(&one, 2);
		add_assoc_long(&one, "count", 0);
		add_assoc_long(&one, "memory", 0);
		zend_hash_str_update(Z_ARRVAL(nss), "", 0, &one);
	}
	add_assoc_zval(return_value, "namespaces", &nss);
#ifdef HAVE_TABLE_HIREDIS
	{
		zval tier;

		php_table_tier_stats(&tier);
		add_assoc_zval(return_value, "redis", &tier);
	}
#endif
}
