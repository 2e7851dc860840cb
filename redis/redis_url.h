/*
 * redis_url.h - the value of the table.redis setting, parsed.
 *
 *     tcp://host[:port][?query]       host is a name, an IPv4 address or [an IPv6 address]; port 6379
 *     unix:///absolute/path[?query]
 *     tls://host[:port][?query]       tcp:// over TLS (redis_tls.h): the server's certificate is verified
 *     sentinel://host[:port][,host[:port]...]?master=NAME[&query]    Sentinels (port 26379), at most
 *                                     TBL_REDIS_SENTINELS_MAX; the master is asked of them when connecting
 *     sentinel+tls://...              sentinel:// with TLS to the Sentinels and to the master alike
 *     cluster://host[:port][,host[:port]...][?query]    a Redis Cluster (redis_cluster.h): seed nodes (port
 *                                     6379), at most TBL_REDIS_CLUSTER_SEEDS_MAX; the masters and their
 *                                     slots are asked of them (CLUSTER SLOTS) when connecting
 *     cluster+tls://...               cluster:// with TLS to every node
 *
 * The query is name=value pairs joined by '&': user= (an ACL user), auth= (its password), db= (the
 * database number, 0 by default). With sentinel:// also master= (the name the Sentinels monitor, required)
 * and sentinel_auth= (the Sentinels' password, requirepass in sentinel.conf; user=, auth= and db= are the
 * master's); master= and sentinel_auth= are refused with the other schemes. With cluster:// user=, auth=
 * are every node's, and db= may only be 0 (a cluster has only database 0). Values are percent-decoded (%XX); names are not. A parameter given
 * twice, an unknown one, a value that decodes to a NUL byte, or user= without a password is refused.
 *
 * With tls://, sentinel+tls:// and cluster+tls:// also (refused with the other schemes): cafile=/path (the CAs trusted;
 * the system's store without it), cert=/path and key=/path (a client certificate, both or neither),
 * verify=1|0 (0 checks neither the certificate nor the name: insecure, for tests), sni=NAME (the name
 * sent in SNI and checked against the certificate, instead of the host). Paths must be absolute; the
 * files are read when connecting, not here.
 *
 * The password may instead come from outside the setting, so that it is in no php.ini: auth_env=NAME
 * (the environment variable NAME) or auth_file=/path (the file's bytes, less one trailing newline). Either
 * is read when the value is parsed, into auth; only one of auth=, auth_env=, auth_file= may be given.
 *
 * The parser never allocates and never prints: it fills a caller's struct, or writes one sentence naming
 * what is wrong into the caller's buffer (never a password's bytes). Apart from auth_env= and auth_file=
 * it does no I/O. It knows nothing of Redis itself, nor of PHP.
 */
#ifndef TBL_REDIS_URL_H
#define TBL_REDIS_URL_H

#include <stddef.h>

#define TBL_REDIS_SENTINELS_MAX 8
#define TBL_REDIS_CLUSTER_SEEDS_MAX 16

typedef struct tbl_redis_sentinel_addr {
	char host[256];
	int port;             /* default 26379 */
} tbl_redis_sentinel_addr_t;

typedef struct tbl_redis_url {
	int is_unix;          /* unix:///path */
	char host[256];       /* tcp://host:port; IPv6 in [brackets] ok (stored without them). sentinel://: the
	                         master the Sentinels named last ("" before the first connect; redis_sentinel.h) */
	int port;             /* default 6379 */
	int is_sentinel;      /* sentinel://: the fields below are set */
	int nsentinels;       /* 1..TBL_REDIS_SENTINELS_MAX */
	tbl_redis_sentinel_addr_t sentinels[TBL_REDIS_SENTINELS_MAX];
	char master[128];     /* ?master=NAME */
	char sentinel_auth[256];   /* ?sentinel_auth=, "" = none */
	int is_cluster;       /* cluster://: the seeds below are set; host/port is the first seed */
	int nseeds;           /* 1..TBL_REDIS_CLUSTER_SEEDS_MAX */
	tbl_redis_sentinel_addr_t seeds[TBL_REDIS_CLUSTER_SEEDS_MAX];   /* default port 6379 */
	char path[1024];      /* unix socket path */
	char user[128];       /* ?user= (ACL user), "" = none */
	char auth[256];       /* ?auth= password (or read from auth_env= / auth_file=), "" = none */
	int db;               /* ?db=N, 0..INT_MAX, default 0 */
	int tls;              /* tls://, sentinel+tls:// or cluster+tls://: the fields below apply */
	int tls_verify;       /* ?verify=, 1 by default */
	char tls_cafile[1024];     /* ?cafile=, "" = the system's store */
	char tls_cert[1024];       /* ?cert= and ?key=, both "" or both set */
	char tls_key[1024];
	char tls_sni[256];         /* ?sni=, "" = the host connected to */
} tbl_redis_url_t;

/*
 * Parses the len bytes at s (no NUL terminator needed) into *out. Returns 0, or -1 with a message in err
 * (always NUL-terminated when errlen > 0) that names what is wrong: unknown scheme, bad port, unknown
 * parameter, empty host, too long, ... *out is fully written on success and unspecified on failure.
 */
int tbl_redis_url_parse(const char *s, size_t len, tbl_redis_url_t *out, char *err, size_t errlen);

/* "host:port", "[v6]:port" or the socket path, for messages ("Redis at <this>: ..."). sentinel:// before
 * its master is known: "master NAME via Sentinel h1:p1,..." (cut to fit). cluster://: "cluster h1:p1,..."
 * (its seeds, cut to fit). */
void tbl_redis_url_describe(const tbl_redis_url_t *url, char *buf, size_t buflen);

#endif
