/*
 * php_table_glob.h - binary-safe glob matching for keys() and fullscan().
 */
#ifndef PHP_TABLE_GLOB_H
#define PHP_TABLE_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/* Whether `str` matches `pat`. Both are byte strings (NUL is an ordinary byte).
 *   *        any run of bytes, also empty
 *   ?        exactly one byte
 *   [abc]    one byte of the set; ranges a-z (either order); [!...] or [^...] negates;
 *            a ']' right after '[' or '[!' is literal; \x inside a set is a literal x
 *   \x       a literal x (a trailing lone '\' matches a '\')
 * An unterminated '[' is a literal '['. Runs in O(len(pat) * len(str)) at worst, without recursion. */
bool php_table_glob_match(const char *pat, size_t plen, const char *str, size_t slen);

#endif
