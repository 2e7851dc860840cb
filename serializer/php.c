/*
 * php.c - the "php" serializer: PHP's own serialize()/unserialize() format, through ext/standard's C API.
 *
 * Reference structure and object identity inside one value are kept (R:/r: back-references). Every class
 * may be unserialized (allowed_classes = all) when the value was written by this host's own code. A value
 * from elsewhere (a tiered namespace's: any client of the Redis may have written it) is scanned first: a
 * value nested deeper than PHP_TABLE_MAX_SERIAL_DEPTH (PHP's unserializer recurses: far deeper ends the
 * process on a stack overflow), or naming a class outside table.redis_allowed_classes, is refused
 * before anything in it is built (no autoloader, no __wakeup/__unserialize, no __destruct, not even of
 * the allowed classes). The scan covers what unserialize()'s own allowed_classes leaves out (an enum
 * case, E:, autoloads its class); that option and the depth limit are passed on too, for what a
 * Serializable class's payload (C:) holds when the class reads it through this same unserializer (the
 * internal ones). A user class's own unserialize() call inside its unserialize() method runs with that
 * call's own options, as anywhere else: only an allowed class gets that far, so its code is trusted.
 * The scan itself is core/serial_scan.c (Zend-free, fuzzed).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "ext/standard/basic_functions.h"
#include "ext/standard/php_var.h"
#include "zend_smart_str.h"
#include "serializer/serializer.h"
#include "core/serial_scan.h"

/* ---- the classes a value names ------------------------------------------------------------------- */

/* The scan itself is core/serial_scan.c (Zend-free, fuzzed); here are the allow-list and the messages. */

/* tbl_serial_class_fn over `ctx`, a HashTable of lowercase names: PHP's class names ignore ASCII case. */
static int php_ser_class_allowed(void *ctx, const char *name, size_t len)
{
	const HashTable *classes = ctx;
	char small[128], *lc;
	bool found;

	lc = len < sizeof(small) ? small : emalloc(len + 1);
	zend_str_tolower_copy(lc, name, len);
	found = zend_hash_str_exists(classes, lc, len);
	if (lc != small) {
		efree(lc);
	}
	return found;
}

static ZEND_COLD void php_ser_throw_refused(const char *name, size_t len)
{
	char shown[101];
	size_t i, n = len < sizeof(shown) - 1 ? len : sizeof(shown) - 1;

	/* Bytes from Redis: no control characters into a message that may reach a log. */
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		shown[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	shown[n] = '\0';
	php_table_throw_unreadable("it holds an object of class %s%s, which is not in table.redis_allowed_classes", shown,
	                           len > n ? "..." : "");
}

/* SUCCESS when every class the bytes name (objects and enum cases, at any depth) is in `classes` (NULL:
 * any) and arrays and objects nest at most PHP_TABLE_MAX_SERIAL_DEPTH levels; FAILURE with
 * Shm\TableException thrown when a class is not (the first is named), when they nest deeper, or when the
 * bytes are not serialize()'s format. Reads the bytes only, in one pass, without recursing. */
static zend_result php_ser_check_foreign(const char *buf, size_t len, const HashTable *classes)
{
	size_t off = 0, n = 0;

	switch (tbl_serial_scan(buf, len, PHP_TABLE_MAX_SERIAL_DEPTH, classes ? php_ser_class_allowed : NULL,
	                        (void *)classes, &off, &n)) {
		case TBL_SERIAL_OK:
			return SUCCESS;
		case TBL_SERIAL_REFUSED:
			php_ser_throw_refused(buf + off, n);
			return FAILURE;
		case TBL_SERIAL_TOO_DEEP:
			php_table_throw_unreadable("arrays and objects nested deeper than %d levels", PHP_TABLE_MAX_SERIAL_DEPTH);
			return FAILURE;
		case TBL_SERIAL_CORRUPT:
		default:
			php_table_throw_corrupt("php unserialize failed");
			return FAILURE;
	}
}

/* ---- the serializer ------------------------------------------------------------------------------ */

static zend_result php_ser_serialize(zval *value, smart_str *out)
{
	php_serialize_data_t var_hash;
	zend_long precision = PG(serialize_precision);

	/* Floats must come back bit for bit whatever serialize_precision says: -1 is the shortest exact
	 * form. Restore it on every way out, a bailout from a __sleep() included. */
	PG(serialize_precision) = -1;
	/* A var hash of its own, even inside a serialize() (a __serialize() calling set()): the enclosing one's
	 * back-reference numbers are not this value's (APCu's bug #76145). */
	BG(serialize_lock)++;
	zend_try {
		PHP_VAR_SERIALIZE_INIT(var_hash);
		php_var_serialize(out, value, &var_hash);
		PHP_VAR_SERIALIZE_DESTROY(var_hash);
	} zend_catch {
		BG(serialize_lock)--;
		PG(serialize_precision) = precision;
		zend_bailout();
	} zend_end_try();
	BG(serialize_lock)--;
	PG(serialize_precision) = precision;
	return EG(exception) ? FAILURE : SUCCESS;
}

static zend_result php_ser_unserialize(zval *out, const char *buf, size_t len, const php_table_foreign *foreign)
{
	php_unserialize_data_t var_hash;
	const unsigned char *p = (const unsigned char *)buf;
	HashTable *prev_classes;
	zend_long prev_max_depth;
	zval *tmp;
	bool ok;

	ZVAL_UNDEF(out);
	if (foreign && php_ser_check_foreign(buf, len, foreign->classes) != SUCCESS) {
		return FAILURE;
	}
	/* A var hash of its own, even inside an unserialize() (a Serializable or __unserialize() calling get()):
	 * with the enclosing one's, this value's back-references (r:N, R:N) would be resolved against the
	 * enclosing value's numbering (APCu's bug #76145). Its settings are still saved and put back, in case
	 * PHP hands out a shared one. */
	BG(serialize_lock)++;
	PHP_VAR_UNSERIALIZE_INIT(var_hash);
	prev_classes = php_var_unserialize_get_allowed_classes(var_hash);
	prev_max_depth = php_var_unserialize_get_max_depth(var_hash);
	if (foreign && foreign->classes) {
		php_var_unserialize_set_allowed_classes(var_hash, (HashTable *)foreign->classes);
	}
	/* The result lives in the var hash until it is complete, so a failure half way (or a throwing
	 * __unserialize) is cleaned up by the var hash itself. */
	/* These bytes were written by serialize() in this very table, so unserialize_max_depth (meant for
	 * untrusted input) must not make a value that was stored unreadable: lift it. A foreign value's own
	 * nesting was checked above; the limit still bounds what a Serializable's payload (C:) nests. */
	php_var_unserialize_set_max_depth(var_hash, foreign ? PHP_TABLE_MAX_SERIAL_DEPTH : 0);
	tmp = var_tmp_var(&var_hash);
	ok = php_var_unserialize(tmp, &p, p + len, &var_hash);
	if (ok) {
		ZVAL_COPY(out, tmp);
	}
	php_var_unserialize_set_allowed_classes(var_hash, prev_classes);
	php_var_unserialize_set_max_depth(var_hash, prev_max_depth);
	/* Delayed __wakeup()/__unserialize() calls run here and may throw. */
	PHP_VAR_UNSERIALIZE_DESTROY(var_hash);
	BG(serialize_lock)--;

	if (!ok || EG(exception)) {
		zval_ptr_dtor(out);
		ZVAL_UNDEF(out);
		if (!EG(exception)) {
			php_table_throw_corrupt("php unserialize failed");
		}
		return FAILURE;
	}
	return SUCCESS;
}

const php_table_serializer php_table_serializer_php = {
	"php",
	TBL_T_SERIAL_PHP,
	php_ser_serialize,
	php_ser_unserialize,
};
