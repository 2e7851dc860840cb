/*
 * test_hash.c - the key hash and what depends on it.
 *
 * SipHash against the reference vectors, the key hash keyed per segment and per namespace, and the
 * flooding attack of issue 10: thousands of 16-byte keys crafted to share one hash under the previous
 * seedless hash (tbl_hash_fast) must neither share one chain nor share one remember() claim.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"
#include "hash.h"
#include "proc.h"
#include "segment.h"
#include "table_fixture.h"

/* The previous, seedless key hash (multiply-xorshift), kept here only to craft keys that collide under it. */

#define TBL_HASH_M1 0x9E3779B97F4A7C15ull
#define TBL_HASH_M2 0xC2B2AE3D27D4EB4Full

static uint64_t tbl_hash_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDull;
	h ^= h >> 33;
	h *= 0xC4CEB9FE1A85EC53ull;
	h ^= h >> 33;
	return h;
}

static uint64_t tbl_hash_fast(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = (const unsigned char *)data;
	uint64_t h = (seed + TBL_HASH_M1) ^ ((uint64_t)len * TBL_HASH_M2);
	uint64_t w;

	while (len > 8) {
		memcpy(&w, p, 8);
		h = (h ^ (w * TBL_HASH_M2)) * TBL_HASH_M1;
		h ^= h >> 29;
		p += 8;
		len -= 8;
	}
	if (len == 8) {
		memcpy(&w, p, 8);
	} else if (len >= 4) {
		uint32_t a, z;
		memcpy(&a, p, 4);
		memcpy(&z, p + len - 4, 4);
		w = ((uint64_t)a << 32) | z;
	} else if (len) {
		w = ((uint64_t)p[0] << 16) | ((uint64_t)p[len >> 1] << 8) | p[len - 1];
	} else {
		w = 0;
	}
	h = (h ^ (w * TBL_HASH_M2)) * TBL_HASH_M1;
	return tbl_hash_mix(h);
}


#define MB (1024u * 1024u)

/* SipHash-2-4 with key 00 01 .. 0f of the messages 00 01 .. (len - 1), from the SipHash reference. */
static const uint64_t sip24_vectors[16] = {
	0x726fdb47dd0e0e31ull, 0x74f839c593dc67fdull, 0x0d6c8009d9a94f5aull, 0x85676696d7fb7e2dull,
	0xcf2794e0277187b7ull, 0x18765564cd99a68dull, 0xcbc9466e58fee3ceull, 0xab0200f58b01d137ull,
	0x93f5f5799a932462ull, 0x9e0082df0ba9e4b0ull, 0x7a5dbbc594ddb9f3ull, 0xf4b32f46226bada7ull,
	0x751e8fbc860ee5fbull, 0x14ea5627c0843d90ull, 0xf723ca908e7af2eeull, 0xa129ca6149be45e5ull,
};

TBL_TEST(test_siphash_reference_vectors)
{
	unsigned char msg[16];
	uint64_t k0 = 0x0706050403020100ull, k1 = 0x0f0e0d0c0b0a0908ull;
	unsigned i;

	for (i = 0; i < 16; i++) {
		msg[i] = (unsigned char)i;
	}
	/* Every tail length 0..7, with and without a full word before it: the same code as SipHash-1-3,
	 * which differs only in its round counts. */
	for (i = 0; i < 16; i++) {
		CHECK_EQ_U64(tbl_siphash(msg, i, k0, k1, 2, 4), sip24_vectors[i]);
	}
	/* SipHash-1-3 of the empty message under the all-zero key (the reference's 1-3 variant). */
	CHECK_EQ_U64(tbl_siphash("", 0, 0, 0, 1, 3), 0xd1fba762150c532cull);
}

TBL_TEST(test_key_hash_depends_on_segment_key_and_namespace)
{
	tbl_hash_key_t a = { 1, 2 }, b = { 1, 3 };

	CHECK(tbl_hash_key(&a, "abc", 3, 0) == tbl_hash_key(&a, "abc", 3, 0));
	CHECK(tbl_hash_key(&a, "abc", 3, 0) != tbl_hash_key(&b, "abc", 3, 0));
	CHECK(tbl_hash_key(&a, "abc", 3, 0) != tbl_hash_key(&a, "abc", 3, 1));
	CHECK(tbl_hash_key(&a, "abc", 3, 0) != tbl_hash_key(&a, "abd", 3, 0));
	CHECK(tbl_hash_key(&a, "a\0", 2, 0) != tbl_hash_key(&a, "a", 1, 0));
}

TBL_TEST(test_two_segments_get_different_keys)
{
	tbl_t *t1 = fixture_open(1 * MB, TBL_POLICY_NOEVICTION), *t2 = fixture_open(1 * MB, TBL_POLICY_NOEVICTION);
	char buf[16];

	REQUIRE(t1 != NULL && t2 != NULL);
	/* Same key, same value, but each segment has its own secret: the stored hashes differ. */
	CHECK(fixture_set(t1, 0, "same-key", "v", 0) == TBL_OK);
	CHECK(fixture_set(t2, 0, "same-key", "v", 0) == TBL_OK);
	CHECK(tbl_key_hash(t1, "same-key", 8, 0) != tbl_key_hash(t2, "same-key", 8, 0));
	CHECK(fixture_get(t1, 0, "same-key", buf, sizeof(buf)) == TBL_OK);
	CHECK_CONSISTENT(t1);
	tbl_destroy(t1);
	tbl_destroy(t2);
}

TBL_TEST(test_sequential_keys_spread_over_buckets)
{
	enum { BUCKETS = 4096, KEYS = 4096 * 4 };
	static unsigned counts[BUCKETS];
	tbl_hash_key_t k = { 0x0123456789abcdefull, 0xfedcba9876543210ull };
	unsigned i, max = 0, empty = 0;
	char key[32];

	for (i = 0; i < KEYS; i++) {
		int n = snprintf(key, sizeof(key), "user:%u", i);
		counts[tbl_hash_key(&k, key, (size_t)n, 0) & (BUCKETS - 1)]++;
	}
	for (i = 0; i < BUCKETS; i++) {
		max = counts[i] > max ? counts[i] : max;
		empty += counts[i] == 0;
	}
	/* A uniform hash puts Poisson(4) keys per bucket: max about 12-14, about 1.8% empty. */
	CHECK(max <= 20);
	CHECK(empty < BUCKETS / 20);
}

/* ---- the flooding attack ------------------------------------------------------------------------- */

enum { FLOOD_KEYS = 4000, FLOOD_KEY_LEN = 16 };

static uint64_t inverse_mod_2_64(uint64_t a)   /* a odd */
{
	uint64_t x = a;   /* right to 3 bits; each Newton step doubles that */
	int i;

	for (i = 0; i < 5; i++) {
		x *= 2 - a * x;
	}
	return x;
}

/* Key i: 8 chosen bytes, then the 8 bytes that steer the old hash's state onto one fixed value. The old
 * hash of a 16-byte key is mix((h1 ^ w2 * M2) * M1) with h1 depending on the first word only, so
 * w2 = (h1 ^ target) * M2^-1 makes every key's hash the same, with no search at all. */
static void flood_key(unsigned i, unsigned char key[FLOOD_KEY_LEN])
{
	const uint64_t target = 0x5eed5eed5eed5eedull;
	uint64_t h = TBL_HASH_M1 ^ ((uint64_t)FLOOD_KEY_LEN * TBL_HASH_M2), w1, w2;
	char head[9];

	snprintf(head, sizeof(head), "k%07u", i);
	memcpy(&w1, head, 8);
	h = (h ^ (w1 * TBL_HASH_M2)) * TBL_HASH_M1;
	h ^= h >> 29;
	w2 = (h ^ target) * inverse_mod_2_64(TBL_HASH_M2);
	memcpy(key, &w1, 8);
	memcpy(key + 8, &w2, 8);
}

TBL_TEST(test_flood_keys_collide_under_the_old_hash)
{
	unsigned char key[FLOOD_KEY_LEN];
	uint64_t first;
	unsigned i, same = 0;

	flood_key(0, key);
	first = tbl_hash_fast(key, FLOOD_KEY_LEN, 0);
	for (i = 0; i < FLOOD_KEYS; i++) {
		flood_key(i, key);
		same += tbl_hash_fast(key, FLOOD_KEY_LEN, 0) == first;
	}
	CHECK_EQ_U64(same, FLOOD_KEYS);   /* the attack is real: one 64-bit hash for all of them */
}

TBL_TEST(test_flood_keys_do_not_share_a_chain)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_NOEVICTION);
	unsigned char key[FLOOD_KEY_LEN];
	tbl_value_t v = fixture_str("v");
	tbl_stats_t st;
	unsigned i, stored = 0, found = 0;

	REQUIRE(t != NULL);
	for (i = 0; i < FLOOD_KEYS; i++) {
		flood_key(i, key);
		stored += tbl_store(t, 0, (const char *)key, FLOOD_KEY_LEN, &v, 0, TBL_STORE_SET) == TBL_OK;
	}
	CHECK_EQ_U64(stored, FLOOD_KEYS);
	for (i = 0; i < FLOOD_KEYS; i++) {
		tbl_view_t view;
		flood_key(i, key);
		REQUIRE(tbl_read_begin(t) == TBL_OK);
		found += tbl_lookup(t, 0, (const char *)key, FLOOD_KEY_LEN, &view, 0) == TBL_OK;
		tbl_read_end(t);
	}
	CHECK_EQ_U64(found, FLOOD_KEYS);
	tbl_get_stats(t, &st);
	CHECK_EQ_U64(st.entries, FLOOD_KEYS);
	/* 4,000 keys over 4,096 buckets: a random function gives a longest chain of about 7; the old hash
	 * gave one chain of 4,000. */
	fprintf(stderr, "  (4000 crafted keys, %llu buckets: longest chain %llu)\n",
	        (unsigned long long)st.buckets, (unsigned long long)st.max_chain);
	CHECK(st.buckets >= 4096);
	CHECK(st.max_chain >= 1 && st.max_chain <= 12);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

TBL_TEST(test_max_chain_is_the_longest_chain_built)
{
	tbl_config_t cfg;
	char err[256], key[32];
	tbl_t *t = NULL;
	tbl_stats_t st;
	char first[32] = "";
	unsigned i, n = 0, bucket0 = 0;

	/* With a fixed hash key the test can pick keys that share bucket 0 and check the count exactly. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.memory = 1 * MB;
	cfg.fixed_hash_key = 1;
	cfg.hash_key[0] = 42;
	cfg.hash_key[1] = 43;
	REQUIRE(tbl_create(&t, &cfg, err, sizeof(err)) == TBL_OK);
	tbl_get_stats(t, &st);
	CHECK_EQ_U64(st.max_chain, 0);
	for (i = 0; n < 5; i++) {
		int len = snprintf(key, sizeof(key), "c%u", i);
		if ((tbl_key_hash(t, key, (size_t)len, 0) & (st.buckets - 1)) == 0) {
			CHECK(fixture_set(t, 0, key, "v", 0) == TBL_OK);
			if (!first[0]) {
				memcpy(first, key, (size_t)len + 1);
			}
			n++;
			bucket0++;
		}
	}
	tbl_get_stats(t, &st);
	CHECK_EQ_U64(st.max_chain, bucket0);
	/* Replacing keeps the chain's length; the mark is a high-water mark, so deleting leaves it. */
	CHECK(fixture_set(t, 0, first, "w", 0) == TBL_OK);
	tbl_get_stats(t, &st);
	CHECK_EQ_U64(st.max_chain, bucket0);
	CHECK(tbl_delete(t, 0, first, strlen(first)) == TBL_OK);
	tbl_get_stats(t, &st);
	CHECK_EQ_U64(st.max_chain, bucket0);
	CHECK_CONSISTENT(t);
	tbl_destroy(t);
}

/* A crafted key that shares the old hash of a key being computed by another live process must get a
 * claim of its own at once (it used to wait up to 10 s); the same key must still wait. */
TBL_TEST(test_colliding_key_does_not_share_a_claim)
{
	tbl_t *t = fixture_open(1 * MB, TBL_POLICY_NOEVICTION);
	unsigned char k1[FLOOD_KEY_LEN], k2[FLOOD_KEY_LEN];
	char long1[400], long2[400];
	int ready[2], done[2], status;
	char c;
	pid_t pid;

	REQUIRE(t != NULL);
	flood_key(1, k1);
	flood_key(2, k2);
	memset(long1, 'x', sizeof(long1));
	memcpy(long2, long1, sizeof(long2));
	long2[sizeof(long2) - 1] = 'y';   /* same length, same first 216 bytes, another key */
	REQUIRE(pipe(ready) == 0 && pipe(done) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		int ok = tbl_claim(t, 0, (const char *)k1, FLOOD_KEY_LEN, 60000) == TBL_OK
		         && tbl_claim(t, 0, long1, sizeof(long1), 60000) == TBL_OK;
		(void)!write(ready[1], ok ? "1" : "0", 1);
		(void)!read(done[0], &c, 1);
		tbl_claim_release(t, 0, (const char *)k1, FLOOD_KEY_LEN);
		tbl_claim_release(t, 0, long1, sizeof(long1));
		tbl_detach(t);
		_exit(0);
	}
	REQUIRE(read(ready[0], &c, 1) == 1);
	CHECK(c == '1');
	CHECK(tbl_claim(t, 0, (const char *)k1, FLOOD_KEY_LEN, 60000) == TBL_EBUSY);
	CHECK(tbl_claim(t, 0, (const char *)k2, FLOOD_KEY_LEN, 60000) == TBL_OK);
	CHECK(tbl_claim(t, 0, long1, sizeof(long1), 60000) == TBL_EBUSY);
	CHECK(tbl_claim(t, 0, long2, sizeof(long2), 60000) == TBL_OK);
	CHECK(tbl_claim(t, 1, (const char *)k1, FLOOD_KEY_LEN, 60000) == TBL_OK);   /* another namespace */
	tbl_claim_release(t, 0, (const char *)k2, FLOOD_KEY_LEN);
	tbl_claim_release(t, 0, long2, sizeof(long2));
	tbl_claim_release(t, 1, (const char *)k1, FLOOD_KEY_LEN);
	(void)!write(done[1], "x", 1);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Released by its owner: free for anyone. */
	CHECK(tbl_claim(t, 0, (const char *)k1, FLOOD_KEY_LEN, 60000) == TBL_OK);
	tbl_claim_release(t, 0, (const char *)k1, FLOOD_KEY_LEN);
	close(ready[0]); close(ready[1]); close(done[0]); close(done[1]);
	tbl_destroy(t);
}

TBL_TEST(test_os_random)
{
	uint64_t a[2] = { 0, 0 }, b[2] = { 0, 0 };
	char err[128];

	CHECK(tbl_os_random(a, sizeof(a), err, sizeof(err)) == 0);
	CHECK(tbl_os_random(b, sizeof(b), err, sizeof(err)) == 0);
	CHECK(a[0] != b[0] || a[1] != b[1]);
}

TBL_TEST(test_process_identity)
{
	uint64_t start = tbl_proc_start_time(getpid());

	CHECK(start != 0);
	CHECK(tbl_proc_alive(getpid(), start));
	CHECK(!tbl_proc_alive(getpid(), start + 1));   /* same pid, another start time: not us */
	CHECK(!tbl_proc_alive(0, 0));
}

static const tbl_test_t tests[] = {
	TBL_TEST_ENTRY(test_siphash_reference_vectors),
	TBL_TEST_ENTRY(test_key_hash_depends_on_segment_key_and_namespace),
	TBL_TEST_ENTRY(test_two_segments_get_different_keys),
	TBL_TEST_ENTRY(test_sequential_keys_spread_over_buckets),
	TBL_TEST_ENTRY(test_flood_keys_collide_under_the_old_hash),
	TBL_TEST_ENTRY(test_flood_keys_do_not_share_a_chain),
	TBL_TEST_ENTRY(test_max_chain_is_the_longest_chain_built),
	TBL_TEST_ENTRY(test_colliding_key_does_not_share_a_claim),
	TBL_TEST_ENTRY(test_os_random),
	TBL_TEST_ENTRY(test_process_identity),
};

int main(int argc, char **argv)
{
	(void)argc;
	return tbl_test_main(argv[0], tests, sizeof(tests) / sizeof(tests[0]));
}
