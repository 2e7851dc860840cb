/*
 * php.c - the "php" serializer: PHP's own serialize()/unserialize() format, through ext/standard's C API.
 *
 * Reference structure and object identity inside one value are kept (R:/r: back-references). Every class
 * may be unserialized (allowed_classes = all), as the value was written by this host's own code.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "ext/standard/php_var.h"
#include "zend_smart_str.h"
#include "serializer/serializer.h"

static zend_result php_ser_serialize(zval *value, smart_str *out)
{
	php_serialize_data_t var_hash;
	zend_long precision = PG(serialize_precision);

	/* Floats must come back bit for bit whatever serialize_precision says: -1 is the shortest exact
	 * form. Restore it on every way out, a bailout from a __sleep() included. */
	PG(serialize_precision) = -1;
	zend_try {
		PHP_VAR_SERIALIZE_INIT(var_hash);
		php_var_serialize(out, value, &var_hash);
		PHP_VAR_SERIALIZE_DESTROY(var_hash);
	} zend_catch {
		PG(serialize_precision) = precision;
		zend_bailout();
	} zend_end_try();
	PG(serialize_precision) = precision;
	return EG(exception) ? FAILURE : SUCCESS;
}

static zend_result php_ser_unserialize(zval *out, const char *buf, size_t len)
{
	php_unserialize_data_t var_hash;
	const unsigned char *p = (const unsigned char *)buf;
	zval *tmp;
	bool ok;

	ZVAL_UNDEF(out);
	PHP_VAR_UNSERIALIZE_INIT(var_hash);
	/* The result lives in the var hash until it is complete, so a failure half way (or a throwing
	 * __unserialize) is cleaned up by the var hash itself. */
	/* These bytes were written by serialize() in this very table, so unserialize_max_depth (meant for
	 * untrusted input) must not make a value that was stored unreadable: lift it. */
	php_var_unserialize_set_max_depth(var_hash, 0);
	tmp = var_tmp_var(&var_hash);
	ok = php_var_unserialize(tmp, &p, p + len, &var_hash);
	if (ok) {
		ZVAL_COPY(out, tmp);
	}
	/* Delayed __wakeup()/__unserialize() calls run here and may throw. */
	PHP_VAR_UNSERIALIZE_DESTROY(var_hash);

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
