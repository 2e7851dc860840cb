/*
 * table.c - the Zend module of Shm\Table: its INI entries, the classes, module start-up and shutdown,
 * request start and end, and phpinfo(). The top of the binding: it calls down into binding/ (the state,
 * php_table_state.c; the request's leftovers of remember() and fullscan(); the test hooks) and nothing
 * in binding/ calls it. Below it, in binding/: the methods (php_table_methods.c, php_table_remember.c,
 * php_table_scan.c, php_table_ns.c, php_table_metrics.c, php_table_testhooks.c), and beneath them what
 * they share: php_table_values.c (fetch and encode helpers), php_table_errors.c (statuses to exceptions),
 * php_table_state.c (the process's table). The core (core/) does all table work and never calls back
 * into PHP; serializer/ encodes and decodes values.
 *
 * Rules every method follows:
 *   - Validate every argument before touching the table (ValueErrors name the argument).
 *   - Run all user code (encoding runs __serialize/__sleep, remember() runs $compute) before calling the
 *     core; the core never holds a lock while control is back in PHP.
 *   - A core status becomes a PHP outcome in exactly one place: php_table_throw().
 *   - Reads happen inside a read section (tbl_read_begin/end). Native values are materialized inside it
 *     (emalloc only, no user code); serialized ones are copied out and decoded after it is closed, since
 *     unserializing can run user code that might call back into the table.
 *
 * The segment is created in MINIT, before FPM or pcntl children fork, so every worker maps the same one.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <time.h>
#include <inttypes.h>
#include <errno.h>

#include "php.h"
#include "php_ini.h"
#include "php_main.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "ext/spl/spl_exceptions.h"
#include "zend_exceptions.h"
#include "zend_objects.h"
#include "zend_smart_str.h"

#include "php_table.h"
#include "php_table_internal.h"
#include "php_table_apcu.h"
#include "table_arginfo.h"
#include "serializer/compress.h"
#include "redis/redis_url_mask.h"

/* ---- INI ------------------------------------------------------------------------------------------- */

/* table.redis in phpinfo() (and `php -i`, `php --ri table`): the URL with its password replaced by ***
 * (redis/redis_url_mask.h). ini_get() and ini_get_all() still return the value itself, as PHP has no hook
 * for them; the status page masks what it shows the same way. */
static ZEND_INI_DISP(php_table_redis_displayer)
{
	zend_string *value = type == ZEND_INI_DISPLAY_ORIG && ini_entry->modified ? ini_entry->orig_value
	                                                                       : ini_entry->value;
	size_t cap;
	char *masked;

	if (!value || ZSTR_LEN(value) == 0) {
		PUTS(sapi_module.phpinfo_as_text ? "no value" : "<i>no value</i>");
		return;
	}
	cap = TBL_REDIS_URL_MASK_MAX(ZSTR_LEN(value));
	masked = emalloc(cap);
	tbl_redis_url_mask(ZSTR_VAL(value), ZSTR_LEN(value), masked, cap);
	if (sapi_module.phpinfo_as_text) {
		PUTS(masked);
	} else {
		php_html_puts(masked, strlen(masked));
	}
	efree(masked);
}

/* Values are validated in MINIT, not in the update handlers: an invalid one must make the table
 * unavailable with a message that names the setting, rather than silently fall back to a default. */
PHP_INI_BEGIN()
	STD_PHP_INI_BOOLEAN("table.enabled", "1", PHP_INI_SYSTEM, OnUpdateBool, enabled,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.memory", "64M", PHP_INI_SYSTEM, OnUpdateString, memory,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.eviction_policy", "gdsf", PHP_INI_SYSTEM, OnUpdateString, eviction_policy,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.serializer", "php", PHP_INI_SYSTEM, OnUpdateString, serializer,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.compression", "none", PHP_INI_SYSTEM, OnUpdateString, compression,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.compression_threshold", "512", PHP_INI_SYSTEM, OnUpdateString,
		compression_threshold, zend_table_globals, table_globals)
	STD_PHP_INI_BOOLEAN("table.relay_alias", "0", PHP_INI_SYSTEM, OnUpdateBool, relay_alias,
		zend_table_globals, table_globals)
	STD_PHP_INI_BOOLEAN("table.apcu_compat", "0", PHP_INI_SYSTEM, OnUpdateBool, apcu_compat,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.zero_copy", "auto", PHP_INI_SYSTEM, OnUpdateString, zero_copy,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.zero_copy_budget", "", PHP_INI_SYSTEM, OnUpdateString, zero_copy_budget,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.segment", "", PHP_INI_SYSTEM, OnUpdateString, segment,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.segment_dir", "/dev/shm", PHP_INI_SYSTEM, OnUpdateString, segment_dir,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.segment_mode", "0600", PHP_INI_SYSTEM, OnUpdateString, segment_mode,
		zend_table_globals, table_globals)
	STD_PHP_INI_BOOLEAN("table.segment_recreate", "0", PHP_INI_SYSTEM, OnUpdateBool, segment_recreate,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.lock_timeout", "0", PHP_INI_SYSTEM, OnUpdateLong, lock_timeout,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY_EX("table.redis", "", PHP_INI_SYSTEM, OnUpdateString, redis,
		zend_table_globals, table_globals, php_table_redis_displayer)
	STD_PHP_INI_ENTRY("table.redis_namespaces", "", PHP_INI_SYSTEM, OnUpdateString, redis_namespaces,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.redis_prefix", "table:", PHP_INI_SYSTEM, OnUpdateString, redis_prefix,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.redis_timeout", "1000", PHP_INI_SYSTEM, OnUpdateLong, redis_timeout,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.redis_max_stale", "1000", PHP_INI_SYSTEM, OnUpdateLong, redis_max_stale,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.redis_allowed_classes", "*", PHP_INI_SYSTEM, OnUpdateString, redis_allowed_classes,
		zend_table_globals, table_globals)
	STD_PHP_INI_ENTRY("table.redis_on_error", "throw", PHP_INI_SYSTEM, OnUpdateString, redis_on_error,
		zend_table_globals, table_globals)
PHP_INI_END()

static PHP_GINIT_FUNCTION(table)
{
#if defined(COMPILE_DL_TABLE) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(table_globals, 0, sizeof(*table_globals));
	ZVAL_UNDEF(&table_globals->fullscan_fn);
}

#ifdef ZTS
/* A thread's end (TSRM frees its globals): its Redis connection is closed, its reader slot, holds and
 * claims go back to the table. */
static PHP_GSHUTDOWN_FUNCTION(table)
{
#ifdef HAVE_TABLE_HIREDIS
	php_table_tier_thread_end(table_globals);
#endif
	php_table_thread_end(table_globals);
}
#endif

/* Shm\Table is a static API: `new Shm\Table('log')` used to succeed and silently ignore its argument
 * (some Relay docs show an instance bound to a namespace). Refuse it, as Closure does, before any
 * constructor would run; unserialize() of an instance is refused too (ZEND_ACC_NOT_SERIALIZABLE). */
static zend_object_handlers php_table_object_handlers;

static zend_function *php_table_get_constructor(zend_object *obj)
{
	(void)obj;
	zend_throw_error(NULL, "Cannot instantiate Shm\\Table: its methods are static; pass the namespace to each "
		"call instead, e.g. Shm\\Table::get($key, 'log')");
	return NULL;
}

static zend_object *php_table_create_object(zend_class_entry *ce)
{
	zend_object *obj = zend_objects_new(ce);

	object_properties_init(obj, ce);
	obj->handlers = &php_table_object_handlers;
	return obj;
}

/* What the state (binding/php_table_state.c) calls of the layers above it. */
static const php_table_state_hooks php_table_state_hooks_of_module = {
	.resolve_tier = php_table_tier_resolve,
	.user_view_start = php_table_user_view_start,
};

static PHP_MINIT_FUNCTION(table)
{
	(void)type;
	REGISTER_INI_ENTRIES();

	php_table_ce = register_class_Shm_Table();
	memcpy(&php_table_object_handlers, &std_object_handlers, sizeof(php_table_object_handlers));
	php_table_object_handlers.get_constructor = php_table_get_constructor;
	php_table_ce->create_object = php_table_create_object;
	php_table_ce->ce_flags |= ZEND_ACC_NOT_SERIALIZABLE;
	php_table_exception_ce = register_class_Shm_TableException(spl_ce_RuntimeException);
	php_table_serializer_startup(php_table_exception_ce);

	/* The relay extension ships its own Relay\Table; it loads before us when present (see deps). */
	if (TABLE_G(relay_alias) && !zend_hash_str_exists(&module_registry, "relay", sizeof("relay") - 1)
			&& !zend_hash_str_exists(CG(class_table), "relay\\table", sizeof("relay\\table") - 1)) {
		zend_register_class_alias("Relay\\Table", php_table_ce);
	}

	php_table_testhooks_register(module_number);
	/* The state validates every setting, the tier's through the resolver handed down here (it calls
	 * nothing above itself); the tier starts once the table is there (under ZTS, its helper launcher:
	 * forked now, while the process is single-threaded). */
	php_table_state_startup(&php_table_state_hooks_of_module);
	if (TABLE_G(enabled) && !php_table_reason[0]) {
		php_table_tier_startup();
	}
	/* Last: it may register a second module, "apcu" (binding/php_table_apcu_module.c). */
	php_table_apcu_startup(TABLE_G(apcu_compat));
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(table)
{
	(void)type;
	php_table_tier_shutdown();
	php_table_state_shutdown();
	php_table_native_shutdown();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(table)
{
	(void)type;
	(void)module_number;
#if defined(COMPILE_DL_TABLE) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	php_table_state_rinit();
	return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(table)
{
	(void)type;
	(void)module_number;
	if (php_table_tbl) {
		/* A bailout (fatal error, memory limit) during materialization leaves a read section open. */
		tbl_read_reset(php_table_tbl);
		/* ... and one inside $compute leaves remember() claims behind. */
		php_table_claims_release_all(php_table_tbl);
	}
	php_table_scan_rshutdown();
	return SUCCESS;
}

/* After zend_deactivate: the request's memory, and with it every array that may still point into an
 * image, is gone. Only now may the request's holds go (RSHUTDOWN is too early: the symbol table and
 * everything derived from a zero-copy array are still alive then). */
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(table)
{
	if (php_table_tbl) {
		php_table_holding = false;
		tbl_release_holds(php_table_tbl);
	}
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(table)
{
	char buf[64];

	php_info_print_table_start();
	php_info_print_table_row(2, "table support", "enabled");
	php_info_print_table_row(2, "Version", PHP_TABLE_VERSION);
	php_info_print_table_row(2, "Enabled", TABLE_G(enabled) ? "yes" : "no");
	if (php_table_tbl) {
		tbl_stats_t s;
		tbl_get_stats(php_table_tbl, &s);
		snprintf(buf, sizeof(buf), "%" PRIu64, s.segment_size);
		php_info_print_table_row(2, "Segment size", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, s.free_bytes);
		php_info_print_table_row(2, "Free memory", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, s.entries);
		php_info_print_table_row(2, "Entries", buf);
		php_info_print_table_row(2, "Eviction policy", php_table_policy_names[php_table_policy]);
		php_info_print_table_row(2, "Serializer", php_table_ser->name);
		php_info_print_table_row(2, "Compression", php_table_compression_name(php_table_compress_algorithm));
		php_info_print_table_row(2, "Zero-copy reads", php_table_zero_copy ? "on" : "off");
		php_info_print_table_row(2, "Segment", php_table_named ? php_table_segment_path : "anonymous");
	} else if (TABLE_G(enabled)) {
		php_info_print_table_row(2, "Unavailable", php_table_reason);
	}
	{
		const char *const *c = php_table_compressors();
		smart_str list = {0};

		for (; *c; c++) {
			smart_str_appends(&list, list.s ? ", " : "");
			smart_str_appends(&list, *c);
		}
		smart_str_0(&list);
		php_info_print_table_row(2, "Compressors", list.s ? ZSTR_VAL(list.s) : "none");
		smart_str_free(&list);
	}
#ifdef HAVE_TABLE_IGBINARY
	php_info_print_table_row(2, "igbinary support", "yes");
#else
	php_info_print_table_row(2, "igbinary support", "no");
#endif
	php_info_print_table_end();

	DISPLAY_INI_ENTRIES();
}

static const zend_module_dep table_deps[] = {
	ZEND_MOD_REQUIRED("spl")
#ifdef HAVE_TABLE_IGBINARY
	ZEND_MOD_REQUIRED("igbinary")
#endif
	/* Start after relay when it is loaded, so table.relay_alias sees its Relay\Table. */
	ZEND_MOD_OPTIONAL("relay")
	/* And after APCu, so that table.apcu_compat steps aside for it (it is registered either way). */
	ZEND_MOD_OPTIONAL("apcu")
	ZEND_MOD_END
};

zend_module_entry table_module_entry = {
	STANDARD_MODULE_HEADER_EX,
	NULL,
	table_deps,
	PHP_TABLE_EXTNAME,
	NULL,
	PHP_MINIT(table),
	PHP_MSHUTDOWN(table),
	PHP_RINIT(table),
	PHP_RSHUTDOWN(table),
	PHP_MINFO(table),
	PHP_TABLE_VERSION,
	PHP_MODULE_GLOBALS(table),
	PHP_GINIT(table),
#ifdef ZTS
	PHP_GSHUTDOWN(table),
#else
	NULL,
#endif
	ZEND_MODULE_POST_ZEND_DEACTIVATE_N(table),
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_TABLE
/* Under ZTS the TSRM cache is defined in serializer/serializer.c, the lowest layer that reads it. */
ZEND_GET_MODULE(table)
#endif

