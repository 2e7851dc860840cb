/*
 * claim.c - remember(): at most one process computes a missing key at a time.
 *
 * A claim is a small record (key hash, namespace, owner pid + start time, deadline) in a fixed array in
 * the segment, guarded by the misc lock. Claims never enter the index, so a key being computed stays an
 * ordinary miss for every other call. A claim is void once its deadline passes or its owner is dead, so
 * a worker killed in the middle of its callback delays the others by at most the deadline. When the array
 * is full the caller simply computes without coordination; correctness never depends on a claim.
 */
#include "epoch.h"
#include "hash.h"
#include "proc.h"
#include "sync.h"

static uint64_t claim_hash(const char *key, size_t klen, tbl_ns_t ns)
{
	return tbl_hash_bytes(key, klen, tbl_ns_id(ns)) | 1u;   /* 0 marks a free record */
}

tbl_status_t tbl_claim(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen, uint32_t deadline_ms)
{
	uint64_t hash = claim_hash(key, klen, ns), now = tbl_clock_monotonic_ms();
	tbl_claim_t *free_rec = NULL, *mine = NULL;
	tbl_status_t st;
	unsigned i;

	if ((st = tbl_slot_ensure(t)) != TBL_OK || (st = tbl_misc_lock(t)) != TBL_OK) {
		return st;
	}
	for (i = 0; i < TBL_NCLAIMS; i++) {
		tbl_claim_t *c = &t->claims[i];

		if (c->hash == hash && c->ns == ns) {
			if (c->pid != t->pid && c->deadline_ms > now && tbl_proc_alive(c->pid, c->start_time)) {
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
		mine->hash = hash;
		mine->ns = ns;
		mine->pid = (int32_t)t->pid;
		mine->start_time = t->slot->start_time;
		mine->deadline_ms = now + deadline_ms;
	}
	tbl_misc_unlock(t);
	return TBL_OK;
}

void tbl_claim_release(tbl_t *t, tbl_ns_t ns, const char *key, size_t klen)
{
	uint64_t hash = claim_hash(key, klen, ns);
	unsigned i;

	if (!t->slot || tbl_misc_lock(t) != TBL_OK) {
		return;
	}
	for (i = 0; i < TBL_NCLAIMS; i++) {
		tbl_claim_t *c = &t->claims[i];
		if (c->hash == hash && c->ns == ns && c->pid == (int32_t)t->pid) {
			c->hash = 0;
			c->pid = 0;
			break;
		}
	}
	tbl_misc_unlock(t);
}
