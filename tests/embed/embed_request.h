/*
 * tests/embed/embed_request.h - running PHP code in a request of the embed SAPI, for the C programs that
 * drive a thread-safe PHP from threads of their own: tests/embed/threads.c (the threaded harness) and
 * benchmarks/threads/bench.c (the thread benchmark). Header-only (static functions): each program is one
 * translation unit linked against libphp.so.
 *
 * The calling thread must have its TSRM state (ts_resource(0)), and php_embed_init() must have run.
 */
#ifndef TABLE_EMBED_REQUEST_H
#define TABLE_EMBED_REQUEST_H

#include <stdio.h>
#include <string.h>
#include <sapi/embed/php_embed.h>

#ifndef ZTS
# error "needs a thread-safe PHP (scripts/build-zts-php.sh)"
#endif

/* Evaluate `code` (an expression) in the current request; its string result into out. 1 when the result
 * was a string; a fatal error (a bailout) is caught and said in out. */
static int embed_eval_string(const char *code, char *out, size_t outlen)
{
	zval rv;
	volatile int ok = 0;   /* set inside zend_try: kept across its longjmp */

	ZVAL_UNDEF(&rv);
	snprintf(out, outlen, "(no result)");
	zend_try {
		if (zend_eval_stringl((char *)code, strlen(code), &rv, "embed") == SUCCESS
		    && Z_TYPE(rv) == IS_STRING) {
			snprintf(out, outlen, "%s", Z_STRVAL(rv));
			ok = 1;
		}
	} zend_catch {
		snprintf(out, outlen, "(bailout: a fatal error)");
	} zend_end_try();
	zval_ptr_dtor(&rv);
	return ok;
}

/* Start a request with no headers to send. 0 (and why, in out) when it did not start. */
static int embed_request_start(char *out, size_t outlen)
{
	if (php_request_startup() == FAILURE) {
		snprintf(out, outlen, "php_request_startup() failed");
		return 0;
	}
	SG(headers_sent) = 1;
	SG(request_info).no_headers = 1;
	return 1;
}

/* One request: start it, run `code`, end it. 1 when the code returned "ok...". */
static int embed_request(const char *code, char *out, size_t outlen)
{
	int ok;

	if (!embed_request_start(out, outlen)) {
		return 0;
	}
	ok = embed_eval_string(code, out, outlen) && strncmp(out, "ok", 2) == 0;
	php_request_shutdown(NULL);
	return ok;
}

#endif
