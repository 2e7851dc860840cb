/*
 * php_table_errors.c - the one place a core status becomes a PHP outcome (php_table_throw). Beneath the
 * methods: every method file calls these; they call nothing of the binding but its state (which throws
 * its own "disabled" / "unavailable" exception, php_table_throw_unavailable, so as to call nothing here).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <inttypes.h>

#include "php.h"
#include "zend_exceptions.h"
#include "zend_smart_str.h"

#include "php_table.h"
#include "php_table_internal.h"

/* Throw Shm\TableException with a binary-safe message (keys may hold NUL bytes). */
static ZEND_COLD void php_table_throw_str(zend_string *msg)
{
	zval ex, tmp;

	object_init_ex(&ex, php_table_exception_ce);
	ZVAL_STR(&tmp, msg);
	zend_update_property_ex(zend_ce_exception, Z_OBJ(ex), ZSTR_KNOWN(ZEND_STR_MESSAGE), &tmp);
	zend_string_release(msg);
	zend_throw_exception_object(&ex);
}

/* A key quoted in a message: printable ASCII as is, '"' and '\\' escaped with a backslash, any other
 * byte as \xHH, and at most PHP_TABLE_MSG_KEY_MAX bytes of it (then "..."). Keys are binary strings and
 * may be long; a message must stay one readable line. */
#define PHP_TABLE_MSG_KEY_MAX 64u
static void php_table_append_key(smart_str *msg, const zend_string *key)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = ZSTR_LEN(key) < PHP_TABLE_MSG_KEY_MAX ? ZSTR_LEN(key) : PHP_TABLE_MSG_KEY_MAX;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)ZSTR_VAL(key)[i];
		if (c == '"' || c == '\\') {
			smart_str_appendc(msg, '\\');
			smart_str_appendc(msg, (char)c);
		} else if (c < 32 || c > 126) {
			smart_str_appendl(msg, "\\x", 2);
			smart_str_appendc(msg, hex[c >> 4]);
			smart_str_appendc(msg, hex[c & 15]);
		} else {
			smart_str_appendc(msg, (char)c);
		}
	}
	if (ZSTR_LEN(key) > n) {
		smart_str_appendl(msg, "...", 3);
	}
}

bool php_table_throw(tbl_t *t, tbl_status_t st, const zend_string *key, size_t size)
{
	zend_string *fn;

	switch (st) {
		case TBL_OK:
		case TBL_ENOTFOUND:
		case TBL_EEXIST:
		case TBL_EMISMATCH:
		case TBL_ENOMEM:   /* counted in stats()['oom'] by the core */
		case TBL_ESTALE:   /* the namespace was emptied and recycled: nothing of it is left */
			return false;
		default:
			break;
	}

	fn = get_active_function_or_method_name();
	switch (st) {
		case TBL_ETOOBIG:
			zend_throw_exception_ex(php_table_exception_ce, 0,
				"%s(): value of %zu bytes does not fit in the table (at most %" PRIu64 " bytes; raise table.memory)",
				ZSTR_VAL(fn), size, tbl_value_max(t, key ? ZSTR_LEN(key) : 1));
			break;
		case TBL_ETYPE: {
			smart_str msg = {0};
			smart_str_append(&msg, fn);
			smart_str_appends(&msg, "(): the value of key \"");
			php_table_append_key(&msg, key);
			smart_str_appends(&msg, "\" is not an integer");
			smart_str_0(&msg);
			php_table_throw_str(msg.s);
			break;
		}
		case TBL_EFULL:
			/* add()/cas()/increment(): their false (or int) answers must not be mistaken for "no room";
			 * the core counted it in stats()['oom']. */
			zend_throw_exception_ex(php_table_exception_ce, 0,
				"%s(): out of memory: the table has no room for this value (raise table.memory%s)",
				ZSTR_VAL(fn), php_table_policy == TBL_POLICY_NOEVICTION
					? ", or set table.eviction_policy=gdsf" : "");
			break;
		case TBL_EOVERFLOW:
			zend_throw_exception_ex(php_table_exception_ce, 0, "%s(): integer overflow", ZSTR_VAL(fn));
			break;
		case TBL_ENSFULL:   /* tbl_ns_limit() counts the default namespace too */
			zend_throw_exception_ex(php_table_exception_ce, 0,
				"%s(): too many namespaces (at most %u, and none of them is empty)", ZSTR_VAL(fn), tbl_ns_limit(t) - 1);
			break;
		case TBL_ESYS:
			zend_throw_exception_ex(php_table_exception_ce, 0, "%s(): %s", ZSTR_VAL(fn), tbl_errstr(t));
			break;
		case TBL_ENOSLOT:
			zend_throw_exception_ex(php_table_exception_ce, 0,
				"%s(): %s: every reader slot is held by a live process", ZSTR_VAL(fn), tbl_status_str(st));
			break;
		default:
			zend_throw_exception_ex(php_table_exception_ce, 0, "%s(): %s", ZSTR_VAL(fn), tbl_status_str(st));
			break;
	}
	zend_string_release(fn);
	return true;
}
