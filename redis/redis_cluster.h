/*
 * redis_cluster.h - internal to redis/: a Redis Cluster's topology and the routing of a key to its master
 * (issue #37), for a cluster:// URL (redis_url.h). Used by redis_client.c (every command goes to its key's
 * master) and redis_tracker.c (tracking on every master). Not part of the API the binding uses.
 *
 * Slots: a key belongs to slot CRC16(key) mod 16384 (CRC16-CCITT/XMODEM, as Redis's cluster spec), where
 * only the part between the first '{' and the first '}' after it is hashed when that part is not empty
 * (a hash tag: "{user1000}.following" and "{user1000}.followers" share a slot).
 *
 * The map: which master serves each slot, learnt with CLUSTER SLOTS from any node that answers (the
 * masters already known first, then the URL's seeds). Replicas are not used. A node is one
 * tbl_redis_conn_t (the URL's user, auth and TLS settings, its own host and port), opened lazily. Nodes
 * are never freed while the cluster lives (a node that leaves the map has its connection closed and its
 * entry reused for the next new address), so a tbl_redis_conn_t pointer handed out stays valid.
 *
 * Every byte of a node's reply is untrusted: a slot range out of 0..16383 or reversed, a port out of
 * 1..65535, a host with odd bytes, an entry of the wrong shape or too many masters make the whole reply
 * refused (EIO, with a message), never a partial map.
 *
 * Zend-free, not thread-safe (one owner, like tbl_redis_t), never prints.
 */
#ifndef TBL_REDIS_CLUSTER_H
#define TBL_REDIS_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "redis_client.h"
#include "redis_conn.h"
#include "redis_url.h"

#define TBL_REDIS_CLUSTER_SLOTS 16384u
#define TBL_REDIS_CLUSTER_NODES_MAX 256     /* masters (and seeds) known at once */
#define TBL_REDIS_CLUSTER_REDIRECTS_MAX 5   /* MOVED/ASK followed for one command before giving up (EIO) */

typedef struct tbl_redis_cluster tbl_redis_cluster_t;

/* CRC16-CCITT (XMODEM: polynomial 0x1021, initial 0): "123456789" -> 0x31C3. */
uint16_t tbl_redis_cluster_crc16(const void *buf, size_t len);
/* The slot of a key (hash tags as above): 0..16383. */
unsigned tbl_redis_cluster_key_slot(const char *key, size_t klen);

/* No I/O. NULL only when out of memory. url must be a cluster:// one; it is copied. */
tbl_redis_cluster_t *tbl_redis_cluster_new(const tbl_redis_url_t *url, unsigned timeout_ms);
/* Closes every connection (nothing is written) and frees cl. NULL is fine. */
void tbl_redis_cluster_free(tbl_redis_cluster_t *cl);
/* Closes every connection without writing (after fork(), in the child) and forgets the map. */
void tbl_redis_cluster_forget(tbl_redis_cluster_t *cl);
/* fn(ctx) when a node's connection is opened after an earlier one of that node (redis_client.h's). */
void tbl_redis_cluster_on_reconnect(tbl_redis_cluster_t *cl, void (*fn)(void *ctx), void *ctx);

/*
 * Learns the map anew: CLUSTER SLOTS of the known masters' nodes in turn, then of each seed, until one
 * answers with a valid map that covers at least one slot, all before deadline_ms (each node tried gets a
 * share of what is left). OK, or EIO / EREPLY / ENOMEM with the reasons in err (errlen bytes; the map is
 * then empty, so the next call discovers again).
 */
tbl_redis_status_t tbl_redis_cluster_discover(tbl_redis_cluster_t *cl, uint64_t deadline_ms, char *err,
                                              size_t errlen);
/* Whether a map is known (discover succeeded and nothing forgot it since). */
int tbl_redis_cluster_has_map(const tbl_redis_cluster_t *cl);
/* Forget the map: the next call discovers again (after a connection error, TRYAGAIN, CLUSTERDOWN). */
void tbl_redis_cluster_forget_map(tbl_redis_cluster_t *cl);

/* The connection of slot's master, NULL when the map has none for it (no map, or a slot no one serves). */
tbl_redis_conn_t *tbl_redis_cluster_slot_conn(tbl_redis_cluster_t *cl, unsigned slot);
/* The masters of the map, in the order of their first slot: up to max into out; returns how many. */
int tbl_redis_cluster_masters(tbl_redis_cluster_t *cl, tbl_redis_conn_t **out, int max);
/* "h1:p1,h2:p2,..." of the map's masters, sorted (cut to cap), and a hash of the whole map (which master
 * serves which slot): two maps with the same hash are the same topology. */
uint64_t tbl_redis_cluster_describe(const tbl_redis_cluster_t *cl, char *buf, size_t cap);

/*
 * A redirection in an error reply: 1 for "MOVED <slot> <host>:<port>", 2 for "ASK <slot> <host>:<port>"
 * (host in hostcap bytes, IPv6 without brackets), 0 for any other text, -1 when it starts with MOVED or
 * ASK but the rest is malformed (a bad slot or port: refused, never followed).
 */
int tbl_redis_cluster_parse_redirect(const char *s, size_t len, unsigned *slot, char *host, size_t hostcap,
                                     int *port);
/* The node at host:port (added, not connected, when new). NULL when the node table is full. */
tbl_redis_conn_t *tbl_redis_cluster_node(tbl_redis_cluster_t *cl, const char *host, int port);
/* After MOVED: slot is served by conn's node from now on (when conn is one of the map's masters; otherwise
 * the map is forgotten, so that the next call learns the new master's place in it). */
void tbl_redis_cluster_moved(tbl_redis_cluster_t *cl, unsigned slot, tbl_redis_conn_t *conn);

#endif
