/*
 * serial_scan.c - the classes a value in PHP's serialize() format names, and its nesting, found without
 * building anything (serial_scan.h).
 *
 * Why: unserialize() of bytes anyone may have written (a Redis value of a tiered namespace) instantiates
 * whatever classes they name, running autoloaders, __wakeup/__unserialize and __destruct on the way, and
 * recurses once per level of nesting, so far too deep a value ends the process on a stack overflow. Its
 * own allowed_classes option misses enum cases (E: autoloads its class) and acts only while it builds.
 * So the binding scans first and unserializes only what passed.
 *
 * How: serialize()'s format is a flat sequence of tokens whose lengths are all declared before their
 * bytes (strings, class names, a C: object's payload), so one pass from the start finds every class it
 * names, without building anything, without recursing, whatever the nesting. The tokens, as
 * ext/standard/var_unserializer.re reads them:
 *
 *     N;   b:0;   i:-1;   d:0.5;   r:1;   R:1;   s:3:"abc";   S:3:"a\62c";   E:8:"Foo:Case";
 *     a:2:{ ... }   O:3:"Foo":2:{ ... }   C:3:"Foo":5:{.....}
 *
 * and the closing } of an array or object. Keys and values, an object's properties, all are tokens of
 * the same kinds, so the scan needs no grammar above the token: it walks the tokens in order, counts
 * a: and O: up and } down for the depth, and hands every class name to the caller. A C: payload is the
 * Serializable class's own bytes, in a format of its own (its unserialize() reads them; the caller
 * passes its limits on to unserialize() for what that reads): skipped whole by its declared length, so
 * braces and class names inside it are not structure.
 *
 * Where the scan and unserialize() differ, the scan is the stricter (it refuses where unserialize()
 * would read on): it wants digits for an object's property count and a C: payload's length, where
 * unserialize() takes none as 0 (O:3:"Foo"::{}), and it reads every byte, where unserialize() stops
 * after the first value. Neither is anything serialize() writes. The one place it is looser, d: (any
 * run of the characters a float's text uses, d:; included), ends at the same ; as unserialize()'s. So
 * every token's end follows from its own bytes alone, the same for both: a value unserialize() reads is
 * seen token for token here, and no class can hide inside a string or a payload as the scan sees it
 * and come out as an object when unserialize() reads it. (Checked beyond the tests by running both on
 * mutated serialize() output: nothing the scan passed had unserialize() build or autoload a class.)
 *
 * An O: or C: class is judged as soon as its name and the `":` closing it are there, before the rest
 * of the token: a value refused for its class says so even when it is also cut short. An E: class is
 * judged once its whole token is there (the class is the part before the colon inside the string).
 *
 * Zend-free, so that a libFuzzer target (core/fuzz/fuzz_serial_scan.c) can feed it anything.
 */
#include <stdint.h>
#include <string.h>
#include "serial_scan.h"

/* Unsigned decimal digits (at least one) at p; the position after them, or NULL (none, or more than
 * size_t holds: no length serialize() writes comes near). */
static const char *scan_uint(const char *p, const char *end, size_t *out)
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

static int float_char(char c)
{
	return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E' || c == 'I'
	       || c == 'N' || c == 'F' || c == 'A';
}

static int hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static tbl_serial_scan_t refuse(const char *buf, const char *name, size_t n, size_t *name_off, size_t *name_len)
{
	if (name_off) {
		*name_off = (size_t)(name - buf);
	}
	if (name_len) {
		*name_len = n;
	}
	return TBL_SERIAL_REFUSED;
}

tbl_serial_scan_t tbl_serial_scan(const char *buf, size_t len, size_t max_depth, tbl_serial_class_fn class_allowed,
                                  void *ctx, size_t *name_off, size_t *name_len)
{
	const char *p = buf, *end = buf + len, *name;
	size_t n, m, depth = 0;

	while (p < end) {
		char t = *p;

		if (t == '}') {
			if (depth == 0) {
				return TBL_SERIAL_CORRUPT;
			}
			depth--;
			p++;
			continue;
		}
		if (t == 'N') {
			if (end - p < 2 || p[1] != ';') {
				return TBL_SERIAL_CORRUPT;
			}
			p += 2;
			continue;
		}
		if (end - p < 2 || p[1] != ':') {
			return TBL_SERIAL_CORRUPT;
		}
		p += 2;
		switch (t) {
			case 'b':
				if (end - p < 2 || (p[0] != '0' && p[0] != '1') || p[1] != ';') {
					return TBL_SERIAL_CORRUPT;
				}
				p += 2;
				break;
			case 'i':
			case 'r':
			case 'R':
				if (t == 'i' && p < end && (*p == '+' || *p == '-')) {
					p++;
				}
				if (!(p = scan_uint(p, end, &n)) || p == end || *p != ';') {
					return TBL_SERIAL_CORRUPT;
				}
				p++;
				break;
			case 'd':
				while (p < end && float_char(*p)) {
					p++;
				}
				if (p == end || *p != ';') {
					return TBL_SERIAL_CORRUPT;
				}
				p++;
				break;
			case 'a':
				if (!(p = scan_uint(p, end, &n)) || end - p < 2 || p[0] != ':' || p[1] != '{') {
					return TBL_SERIAL_CORRUPT;
				}
				p += 2;
				if (++depth > max_depth) {
					return TBL_SERIAL_TOO_DEEP;
				}
				break;
			case 's':
			case 'S':
			case 'E':
				if (!(p = scan_uint(p, end, &n)) || end - p < 2 || p[0] != ':' || p[1] != '"') {
					return TBL_SERIAL_CORRUPT;
				}
				p += 2;
				name = p;
				if (t == 'S') {
					/* n characters, each a byte or a backslash and two hex digits */
					for (m = 0; m < n; m++) {
						if (p == end) {
							return TBL_SERIAL_CORRUPT;
						}
						if (*p == '\\') {
							if (end - p < 3 || !hex_digit(p[1]) || !hex_digit(p[2])) {
								return TBL_SERIAL_CORRUPT;
							}
							p += 2;
						}
						p++;
					}
				} else {
					if ((size_t)(end - p) < n) {
						return TBL_SERIAL_CORRUPT;
					}
					p += n;
				}
				if (end - p < 2 || p[0] != '"' || p[1] != ';') {
					return TBL_SERIAL_CORRUPT;
				}
				p += 2;
				if (t == 'E') {
					/* An enum case: its class is what comes before the colon. */
					const char *colon = memchr(name, ':', n);

					if (!colon || colon == name) {
						return TBL_SERIAL_CORRUPT;
					}
					if (class_allowed && !class_allowed(ctx, name, (size_t)(colon - name))) {
						return refuse(buf, name, (size_t)(colon - name), name_off, name_len);
					}
				}
				break;
			case 'O':
			case 'C':
				if (!(p = scan_uint(p, end, &n)) || n == 0 || end - p < 2 || p[0] != ':' || p[1] != '"'
				    || (size_t)(end - (p + 2)) < n) {
					return TBL_SERIAL_CORRUPT;
				}
				name = p + 2;
				p = name + n;
				if (end - p < 2 || p[0] != '"' || p[1] != ':') {
					return TBL_SERIAL_CORRUPT;
				}
				/* Named even when what follows is cut or wrong. */
				if (class_allowed && !class_allowed(ctx, name, n)) {
					return refuse(buf, name, n, name_off, name_len);
				}
				p += 2;
				if (p < end && (*p == '+' || *p == '-')) {
					p++;
				}
				if (!(p = scan_uint(p, end, &m)) || end - p < 2 || p[0] != ':' || p[1] != '{') {
					return TBL_SERIAL_CORRUPT;
				}
				p += 2;
				if (t == 'C') {
					/* Serializable::unserialize()'s own bytes, then the closing brace. */
					if ((size_t)(end - p) <= m || p[m] != '}') {
						return TBL_SERIAL_CORRUPT;
					}
					p += m + 1;
				} else if (++depth > max_depth) {
					return TBL_SERIAL_TOO_DEEP;
				}
				break;
			default:
				return TBL_SERIAL_CORRUPT;
		}
	}
	return TBL_SERIAL_OK;
}
