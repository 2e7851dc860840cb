/*
 * tier_config.c - the Redis tier's settings checked and normalised, and the names its keys have in
 * Redis (tier_config.h).
 */
#include <stdio.h>
#include <string.h>
#include "tier_config.h"
#include "redis_url_mask.h"
#include "redis_tls.h"

#define TBL_TIER_NS_NAME_MAX 255u   /* a namespace's longest name (the core's TBL_NS_NAME_MAX) */

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Normalise the namespace list into cfg->namespaces: names separated by single commas. */
static int parse_namespaces(tbl_tier_config_t *cfg, const char *text, char *err, size_t errlen)
{
	const char *p = text;
	size_t out = 0;

	cfg->all = 0;
	cfg->namespaces_len = 0;
	cfg->namespaces[0] = '\0';
	while (*p) {
		const char *start, *end;
		size_t len;

		while (is_blank(*p)) {
			p++;
		}
		start = p;
		while (*p && *p != ',') {
			p++;
		}
		end = p;
		while (end > start && is_blank(end[-1])) {
			end--;
		}
		len = (size_t)(end - start);
		if (len == 0) {
			snprintf(err, errlen, "table.redis_namespaces=%.200s has an empty name; list names separated by "
			         "commas, or *", text);
			return -1;
		}
		if (len == 1 && *start == '*') {
			cfg->all = 1;
		} else if (len > TBL_TIER_NS_NAME_MAX) {
			snprintf(err, errlen, "table.redis_namespaces: a name is longer than %u bytes", TBL_TIER_NS_NAME_MAX);
			return -1;
		} else {
			if (out + len + 1 > TBL_TIER_NAMESPACES_MAX) {
				snprintf(err, errlen, "table.redis_namespaces is longer than %u bytes", TBL_TIER_NAMESPACES_MAX);
				return -1;
			}
			if (out) {
				cfg->namespaces[out++] = ',';
			}
			memcpy(cfg->namespaces + out, start, len);
			out += len;
		}
		if (*p == ',') {
			p++;
			if (*p == '\0') {
				snprintf(err, errlen, "table.redis_namespaces=%.200s ends with a comma", text);
				return -1;
			}
		}
	}
	cfg->namespaces[out] = '\0';
	cfg->namespaces_len = out;
	if (!cfg->all && out == 0) {
		snprintf(err, errlen, "table.redis is set but table.redis_namespaces is empty; list the namespaces "
		         "Redis backs (comma-separated), or *");
		return -1;
	}
	return 0;
}

int tbl_tier_config_parse(tbl_tier_config_t *cfg, const char *url, const char *namespaces, const char *prefix,
                          long timeout_ms, long max_stale_ms, char *err, size_t errlen)
{
	char why[256];

	memset(cfg, 0, sizeof(*cfg));
	if (tbl_redis_url_parse(url, strlen(url), &cfg->url, why, sizeof(why)) != 0) {
		/* The value is quoted with its password masked: this message reaches exceptions and logs. */
		char shown[TBL_REDIS_URL_MASK_MAX(200)];
		size_t len = strlen(url);
		tbl_redis_url_mask(url, len < 200 ? len : 200, shown, sizeof(shown));
		snprintf(err, errlen, "table.redis=%s is not valid: %s", shown, why);
		return -1;
	}
	if (cfg->url.tls && tbl_redis_tls_unavailable()) {
		/* Valid, but this build cannot connect to it: said now rather than at each call. */
		char shown[TBL_REDIS_URL_MASK_MAX(120)];
		size_t len = strlen(url);
		tbl_redis_url_mask(url, len < 120 ? len : 120, shown, sizeof(shown));
		snprintf(err, errlen, "table.redis=%s%s cannot be used: %s", shown, len > 120 ? "..." : "",
		         tbl_redis_tls_unavailable());
		return -1;
	}
	if (parse_namespaces(cfg, namespaces, err, errlen) != 0) {
		return -1;
	}
	cfg->prefix_len = strlen(prefix);
	if (cfg->prefix_len > TBL_TIER_PREFIX_MAX) {
		snprintf(err, errlen, "table.redis_prefix is longer than %u bytes", TBL_TIER_PREFIX_MAX);
		return -1;
	}
	memcpy(cfg->prefix, prefix, cfg->prefix_len + 1);
	if (timeout_ms < 1 || timeout_ms > 600000) {
		snprintf(err, errlen, "table.redis_timeout=%ld is not valid; use milliseconds from 1 to 600000", timeout_ms);
		return -1;
	}
	if (max_stale_ms < 10 || max_stale_ms > 3600000) {
		snprintf(err, errlen, "table.redis_max_stale=%ld is not valid; use milliseconds from 10 to 3600000",
		         max_stale_ms);
		return -1;
	}
	cfg->timeout_ms = (unsigned)timeout_ms;
	cfg->max_stale_ms = (unsigned)max_stale_ms;
	return 0;
}

int tbl_tier_config_covers(const tbl_tier_config_t *cfg, const char *ns, size_t nslen)
{
	const char *p = cfg->namespaces, *end = cfg->namespaces + cfg->namespaces_len;

	if (cfg->all) {
		return 1;
	}
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t len = (size_t)((comma ? comma : end) - p);

		if (len == nslen && memcmp(p, ns, nslen) == 0) {
			return 1;
		}
		p += len + 1;
	}
	return 0;
}

size_t tbl_tier_redis_key(const tbl_tier_config_t *cfg, const char *ns, size_t nslen, const char *key,
                          size_t klen, char *out, size_t cap)
{
	char len_text[8];
	int n = snprintf(len_text, sizeof(len_text), "%zu:", nslen);
	size_t need = cfg->prefix_len + (size_t)n + nslen + 1 + klen;

	if (n < 0 || need > cap) {
		return 0;
	}
	memcpy(out, cfg->prefix, cfg->prefix_len);
	memcpy(out + cfg->prefix_len, len_text, (size_t)n);
	memcpy(out + cfg->prefix_len + (size_t)n, ns, nslen);
	out[cfg->prefix_len + (size_t)n + nslen] = ':';
	memcpy(out + cfg->prefix_len + (size_t)n + nslen + 1, key, klen);
	return need;
}

int tbl_tier_redis_key_parse(const tbl_tier_config_t *cfg, const char *rkey, size_t rlen, const char **ns,
                             size_t *nslen, const char **key, size_t *klen)
{
	size_t i = cfg->prefix_len, len = 0, digits = 0;

	if (rlen < cfg->prefix_len || memcmp(rkey, cfg->prefix, cfg->prefix_len) != 0) {
		return 0;
	}
	while (i < rlen && rkey[i] >= '0' && rkey[i] <= '9' && digits < 4) {
		len = len * 10 + (size_t)(rkey[i] - '0');
		i++;
		digits++;
	}
	if (digits == 0 || (digits > 1 && rkey[cfg->prefix_len] == '0') || len > TBL_TIER_NS_NAME_MAX
	    || i >= rlen || rkey[i] != ':') {
		return 0;
	}
	i++;
	if (rlen - i < len + 2 || rkey[i + len] != ':') {
		return 0;   /* the namespace, its colon and a key of one byte at least */
	}
	*ns = rkey + i;
	*nslen = len;
	*key = rkey + i + len + 1;
	*klen = rlen - (i + len + 1);
	return 1;
}
