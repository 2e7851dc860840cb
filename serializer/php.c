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
 * Serializable class's own payload (C:) holds.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "ext/standard/basic_functions.h"
#include "ext/standard/php_var.h"
#include "zend_smart_str.h"
#include "serializer/serializer.h"

/* ---- the classes a value names ------------------------------------------------------------------- */

/* serialize()'s format is a flat sequence of tokens whose lengths are all declared before their bytes
 * (strings, class names, a C: object's payload): one pass finds every class it names, without
 * building anything and whatever the nesting. The tokens, as ext/standard/var_unserializer.re reads
 * them: N;  b:0;  i:-1;  d:0.5;  r:1;  R:1;  s:3:"abc";  S:3:"a\62c";  a:2:{  O:3:"Foo":2:{  C:3:"Foo":5:{.....}
 * E:8:"Foo:Case";  and the closing }. Anything else is not a value serialize() wrote. */

/* Unsigned decimal digits (at least one) at p; the position after them, or NULL. */
static const char *php_ser_scan_uint(const char *p, const char *end, size_t *out)
{
	const char *start = p;
	size_t n = 0;

	while (p < end && *p >= '0' && *p <= '9') {
		if (n > (SIZE_MAX - 9) / 10) {
			return NULL;
		}
		n = n * 10 + (size_t)(*p - '0');
		p++;
	}
	*out = n;
	return p == start ? NULL : p;
}

static bool php_ser_float_char(char c)
{
	return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E' || c == 'I'
	       || c == 'N' || c == 'F' || c == 'A';
}

static bool php_ser_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Whether `classes` (lowercase names; NULL: any class) holds the class `name`: PHP's class names ignore
 * ASCII case. */
static bool php_ser_class_allowed(const HashTable *classes, const char *name, size_t len)
{
	char small[128], *lc;
	bool found;

	if (!classes) {
		return true;
	}
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
	const char *p = buf, *end = buf + len, *name;
	size_t n, m, depth = 0;

	while (p < end) {
		char t = *p;

		if (t == '}') {
			if (depth == 0) {
				goto bad;
			}
			depth--;
			p++;
			continue;
		}
		if (t == 'N') {
			if (end - p < 2 || p[1] != ';') {
				goto bad;
			}
			p += 2;
			continue;
		}
		if (end - p < 2 || p[1] != ':') {
			goto bad;
		}
		p += 2;
		switch (t) {
			case 'b':
				if (end - p < 2 || (p[0] != '0' && p[0] != '1') || p[1] != ';') {
					goto bad;
				}
				p += 2;
				break;
			case 'i':
			case 'r':
			case 'R':
				if (t == 'i' && p < end && (*p == '+' || *p == '-')) {
					p++;
				}
				if (!(p = php_ser_scan_uint(p, end, &n)) || p == end || *p != ';') {
					goto bad;
				}
				p++;
				break;
			case 'd':
				while (p < end && php_ser_float_char(*p)) {
					p++;
				}
				if (p == end || *p != ';') {
					goto bad;
				}
				p++;
				break;
			case 'a':
				if (!(p = php_ser_scan_uint(p, end, &n)) || end - p < 2 || p[0] != ':' || p[1] != '{') {
					goto bad;
				}
				p += 2;
				if (++depth > PHP_TABLE_MAX_SERIAL_DEPTH) {
					goto deep;
				}
				break;
			case 's':
			case 'S':
			case 'E':
				if (!(p = php_ser_scan_uint(p, end, &n)) || end - p < 2 || p[0] != ':' || p[1] != '"') {
					goto bad;
				}
				p += 2;
				name = p;
				if (t == 'S') {
					/* n characters, each a byte or a backslash and two hex digits */
					for (m = 0; m < n; m++) {
						if (p == end) {
							goto bad;
						}
						if (*p == '\\') {
							if (end - p < 3 || !php_ser_hex(p[1]) || !php_ser_hex(p[2])) {
								goto bad;
							}
							p += 2;
						}
						p++;
					}
				} else {
					if ((size_t)(end - p) < n) {
						goto bad;
					}
					p += n;
				}
				if (end - p < 2 || p[0] != '"' || p[1] != ';') {
					goto bad;
				}
				p += 2;
				if (t == 'E') {
					/* An enum case: its class is what comes before the colon. */
					const char *colon = memchr(name, ':', n);

					if (!colon || colon == name) {
						goto bad;
					}
					if (!php_ser_class_allowed(classes, name, (size_t)(colon - name))) {
						php_ser_throw_refused(name, (size_t)(colon - name));
						return FAILURE;
					}
				}
				break;
			case 'O':
			case 'C':
				if (!(p = php_ser_scan_uint(p, end, &n)) || n == 0 || end - p < 2 || p[0] != ':' || p[1] != '"'
				    || (size_t)(end - (p + 2)) < n) {
					goto bad;
				}
				name = p + 2;
				p = name + n;
				if (end - p < 2 || p[0] != '"' || p[1] != ':') {
					goto bad;
				}
				/* Named even when what follows is cut or wrong. */
				if (!php_ser_class_allowed(classes, name, n)) {
					php_ser_throw_refused(name, n);
					return FAILURE;
				}
				p += 2;
				if (p < end && (*p == '+' || *p == '-')) {
					p++;
				}
				if (!(p = php_ser_scan_uint(p, end, &m)) || end - p < 2 || p[0] != ':' || p[1] != '{') {
					goto bad;
				}
				p += 2;
				if (t == 'C') {
					/* Serializable::unserialize()'s own bytes, then the closing brace. */
					if ((size_t)(end - p) <= m || p[m] != '}') {
						goto bad;
					}
					p += m + 1;
				} else if (++depth > PHP_TABLE_MAX_SERIAL_DEPTH) {
					goto deep;
				}
				break;
			default:
				goto bad;
		}
	}
	return SUCCESS;
bad:
	php_table_throw_corrupt("php unserialize failed");
	return FAILURE;
deep:
	php_table_throw_unreadable("arrays and objects nested deeper than %d levels", PHP_TABLE_MAX_SERIAL_DEPTH);
	return FAILURE;
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
