/*
 * tier_helper.h - the process that keeps a table's tiered namespaces fresh: it listens to Redis's
 * invalidations and applies them to the table (core/tier.c), publishing how fresh the L1 is.
 *
 * One per table. Any process that finds the L1 not fresh calls tbl_tier_helper_ensure(); the first to
 * take the helper's place (tbl_tier_helper_claim) starts one. The helper runs detached from whoever
 * started it (a php-fpm worker may be recycled, a CLI may exit) and exits once no other process uses
 * the table, or when another helper took its place.
 *
 * Zend-free: it is forked from a PHP process but never runs PHP code.
 */
#ifndef TBL_TIER_HELPER_H
#define TBL_TIER_HELPER_H

#include "core/table_core.h"
#include "tier_config.h"

/* Start the helper unless a live one holds the place (or another process is starting one). 1: this call
 * started it; 0: not needed; -1: fork failed (errno). The helper is a grandchild of the caller, which
 * only waits for the short-lived child between them. */
int tbl_tier_helper_ensure(tbl_t *t, const tbl_tier_config_t *cfg);

/* In a process forked to live apart from the PHP process that started it (the helper; under ZTS the
 * launcher, binding/php_table_tier_launcher.c): a session of its own, no descriptor of the parent's but
 * `keep` (-1: none) with 0, 1 and 2 on /dev/null, every signal's default action but SIGPIPE's (ignored),
 * none blocked. */
void tbl_tier_detach_process(int keep);

/* The helper's loop, in the process that is to be the helper (tbl_tier_helper_ensure's grandchild;
 * tests may call it in a child of their own). Returns when the helper should exit. */
void tbl_tier_helper_run(tbl_t *t, const tbl_tier_config_t *cfg);

#endif
