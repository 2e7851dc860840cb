/*
 * redis_url_mask.h - a table.redis value fit to show: every secret replaced by "***".
 *
 * Secrets are the values of the query parameters auth=, sentinel_auth= and password= (the parser takes
 * auth= and sentinel_auth=; password= is masked too in case someone writes it, since the value is shown even when it is
 * not valid), and a password written as URL user info (tcp://user:secret@host, which the parser refuses
 * but a message may still quote). Names of other parameters and their values are kept: auth_env= names
 * a variable and auth_file= a path, neither of which is a secret.
 *
 * Header-only and Zend-free: table.c's INI displayer (phpinfo()) uses it in every build, with or without
 * the Redis tier (a build without it still shows a table.redis somebody set), and tier_config.c quotes a
 * masked value in its messages. Plain byte work, no allocation.
 */
#ifndef TBL_REDIS_URL_MASK_H
#define TBL_REDIS_URL_MASK_H

#include <stddef.h>
#include <string.h>

/* At most this many bytes come out for len bytes in (each masked value may grow to "***"). */
#define TBL_REDIS_URL_MASK_MAX(len) ((len) * 4u + 4u)

static inline int tbl_redis_url_mask_secret_name(const char *name, size_t n)
{
	return (n == 4 && memcmp(name, "auth", 4) == 0) || (n == 8 && memcmp(name, "password", 8) == 0)
	       || (n == 13 && memcmp(name, "sentinel_auth", 13) == 0);
}

/*
 * Writes the masked copy of s[0..len) to out (capacity cap, NUL-terminated when cap > 0; bytes past cap
 * are dropped) and returns its full length. With cap >= TBL_REDIS_URL_MASK_MAX(len) nothing is dropped.
 */
static inline size_t tbl_redis_url_mask(const char *s, size_t len, char *out, size_t cap)
{
	size_t o = 0, i = 0;
	const char *query = memchr(s, '?', len);
	size_t qpos = query ? (size_t)(query - s) : len;
	const char *scheme = NULL;
	for (size_t k = 0; k + 2 < qpos; k++) {
		if (s[k] == ':' && s[k + 1] == '/' && s[k + 2] == '/') {
			scheme = s + k + 3;
			break;
		}
	}
#define TBL_MASK_PUT(c) do { if (o < cap) out[o] = (c); o++; } while (0)
	/* User info (scheme://anything@host): all of it, the user too, since "user:pass" has no fixed shape. */
	if (scheme) {
		const char *at = NULL;
		for (const char *p = scheme; p < s + qpos && *p != '/'; p++) {
			if (*p == '@') at = p;
		}
		if (at) {
			for (; s + i < scheme; i++) TBL_MASK_PUT(s[i]);
			TBL_MASK_PUT('*'); TBL_MASK_PUT('*'); TBL_MASK_PUT('*');
			i = (size_t)(at - s);
		}
	}
	for (; i <= qpos && i < len; i++) TBL_MASK_PUT(s[i]);   /* up to and with the '?' */
	while (i < len) {
		size_t start = i, eq = len, end = len;
		for (size_t k = i; k < len; k++) {
			if (s[k] == '&') { end = k; break; }
			if (s[k] == '=' && eq == len) eq = k;
		}
		if (eq < end && tbl_redis_url_mask_secret_name(s + start, eq - start)) {
			for (; i <= eq; i++) TBL_MASK_PUT(s[i]);
			TBL_MASK_PUT('*'); TBL_MASK_PUT('*'); TBL_MASK_PUT('*');
			i = end;
		} else {
			for (; i < end; i++) TBL_MASK_PUT(s[i]);
		}
		if (i < len) TBL_MASK_PUT(s[i++]);   /* the '&' */
	}
#undef TBL_MASK_PUT
	if (cap > 0) out[o < cap ? o : cap - 1] = '\0';
	return o;
}

#endif
