/*
 * tier_config.h - what a table's Redis tier is: the server, the namespaces it covers, the prefix of its
 * keys, its timeout and staleness bound; and how a namespace and key are named in Redis.
 *
 * A tiered key is stored in Redis as  <prefix><length of the namespace>:<namespace>:<key>  (the default
 * namespace has length 0: "table:0::key"). The length makes every name unambiguous whatever bytes the
 * namespace holds, so the helper can take an invalidated Redis key apart again.
 *
 * Zend-free: the binding fills it from the INI values, the helper process reads it.
 */
#ifndef TBL_TIER_CONFIG_H
#define TBL_TIER_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "redis_url.h"

#define TBL_TIER_PREFIX_MAX     128u
#define TBL_TIER_NAMESPACES_MAX 4096u   /* bytes of table.redis_namespaces */

typedef struct tbl_tier_config {
	tbl_redis_url_t url;
	unsigned timeout_ms;                 /* every Redis call's bound */
	unsigned max_stale_ms;               /* the L1 is trusted while the helper's freshness is this recent */
	char prefix[TBL_TIER_PREFIX_MAX + 1];
	size_t prefix_len;
	int all;                             /* table.redis_namespaces=*: every namespace, the default too */
	/* The listed namespaces, comma-separated with the blanks around each name removed. */
	char namespaces[TBL_TIER_NAMESPACES_MAX + 1];
	size_t namespaces_len;
	/* The table's named segment (table.segment), "" for the anonymous one: the helper's process title
	 * names it. Set by the binding; not a setting of the tier's (tbl_tier_config_parse leaves it ""). */
	char segment[128];
} tbl_tier_config_t;

/* Fill `cfg` from the settings' texts. 0, or -1 with a message naming the setting. */
int tbl_tier_config_parse(tbl_tier_config_t *cfg, const char *url, const char *namespaces, const char *prefix,
                          long timeout_ms, long max_stale_ms, char *err, size_t errlen);
/* Whether namespace `ns` (len 0: the default) is tiered. */
int tbl_tier_config_covers(const tbl_tier_config_t *cfg, const char *ns, size_t nslen);
/* The Redis key of (ns, key) into out (cap bytes); its length, or 0 when it does not fit. */
size_t tbl_tier_redis_key(const tbl_tier_config_t *cfg, const char *ns, size_t nslen, const char *key,
                          size_t klen, char *out, size_t cap);
/* Take a Redis key apart: 1 with ns/key pointing into rkey, 0 when it is not one of this tier's names. */
int tbl_tier_redis_key_parse(const tbl_tier_config_t *cfg, const char *rkey, size_t rlen, const char **ns,
                             size_t *nslen, const char **key, size_t *klen);

#endif
