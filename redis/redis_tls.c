/*
 * redis_tls.c - TLS for tls:// and sentinel+tls:// connections (see redis_tls.h for the shape).
 *
 * Why the handshake is driven here rather than by hiredis: redisInitiateSSL on a blocking context runs
 * SSL_connect in blocking reads and writes, each bounded only by SO_RCVTIMEO/SO_SNDTIMEO, so a server
 * that answers a byte at a time could hold it for many times table.redis_timeout. Instead the context is
 * made non-blocking (REDIS_BLOCK cleared, O_NONBLOCK on the socket) before the SSL object is handed to
 * hiredis, which then only sends the ClientHello and returns; the rest of the handshake is SSL_connect
 * called again here whenever poll() says the socket is ready, with what is left of the call's deadline.
 *
 * Verification (unless verify=0): the peer's chain against cafile= (or OpenSSL's default store: the
 * system's CAs), and the name: the host connected to, or sni=, as a DNS name or an IP address
 * (SSL_set1_host / X509_VERIFY_PARAM_set1_ip_asc). A failure is reported as "certificate verify failed:"
 * followed by OpenSSL's reason for the chain or the name. The SSL context is built on every connect (a
 * rare event: a process's first call, or a lost connection), so a replaced cafile is picked up by the
 * next connection without a restart.
 */
#include "redis_tls.h"

#include "redis_conn.h"

#include <stdio.h>

#ifdef TBL_HAVE_REDIS_TLS

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <arpa/inet.h>

#include <hiredis/hiredis_ssl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

const char *tbl_redis_tls_unavailable(void)
{
	return NULL;
}

/* OpenSSL's reason for the last error of this thread, or `fallback`. */
static const char *ssl_reason(const char *fallback)
{
	unsigned long e = ERR_peek_last_error();
	const char *r = e ? ERR_reason_error_string(e) : NULL;
	return r ? r : fallback;
}

/* A path given in the URL, readable by this process: 0, or -1 with the reason in c (closed). */
static int check_readable(tbl_redis_conn_t *c, const char *what, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		tbl_redis_conn_fail(c, "TLS: %s=%s cannot be read: %s", what, path, strerror(errno));
		return -1;
	}
	fclose(f);
	return 0;
}

/* The SSL context for c->url: NULL with c->err set (closed) when a file is missing or not usable. */
static SSL_CTX *build_ctx(tbl_redis_conn_t *c)
{
	const tbl_redis_url_t *u = &c->url;
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	if (!ctx) {
		tbl_redis_conn_fail(c, "TLS: cannot create an SSL context: %s", ssl_reason("out of memory"));
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	if (u->tls_verify) {
		SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
		if (u->tls_cafile[0]) {
			if (check_readable(c, "cafile", u->tls_cafile) != 0) goto fail;
			if (SSL_CTX_load_verify_locations(ctx, u->tls_cafile, NULL) != 1) {
				tbl_redis_conn_fail(c, "TLS: cafile=%s holds no usable CA certificate (PEM): %s", u->tls_cafile,
				                    ssl_reason("unknown error"));
				goto fail;
			}
		} else if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
			tbl_redis_conn_fail(c, "TLS: the system's CA store cannot be loaded: %s", ssl_reason("unknown error"));
			goto fail;
		}
	} else {
		SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	}
	if (u->tls_cert[0]) {
		if (check_readable(c, "cert", u->tls_cert) != 0 || check_readable(c, "key", u->tls_key) != 0) goto fail;
		if (SSL_CTX_use_certificate_chain_file(ctx, u->tls_cert) != 1) {
			tbl_redis_conn_fail(c, "TLS: cert=%s is not a usable certificate (PEM): %s", u->tls_cert,
			                    ssl_reason("unknown error"));
			goto fail;
		}
		if (SSL_CTX_use_PrivateKey_file(ctx, u->tls_key, SSL_FILETYPE_PEM) != 1
		    || SSL_CTX_check_private_key(ctx) != 1) {
			tbl_redis_conn_fail(c, "TLS: key=%s is not the private key of cert= (PEM, unencrypted): %s", u->tls_key,
			                    ssl_reason("unknown error"));
			goto fail;
		}
	}
	return ctx;
fail:
	ERR_clear_error();
	SSL_CTX_free(ctx);
	return NULL;
}

static int is_ip_address(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];
	return inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
}

/* Why the handshake failed, into c->err (closed); EIO. */
static tbl_redis_status_t handshake_failed(tbl_redis_conn_t *c, SSL *ssl, int ssl_err, int saved_errno,
                                           const char *name)
{
	long vr = SSL_get_verify_result(ssl);
	tbl_redis_status_t st;
	if (c->url.tls_verify && vr != X509_V_OK) {
		const char *hint = "";
		char buf[1200];
		if (vr == X509_V_ERR_HOSTNAME_MISMATCH || vr == X509_V_ERR_IP_ADDRESS_MISMATCH) {
			snprintf(buf, sizeof(buf), " (the certificate is not for %s%s)", name,
			         c->url.tls_sni[0] ? ", the sni= given" : "; sni= names another");
			hint = buf;
		} else if (vr == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY || vr == X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN
		           || vr == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT || vr == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT
		           || vr == X509_V_ERR_CERT_SIGNATURE_FAILURE) {
			if (c->url.tls_cafile[0]) {
				snprintf(buf, sizeof(buf), " (the server's certificate is not signed by a CA in cafile=%s)",
				         c->url.tls_cafile);
			} else {
				snprintf(buf, sizeof(buf), " (the server's certificate is not signed by a CA of the system's "
				         "store; give its CA with cafile=)");
			}
			hint = buf;
		}
		st = tbl_redis_conn_fail(c, "TLS handshake failed: certificate verify failed: %s%s",
		                         X509_verify_cert_error_string(vr), hint);
	} else if (ssl_err == SSL_ERROR_SYSCALL && ERR_peek_last_error() == 0) {
		st = tbl_redis_conn_fail(c, "TLS handshake failed: %s (is it a TLS port?)",
		                         saved_errno ? strerror(saved_errno) : "the server closed the connection");
	} else {
		/* What a plaintext server's answer looks like to a TLS client: say what it probably is. */
		int reason = ERR_GET_REASON(ERR_peek_last_error());
		int plaintext = reason == SSL_R_WRONG_VERSION_NUMBER || reason == SSL_R_PACKET_LENGTH_TOO_LONG
#ifdef SSL_R_UNEXPECTED_EOF_WHILE_READING
		                || reason == SSL_R_UNEXPECTED_EOF_WHILE_READING
#endif
		                || reason == SSL_R_RECORD_LENGTH_MISMATCH;
		st = tbl_redis_conn_fail(c, "TLS handshake failed: %s%s", ssl_reason("unknown error"),
		                         plaintext ? " (is it a TLS port?)" : "");
	}
	ERR_clear_error();
	return st;
}

tbl_redis_status_t tbl_redis_tls_start(tbl_redis_conn_t *c, uint64_t deadline_ms)
{
	const char *name = c->url.tls_sni[0] ? c->url.tls_sni : c->url.host;
	SSL_CTX *ctx = build_ctx(c);
	if (!ctx) return TBL_REDIS_EIO;
	ERR_clear_error();
	SSL *ssl = SSL_new(ctx);
	SSL_CTX_free(ctx);   /* the SSL object holds its own reference */
	if (!ssl) {
		tbl_redis_status_t st = tbl_redis_conn_fail(c, "TLS: cannot create an SSL object: %s", ssl_reason("out of memory"));
		ERR_clear_error();
		return st;
	}
	int ip = is_ip_address(name);
	int ok = ip ? 1 : SSL_set_tlsext_host_name(ssl, name);
	if (ok && c->url.tls_verify) {
		ok = ip ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) : SSL_set1_host(ssl, name);
	}
	if (!ok) {
		SSL_free(ssl);
		ERR_clear_error();
		return tbl_redis_conn_fail(c, "TLS: %s cannot be used as the server's name", name);
	}

	/* Non-blocking from here on (see the top of this file). */
	int fd = c->ctx->fd, flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		SSL_free(ssl);
		return tbl_redis_conn_fail(c, "TLS: fcntl(O_NONBLOCK): %s", strerror(errno));
	}
	c->ctx->flags &= ~REDIS_BLOCK;
	errno = 0;
	if (redisInitiateSSL(c->ctx, ssl) != REDIS_OK) {
		/* hiredis's SSL_connect failed at once (the server answered that fast): the same messages as
		 * below. The SSL object was not taken over: still ours to free. */
		int e = errno;
		tbl_redis_status_t st = handshake_failed(c, ssl, e ? SSL_ERROR_SYSCALL : SSL_ERROR_SSL, e, name);
		SSL_free(ssl);
		return st;
	}
	c->tls = ssl;   /* hiredis's now: freed with the context */

	for (;;) {
		ERR_clear_error();
		errno = 0;
		int rv = SSL_connect(ssl);
		if (rv == 1) break;
		int saved_errno = errno;
		int e = SSL_get_error(ssl, rv);
		if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) {
			return handshake_failed(c, ssl, e, saved_errno, name);
		}
		uint64_t now = tbl_redis_now_ms();
		if (now >= deadline_ms) {
			return tbl_redis_conn_fail(c, "timed out after %u ms (TLS handshake)", c->timeout_ms);
		}
		struct pollfd pfd = { .fd = fd, .events = e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT };
		if (poll(&pfd, 1, (int)(deadline_ms - now)) < 0 && errno != EINTR) {
			return tbl_redis_conn_fail(c, "poll: %s", strerror(errno));
		}
	}
	ERR_clear_error();
	return TBL_REDIS_OK;
}

void tbl_redis_tls_clear_errors(void)
{
	ERR_clear_error();
}

int tbl_redis_tls_pending(const tbl_redis_conn_t *c)
{
	return c->tls ? SSL_pending((SSL *)c->tls) : 0;
}

int tbl_redis_tls_closed_while_idle(const tbl_redis_conn_t *c)
{
	char byte;
	ERR_clear_error();
	int n = SSL_peek((SSL *)c->tls, &byte, 1);
	if (n > 0) return 1;   /* bytes no command asked for */
	int e = SSL_get_error((SSL *)c->tls, n);
	ERR_clear_error();
	/* WANT_READ: nothing but TLS's own records (session tickets), or nothing at all: quiet. */
	return e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE;
}

#else /* !TBL_HAVE_REDIS_TLS */

const char *tbl_redis_tls_unavailable(void)
{
#define TBL_STR2(x) #x
#define TBL_STR(x) TBL_STR2(x)
	return "tls:// needs table built with hiredis_ssl (hiredis >= 1.0 with SSL, and OpenSSL's headers: Debian 13's "
	       "libhiredis-dev and libssl-dev); this build has hiredis " TBL_STR(HIREDIS_MAJOR) "." TBL_STR(HIREDIS_MINOR) "." TBL_STR(HIREDIS_PATCH) " without it";
#undef TBL_STR
#undef TBL_STR2
}

tbl_redis_status_t tbl_redis_tls_start(tbl_redis_conn_t *c, uint64_t deadline_ms)
{
	(void)deadline_ms;
	return tbl_redis_conn_fail(c, "%s", tbl_redis_tls_unavailable());
}

void tbl_redis_tls_clear_errors(void)
{
}

int tbl_redis_tls_pending(const tbl_redis_conn_t *c)
{
	(void)c;
	return 0;
}

int tbl_redis_tls_closed_while_idle(const tbl_redis_conn_t *c)
{
	(void)c;
	return 1;
}

#endif
