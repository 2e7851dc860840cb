/*
 * php_table_remember.c - remember(): compute a missing value at most once across all workers.
 *
 * A miss takes a claim on the key in the core (tbl_claim). The claimant calls $compute with no lock and
 * no read section held, stores the result and releases the claim on every path. Everyone else polls
 * (1 ms doubling to 10 ms) for the value, and after PHP_TABLE_REMEMBER_WAIT_MS computes it itself. A dead
 * claimant's claim is taken over by the core. Claims held by this request are listed in TABLE_G(claims)
 * so that RSHUTDOWN releases them when a fatal error bailed out of $compute.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <time.h>
#include <unistd.h>

#include "php.h"
#include "php_table_internal.h"
#include "core/platform.h"

static bool php_table_claim_held(tbl_ns_t ns, const zend_string *key)
{
	pid_t me = getpid();

	for (php_table_claim *c = TABLE_G(claims); c; c = c->next) {
		if (c->pid == me && c->ns == ns && zend_string_equals(c->key, (zend_string *)key)) {
			return true;
		}
	}
	return false;
}

static void php_table_claim_push(tbl_ns_t ns, zend_string *key)
{
	php_table_claim *c = emalloc(sizeof(*c));
	c->ns = ns;
	c->pid = getpid();
	c->key = zend_string_copy(key);
	c->next = TABLE_G(claims);
	TABLE_G(claims) = c;
}

/* Release one claim this request holds (the most recent with that key). */
static void php_table_claim_release(tbl_t *t, tbl_ns_t ns, zend_string *key)
{
	php_table_claim **pp = &TABLE_G(claims);

	tbl_claim_release(t, ns, ZSTR_VAL(key), ZSTR_LEN(key));
	for (; *pp; pp = &(*pp)->next) {
		php_table_claim *c = *pp;
		if (c->ns == ns && zend_string_equals(c->key, key)) {
			*pp = c->next;
			zend_string_release(c->key);
			efree(c);
			return;
		}
	}
}

/* Call $compute and store what it returns. SUCCESS with the value in return_value; FAILURE when
 * $compute threw or its value cannot be stored at all (a closure, a resource: nothing is stored then).
 * A value that merely does not fit (out of memory now, or larger than the table can ever hold) is still
 * the answer: it is returned uncached and counted in stats()['oom'], as apcu_entry() does. */
static zend_result php_table_compute(tbl_t *t, const zend_string *nsname, tbl_ns_t ns, zend_string *key,
                                     uint32_t ttl, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
                                     zval *return_value)
{
	zval rv;
	php_table_encoded enc;
	tbl_status_t st;

	ZVAL_UNDEF(&rv);
	fci->retval = &rv;   /* its params are the caller's: none for remember(), the key for apcu_entry() */
	fci->named_params = NULL;
	if (zend_call_function(fci, fcc) != SUCCESS || EG(exception) || Z_TYPE(rv) == IS_UNDEF) {
		zval_ptr_dtor(&rv);
		return FAILURE;
	}
	if (Z_ISREF(rv)) {
		zend_unwrap_reference(&rv);
	}
	if (php_table_encode(&rv, php_table_ser, PHP_TABLE_ARG_COMPUTED, php_table_encode_images && tbl_memory_short(t),
	                     &enc) != SUCCESS) {
		php_table_encoded_free(&enc);
		zval_ptr_dtor(&rv);
		return FAILURE;
	}
	if (UNEXPECTED(enc.size > UINT32_MAX)) {
		st = TBL_ETOOBIG;
	} else {
		st = php_table_store_encoded(t, ns, key, &rv, PHP_TABLE_ARG_COMPUTED, &enc, ttl, TBL_STORE_SET);
		/* $compute may have run long enough for its namespace to be emptied and recycled. */
		if (php_table_ns_refresh(t, nsname, st, &ns)) {
			st = php_table_store_encoded(t, ns, key, &rv, PHP_TABLE_ARG_COMPUTED, &enc, ttl, TBL_STORE_SET);
		}
	}
	php_table_encoded_free(&enc);
	/* It can never fit: the value is still the answer, like one that does not fit right now (ENOMEM,
	 * counted by the core). */
	if (st == TBL_ETOOBIG) {
		tbl_count_failed_store(t);
		st = TBL_OK;
	}
	if (st != TBL_OK && php_table_throw(t, st, key, enc.size)) {
		zval_ptr_dtor(&rv);
		return FAILURE;
	}
	ZVAL_COPY_VALUE(return_value, &rv);
	return SUCCESS;
}

void php_table_claims_release_all(tbl_t *t)
{
	while (TABLE_G(claims)) {
		php_table_claim *c = TABLE_G(claims);
		TABLE_G(claims) = c->next;
		tbl_claim_release(t, c->ns, ZSTR_VAL(c->key), ZSTR_LEN(c->key));
		zend_string_release(c->key);
		efree(c);
	}
}

PHP_METHOD(Shm_Table, remember)
{
	zend_string *key, *ns = NULL;
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_long expire = 0;
	bool expire_null = true;
	uint32_t ttl;
	tbl_t *t;

	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_STR(key)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(expire, expire_null)
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_key(key, 1) || !php_table_check_expire(expire, expire_null, 3, &ttl)
			|| !php_table_check_ns(ns, 4) || !(t = php_table_handle())) {
		RETURN_THROWS();
	}
#ifdef HAVE_TABLE_HIREDIS
	if (PHP_TABLE_TIERED(ns)) {
		if (php_table_tier_remember(t, ns, key, ttl, &fci, &fcc, return_value) < 0) {
			RETURN_THROWS();
		}
		return;
	}
#endif
	php_table_remember_key(t, ns, key, ttl, &fci, &fcc, return_value);
}

void php_table_remember_key(tbl_t *t, zend_string *ns, zend_string *key, uint32_t ttl, zend_fcall_info *fci,
                            zend_fcall_info_cache *fcc, zval *return_value)
{
	tbl_ns_t nsid;
	tbl_status_t st;
	uint64_t deadline = 0;
	long sleep_us = 1000;
	int r;

	if ((r = php_table_ns_read(t, ns, &nsid)) > 0) {
		r = php_table_fetch(t, nsid, key, return_value, NULL, 1);
	}
	if (r != 0) {
		if (r < 0) {
			RETURN_THROWS();
		}
		return;
	}

	if (!php_table_ns_write(t, ns, &nsid)) {
		RETURN_THROWS();
	}
	/* $compute asking for its own key would otherwise wait on itself for the whole bound. */
	if (php_table_claim_held(nsid, key)) {
		php_table_compute(t, ns, nsid, key, ttl, fci, fcc, return_value);
		return;
	}

	for (;;) {
		st = tbl_claim(t, nsid, ZSTR_VAL(key), ZSTR_LEN(key), PHP_TABLE_REMEMBER_WAIT_MS);
		if (st == TBL_OK) {
			php_table_claim_push(nsid, key);
			/* The previous computer may have stored it between our miss and our claim. */
			r = php_table_fetch(t, nsid, key, return_value, NULL, 0);
			if (r == 0) {
				php_table_compute(t, ns, nsid, key, ttl, fci, fcc, return_value);
			}
			php_table_claim_release(t, nsid, key);
			return;
		}
		if (st != TBL_EBUSY) {
			php_table_throw(t, st, key, 0);
			RETURN_THROWS();
		}
		/* Someone else is computing: poll with a short backoff, within the bound. */
		uint64_t now = tbl_clock_monotonic_ms();
		if (!deadline) {
			deadline = now + PHP_TABLE_REMEMBER_WAIT_MS;
		} else if (now >= deadline) {
			break;
		}
		struct timespec ts = { 0, sleep_us * 1000 };
		nanosleep(&ts, NULL);   /* EINTR only shortens one wait */
		if (sleep_us < 10000) {
			sleep_us *= 2;
		}
		if ((r = php_table_fetch(t, nsid, key, return_value, NULL, 0)) != 0) {
			if (r < 0) {
				RETURN_THROWS();
			}
			return;
		}
	}
	/* The other worker did not deliver in time: compute it ourselves. */
	php_table_compute(t, ns, nsid, key, ttl, fci, fcc, return_value);
}
