/*
 * test_serial_scan.c - serial_scan.c: the classes a serialize() value from Redis names, and its nesting,
 * read before unserialize() builds anything of it (issue 33).
 *
 * Every token serialize() writes, alone and nested; the ones it never writes refused; every prefix of
 * a value cut short; the depth limit on arrays and objects but not on a Serializable's payload; an enum
 * case's class; a C: payload whose braces and class names are not structure; S: escapes, counted in
 * characters. Each input is scanned from a heap copy of exactly its length, so ASan catches a read past
 * its end. The callback here compares names ignoring ASCII case, as serializer/php.c's does.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "serial_scan.h"

#define DEPTH 4096

/* The allow-list callback: `list` holds lowercase names separated by commas ("" allows none). Every name
 * it is asked about is appended to `seen`, each followed by '|'. */
typedef struct allow {
	const char *list;
	char seen[512];
	size_t calls;
} allow_t;

static int allow_cb(void *ctx, const char *name, size_t len)
{
	allow_t *a = ctx;
	const char *p = a->list;
	size_t used = strlen(a->seen), i;

	a->calls++;
	if (used + len + 2 < sizeof(a->seen)) {
		memcpy(a->seen + used, name, len);
		a->seen[used + len] = '|';
		a->seen[used + len + 1] = '\0';
	}
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (n == len) {
			for (i = 0; i < len && tolower((unsigned char)name[i]) == p[i]; i++) {
			}
			if (i == len) {
				return 1;
			}
		}
		p += n + (comma ? 1 : 0);
	}
	return 0;
}

typedef struct scan {
	tbl_serial_scan_t st;
	size_t off, len;   /* the refused name, (size_t)-1 when not set */
	allow_t allow;
} scan_t;

/* Scan `len` bytes of `s` from an exact heap copy, with the allow-list `list` (NULL: no callback). */
static scan_t scan_n(const char *s, size_t len, size_t max_depth, const char *list)
{
	scan_t r;
	char *copy = malloc(len ? len : 1);

	memset(&r, 0, sizeof(r));
	r.off = r.len = (size_t)-1;
	r.allow.list = list;
	memcpy(copy, s, len);
	r.st = tbl_serial_scan(copy, len, max_depth, list ? allow_cb : NULL, list ? &r.allow : NULL, &r.off, &r.len);
	free(copy);
	return r;
}

static scan_t scan(const char *s, const char *list)
{
	return scan_n(s, strlen(s), DEPTH, list);
}

static tbl_serial_scan_t st(const char *s)
{
	return scan(s, NULL).st;
}

/* With a depth limit of `max_depth`, no callback. */
static tbl_serial_scan_t st_depth(const char *s, size_t max_depth)
{
	return scan_n(s, strlen(s), max_depth, NULL).st;
}

/* The refused name, as a string (for CHECKs); "" when nothing was refused. */
static const char *refused_name(const char *s, const scan_t *r)
{
	static char name[256];

	name[0] = '\0';
	if (r->st == TBL_SERIAL_REFUSED && r->off <= strlen(s) && r->len < sizeof(name) && r->len <= strlen(s) - r->off) {
		memcpy(name, s + r->off, r->len);
		name[r->len] = '\0';
	}
	return name;
}

TBL_TEST(test_scalars)
{
	static const char *const ok[] = {
		"N;", "b:0;", "b:1;", "i:0;", "i:-1;", "i:+7;", "i:9223372036854775807;", "i:-9223372036854775808;",
		"i:007;", "d:0.5;", "d:-0.1;", "d:1.0E+25;", "d:1.0E-7;", "d:INF;", "d:-INF;", "d:NAN;", "d:3;",
		"r:1;", "R:12;", "s:0:\"\";", "s:3:\"abc\";", "s:3:\"\"\";\";", "",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (st(ok[i]) != TBL_SERIAL_OK) {
			fprintf(stderr, "refused: %s\n", ok[i]);
		}
		CHECK(st(ok[i]) == TBL_SERIAL_OK);
	}
	/* A NUL inside a string is a byte like any other. */
	CHECK(scan_n("s:3:\"a\0c\";", 10, DEPTH, NULL).st == TBL_SERIAL_OK);
	/* Tokens may follow one another: unserialize() reads the first value only. */
	CHECK(st("i:1;i:2;N;b:0;") == TBL_SERIAL_OK);
}

TBL_TEST(test_not_the_format)
{
	static const char *const bad[] = {
		"x", "N", "N:", "n;", "b:2;", "b:0", "b:;", "b:00;", "i:;", "i:-;", "i:1", "i:1:", "i:--1;", "i:1.5;",
		"i: 1;", "r:-1;", "R:+1;", "r:;", "d:0.5", "d:0,5;", "d:x;", "s:3:\"ab\";", "s:1:\"abc\";",
		"s:3:\"abc\"", "s:3:\"abc\":", "s:3:abc;", "s:-1:\"\";", "s::\"\";", "s:3\"abc\";", "a:1{", "a:{",
		"a:-1:{", "a:1:[", "}", "i:1;}", "a:0:{}}", "o:3:\"Foo\":0:{}", "O:0:\"\":0:{}",
		"C:3:\"Foo\":0:{", "O:3:\"Foo\"0:{}", "O:3:\"Foo\":a:{}", "O:3:\"Foo\":1:[}", "E:3:\"Foo\";",
		"E:4:\":Foo\";", "E:0:\"\";", "U:3:\"abc\";", "i:1;x", ":", "a:", "a:1:",
		/* Lengths no buffer can hold: refused, not wrapped. */
		"s:18446744073709551615:\"\";", "s:99999999999999999999999:\"\";", "S:18446744073709551615:\"\";",
		"C:3:\"Foo\":18446744073709551615:{}", "i:99999999999999999999999;",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (st(bad[i]) != TBL_SERIAL_CORRUPT) {
			fprintf(stderr, "not refused as corrupt: %s (%d)\n", bad[i], (int)st(bad[i]));
		}
		CHECK(st(bad[i]) == TBL_SERIAL_CORRUPT);
	}
	/* A stray } at the top, after a value whose array is closed. */
	CHECK(st("a:0:{}i:1;}") == TBL_SERIAL_CORRUPT);
	/* Arrays still open at the end are unserialize()'s to refuse. */
	CHECK(st("a:1:{i:0;") == TBL_SERIAL_OK);
	CHECK(st("a:1:{i:0;a:1:{") == TBL_SERIAL_OK);
}

TBL_TEST(test_arrays_and_objects)
{
	static const char value[] =
		"a:3:{i:0;O:3:\"Foo\":2:{s:1:\"a\";i:1;s:4:\"\0*\0b\";a:1:{i:0;O:3:\"Bar\":0:{}}}"
		"s:1:\"k\";E:8:\"Suit:Red\";i:2;C:11:\"ArrayObject\":3:{x;y}}";
	size_t len = sizeof(value) - 1;
	scan_t r;

	r = scan_n(value, len, DEPTH, NULL);
	CHECK(r.st == TBL_SERIAL_OK);
	CHECK_EQ_U64(r.off, (size_t)-1);   /* untouched */

	/* Every class, once each, in order; all allowed (in any case). */
	r = scan_n(value, len, DEPTH, "foo,bar,suit,arrayobject");
	CHECK(r.st == TBL_SERIAL_OK);
	CHECK_EQ_U64(r.allow.calls, 4);
	CHECK(strcmp(r.allow.seen, "Foo|Bar|Suit|ArrayObject|") == 0);

	/* The first refused ends the scan and is named. */
	r = scan_n(value, len, DEPTH, "foo,suit,arrayobject");
	REQUIRE(r.st == TBL_SERIAL_REFUSED);
	CHECK_EQ_U64(r.len, 3);
	CHECK(memcmp(value + r.off, "Bar", 3) == 0);
	CHECK(strcmp(r.allow.seen, "Foo|Bar|") == 0);

	r = scan_n(value, len, DEPTH, "");
	REQUIRE(r.st == TBL_SERIAL_REFUSED);
	CHECK(memcmp(value + r.off, "Foo", 3) == 0 && r.len == 3);
	CHECK_EQ_U64(r.allow.calls, 1);

	/* An object's property count may carry a sign (unserialize() takes one). */
	CHECK(st("O:3:\"Foo\":+0:{}") == TBL_SERIAL_OK);
	CHECK(st("O:3:\"Foo\":-0:{}") == TBL_SERIAL_OK);
	/* A class name is any bytes of its declared length, quotes and colons included. */
	r = scan("O:5:\"a\":\"b\":0:{}", "");
	CHECK(r.st == TBL_SERIAL_REFUSED);
	CHECK(strcmp(refused_name("O:5:\"a\":\"b\":0:{}", &r), "a\":\"b") == 0);
	/* Long names reach the callback whole. */
	{
		char buf[400];
		char name[300];

		memset(name, 'Q', 299);
		name[299] = '\0';
		snprintf(buf, sizeof(buf), "O:299:\"%s\":0:{}", name);
		r = scan(buf, "");
		CHECK(r.st == TBL_SERIAL_REFUSED);
		CHECK_EQ_U64(r.len, 299);
		CHECK_EQ_U64(r.off, 7);
	}
}

TBL_TEST(test_named_even_when_cut)
{
	scan_t r;

	/* An O:/C: class is judged once its name and the `":` after it are there. */
	r = scan("O:3:\"Foo\":", "");
	CHECK(r.st == TBL_SERIAL_REFUSED);
	CHECK(strcmp(refused_name("O:3:\"Foo\":", &r), "Foo") == 0);
	CHECK(scan("O:3:\"Foo\":", "foo").st == TBL_SERIAL_CORRUPT);
	CHECK(scan("C:3:\"Foo\":zz", "").st == TBL_SERIAL_REFUSED);
	CHECK(scan("C:3:\"Foo\":zz", NULL).st == TBL_SERIAL_CORRUPT);
	CHECK(scan("O:3:\"Foo\":1:{s:1:\"a\";", "").st == TBL_SERIAL_REFUSED);
	/* ... not before. */
	CHECK(scan("O:3:\"Foo\"", "").st == TBL_SERIAL_CORRUPT);
	CHECK(scan("O:3:\"Foo\";", "").st == TBL_SERIAL_CORRUPT);
	CHECK(scan("O:3:\"Fo", "").st == TBL_SERIAL_CORRUPT);
	/* An enum's class only once its whole token is there. */
	CHECK(scan("E:8:\"Suit:Red\"", "").st == TBL_SERIAL_CORRUPT);
	CHECK(scan("E:8:\"Suit:Red\";", "").st == TBL_SERIAL_REFUSED);
	/* The first problem wins: a corrupt token before the class. */
	CHECK(scan("x:1;O:3:\"Foo\":0:{}", "").st == TBL_SERIAL_CORRUPT);
}

/* Every prefix of a value: never a read past it (the heap copies), never a class outside it, and with
 * everything allowed only OK or CORRUPT; a prefix holding a whole O: name and its `":` is refused when
 * nothing is allowed. */
TBL_TEST(test_truncations)
{
	static const char value[] =
		"a:4:{i:0;O:3:\"Foo\":1:{s:1:\"p\";S:3:\"a\\62c\";}i:1;C:3:\"Bar\":6:{a:1:{}}i:2;E:8:\"Suit:Red\";"
		"i:3;a:1:{d:0.5;b:1;}}";
	size_t len = sizeof(value) - 1, cut;
	const char *foo = strstr(value, "Foo\":") + 5, *bar = strstr(value, "Bar\":") + 5;
	const char *suit = strstr(value, "Red\";") + 5;

	CHECK(scan_n(value, len, DEPTH, NULL).st == TBL_SERIAL_OK);
	for (cut = 0; cut <= len; cut++) {
		scan_t all = scan_n(value, cut, DEPTH, NULL);
		scan_t yes = scan_n(value, cut, DEPTH, "foo,bar,suit");
		scan_t none = scan_n(value, cut, DEPTH, "");

		CHECK(all.st == TBL_SERIAL_OK || all.st == TBL_SERIAL_CORRUPT);
		CHECK(yes.st == all.st);
		if (cut >= (size_t)(foo - value)) {
			CHECK(none.st == TBL_SERIAL_REFUSED);
			CHECK_EQ_U64(none.off, (size_t)(foo - 5 - value));
			CHECK_EQ_U64(none.len, 3);
		} else {
			CHECK(none.st == all.st);
		}
		/* Cut right after a whole token: fine here (unserialize() sees the open array). */
		if (cut == (size_t)(bar - value) - 10 || cut == (size_t)(suit - value)) {
			CHECK(all.st == TBL_SERIAL_OK);
		}
	}
	/* Classes seen by a prefix are the ones wholly inside it. */
	{
		scan_t r = scan_n(value, (size_t)(bar - value), DEPTH, "foo,bar,suit");

		CHECK(strcmp(r.allow.seen, "Foo|Bar|") == 0);
		r = scan_n(value, (size_t)(bar - value) - 1, DEPTH, "foo,bar,suit");
		CHECK(strcmp(r.allow.seen, "Foo|") == 0);
		r = scan_n(value, (size_t)(suit - value) - 1, DEPTH, "foo,bar,suit");
		CHECK(strcmp(r.allow.seen, "Foo|Bar|") == 0);
		r = scan_n(value, (size_t)(suit - value), DEPTH, "foo,bar,suit");
		CHECK(strcmp(r.allow.seen, "Foo|Bar|Suit|") == 0);
	}
}

/* `levels` arrays (or objects) nested, each holding the next under key 0, innermost empty. */
static char *nested(size_t levels, int objects)
{
	static const char arr[] = "a:1:{i:0;", obj[] = "O:1:\"X\":1:{s:1:\"p\";";
	const char *open = objects ? obj : arr;
	size_t n = strlen(open), i, at = 0;
	char *s = malloc(levels * (n + 1) + 16);

	for (i = 0; i < levels; i++) {
		memcpy(s + at, open, n);
		at += n;
	}
	memcpy(s + at, "N;", 2);
	at += 2;
	for (i = 0; i < levels; i++) {
		s[at++] = '}';
	}
	s[at] = '\0';
	return s;
}

TBL_TEST(test_depth)
{
	char *s;

	CHECK(st_depth("a:0:{}", 1) == TBL_SERIAL_OK);
	CHECK(st_depth("a:0:{}", 0) == TBL_SERIAL_TOO_DEEP);
	CHECK(st_depth("N;", 0) == TBL_SERIAL_OK);
	/* Siblings do not add up: depth is how many are open at once. */
	CHECK(st("a:2:{i:0;a:0:{}i:1;a:0:{}}") == TBL_SERIAL_OK);
	CHECK(st_depth("a:2:{i:0;a:0:{}i:1;a:0:{}}", 2) == TBL_SERIAL_OK);
	CHECK(st_depth("a:1:{i:0;a:1:{i:0;a:0:{}}}", 2) == TBL_SERIAL_TOO_DEEP);
	CHECK(st_depth("a:1:{i:0;a:1:{i:0;a:0:{}}}", 3) == TBL_SERIAL_OK);

	s = nested(DEPTH, 0);
	CHECK(st(s) == TBL_SERIAL_OK);
	free(s);
	s = nested(DEPTH + 1, 0);
	CHECK(st(s) == TBL_SERIAL_TOO_DEEP);
	free(s);
	s = nested(DEPTH, 1);
	CHECK(scan(s, "x").st == TBL_SERIAL_OK);
	free(s);
	s = nested(DEPTH + 1, 1);
	CHECK(st(s) == TBL_SERIAL_TOO_DEEP);
	/* A class is judged before its object's depth. */
	CHECK(scan(s, "").st == TBL_SERIAL_REFUSED);
	free(s);
	/* Objects and arrays count together. */
	CHECK(st_depth("O:1:\"X\":1:{s:1:\"a\";a:0:{}}", 1) == TBL_SERIAL_TOO_DEEP);
	CHECK(st_depth("O:1:\"X\":1:{s:1:\"a\";a:0:{}}", 2) == TBL_SERIAL_OK);
	/* A Serializable's payload neither counts nor is looked into, deep as it may be. */
	CHECK(st_depth("C:1:\"X\":12:{a:0:{a:0:{}}}", 0) == TBL_SERIAL_OK);
	CHECK(st_depth("a:1:{i:0;C:1:\"X\":6:{a:0:{}}}", 1) == TBL_SERIAL_OK);
	/* Deep but corrupt further on: the depth is reported, as it comes first. */
	CHECK(st_depth("a:0:{a:0:{x", 1) == TBL_SERIAL_TOO_DEEP);
}

TBL_TEST(test_enum)
{
	scan_t r;
	static const char v[] = "a:1:{i:0;E:11:\"Suit:Hearts\";}";

	r = scan(v, "suit");
	CHECK(r.st == TBL_SERIAL_OK);
	CHECK(strcmp(r.allow.seen, "Suit|") == 0);
	r = scan(v, "SUIT");   /* the list is lowercase by contract: nothing matches an upper-case entry */
	CHECK(r.st == TBL_SERIAL_REFUSED);
	r = scan(v, "card");
	REQUIRE(r.st == TBL_SERIAL_REFUSED);
	CHECK(strcmp(refused_name(v, &r), "Suit") == 0);
	CHECK_EQ_U64(r.off, 15);
	/* The class is what comes before the first colon; the case may hold more. */
	r = scan("E:9:\"A\\B:C:D:E\";", "");
	CHECK(r.st == TBL_SERIAL_REFUSED);
	CHECK(strcmp(refused_name("E:9:\"A\\B:C:D:E\";", &r), "A\\B") == 0);
	CHECK(scan("E:4:\"Foo:\";", "foo").st == TBL_SERIAL_OK);   /* an empty case is unserialize()'s to refuse */
	/* No class: not an enum case serialize() writes. */
	CHECK(scan("E:4:\":Red\";", NULL).st == TBL_SERIAL_CORRUPT);
	CHECK(scan("E:3:\"Red\";", NULL).st == TBL_SERIAL_CORRUPT);
	CHECK(scan("E:3:\"Red\";", "").st == TBL_SERIAL_CORRUPT);
	/* An enum case does not nest. */
	CHECK(st_depth("E:5:\"A:Red\";", 0) == TBL_SERIAL_OK);
	/* A namespaced class. */
	r = scan("E:17:\"App\\Enum\\Suit:Red\";", "app\\enum\\suit");
	CHECK(r.st == TBL_SERIAL_OK);
}

TBL_TEST(test_serializable_payload)
{
	scan_t r;

	/* Braces in the payload are the class's bytes, not structure. */
	CHECK(st("C:3:\"Foo\":4:{}}}}}") == TBL_SERIAL_OK);
	CHECK(st("C:3:\"Foo\":4:{{{{{}") == TBL_SERIAL_OK);
	CHECK(st("a:1:{i:0;C:3:\"Foo\":2:{}{}}") == TBL_SERIAL_OK);
	CHECK(st("C:3:\"Foo\":0:{}") == TBL_SERIAL_OK);
	/* Nor are the classes it names: the class's own unserialize() reads them. */
	r = scan("C:3:\"Foo\":14:{O:3:\"Bar\":0:{}}", "foo");
	CHECK(r.st == TBL_SERIAL_OK);
	CHECK(strcmp(r.allow.seen, "Foo|") == 0);
	/* Its declared length must end at a }. */
	CHECK(st("C:3:\"Foo\":3:{abcd}") == TBL_SERIAL_CORRUPT);
	CHECK(st("C:3:\"Foo\":5:{abcd}") == TBL_SERIAL_CORRUPT);
	CHECK(st("C:3:\"Foo\":3:{}}}}") == TBL_SERIAL_OK);      /* three braces of payload, then the } */
	CHECK(st("C:3:\"Foo\":4:{}}}}") == TBL_SERIAL_CORRUPT);   /* 4 bytes, then no } */
	CHECK(st("C:3:\"Foo\":4:{}}}") == TBL_SERIAL_CORRUPT);
	CHECK(st("C:3:\"Foo\":1:{") == TBL_SERIAL_CORRUPT);
	CHECK(st("C:3:\"Foo\":0:{") == TBL_SERIAL_CORRUPT);
	CHECK(st("C:3:\"Foo\":0:}") == TBL_SERIAL_CORRUPT);
	CHECK(st("C:3:\"Foo\":-0:{}") == TBL_SERIAL_OK);   /* as an object's count, a sign is taken */
	/* After it, scanning goes on. */
	CHECK(st("C:3:\"Foo\":2:{ab}}") == TBL_SERIAL_CORRUPT);
	CHECK(scan("a:2:{i:0;C:3:\"Foo\":1:{x}i:1;O:3:\"Bar\":0:{}}", "foo").st == TBL_SERIAL_REFUSED);
}

TBL_TEST(test_escaped_strings)
{
	/* S: counts characters: a byte, or a backslash and two hex digits. */
	CHECK(st("S:3:\"a\\62c\";") == TBL_SERIAL_OK);
	CHECK(st("S:2:\"\\41\\42\";") == TBL_SERIAL_OK);
	CHECK(st("S:1:\"\\fF\";") == TBL_SERIAL_OK);
	CHECK(st("S:0:\"\";") == TBL_SERIAL_OK);
	CHECK(st("S:1:\"\\22\";") == TBL_SERIAL_OK);           /* an escaped quote */
	CHECK(st("S:2:\"\";\";") == TBL_SERIAL_OK);            /* a raw quote is one character */
	CHECK(st("S:8:\"\\41\\42\";") == TBL_SERIAL_CORRUPT);  /* bytes, not characters */
	CHECK(st("S:3:\"\\41\\42\";") == TBL_SERIAL_CORRUPT);
	CHECK(st("S:1:\"\\4\";") == TBL_SERIAL_CORRUPT);
	CHECK(st("S:1:\"\\zz\";") == TBL_SERIAL_CORRUPT);
	CHECK(st("S:1:\"\\4g\";") == TBL_SERIAL_CORRUPT);
	CHECK(st("S:1:\"\\") == TBL_SERIAL_CORRUPT);
	CHECK(st("S:1:\"\\4") == TBL_SERIAL_CORRUPT);
	CHECK(st("S:2:\"a") == TBL_SERIAL_CORRUPT);
	CHECK(st("S:1000000:\"a\";") == TBL_SERIAL_CORRUPT);   /* a count far past the bytes */
	/* What looks like a class inside a string is a string's bytes. */
	{
		scan_t r = scan("a:2:{i:0;s:14:\"O:3:\"Foo\":0:{}\";i:1;S:14:\"O:3:\\22Foo\":0:{}\";}", "");

		CHECK(r.st == TBL_SERIAL_OK);
		CHECK_EQ_U64(r.allow.calls, 0);
	}
	/* An S: key of an object. */
	CHECK(scan("O:3:\"Foo\":1:{S:1:\"\\61\";i:1;}", "foo").st == TBL_SERIAL_OK);
}

TBL_TEST(test_null_outputs)
{
	allow_t a = { "", "", 0 };

	CHECK(tbl_serial_scan("E:5:\"A:Red\";", 12, DEPTH, allow_cb, &a, NULL, NULL) == TBL_SERIAL_REFUSED);
	CHECK(tbl_serial_scan("i:1;", 4, DEPTH, allow_cb, &a, NULL, NULL) == TBL_SERIAL_OK);
	CHECK(tbl_serial_scan("", 0, DEPTH, NULL, NULL, NULL, NULL) == TBL_SERIAL_OK);
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_scalars),
	TBL_TEST_ENTRY(test_not_the_format),
	TBL_TEST_ENTRY(test_arrays_and_objects),
	TBL_TEST_ENTRY(test_named_even_when_cut),
	TBL_TEST_ENTRY(test_truncations),
	TBL_TEST_ENTRY(test_depth),
	TBL_TEST_ENTRY(test_enum),
	TBL_TEST_ENTRY(test_serializable_payload),
	TBL_TEST_ENTRY(test_escaped_strings),
	TBL_TEST_ENTRY(test_null_outputs),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
