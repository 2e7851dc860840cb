/*
 * igbinary.c - the "igbinary" serializer (table built with --enable-table-igbinary), through igbinary's
 * exported C API. Same guarantees as php.c: references and object identity are kept.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#ifdef HAVE_TABLE_IGBINARY

#include "php.h"
#include "zend_smart_str.h"
#include "ext/igbinary/igbinary.h"
#include "serializer/serializer.h"

static zend_result ig_serialize(zval *value, smart_str *out)
{
	uint8_t *buf = NULL;
	size_t len = 0;

	if (igbinary_serialize(&buf, &len, value) != 0 || EG(exception)) {
		if (buf && EG(exception)) {
			efree(buf);
		}
		if (!EG(exception)) {
			zend_throw_error(NULL, "igbinary could not serialize the value");
		}
		return FAILURE;
	}
	smart_str_appendl(out, (const char *)buf, len);
	efree(buf);
	return SUCCESS;
}

static zend_result ig_unserialize(zval *out, const char *buf, size_t len, const php_table_foreign *foreign)
{
	if (foreign && foreign->classes) {
		/* igbinary has no allowed-classes option, and its format is not scanned here: refuse rather than
		 * build classes nobody checked (php_table_tier_resolve refuses table.serializer=igbinary with a
		 * list, so only a value some other writer put in Redis lands here). */
		ZVAL_UNDEF(out);
		php_table_throw_unreadable("an igbinary value, whose classes cannot be checked against "
		                           "table.redis_allowed_classes; store objects with table.serializer=php");
		return FAILURE;
	}
	ZVAL_NULL(out);
	if (igbinary_unserialize((const uint8_t *)buf, len, out) != 0 || EG(exception)) {
		/* igbinary leaves `out` NULL on its own failures; a throwing __wakeup leaves the value built. */
		zval_ptr_dtor(out);
		ZVAL_UNDEF(out);
		if (!EG(exception)) {
			php_table_throw_corrupt("igbinary unserialize failed");
		}
		return FAILURE;
	}
	return SUCCESS;
}

const php_table_serializer php_table_serializer_igbinary = {
	"igbinary",
	TBL_T_SERIAL_IGBINARY,
	ig_serialize,
	ig_unserialize,
};

#endif
