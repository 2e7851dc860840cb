/*
 * php_table_glob.c - the glob matcher behind keys() and fullscan().
 *
 * Classic two-pointer matching: on a mismatch after a '*', retry with that star swallowing one more
 * byte. Only the most recent star needs remembering (an earlier one can never be needed again once a
 * later one matched), so the worst case is O(pattern * string) and there is no recursion to overflow.
 */
#include <string.h>
#include "php_table_glob.h"

/* Parse the set starting at pat[*pi] == '['. Returns 1 and sets *matched when the set is well-formed
 * (then *pi is just past its ']'); 0 when it is unterminated (treat '[' literally). */
static int match_set(const unsigned char *pat, size_t plen, size_t *pi, unsigned char c, bool *matched)
{
	size_t i = *pi + 1;
	bool negate = false, hit = false;

	if (i < plen && (pat[i] == '!' || pat[i] == '^')) {
		negate = true;
		i++;
	}
	size_t first = i;
	for (;;) {
		unsigned char lo, hi;

		if (i >= plen) {
			return 0;
		}
		if (pat[i] == ']' && i > first) {
			break;
		}
		if (pat[i] == '\\' && i + 1 < plen) {
			i++;
		}
		lo = hi = pat[i++];
		if (i + 1 < plen && pat[i] == '-' && pat[i + 1] != ']') {
			i++;
			if (pat[i] == '\\' && i + 1 < plen) {
				i++;
			}
			hi = pat[i++];
			if (lo > hi) {
				unsigned char t = lo;
				lo = hi;
				hi = t;
			}
		}
		if (c >= lo && c <= hi) {
			hit = true;
		}
	}
	*pi = i + 1;
	*matched = hit != negate;
	return 1;
}

bool php_table_glob_match(const char *pattern, size_t plen, const char *string, size_t slen)
{
	const unsigned char *pat = (const unsigned char *)pattern;
	const unsigned char *str = (const unsigned char *)string;
	size_t pi = 0, si = 0;
	size_t star_pi = (size_t)-1, star_si = 0;

	while (si < slen) {
		if (pi < plen) {
			unsigned char p = pat[pi];
			if (p == '*') {
				/* Collapse runs of stars; remember where to resume. */
				while (pi < plen && pat[pi] == '*') {
					pi++;
				}
				if (pi == plen) {
					return true;
				}
				star_pi = pi;
				star_si = si;
				continue;
			}
			if (p == '?') {
				pi++;
				si++;
				continue;
			}
			if (p == '[') {
				size_t npi = pi;
				bool matched;
				if (match_set(pat, plen, &npi, str[si], &matched)) {
					if (matched) {
						pi = npi;
						si++;
						continue;
					}
					goto mismatch;
				}
				/* Unterminated set: a literal '['. */
			} else if (p == '\\' && pi + 1 < plen) {
				if (pat[pi + 1] == str[si]) {
					pi += 2;
					si++;
					continue;
				}
				goto mismatch;
			}
			if (p == str[si]) {
				pi++;
				si++;
				continue;
			}
		}
mismatch:
		if (star_pi == (size_t)-1) {
			return false;
		}
		pi = star_pi;
		si = ++star_si;
	}
	while (pi < plen && pat[pi] == '*') {
		pi++;
	}
	return pi == plen;
}
