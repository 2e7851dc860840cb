/*
 * redis_scripts.h - internal to redis/: the Lua scripts behind the atomic commands of redis_client.c,
 * with their SHA1 digests for EVALSHA (the client falls back to EVAL on NOSCRIPT, which also loads them).
 *
 * The digests are the SHA1 of the exact bytes of each script. After editing a script, recompute its
 * digest (printf '%s' "<script>" | sha1sum, or SCRIPT LOAD): test_redis.c checks each one against the
 * server's SCRIPT LOAD answer, so a stale digest fails the tests instead of costing an EVAL per call.
 *
 * incrby: KEYS[1] key, ARGV[1] increment, ARGV[2] ttl in ms ("0" = none), applied only when the key did
 *         not exist. INCRBY's own error (not an integer, overflow, wrong type) aborts the script before
 *         anything is written.
 * replace_if: KEYS[1] key, ARGV[1] expected bytes, ARGV[2] new bytes; 1 replaced (TTL kept), 0 not.
 *         GET of a missing key is false in Lua, never equal to a string.
 * delete_if: KEYS[1] key, ARGV[1] expected bytes; 1 deleted, 0 not.
 */
#ifndef TBL_REDIS_SCRIPTS_H
#define TBL_REDIS_SCRIPTS_H

#define TBL_REDIS_SCRIPT_INCRBY \
	"local existed = redis.call('EXISTS', KEYS[1])\n" \
	"local value = redis.call('INCRBY', KEYS[1], ARGV[1])\n" \
	"if existed == 0 and ARGV[2] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end\n" \
	"return value\n"
#define TBL_REDIS_SCRIPT_INCRBY_SHA1 "2df2796a1c7138dfc5ec6db63cd1aa6888229447"

#define TBL_REDIS_SCRIPT_REPLACE_IF \
	"if redis.call('GET', KEYS[1]) == ARGV[1] then\n" \
	"  redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')\n" \
	"  return 1\n" \
	"end\n" \
	"return 0\n"
#define TBL_REDIS_SCRIPT_REPLACE_IF_SHA1 "fe381299b446fef3c42c36cb3820325ac299f2f7"

#define TBL_REDIS_SCRIPT_DELETE_IF \
	"if redis.call('GET', KEYS[1]) == ARGV[1] then\n" \
	"  redis.call('DEL', KEYS[1])\n" \
	"  return 1\n" \
	"end\n" \
	"return 0\n"
#define TBL_REDIS_SCRIPT_DELETE_IF_SHA1 "7eeb9eb3b72e6836db4af01eacca253a701fa6ed"

#endif
