/*
 * redis_tls.h - internal to redis/: TLS on a tbl_redis_conn_t (tls:// and sentinel+tls:// URLs), with
 * OpenSSL beside hiredis_ssl. Built with TLS only when TBL_HAVE_REDIS_TLS is defined (config.m4 and
 * redis/Makefile define it when pkg-config finds hiredis_ssl and openssl: hiredis >= 1.0 built with SSL,
 * Debian 13's libhiredis-dev); without it every function here is a stub and a TLS URL is refused with a
 * message saying why (tbl_redis_tls_unavailable).
 *
 * The handshake is this file's own (OpenSSL's SSL_connect on the non-blocking socket, waited on with
 * poll() up to the call's deadline); hiredis is handed the finished SSL object (redisInitiateSSL) for
 * its reads and writes. From then on the socket stays non-blocking and the context is not REDIS_BLOCK:
 * redis_conn.c polls before every read and write, so a TLS record that is not application data (a
 * session ticket) is a read of nothing, not an error or a wait.
 */
#ifndef TBL_REDIS_TLS_H
#define TBL_REDIS_TLS_H

#include <stddef.h>
#include <stdint.h>

#include "redis_client.h"

struct tbl_redis_conn;

/* NULL when this build can speak TLS; otherwise why not, one sentence naming hiredis's version. */
const char *tbl_redis_tls_unavailable(void);

/*
 * On a connection whose TCP connect just succeeded (c->ctx set, blocking): builds the SSL context from
 * c->url (cafile or the system's store, client cert and key, verify, sni), does the handshake before
 * deadline_ms, checks the certificate and the host name (unless verify=0), and hands the session to
 * hiredis. OK, or EIO with the connection closed and c->err naming what failed ("certificate verify
 * failed: ...", "cafile=...: ...", "timed out ... (TLS handshake)"). Never falls back to plaintext.
 */
tbl_redis_status_t tbl_redis_tls_start(struct tbl_redis_conn *c, uint64_t deadline_ms);

/* Decrypted bytes OpenSSL holds that no read has taken yet (0 without TLS). */
int tbl_redis_tls_pending(const struct tbl_redis_conn *c);

/* Empties this thread's OpenSSL error queue, which PHP's openssl extension reads too
 * (openssl_error_string()): a failed TLS read or write leaves entries there that are not its. */
void tbl_redis_tls_clear_errors(void);

/* tbl_redis_conn_closed_while_idle for a TLS connection (SSL_peek: a session ticket is not data). */
int tbl_redis_tls_closed_while_idle(const struct tbl_redis_conn *c);

#endif
