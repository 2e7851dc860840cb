/*
 * php_table_testhooks.c - functions that exist only for the test suite, registered only when the
 * environment has TABLE_TEST_HOOKS=1 at startup, so no production process ever has them.
 *
 *   Shm\__table_test_protect(bool $readonly): bool
 *       Make this process's view of the segment read-only, or writable again (mprotect). With the
 *       segment read-only, any write to it from outside a table call (for instance PHP modifying a
 *       zero-copy array in place) faults at once. No Shm\Table method may be called meanwhile.
 *
 *   Shm\__table_test_check(): string
 *       The table's full consistency check (tbl_check: chains, counters, allocator): "" when the table
 *       is consistent, else what is wrong. Attaches a named segment first, like any call.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <stdlib.h>
#include <string.h>
#include "php.h"
#include "php_table_internal.h"

PHP_FUNCTION(Shm___table_test_protect)
{
	bool readonly;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_BOOL(readonly)
	ZEND_PARSE_PARAMETERS_END();

	RETURN_BOOL(php_table_tbl && tbl_debug_protect(php_table_tbl, readonly) == 0);
}

PHP_FUNCTION(Shm___table_test_check)
{
	char err[512];
	tbl_t *t;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(t = php_table_handle())) {
		RETURN_THROWS();
	}
	err[0] = '\0';
	if (tbl_check(t, err, sizeof(err)) == 0) {
		RETURN_EMPTY_STRING();
	}
	RETURN_STRING(err[0] ? err : "inconsistent");
}

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_table_test_check, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_table_test_protect, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, readonly, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

static const zend_function_entry php_table_test_functions[] = {
	ZEND_NS_FALIAS("Shm", __table_test_protect, Shm___table_test_protect, arginfo_table_test_protect)
	ZEND_NS_FALIAS("Shm", __table_test_check, Shm___table_test_check, arginfo_table_test_check)
	ZEND_FE_END
};

void php_table_testhooks_register(int module_number)
{
	const char *on = getenv("TABLE_TEST_HOOKS");

	(void)module_number;
	if (on && strcmp(on, "1") == 0) {
		zend_register_functions(NULL, php_table_test_functions, NULL, MODULE_PERSISTENT);
	}
}
