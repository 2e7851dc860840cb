/*
 * redis_client_internal.h - internal to redis/: what redis_client.c (the commands, on one server or one
 * slot's master) and redis_client_cluster.c (their cluster:// side: routing by slot, splitting multi-key
 * calls, every master) share. Not part of the API the binding uses (that is redis_client.h).
 *
 * The *_slot functions are the commands as one server runs them; with cluster:// their keys must share a
 * slot, and they reach its master through tbl_redis_run_on's caller, run_keyed (redis_client.c), which
 * sends them through tbl_redis_cl_run_slot.
 */
#ifndef TBL_REDIS_CLIENT_INTERNAL_H
#define TBL_REDIS_CLIENT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <hiredis/hiredis.h>

#include "redis_client.h"
#include "redis_cluster.h"
#include "redis_conn.h"

struct tbl_redis {
	tbl_redis_conn_t conn;          /* one server; with cluster:// only its where/err, for the cluster's failures */
	tbl_redis_cluster_t *cluster;   /* cluster://, NULL otherwise */
	tbl_redis_conn_t *cur;          /* the connection of the last command: its err is last_error */
	uint64_t deadline;              /* cluster://: the deadline of the call under way, 0 between calls */
};

/* One command of a pipeline: argc arguments with their lengths (NULL: NUL-terminated arguments). */
typedef struct tbl_redis_cmd {
	int argc;
	const char **argv;
	const size_t *lens;
} tbl_redis_cmd_t;

/* ---- redis_client.c ---- */

/* Frees replies[0..n) (NULL ones skipped) and sets them to NULL. */
void tbl_redis_free_replies(size_t n, redisReply **replies);
/* n commands on c, their n replies into replies[] (all NULL on failure), before deadline (0: now +
 * timeout_ms); asking: ASKING before them as ASK needs it (redis_client.c: asking_before). Sets r->cur. */
tbl_redis_status_t tbl_redis_run_on(tbl_redis_t *r, tbl_redis_conn_t *c, uint64_t deadline, int asking, size_t n,
                                    const tbl_redis_cmd_t *cmds, redisReply **replies);
/* A reply of the wrong type: r->cur closed, EIO (the reply, if any, freed). */
tbl_redis_status_t tbl_redis_unexpected(tbl_redis_t *r, const char *command, redisReply *reply);
tbl_redis_status_t tbl_redis_ping_on(tbl_redis_t *r, tbl_redis_conn_t *c, uint64_t deadline);
/* MGET (and a PTTL of each key when pttls) of keys of one slot; as tbl_redis_mget_pttl. */
tbl_redis_status_t tbl_redis_mget_slot(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                       tbl_redis_buf_t *out, int64_t *pttls);
/* The commands of such an MGET: argv/lens hold n + 1 + (with_pttl ? 2n : 0), cmds 1 + (with_pttl ? n : 0). */
void tbl_redis_mget_commands(size_t n, const char *const *keys, const size_t *klens, int with_pttl, const char **argv,
                             size_t *lens, tbl_redis_cmd_t *cmds);
/* Its replies into out/pttls (which start {NULL, 0} / -1); the replies are freed. */
tbl_redis_status_t tbl_redis_mget_replies(tbl_redis_t *r, size_t n, redisReply **replies, tbl_redis_buf_t *out,
                                          int64_t *pttls);
tbl_redis_status_t tbl_redis_set_many_slot(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                           const void *const *vals, const size_t *vlens, uint64_t ttl_ms);
tbl_redis_status_t tbl_redis_del_slot(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                      uint64_t *deleted);
/* SCAN MATCH pattern and UNLINK until the cursor is 0: on the one server (c NULL) or on master c. */
tbl_redis_status_t tbl_redis_del_prefix_on(tbl_redis_t *r, tbl_redis_conn_t *c, const char *pattern,
                                           size_t pattern_len, uint64_t *deleted);

/* ---- redis_client_cluster.c (r->cluster set) ---- */

/* n commands about slot `slot` to its master, MOVED/ASK followed (the map learnt first when unknown). */
tbl_redis_status_t tbl_redis_cl_run_slot(tbl_redis_t *r, unsigned slot, size_t n, const tbl_redis_cmd_t *cmds,
                                         redisReply **replies);
tbl_redis_status_t tbl_redis_cl_mget(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                     tbl_redis_buf_t *out, int64_t *pttls);
tbl_redis_status_t tbl_redis_cl_set_many(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                         const void *const *vals, const size_t *vlens, uint64_t ttl_ms);
tbl_redis_status_t tbl_redis_cl_del(tbl_redis_t *r, size_t n, const char *const *keys, const size_t *klens,
                                    uint64_t *deleted);
tbl_redis_status_t tbl_redis_cl_ping(tbl_redis_t *r);
tbl_redis_status_t tbl_redis_cl_del_prefix(tbl_redis_t *r, const char *pattern, size_t pattern_len,
                                           uint64_t *deleted);
/* UNLINK of each key of one SCAN batch of master c (pipelined, one command per key). */
tbl_redis_status_t tbl_redis_cl_unlink_each(tbl_redis_t *r, tbl_redis_conn_t *c, const redisReply *keys,
                                            uint64_t *deleted);

#endif
