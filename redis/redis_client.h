/*
 * redis_client.h - one blocking connection to Redis with a deadline on every call, and the commands the
 * tiered namespaces need (issue #22). Zend-free: plain C11 on top of hiredis's synchronous API (0.14 with
 * RESP2, or 1.x; both speak RESP2 here).
 *
 * Ownership: a tbl_redis_t belongs to one thread at a time (no locking inside). Values returned in a
 * tbl_redis_buf_t are malloc'd and the caller's; free them with tbl_redis_buf_free().
 *
 * Failure model: a call returns a tbl_redis_status_t. EIO means the connection is gone (it was closed,
 * whatever was in flight is lost) and the next call connects again; nothing is retried inside, since a
 * retried write might be applied twice. The one exception is a connection the server closed while it
 * was idle (Redis's `timeout`, a proxy's idle timeout, a restart): each call checks for that before it
 * sends (one non-blocking recv(MSG_PEEK)) and connects again first, since nothing was sent. Every call waits at most timeout_ms for the connection and at
 * most timeout_ms for its replies, so a frozen server costs the caller about 2 x timeout_ms at worst
 * (a host name is resolved by getaddrinfo(), which no timeout bounds: prefer addresses).
 *
 * Signals: each call blocks SIGPIPE in the calling thread while it talks to Redis and consumes the one a
 * write to a closed socket raised, so callers need not ignore SIGPIPE. poll() interrupted by a signal is
 * restarted with the time that is left.
 *
 * Redis Cluster (cluster:// URLs, redis_cluster.h): the same calls, each sent to the master of its key's
 * slot, with a connection per master opened when first needed and the map of slots learnt from the seeds
 * (CLUSTER SLOTS) on the first call and again after any failure. MOVED and ASK are followed within the
 * call (at most TBL_REDIS_CLUSTER_REDIRECTS_MAX); a connection error, TRYAGAIN or CLUSTERDOWN fails the
 * call (EIO, or EREPLY with the server's text) and the next call learns the map again. Nothing is retried
 * that may have been applied. A call's one deadline of timeout_ms covers all of it: learning the map,
 * connecting to the masters it needs, redirections, and every slot of a multi-key call. Multi-key calls
 * send one command (one MULTI/EXEC for set_many) per slot of their keys (keys with the same {hash tag}
 * share a slot): mget and mget_pttl in one pipeline per master (a round trip per master), del and
 * set_many one slot after another (a round trip per slot); ping and del_prefix go to every master. The last error names the node ("Redis at host:port: ...") or the cluster ("Redis at
 * cluster seed1:port,...: ...").
 */
#ifndef TBL_REDIS_CLIENT_H
#define TBL_REDIS_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "redis_url.h"

typedef enum tbl_redis_status {
	TBL_REDIS_OK = 0,
	TBL_REDIS_NIL = 1,        /* missing key, or the condition did not hold (SET NX on an existing key, cas mismatch, ...) */
	TBL_REDIS_EIO = -1,       /* could not connect, timed out, connection lost, protocol error: the connection is closed and the next call reconnects */
	TBL_REDIS_EREPLY = -2,    /* Redis answered with an error (text in tbl_redis_last_error) not covered below */
	TBL_REDIS_ETYPE = -3,     /* INCRBY on a value that is not an integer */
	TBL_REDIS_EOVERFLOW = -4, /* INCRBY would overflow int64 */
	TBL_REDIS_ENOMEM = -5,
} tbl_redis_status_t;

typedef struct tbl_redis tbl_redis_t;

/* data malloc'd, NULL = missing. When not NULL, data[len] is a NUL byte (not counted in len), for callers
 * that want a C string; the value itself may contain NUL bytes. */
typedef struct tbl_redis_buf {
	char *data;
	size_t len;
} tbl_redis_buf_t;

/* Frees b->data (NULL is fine) and sets it to NULL, len 0. */
void tbl_redis_buf_free(tbl_redis_buf_t *b);

/* "ok", "nil", "I/O error", ...: a short name for logs. */
const char *tbl_redis_status_str(tbl_redis_status_t st);

/* No I/O: connects on the first command. NULL only when out of memory. Copies url. timeout_ms bounds
 * each call as a whole: the host's lookup, connect and handshake when it connects, then the command and
 * its reply (> 0; 0 is taken as 1). */
tbl_redis_t *tbl_redis_new(const tbl_redis_url_t *url, unsigned timeout_ms);
/* fn(ctx) is called each time r opens a connection after an earlier one (lost, closed by the server):
 * a reconnect. Not for the first. */
void tbl_redis_on_reconnect(tbl_redis_t *r, void (*fn)(void *ctx), void *ctx);
/* Closes the connection (without QUIT) and frees r. NULL is fine. */
void tbl_redis_free(tbl_redis_t *r);
/* After fork(), in the child: drop the parent's socket without writing to it (close the fd, free the
 * context), so the child reconnects. The parent's connection is unaffected. */
void tbl_redis_forget(tbl_redis_t *r);
/* Message for the last status other than OK/NIL, e.g. "Redis at 127.0.0.1:6379: connection refused",
 * "... timed out after 200 ms (waiting for a reply)", or the error reply's text. Never NULL ("" before
 * any failure). Valid until the next call on r. */
const char *tbl_redis_last_error(const tbl_redis_t *r);
/* 1 when a connection is open (the last call did not fail with EIO), 0 otherwise. No I/O. */
int tbl_redis_connected(const tbl_redis_t *r);

/*
 * Every command: connects when not connected (AUTH [user] pass, SELECT db when set), sends, waits at most
 * timeout_ms for the reply. A reply that does not have the expected shape is EIO (and disconnects). Any
 * command may also return EIO, EREPLY (the server refused it: AUTH failed, wrong type, OOM, ...) and
 * ENOMEM; only the other statuses are listed below.
 */
/* PING. cluster://: every master of the map (learnt first if need be), within one timeout_ms; the first
 * failure is the result. */
tbl_redis_status_t tbl_redis_ping(tbl_redis_t *r);
/* GET. NIL: missing (out->data NULL). */
tbl_redis_status_t tbl_redis_get(tbl_redis_t *r, const char *key, size_t klen, tbl_redis_buf_t *out);
/* GET and PTTL in one round trip: the value, and *pttl_ms its milliseconds left (-1: no expiry). NIL when
 * missing (also when it expired between the two). */
tbl_redis_status_t tbl_redis_get_pttl(tbl_redis_t *r, const char *key, size_t klen, tbl_redis_buf_t *out,
                                      int64_t *pttl_ms);
/* MGET; out[i].data NULL for a missing key. OK even when some are missing. On any other status every
 * out[i] is {NULL, 0}. n == 0: OK without I/O. */
tbl_redis_status_t tbl_redis_mget(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                  tbl_redis_buf_t *out);
/* MGET and a PTTL of each key in one round trip (pipelined; not atomic, like GET/PTTL): as tbl_redis_mget,
 * and pttls_ms[i] the milliseconds left of each key found (-1: no expiry, or missing). A key that expired
 * between its MGET and its PTTL is missing. */
tbl_redis_status_t tbl_redis_mget_pttl(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                       tbl_redis_buf_t *out, int64_t *pttls_ms);
/* SET key val [PX ttl_ms] [NX]. ttl_ms 0 = no expiry. NIL when only_if_absent and the key existed. */
tbl_redis_status_t tbl_redis_set(tbl_redis_t *r, const char *key, size_t klen, const void *val, size_t vlen,
                                 uint64_t ttl_ms, int only_if_absent);
/* All n SETs (same ttl_ms, 0 = none) atomically (MULTI/EXEC, pipelined: one round trip). n == 0: OK
 * without I/O. EREPLY when Redis refused one: a SET refused while queueing aborts the EXEC (none is
 * applied); one refused at EXEC time (a TTL out of range, which then fails every SET alike, or OOM) does
 * not undo the others, as Redis transactions never roll back.
 * cluster://: atomic PER SLOT only. The keys are grouped by slot and each group is one MULTI/EXEC on its
 * master, the groups one after another (in slot order); a failure stops there, and the groups before it
 * stay applied. Keys that share a {hash tag} share a slot, so they are set all or none. */
tbl_redis_status_t tbl_redis_set_many(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                      const void *const *vals, const size_t *vlens, uint64_t ttl_ms);
/* DEL of n keys in one command; *deleted = how many existed. n == 0: OK, 0, without I/O. cluster://: one
 * DEL per slot; on a failure *deleted counts the slots done before it. */
tbl_redis_status_t tbl_redis_del(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                 uint64_t *deleted);
/* EXISTS: OK exists, NIL not. */
tbl_redis_status_t tbl_redis_exists(tbl_redis_t *r, const char *key, size_t klen);
/* PTTL: *ms = milliseconds left, -1 when the key has no expiry; NIL when missing. */
tbl_redis_status_t tbl_redis_pttl(tbl_redis_t *r, const char *key, size_t klen, int64_t *ms);
/* PEXPIRE key ttl_ms, or PERSIST when ttl_ms == 0 (EXISTS and PERSIST pipelined, to tell a missing key
 * from one without expiry). NIL when missing. */
tbl_redis_status_t tbl_redis_expire(tbl_redis_t *r, const char *key, size_t klen, uint64_t ttl_ms);
/* Atomically (one Lua script, EVALSHA with EVAL fallback on NOSCRIPT): INCRBY key by; when the key did
 * not exist before, PEXPIRE it ttl_ms (0 = none); an existing key keeps its expiry. *result = new value.
 * ETYPE (not an integer, or not a string at all: WRONGTYPE) / EOVERFLOW leave the key unchanged. */
tbl_redis_status_t tbl_redis_incrby(tbl_redis_t *r, const char *key, size_t klen, int64_t by, uint64_t ttl_ms,
                                    int64_t *result);
/* Atomically (Lua): if the key's current bytes equal expect, SET it to val keeping its TTL (KEEPTTL) -> OK;
 * else NIL (also when missing). Needs Redis >= 6.0. */
tbl_redis_status_t tbl_redis_replace_if(tbl_redis_t *r, const char *key, size_t klen, const void *expect,
                                        size_t elen, const void *val, size_t vlen);
/* Atomically (Lua): if the key's current bytes equal expect, DEL it -> OK; else NIL (also when missing). */
tbl_redis_status_t tbl_redis_delete_if(tbl_redis_t *r, const char *key, size_t klen, const void *expect,
                                       size_t elen);
/*
 * Delete every key that starts with prefix (binary-safe: * ? [ ] \ are escaped in the MATCH pattern):
 * SCAN ... MATCH <prefix>* COUNT 1000, then UNLINK of each batch, until the cursor is 0. *deleted = count.
 * NOT atomic: keys written during the walk may survive it, and on EIO part of them is already gone
 * (*deleted says how many). Each SCAN and UNLINK gets its own timeout_ms. An empty prefix deletes every
 * key of the database.
 * cluster://: SCAN and UNLINK (one per key, pipelined) on every master of the map in turn; a key whose
 * slot is migrating during the walk may survive it.
 */
tbl_redis_status_t tbl_redis_del_prefix(tbl_redis_t *r, const char *prefix, size_t plen, uint64_t *deleted);

#endif
