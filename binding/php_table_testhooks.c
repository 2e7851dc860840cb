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
 *
 *   Shm\__table_test_user_view(): bool
 *       Look at the anonymous table again as the user this process now runs as (after posix_setuid() in
 *       a forked child, say), as a php-fpm worker's first request does (php_table_users.c): false when
 *       this process may not use it. Only on the anonymous table.
 *
 *   Shm\__table_test_stop_holding(string $locks): bool
 *       Take the table's locks named $locks ("stripes", "allocator", "namespace" or "misc"), stop this
 *       process (SIGSTOP) holding them, and once continued (SIGCONT) let go of them and return true:
 *       a holder that is stopped or stuck, for the tests of table.lock_timeout. Throws
 *       Shm\TableException when a lock cannot be taken.
 *
 *   Shm\__table_test_native_encode(array $value): string|false
 *       The native encoding of $value (serializer/native.c), or false when it needs the serializer.
 *
 *   Shm\__table_test_native_decode(string $bytes): array
 *       Decode native bytes as get() would, so that tests can feed it truncated or corrupt encodings:
 *       throws Shm\TableException ("the stored value is corrupt") when they are not valid.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "php.h"
#include "zend_exceptions.h"
#include "php_table_internal.h"

PHP_FUNCTION(Shm___table_test_protect)
{
	bool readonly;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_BOOL(readonly)
	ZEND_PARSE_PARAMETERS_END();

	RETURN_BOOL(php_table_tbl && tbl_debug_protect(php_table_tbl, readonly) == 0);
}

static void stop_self(void *unused)
{
	(void)unused;
	raise(SIGSTOP);
}

PHP_FUNCTION(Shm___table_test_stop_holding)
{
	zend_string *locks;
	tbl_t *t;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(locks)
	ZEND_PARSE_PARAMETERS_END();

	if (!(t = php_table_handle())) {
		RETURN_THROWS();
	}
	if (tbl_debug_hold_locks(t, ZSTR_VAL(locks), stop_self, NULL) != 0) {
		zend_throw_exception_ex(php_table_exception_ce, 0, "%s", tbl_errstr(t));
		RETURN_THROWS();
	}
	RETURN_TRUE;
}

PHP_FUNCTION(Shm___table_test_user_view)
{
	tbl_t *t;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(t = php_table_handle())) {
		RETURN_THROWS();
	}
	php_table_user_view_forget();
	RETURN_BOOL(php_table_user_view_start(t));
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

PHP_FUNCTION(Shm___table_test_native_encode)
{
	HashTable *ht;
	smart_str out = {0};
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ARRAY_HT(ht)
	ZEND_PARSE_PARAMETERS_END();

	r = php_table_native_encode(ht, &out, 1);
	if (r <= 0) {
		smart_str_free(&out);
		if (r < 0) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	RETURN_STR(smart_str_extract(&out));
}

PHP_FUNCTION(Shm___table_test_native_decode)
{
	zend_string *bytes;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(bytes)
	ZEND_PARSE_PARAMETERS_END();

	if (php_table_native_decode(ZSTR_VAL(bytes), ZSTR_LEN(bytes), return_value) != SUCCESS) {
		RETURN_THROWS();
	}
}

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_table_test_native_encode, 0, 1, MAY_BE_STRING | MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, value, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_table_test_native_decode, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, bytes, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_table_test_user_view, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_table_test_check, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_table_test_stop_holding, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, locks, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_table_test_protect, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, readonly, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

static const zend_function_entry php_table_test_functions[] = {
	ZEND_NS_FALIAS("Shm", __table_test_protect, Shm___table_test_protect, arginfo_table_test_protect)
	ZEND_NS_FALIAS("Shm", __table_test_check, Shm___table_test_check, arginfo_table_test_check)
	ZEND_NS_FALIAS("Shm", __table_test_user_view, Shm___table_test_user_view, arginfo_table_test_user_view)
	ZEND_NS_FALIAS("Shm", __table_test_stop_holding, Shm___table_test_stop_holding, arginfo_table_test_stop_holding)
	ZEND_NS_FALIAS("Shm", __table_test_native_encode, Shm___table_test_native_encode, arginfo_table_test_native_encode)
	ZEND_NS_FALIAS("Shm", __table_test_native_decode, Shm___table_test_native_decode, arginfo_table_test_native_decode)
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
