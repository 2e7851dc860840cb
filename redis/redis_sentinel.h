/*
 * redis_sentinel.h - finding the master of a sentinel:// URL (redis_url.h) by asking its Sentinels.
 *
 * A client or tracker connection of a sentinel:// URL asks the Sentinels whenever it connects
 * (redis_conn.h: tbl_redis_conn_open), so every reconnect (after an error, a timeout, a -READONLY reply,
 * a server that answers ROLE as a replica) follows a failover. This header is for the one other caller:
 * the helper, which asks now and then whether the master it tracks is still the one the Sentinels name
 * (an old master cut off from the Sentinels but not from us keeps its connections open).
 *
 * Zend-free, no allocation, never prints.
 */
#ifndef TBL_REDIS_SENTINEL_H
#define TBL_REDIS_SENTINEL_H

#include <stddef.h>
#include <stdint.h>

#include "redis_client.h"
#include "redis_url.h"

/*
 * Asks url's Sentinels in turn, starting with the first, `SENTINEL get-master-addr-by-name <master>`
 * (after AUTH sentinel_auth when set), until one names the master: OK with its address in host (hostcap
 * bytes) and *port. Each Sentinel gets a share of what is left before deadline_ms (CLOCK_MONOTONIC ms:
 * tbl_redis_monotonic_ms), so one that hangs cannot use up the others' time. EIO (no Sentinel answered
 * with an address; the reasons in err, errlen bytes) or ENOMEM. *answered (may be NULL) is the index of
 * the Sentinel that answered.
 */
tbl_redis_status_t tbl_redis_sentinel_master(const tbl_redis_url_t *url, unsigned timeout_ms, uint64_t deadline_ms,
                                             int first, char *host, size_t hostcap, int *port, int *answered,
                                             char *err, size_t errlen);

#endif
