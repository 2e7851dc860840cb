/*
 * php_table_apcu_module.c - the "apcu" module that table.apcu_compat=1 registers, so that applications
 * written for APCu find what they probe for: extension_loaded('apcu'), phpversion('apcu'),
 * function_exists('apcu_fetch'), ini_get('apc.enabled') / ini_get('apc.enable_cli'), APCu's constants.
 *
 * How it is registered. Every extension= line is loaded (zend_register_module_ex) before any module
 * starts, so when table's MINIT runs, module_registry already holds the real APCu if it is loaded at all,
 * in either order. If it is, compat steps aside with one startup warning: APCu keeps its functions and
 * nothing of ours is registered (no "cannot redeclare"). If not, table's MINIT registers this module as
 * PHP's own startup does for a built-in one (zend_register_internal_module: a module number, the
 * functions) and starts it at once (zend_startup_module_ex: its MINIT registers the apc.* INI entries
 * and constants). zend_startup_modules() walks module_registry with zend_hash_apply(), which re-reads
 * the table on every step, so the entry added meanwhile is safe to the walk, and it skips a started
 * module. The module is persistent, has no shared object of its own (handle NULL: nothing to dlclose),
 * and being registered after table, it is shut down before it.
 *
 * The apc.* settings carry APCu's names, defaults and modes; apc.enabled, apc.enable_cli, apc.ttl (as
 * reported) and apc.use_request_time act, the others are accepted and shown only (docs/apcu.md).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"

#include "php_table.h"
#include "php_table_apcu.h"
#include "php_table_apcu_arginfo.h"

ZEND_DECLARE_MODULE_GLOBALS(table_apcu)
PHP_TABLE_HIDDEN bool php_table_apcu_active;
PHP_TABLE_HIDDEN zend_string *php_table_apcu_ns;

/* APCu's constants (apc_iterator.h): what APCUIterator and its callers pass. */
static const struct { const char *name; zend_long value; } php_table_apcu_constants[] = {
	{ "APC_LIST_ACTIVE",   PHP_TABLE_APC_LIST_ACTIVE },
	{ "APC_LIST_DELETED",  PHP_TABLE_APC_LIST_DELETED },
	{ "APC_ITER_TYPE",     1 << 0 },
	{ "APC_ITER_KEY",      1 << 1 },
	{ "APC_ITER_VALUE",    1 << 2 },
	{ "APC_ITER_NUM_HITS", 1 << 3 },
	{ "APC_ITER_MTIME",    1 << 4 },
	{ "APC_ITER_CTIME",    1 << 5 },
	{ "APC_ITER_DTIME",    1 << 6 },
	{ "APC_ITER_ATIME",    1 << 7 },
	{ "APC_ITER_REFCOUNT", 1 << 8 },
	{ "APC_ITER_MEM_SIZE", 1 << 9 },
	{ "APC_ITER_TTL",      1 << 10 },
	{ "APC_ITER_NONE",     0 },
	{ "APC_ITER_ALL",      0xffffffffL },
};

/* APCu's INI entries, with its defaults and modes, in the apcu module's globals. */
#define PHP_TABLE_APCU_INI(name, def, mode, handler, field) \
	STD_PHP_INI_ENTRY(name, def, mode, handler, field, zend_table_apcu_globals, table_apcu_globals)

PHP_INI_BEGIN()
	PHP_TABLE_APCU_INI("apc.enabled",          "1",    PHP_INI_SYSTEM, OnUpdateBool,   enabled)
	PHP_TABLE_APCU_INI("apc.shm_segments",     "1",    PHP_INI_SYSTEM, OnUpdateLong,   shm_segments)
	PHP_TABLE_APCU_INI("apc.shm_size",         "32M",  PHP_INI_SYSTEM, OnUpdateString, shm_size)
	PHP_TABLE_APCU_INI("apc.entries_hint",     "4096", PHP_INI_SYSTEM, OnUpdateLong,   entries_hint)
	PHP_TABLE_APCU_INI("apc.gc_ttl",           "3600", PHP_INI_SYSTEM, OnUpdateLong,   gc_ttl)
	PHP_TABLE_APCU_INI("apc.ttl",              "0",    PHP_INI_SYSTEM, OnUpdateLong,   ttl)
	PHP_TABLE_APCU_INI("apc.smart",            "0",    PHP_INI_SYSTEM, OnUpdateLong,   smart)
	PHP_TABLE_APCU_INI("apc.mmap_file_mask",   NULL,   PHP_INI_SYSTEM, OnUpdateString, mmap_file_mask)
	PHP_TABLE_APCU_INI("apc.enable_cli",       "0",    PHP_INI_SYSTEM, OnUpdateBool,   enable_cli)
	PHP_TABLE_APCU_INI("apc.slam_defense",     "0",    PHP_INI_SYSTEM, OnUpdateBool,   slam_defense)
	PHP_TABLE_APCU_INI("apc.preload_path",     NULL,   PHP_INI_SYSTEM, OnUpdateString, preload_path)
	PHP_TABLE_APCU_INI("apc.coredump_unmap",   "0",    PHP_INI_SYSTEM, OnUpdateBool,   coredump_unmap)
	PHP_TABLE_APCU_INI("apc.use_request_time", "0",    PHP_INI_ALL,    OnUpdateBool,   use_request_time)
	PHP_TABLE_APCU_INI("apc.serializer",       "php",  PHP_INI_SYSTEM, OnUpdateStringUnempty, serializer)
PHP_INI_END()

tbl_t *php_table_apcu_table_slow(bool quiet)
{
	tbl_t *t;

	if (UNEXPECTED(!php_table_apcu_active)) {
		return NULL;
	}
	if (EXPECTED((t = php_table_tbl) != NULL)) {
		return t;
	}
	/* Not attached yet (a named segment, on first use), or unavailable: then php_table_handle() throws
	 * Shm\TableException naming the cause, which APCu's callers would not expect. */
	if ((t = php_table_handle()) != NULL) {
		return t;
	}
	if (EG(exception) && instanceof_function(EG(exception)->ce, php_table_exception_ce)) {
		zval rv, *msg = zend_read_property_ex(zend_get_exception_base(EG(exception)), EG(exception),
			ZSTR_KNOWN(ZEND_STR_MESSAGE), 1, &rv);
		if (!quiet && !PHP_TABLE_APCU_G(warned) && Z_TYPE_P(msg) == IS_STRING) {
			PHP_TABLE_APCU_G(warned) = true;
			zend_string *text = zend_string_copy(Z_STR_P(msg));
			zend_clear_exception();
			php_error_docref(NULL, E_WARNING, "the APCu API (table.apcu_compat) behaves as a disabled APCu: %s",
				ZSTR_VAL(text));
			zend_string_release(text);
		} else {
			zend_clear_exception();
		}
	}
	return NULL;
}

static PHP_GINIT_FUNCTION(table_apcu)
{
#if defined(COMPILE_DL_TABLE) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(table_apcu_globals, 0, sizeof(*table_apcu_globals));
}

static PHP_MINIT_FUNCTION(table_apcu)
{
	(void)type;
	REGISTER_INI_ENTRIES();
	for (size_t i = 0; i < sizeof(php_table_apcu_constants) / sizeof(php_table_apcu_constants[0]); i++) {
		zend_register_long_constant(php_table_apcu_constants[i].name, strlen(php_table_apcu_constants[i].name),
			php_table_apcu_constants[i].value, CONST_PERSISTENT, module_number);
	}
	php_table_apcu_iterator_register(register_class_APCUIterator(zend_ce_iterator));
	php_table_apcu_ns = zend_string_init_interned(PHP_TABLE_APCU_NS, sizeof(PHP_TABLE_APCU_NS) - 1, 1);
	/* APCu's rule: the CLI has no cache unless apc.enable_cli says so. */
	php_table_apcu_active = PHP_TABLE_APCU_G(enabled)
		&& (PHP_TABLE_APCU_G(enable_cli) || strcmp(sapi_module.name, "cli") != 0);
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(table_apcu)
{
	(void)type;
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(table_apcu)
{
	(void)type;
	(void)module_number;
	PHP_TABLE_APCU_G(request_time) = 0;
	PHP_TABLE_APCU_G(warned) = false;
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(table_apcu)
{
	(void)zend_module;
	php_info_print_table_start();
	php_info_print_table_row(2, "APCu Support", php_table_apcu_active ? "Enabled" : "Disabled");
	php_info_print_table_row(2, "Version", PHP_TABLE_APCU_VERSION);
	php_info_print_table_row(2, "Provided by", "the table extension " PHP_TABLE_VERSION
		" (table.apcu_compat=1), in its namespace \"" PHP_TABLE_APCU_NS "\"");
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

static zend_module_entry php_table_apcu_module_entry = {
	STANDARD_MODULE_HEADER,
	"apcu",
	ext_functions,
	PHP_MINIT(table_apcu),
	PHP_MSHUTDOWN(table_apcu),
	PHP_RINIT(table_apcu),
	NULL,
	PHP_MINFO(table_apcu),
	PHP_TABLE_APCU_VERSION,
	PHP_MODULE_GLOBALS(table_apcu),
	PHP_GINIT(table_apcu),
	NULL,
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

void php_table_apcu_startup(bool compat)
{
	zend_module_entry *current = EG(current_module), *m;

	if (!compat) {
		return;
	}
	if (zend_hash_str_exists(&module_registry, "apcu", sizeof("apcu") - 1)) {
		php_error_docref(NULL, E_CORE_WARNING, "table.apcu_compat=1 is ignored: the APCu extension is loaded "
			"and keeps serving the apcu_* functions itself. Unload APCu (or set table.apcu_compat=0) to serve "
			"them from the table");
		return;
	}
	/* Registering and starting a module both reset EG(current_module): table's MINIT continues after. */
	m = zend_register_internal_module(&php_table_apcu_module_entry);
	if (m && zend_startup_module_ex(m) != SUCCESS) {
		m = NULL;
	}
	EG(current_module) = current;
	if (!m) {
		php_error_docref(NULL, E_CORE_WARNING, "table.apcu_compat=1: the apcu module could not be registered; "
			"the apcu_* functions are not available");
	}
}
