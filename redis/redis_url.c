/*
 * redis_url.c - parsing table.redis values (the grammar is in redis_url.h).
 *
 * The input is a length-delimited byte string from an ini setting, so nothing here relies on a NUL
 * terminator, and a NUL byte inside it is an error rather than an early end. The parser walks the string
 * once, left to right: scheme, then the address (host and port, or the socket path), then the query.
 * Every field is copied into a fixed-size array of the result; a value that does not fit is refused with
 * a message naming the field and its limit, never truncated, since a truncated host or password would
 * connect somewhere else or fail to authenticate with a misleading message.
 */
#include "redis_url.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

#define TBL_REDIS_DEFAULT_PORT 6379
#define TBL_REDIS_SENTINEL_DEFAULT_PORT 26379

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (errlen > 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t plen = strlen(prefix);
	return len >= plen && memcmp(s, prefix, plen) == 0;
}

static int hex_digit_value(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

static int is_host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
	       c == '_';
}

/* Percent-decodes value[0..len) into dst (capacity cap, NUL-terminated). */
static int decode_query_value(const char *name, const char *value, size_t len, char *dst, size_t cap, char *err,
                              size_t errlen)
{
	size_t out = 0;
	for (size_t i = 0; i < len; i++) {
		char c = value[i];
		if (c == '%') {
			if (len - i < 3) {
				return fail(err, errlen, "%s=: '%%' must be followed by two hex digits", name);
			}
			int h = hex_digit_value(value[i + 1]), l = hex_digit_value(value[i + 2]);
			if (h < 0 || l < 0) {
				/* A password's bytes are never quoted: the message reaches exceptions and logs. */
				if (strcmp(name, "auth") == 0) {
					return fail(err, errlen, "auth=: a '%%' that does not start a percent-encoded byte (two hex digits)");
				}
				return fail(err, errlen, "%s=: '%%%c%c' is not a percent-encoded byte (two hex digits)", name,
				            value[i + 1], value[i + 2]);
			}
			c = (char)(h * 16 + l);
			if (c == '\0') {
				return fail(err, errlen, "%s=: %%00 (a NUL byte) is not allowed", name);
			}
			i += 2;
		}
		if (out + 1 >= cap) {
			return fail(err, errlen, "%s= is too long (at most %zu bytes)", name, cap - 1);
		}
		dst[out++] = c;
	}
	dst[out] = '\0';
	return 0;
}

static int parse_db(const char *value, size_t len, int *db, char *err, size_t errlen)
{
	long long n = 0;
	if (len == 0) {
		return fail(err, errlen, "db= is empty (expected a number from 0 to %d)", INT_MAX);
	}
	for (size_t i = 0; i < len; i++) {
		if (value[i] < '0' || value[i] > '9') {
			return fail(err, errlen, "db=%.*s is not a number from 0 to %d", (int)len, value, INT_MAX);
		}
		n = n * 10 + (value[i] - '0');
		if (n > INT_MAX) {
			return fail(err, errlen, "db=%.*s is out of range (0 to %d)", (int)len, value, INT_MAX);
		}
	}
	*db = (int)n;
	return 0;
}

/* auth_env=NAME: the password is the value of the environment variable NAME, read now. */
static int auth_from_env(const char *value, size_t len, tbl_redis_url_t *out, char *err, size_t errlen)
{
	char name[256];
	if (decode_query_value("auth_env", value, len, name, sizeof(name), err, errlen) != 0) return -1;
	if (name[0] == '\0') return fail(err, errlen, "auth_env= is empty (expected the name of an environment variable)");
	const char *secret = getenv(name);
	if (!secret || !secret[0]) {
		return fail(err, errlen, "auth_env=%s: the environment variable %s is not set, or empty", name, name);
	}
	size_t n = strlen(secret);
	if (n >= sizeof(out->auth)) {
		return fail(err, errlen, "auth_env=%s: the password is too long (at most %zu bytes)", name, sizeof(out->auth) - 1);
	}
	memcpy(out->auth, secret, n + 1);
	return 0;
}

/* auth_file=/path: the password is the file's content, without one trailing newline (\n or \r\n). */
static int auth_from_file(const char *value, size_t len, tbl_redis_url_t *out, char *err, size_t errlen)
{
	char path[1024];
	if (decode_query_value("auth_file", value, len, path, sizeof(path), err, errlen) != 0) return -1;
	if (path[0] != '/') return fail(err, errlen, "auth_file= must be an absolute path");
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) return fail(err, errlen, "auth_file=%s: open failed: %s", path, strerror(errno));
	char buf[sizeof(out->auth) + 2];
	size_t n = 0;
	for (;;) {
		ssize_t got = read(fd, buf + n, sizeof(buf) - n);
		if (got < 0 && errno == EINTR) continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			return fail(err, errlen, "auth_file=%s: read failed: %s", path, strerror(e));
		}
		if (got == 0 || (n += (size_t)got) == sizeof(buf)) break;
	}
	close(fd);
	if (n > 0 && buf[n - 1] == '\n') n--;
	if (n > 0 && buf[n - 1] == '\r') n--;
	if (n == 0) return fail(err, errlen, "auth_file=%s is empty", path);
	if (n >= sizeof(out->auth)) {
		return fail(err, errlen, "auth_file=%s: the password is too long (at most %zu bytes)", path, sizeof(out->auth) - 1);
	}
	if (memchr(buf, '\0', n)) return fail(err, errlen, "auth_file=%s holds a NUL byte", path);
	memcpy(out->auth, buf, n);
	out->auth[n] = '\0';
	return 0;
}

/* cafile=, cert=, key=: an absolute path, percent-decoded. */
static int parse_tls_path(const char *name, const char *value, size_t len, char *dst, size_t cap, char *err,
                          size_t errlen)
{
	if (decode_query_value(name, value, len, dst, cap, err, errlen) != 0) return -1;
	if (dst[0] != '/') return fail(err, errlen, "%s= must be an absolute path", name);
	return 0;
}

/* The TLS parameters (tls:// and sentinel+tls:// only). 1 when name is one of them (rc set), 0 if not. */
static int parse_tls_param(const char *name, size_t name_len, const char *value, size_t value_len,
                           tbl_redis_url_t *out, unsigned *seen, int *rc, char *err, size_t errlen)
{
	static const char *const names[] = { "cafile", "cert", "key", "verify", "sni" };
	size_t i;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) == name_len && memcmp(names[i], name, name_len) == 0) break;
	}
	if (i == sizeof(names) / sizeof(names[0])) return 0;
	if (!out->tls) {
		/* Named for the scheme written: cluster:// has its own TLS scheme. */
		*rc = out->is_cluster ? fail(err, errlen, "%s= is only for cluster+tls:// (and tls://, sentinel+tls://)", names[i])
		                      : fail(err, errlen, "%s= is only for tls:// and sentinel+tls://", names[i]);
		return 1;
	}
	if (*seen & (1u << i)) {
		*rc = fail(err, errlen, "%s= is given twice", names[i]);
		return 1;
	}
	*seen |= 1u << i;
	switch (i) {
	case 0: *rc = parse_tls_path("cafile", value, value_len, out->tls_cafile, sizeof(out->tls_cafile), err, errlen); break;
	case 1: *rc = parse_tls_path("cert", value, value_len, out->tls_cert, sizeof(out->tls_cert), err, errlen); break;
	case 2: *rc = parse_tls_path("key", value, value_len, out->tls_key, sizeof(out->tls_key), err, errlen); break;
	case 3:
		if (value_len != 1 || (value[0] != '0' && value[0] != '1')) {
			*rc = fail(err, errlen, "verify=%.*s: expected 1 (the default) or 0 (no verification: insecure)",
			           (int)(value_len > 32 ? 32 : value_len), value);
		} else {
			out->tls_verify = value[0] == '1';
			*rc = 0;
		}
		break;
	default:
		*rc = decode_query_value("sni", value, value_len, out->tls_sni, sizeof(out->tls_sni), err, errlen);
		if (*rc == 0) {
			for (const char *p = out->tls_sni; *p; p++) {
				if (!is_host_char(*p)) {
					*rc = fail(err, errlen, "sni=: bad character '%c' in the host name", *p);
					break;
				}
			}
			if (*rc == 0 && out->tls_sni[0] == '\0') *rc = fail(err, errlen, "sni= is empty (expected a host name)");
		}
		break;
	}
	return 1;
}

static int parse_query(const char *q, size_t len, tbl_redis_url_t *out, char *err, size_t errlen)
{
	int seen_user = 0, seen_auth = 0, seen_db = 0, seen_master = 0, seen_sentinel_auth = 0;
	unsigned seen_tls = 0;
	size_t pos = 0;
	while (pos < len) {
		const char *pair = q + pos;
		const char *amp = memchr(pair, '&', len - pos);
		size_t pair_len = amp ? (size_t)(amp - pair) : len - pos;
		pos += pair_len + (amp ? 1 : 0);
		if (pair_len == 0 || (amp && pos == len)) {
			return fail(err, errlen, "empty parameter in the query (two '&' in a row, or a trailing '&')");
		}
		const char *eq = memchr(pair, '=', pair_len);
		if (!eq) {
			return fail(err, errlen, "parameter \"%.*s\" has no '=value'", (int)pair_len, pair);
		}
		size_t name_len = (size_t)(eq - pair);
		const char *value = eq + 1;
		size_t value_len = pair_len - name_len - 1;
		int rc;
		if (parse_tls_param(pair, name_len, value, value_len, out, &seen_tls, &rc, err, errlen)) {
			/* rc is set */
		} else if (name_len == 4 && memcmp(pair, "user", 4) == 0) {
			if (seen_user++) return fail(err, errlen, "user= is given twice");
			rc = decode_query_value("user", value, value_len, out->user, sizeof(out->user), err, errlen);
		} else if (name_len == 4 && memcmp(pair, "auth", 4) == 0) {
			if (seen_auth++) return fail(err, errlen, "the password is given twice (auth=, auth_env=, auth_file=)");
			rc = decode_query_value("auth", value, value_len, out->auth, sizeof(out->auth), err, errlen);
		} else if (name_len == 8 && memcmp(pair, "auth_env", 8) == 0) {
			if (seen_auth++) return fail(err, errlen, "the password is given twice (auth=, auth_env=, auth_file=)");
			rc = auth_from_env(value, value_len, out, err, errlen);
		} else if (name_len == 9 && memcmp(pair, "auth_file", 9) == 0) {
			if (seen_auth++) return fail(err, errlen, "the password is given twice (auth=, auth_env=, auth_file=)");
			rc = auth_from_file(value, value_len, out, err, errlen);
		} else if (name_len == 2 && memcmp(pair, "db", 2) == 0) {
			if (seen_db++) return fail(err, errlen, "db= is given twice");
			rc = parse_db(value, value_len, &out->db, err, errlen);
			if (rc == 0 && out->is_cluster && out->db != 0) {
				return fail(err, errlen, "db=%d: a Redis Cluster has only database 0 (leave db= out, or db=0)", out->db);
			}
		} else if (out->is_sentinel && name_len == 6 && memcmp(pair, "master", 6) == 0) {
			if (seen_master++) return fail(err, errlen, "master= is given twice");
			rc = decode_query_value("master", value, value_len, out->master, sizeof(out->master), err, errlen);
			if (rc == 0 && out->master[0] == '\0') return fail(err, errlen, "master= is empty (expected the name the Sentinels monitor)");
		} else if (out->is_sentinel && name_len == 13 && memcmp(pair, "sentinel_auth", 13) == 0) {
			if (seen_sentinel_auth++) return fail(err, errlen, "sentinel_auth= is given twice");
			rc = decode_query_value("auth", value, value_len, out->sentinel_auth, sizeof(out->sentinel_auth), err,
			                        errlen);
			if (rc != 0) {
				/* decode_query_value names it auth= so that it never quotes the bytes; say which one. */
				return fail(err, errlen, "sentinel_auth=: not a valid value (a '%%' that does not start a "
				            "percent-encoded byte, %%00, or too long: at most %zu bytes)", sizeof(out->sentinel_auth) - 1);
			}
		} else if (!out->is_sentinel && ((name_len == 6 && memcmp(pair, "master", 6) == 0)
		                                 || (name_len == 13 && memcmp(pair, "sentinel_auth", 13) == 0))) {
			return fail(err, errlen, "%.*s= is only for sentinel:// (sentinel://host:port,...?master=NAME)%s",
			            (int)name_len, pair, out->is_cluster ? "; a cluster finds its masters itself" : "");
		} else if (out->is_sentinel) {
			return fail(err, errlen, "unknown parameter \"%.*s\" (known: master, user, auth, auth_env, auth_file, "
			            "sentinel_auth, db%s)", (int)name_len, pair, out->tls ? ", cafile, cert, key, verify, sni" : "");
		} else {
			return fail(err, errlen, "unknown parameter \"%.*s\" (known: user, auth, auth_env, auth_file, db%s)",
			            (int)name_len, pair, out->tls ? ", cafile, cert, key, verify, sni" : "");
		}
		if (rc != 0) return rc;
	}
	if (out->is_sentinel && out->master[0] == '\0') {
		return fail(err, errlen, "no master name (sentinel:// needs ?master=NAME, the name the Sentinels monitor)");
	}
	if ((out->tls_cert[0] != '\0') != (out->tls_key[0] != '\0')) {
		return fail(err, errlen, "%s= needs %s= (a client certificate and its private key go together)",
		            out->tls_cert[0] ? "cert" : "key", out->tls_cert[0] ? "key" : "cert");
	}
	if (out->user[0] != '\0' && out->auth[0] == '\0') {
		return fail(err, errlen, "user= needs auth= (the ACL user's password), or auth_env= or auth_file=");
	}
	return 0;
}


static int parse_port(const char *p, size_t len, int *port, char *err, size_t errlen)
{
	long n = 0;
	if (len == 0) {
		return fail(err, errlen, "bad port: empty after ':'");
	}
	for (size_t i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9') {
			return fail(err, errlen, "bad port \"%.*s\" (expected 1 to 65535)", (int)len, p);
		}
		n = n * 10 + (p[i] - '0');
		if (n > 65535) {
			return fail(err, errlen, "bad port \"%.*s\" (expected 1 to 65535)", (int)len, p);
		}
	}
	if (n == 0) {
		return fail(err, errlen, "bad port 0 (expected 1 to 65535)");
	}
	*port = (int)n;
	return 0;
}

/* host[:port] or [v6][:port], in a[0..len), into host (hostcap bytes) and *port (default_port without one). */
static int parse_host_port(const char *a, size_t len, char *out_host, size_t hostcap, int *out_port, int default_port,
                           const char *expected, char *err, size_t errlen)
{
	const char *host;
	size_t host_len;
	const char *rest;
	if (len > 0 && a[0] == '[') {
		const char *close = memchr(a, ']', len);
		if (!close) {
			return fail(err, errlen, "IPv6 address without its closing ']'");
		}
		host = a + 1;
		host_len = (size_t)(close - host);
		for (size_t i = 0; i < host_len; i++) {
			char c = host[i];
			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
			      c == '.' || c == '%')) {
				return fail(err, errlen, "bad character '%c' in the IPv6 address", c);
			}
		}
		rest = close + 1;
	} else {
		const char *colon = memchr(a, ':', len);
		host = a;
		host_len = colon ? (size_t)(colon - a) : len;
		for (size_t i = 0; i < host_len; i++) {
			if (!is_host_char(host[i])) {
				return fail(err, errlen, "bad character '%c' in the host name", host[i]);
			}
		}
		rest = a + host_len;
	}
	if (host_len == 0) {
		return fail(err, errlen, "empty host (expected %s)", expected);
	}
	if (host_len >= hostcap) {
		return fail(err, errlen, "host is too long (at most %zu bytes)", hostcap - 1);
	}
	memcpy(out_host, host, host_len);
	out_host[host_len] = '\0';

	size_t rest_len = len - (size_t)(rest - a);
	if (rest_len == 0) {
		*out_port = default_port;
		return 0;
	}
	if (rest[0] != ':') {
		return fail(err, errlen, "unexpected \"%.*s\" after the host (expected :port or ?parameters)", (int)rest_len,
		            rest);
	}
	return parse_port(rest + 1, rest_len - 1, out_port, err, errlen);
}

static int parse_tcp_address(const char *a, size_t len, tbl_redis_url_t *out, char *err, size_t errlen)
{
	return parse_host_port(a, len, out->host, sizeof(out->host), &out->port, TBL_REDIS_DEFAULT_PORT,
	                       "tcp://host:port", err, errlen);
}

/* h1[:p1],h2[:p2],... in a[0..len) into list (at most max, *count of them): the Sentinels, in the order
 * they are asked, or a cluster's seed nodes. what names one ("Sentinel", "seed node"). */
static int parse_host_list(const char *a, size_t len, tbl_redis_sentinel_addr_t *list, int *count, int max,
                           int default_port, const char *what, const char *expected, char *err, size_t errlen)
{
	size_t pos = 0;
	if (len == 0) {
		return fail(err, errlen, "no %s hosts (expected %s)", what, expected);
	}
	for (;;) {
		const char *item = a + pos;
		const char *comma = memchr(item, ',', len - pos);
		size_t item_len = comma ? (size_t)(comma - item) : len - pos;
		if (*count == max) {
			return fail(err, errlen, "too many %ss (at most %d)", what, max);
		}
		tbl_redis_sentinel_addr_t *s = &list[*count];
		if (item_len == 0) {
			return fail(err, errlen, "%s %d: empty host (two ',' in a row, or one at an end)", what, *count + 1);
		}
		if (parse_host_port(item, item_len, s->host, sizeof(s->host), &s->port, default_port, expected, err,
		                    errlen) != 0) {
			/* Name which one of the list is wrong: prefix the message. */
			char why[256];
			snprintf(why, sizeof(why), "%s", err);
			return fail(err, errlen, "%s %d: %s", what, *count + 1, why);
		}
		(*count)++;
		if (!comma) return 0;
		pos += item_len + 1;
		if (pos == len) {
			return fail(err, errlen, "%s %d: empty host (two ',' in a row, or one at an end)", what, *count + 1);
		}
	}
}

static int parse_sentinel_list(const char *a, size_t len, tbl_redis_url_t *out, char *err, size_t errlen)
{
	return parse_host_list(a, len, out->sentinels, &out->nsentinels, TBL_REDIS_SENTINELS_MAX,
	                       TBL_REDIS_SENTINEL_DEFAULT_PORT, "Sentinel", "sentinel://host:port,host:port?master=NAME",
	                       err, errlen);
}

static int parse_seed_list(const char *a, size_t len, tbl_redis_url_t *out, char *err, size_t errlen)
{
	int rc = parse_host_list(a, len, out->seeds, &out->nseeds, TBL_REDIS_CLUSTER_SEEDS_MAX, TBL_REDIS_DEFAULT_PORT,
	                         "seed node", "cluster://host:port,host:port", err, errlen);
	if (rc == 0) {
		/* The first seed stands for the cluster where one address is wanted (messages). */
		memcpy(out->host, out->seeds[0].host, sizeof(out->host));
		out->port = out->seeds[0].port;
	}
	return rc;
}

static int parse_unix_path(const char *p, size_t len, tbl_redis_url_t *out, char *err, size_t errlen)
{
	/* The path goes into a sockaddr_un when connecting: anything longer cannot be connected to. */
	size_t max = sizeof(((struct sockaddr_un *)0)->sun_path) - 1;
	if (len == 0) {
		return fail(err, errlen, "empty unix socket path (expected unix:///path/to/redis.sock)");
	}
	if (p[0] != '/') {
		return fail(err, errlen, "unix socket path must be absolute (unix:///path, three slashes)");
	}
	if (len > max || len >= sizeof(out->path)) {
		return fail(err, errlen, "unix socket path is too long (%zu bytes, at most %zu)", len, max);
	}
	memcpy(out->path, p, len);
	out->path[len] = '\0';
	return 0;
}

int tbl_redis_url_parse(const char *s, size_t len, tbl_redis_url_t *out, char *err, size_t errlen)
{
	if (errlen > 0) err[0] = '\0';
	memset(out, 0, sizeof(*out));
	out->port = TBL_REDIS_DEFAULT_PORT;
	out->tls_verify = 1;
	if (len == 0) {
		return fail(err, errlen, "empty (expected tcp://host:port, tls://host:port or unix:///path)");
	}
	if (memchr(s, '\0', len)) {
		return fail(err, errlen, "contains a NUL byte");
	}
	/* The schemes, and what each sets. */
	static const struct { const char *prefix; int is_unix, is_sentinel, is_cluster, tls; } schemes[] = {
		{ "tcp://", 0, 0, 0, 0 }, { "unix://", 1, 0, 0, 0 }, { "tls://", 0, 0, 0, 1 },
		{ "sentinel://", 0, 1, 0, 0 }, { "sentinel+tls://", 0, 1, 0, 1 },
		{ "cluster://", 0, 0, 1, 0 }, { "cluster+tls://", 0, 0, 1, 1 },
	};
	const char *rest = NULL;
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]) && !rest; i++) {
		if (starts_with(s, len, schemes[i].prefix)) {
			out->is_unix = schemes[i].is_unix;
			out->is_sentinel = schemes[i].is_sentinel;
			out->is_cluster = schemes[i].is_cluster;
			out->tls = schemes[i].tls;
			rest = s + strlen(schemes[i].prefix);
		}
	}
	if (!rest) {
		const char *sep = NULL;
		for (size_t i = 0; i + 2 < len; i++) {
			if (s[i] == ':' && s[i + 1] == '/' && s[i + 2] == '/') {
				sep = s + i;
				break;
			}
		}
		if (sep) {
			return fail(err, errlen, "unknown scheme \"%.*s\" (expected tcp://, tls://, unix://, sentinel://, "
			            "sentinel+tls://, cluster:// or cluster+tls://)", (int)(sep - s), s);
		}
		return fail(err, errlen, "no scheme (expected tcp://host:port or unix:///path)");
	}
	size_t rest_len = len - (size_t)(rest - s);
	const char *query = memchr(rest, '?', rest_len);
	size_t addr_len = query ? (size_t)(query - rest) : rest_len;
	/* Refused before the address is looked at, so that no message quotes a password written there. */
	if (!out->is_unix && memchr(rest, '@', addr_len)) {
		return fail(err, errlen, "user info (user:password@) is not supported; use ?user=NAME&auth=PASSWORD");
	}

	int rc = out->is_unix       ? parse_unix_path(rest, addr_len, out, err, errlen)
	         : out->is_sentinel ? parse_sentinel_list(rest, addr_len, out, err, errlen)
	         : out->is_cluster  ? parse_seed_list(rest, addr_len, out, err, errlen)
	                            : parse_tcp_address(rest, addr_len, out, err, errlen);
	if (rc != 0) return rc;
	if (out->is_sentinel) {
		out->port = 0;   /* no master yet: the Sentinels name it when connecting */
	}
	/* Also without a query, so that sentinel:// without ?master= is refused there. */
	return parse_query(query ? query + 1 : rest + rest_len, query ? rest_len - addr_len - 1 : 0, out, err, errlen);
}

void tbl_redis_url_describe(const tbl_redis_url_t *url, char *buf, size_t buflen)
{
	if (url->is_sentinel && url->host[0] == '\0') {
		size_t n = (size_t)snprintf(buf, buflen, "master %s via Sentinel", url->master);
		for (int i = 0; i < url->nsentinels && n < buflen; i++) {
			const tbl_redis_sentinel_addr_t *s = &url->sentinels[i];
			n += (size_t)snprintf(buf + n, buflen - n, strchr(s->host, ':') ? "%s[%s]:%d" : "%s%s:%d",
			                      i ? "," : " ", s->host, s->port);
		}
	} else if (url->is_cluster) {
		size_t n = (size_t)snprintf(buf, buflen, "cluster");
		for (int i = 0; i < url->nseeds && n < buflen; i++) {
			const tbl_redis_sentinel_addr_t *s = &url->seeds[i];
			n += (size_t)snprintf(buf + n, buflen - n, strchr(s->host, ':') ? "%s[%s]:%d" : "%s%s:%d",
			                      i ? "," : " ", s->host, s->port);
		}
	} else if (url->is_unix) {
		snprintf(buf, buflen, "%s", url->path);
	} else if (strchr(url->host, ':')) {
		snprintf(buf, buflen, "[%s]:%d", url->host, url->port);
	} else {
		snprintf(buf, buflen, "%s:%d", url->host, url->port);
	}
}
