/*
 * claim.c - remember(): at most one process computes a missing key at a time.
 *
 * A claim is a small record (the key, namespace, owner pid + start time, deadline) in a fixed array in
 * the segment, guarded by the misc lock. Claims never enter the index, so a key being computed stays an
 * ordinary miss for every other call. A claim is void once its deadline passes or its owner is dead, so
 * a worker killed in the middle of its callback delays the others by at most the deadline. When the array
 * is full the caller simply computes without coordination; correctness never depends on a claim.
 *
 * A claim is keyed by the key, not by its hash: a record matches when namespace, length, keyed hash
 * (hash.h, under the segment's secret) and the key's bytes agree. Keys of up to TBL_CLAIM_KEY_INLINE bytes
 * are stored and compared whole; a longer key is compared on its first TBL_CLAIM_KEY_INLINE bytes, its
 * length and its 64-bit keyed hash, which nobody can make collide without the segment's secret. So a key
 * crafted to share another key's hash can no longer make that key's remember() wait.
 *
 * Taking a record writes the key, owner and deadline first and the hash last, so a process killed in
 * between leaves a record that matches nothing it did not match before: either still free (hash 0), or
 * its previous, expired or dead owner's, which the next claimant takes over anyway.
 */
#include <string.h>
#include "crash.h"
#include "epoch.h"
#include "hash.h"
#include "proc.h"
#include "sync.h"
#include "table_core.h"

static uint64_t claim_hash(const tbl_t *t, const char *key, size_t klen, tbl_ns_t ns)
{
	return tbl_key_hash(t, key, klen, tbl_ns_id(ns)) | 1u;   /* 0 marks a free record */
}

static size_t claim_inline_len(size_t klen)
{
	return klen < TBL_CLAIM_KEY_INLINE ? klen : TBL_CLAIM_KEY_INLINE;
}

static int claim_matches(const tbl_claim_t *c, uint64_t hash, tbl_ns_t ns, const char *key, size_t klen)
{
	return c->hash == hash && c->ns == ns && c->key_len == klen
	       && memcmp(c->key, key, claim_inline_len(klen)) == 0;
}

/* The claim was taken through this handle: this process, and this thread of it for a thread handle. */
static int claim_mine(const tbl_t *t, const tbl_claim_t *c)
{
	return c->pid == (int32_t)t->pid && c->tid == (int32_t)t->tid;
}

/* Its claimant is alive: the process, and the thread that claimed it when one did (the claim's deadline
 * bounds the wait for a thread whose id was reused meanwhile). */
static int claimant_alive(const tbl_claim_t *c)
{
	return tbl_proc_alive(c->pid, c->start_time) && (c->tid == 0 || tbl_proc_thread_alive(c->pid, c->tid, 0));
}

tbl_status_t tbl_claim(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint32_t deadline_ms)
{
	uint64_t hash, now = tbl_clock_monotonic_ms();
	tbl_claim_t *free_rec = NULL, *mine = NULL;
	tbl_status_t st;
	unsigned i;

	if (klen == 0 || klen > TBL_KEY_MAX) {
		return TBL_EINVAL;
	}
	if ((st = tbl_slot_ensure(t)) != TBL_OK) {
		return st;
	}
	hash = claim_hash(t, key, klen, ns);
	if ((st = tbl_misc_lock(t)) != TBL_OK) {
		return st;
	}
	for (i = 0; i < TBL_NCLAIMS; i++) {
		tbl_claim_t *c = &t->claims[i];

		if (claim_matches(c, hash, ns, key, klen)) {
			if (!claim_mine(t, c) && c->deadline_ms > now && claimant_alive(c)) {
				tbl_misc_unlock(t);
				return TBL_EBUSY;
			}
			mine = c;   /* ours already, or abandoned: take it over */
			break;
		}
		if (!free_rec && (c->hash == 0 || c->deadline_ms <= now)) {
			free_rec = c;
		}
	}
	if (!mine) {
		mine = free_rec;
	}
	if (mine) {
		memcpy(mine->key, key, claim_inline_len(klen));
		mine->key_len = (uint16_t)klen;
		mine->ns = ns;
		TBL_CRASH_POINT("claim.take.key");
		mine->pid = (int32_t)t->pid;
		mine->tid = (int32_t)t->tid;
		mine->start_time = t->slot->start_time;
		mine->deadline_ms = now + deadline_ms;
		TBL_CRASH_POINT("claim.take.owner");
		mine->hash = hash;
	}
	tbl_misc_unlock(t);
	return TBL_OK;
}

void tbl_claim_release(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen)
{
	uint64_t hash;
	unsigned i;

	if (!t->slot || klen == 0 || klen > TBL_KEY_MAX) {
		return;
	}
	hash = claim_hash(t, key, klen, ns);
	if (tbl_misc_lock(t) != TBL_OK) {
		return;
	}
	for (i = 0; i < TBL_NCLAIMS; i++) {
		tbl_claim_t *c = &t->claims[i];
		if (claim_matches(c, hash, ns, key, klen) && claim_mine(t, c)) {
			c->hash = 0;
			TBL_CRASH_POINT("claim.release.hash");
			c->pid = 0;
			break;
		}
	}
	tbl_misc_unlock(t);
}
