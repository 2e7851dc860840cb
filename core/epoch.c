/*
 * epoch.c - reader slots, retirement and reclamation (see epoch.h for the protocol).
 *
 * Why it is safe. A writer unlinks X (release store), then advances the global epoch with a seq_cst
 * fetch_add that returns e, and tags X with e. A reader publishes epoch r in its slot before it walks
 * any chain (seq_cst store, then it re-checks the global epoch; epoch.h). Either r <= e: the reader's
 * slot holds X back until the reader goes idle or re-enters later; or r > e: the reader loaded the
 * epoch after the fetch_add, so it also sees the unlink and cannot reach X. Hence X may be freed as soon
 * as every slot is idle or shows an epoch > e.
 *
 * The retire queue is a FIFO threaded through the entries' retire_next fields: entries are appended in
 * epoch order, so reclamation pops from the head until it meets one that is still visible.
 *
 * A process that dies inside a read section leaves its slot pinned. Reclamation notices a slot that
 * holds the queue head back and, when asked to (`reap`), checks the owner's pid and start time; a dead
 * owner's slot is folded and freed.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <string.h>
#include "epoch.h"
#include "crash.h"
#include "proc.h"
#include "sync.h"

/* ---- slots ---------------------------------------------------------------------------------------- */

static void fold_counters(tbl_counters_t *into, tbl_counters_t *from)
{
#define TBL_FOLD(f) TBL_STORE_RELAXED(&into->f, TBL_LOAD_RELAXED(&into->f) + TBL_LOAD_RELAXED(&from->f)); \
	TBL_STORE_RELAXED(&from->f, 0)
	TBL_FOLD(hits); TBL_FOLD(misses); TBL_FOLD(sets); TBL_FOLD(deletes);
	TBL_FOLD(evictions); TBL_FOLD(expirations); TBL_FOLD(oom); TBL_FOLD(zero_copy_reads);
#undef TBL_FOLD
}

/* Misc lock held. */
static void slot_free_locked(tbl_t *t, tbl_slot_t *s)
{
	fold_counters(&t->hdr->folded, &s->stats);
	TBL_CRASH_POINT("epoch.slot.folded");
	atomic_store_explicit(&s->epoch, TBL_EPOCH_IDLE, memory_order_release);
	atomic_store_explicit(&s->flags, 0, memory_order_relaxed);
	atomic_store_explicit(&s->pid, 0, memory_order_release);
}

static tbl_slot_t *slot_take_free(tbl_t *t, pid_t me, uint64_t start)
{
	tbl_header_t *h = t->hdr;
	uint32_t i;

	for (i = 0; i < h->nslots; i++) {
		tbl_slot_t *s = &t->slots[i];
		int32_t expected = 0;

		if (atomic_load_explicit(&s->pid, memory_order_relaxed) != 0) {
			continue;
		}
		if (atomic_compare_exchange_strong(&s->pid, &expected, (int32_t)me)) {
			uint32_t hwm = atomic_load(&h->slots_hwm);
			TBL_CRASH_POINT("epoch.slot.claimed");
			s->start_time = start;
			memset((void *)&s->stats, 0, sizeof(s->stats));
			atomic_store(&s->flags, 0);
			atomic_store(&s->epoch, TBL_EPOCH_IDLE);
			TBL_CRASH_POINT("epoch.slot.initialised");
			while (hwm < i + 1 && !atomic_compare_exchange_weak(&h->slots_hwm, &hwm, i + 1)) {
			}
			return s;
		}
	}
	return NULL;
}

tbl_status_t tbl_slot_claim(tbl_t *t)
{
	pid_t me = tbl_proc_self();
	uint64_t start = tbl_proc_start_time(me);
	tbl_slot_t *s;

	/* Under the misc lock, so the reaper never sees a half-claimed slot (new pid, old start time). */
	if (tbl_misc_lock(t) != TBL_OK) {
		return TBL_ESYS;
	}
	s = slot_take_free(t, me, start);
	tbl_misc_unlock(t);
	if (!s && tbl_slots_reap(t, 0) > 0) {
		if (tbl_misc_lock(t) != TBL_OK) {
			return TBL_ESYS;
		}
		s = slot_take_free(t, me, start);
		tbl_misc_unlock(t);
	}
	if (!s) {
		return TBL_ENOSLOT;
	}
	t->slot = s;
	t->pid = me;
	return TBL_OK;
}

void tbl_slot_release(tbl_t *t)
{
	if (t->pinned) {
		tbl_epoch_unpin(t);
	}
	if (!t->slot) {
		return;
	}
	if (tbl_misc_lock(t) == TBL_OK) {   /* else the slot stays ours until the reaper finds us gone */
		slot_free_locked(t, t->slot);
		tbl_misc_unlock(t);
	}
	t->slot = NULL;
}

/* ---- pins ------------------------------------------------------------------------------------------- */

void tbl_epoch_pin(tbl_t *t)
{
	if (!t->pinned && t->slot) {
		t->pinned = 1;
		atomic_fetch_or(&t->slot->flags, TBL_SLOT_PINNED);
	}
}

void tbl_epoch_unpin(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	uint32_t i, hwm;
	uint64_t now;

	if (!t->pinned) {
		return;
	}
	t->pinned = 0;
	atomic_fetch_and(&t->slot->flags, ~TBL_SLOT_PINNED);
	tbl_epoch_exit(t);
	if (!t->handed_over) {
		return;
	}
	/* A slot claimed for a child that has not adopted it within the grace period never will be (the
	 * fork failed): give it back. One still young is left for the next unpin, or for the reaper once
	 * this process is gone. */
	t->handed_over = 0;
	now = tbl_clock_monotonic_ms();
	hwm = atomic_load(&h->slots_hwm);
	if (tbl_misc_lock(t) != TBL_OK) {
		return;
	}
	for (i = 0; i < hwm; i++) {
		tbl_slot_t *s = &t->slots[i];
		if (s == t->slot || atomic_load(&s->pid) != (int32_t)t->pid
		    || !(atomic_load(&s->flags) & TBL_SLOT_HANDOVER)) {
			continue;
		}
		if (now - s->handover_ms >= TBL_HANDOVER_GRACE_MS) {
			slot_free_locked(t, s);
		} else {
			t->handed_over = 1;
		}
	}
	tbl_misc_unlock(t);
}

unsigned tbl_slots_reap(tbl_t *t, uint64_t max_epoch)
{
	tbl_header_t *h = t->hdr;
	uint32_t i, hwm = atomic_load(&h->slots_hwm);
	unsigned reaped = 0;

	if (tbl_misc_lock(t) != TBL_OK) {
		return 0;
	}
	for (i = 0; i < hwm; i++) {
		tbl_slot_t *s = &t->slots[i];
		int32_t pid = atomic_load(&s->pid);
		uint64_t e = atomic_load(&s->epoch);

		if (pid == 0 || s == t->slot || (max_epoch && (e == TBL_EPOCH_IDLE || e > max_epoch))) {
			continue;
		}
		if (!tbl_proc_alive((pid_t)pid, s->start_time)) {
			slot_free_locked(t, s);
			reaped++;
		}
	}
	tbl_misc_unlock(t);
	return reaped;
}

/* ---- fork ------------------------------------------------------------------------------------------ */

#define TBL_MAX_TRACKED 8
static tbl_t *tracked[TBL_MAX_TRACKED];

/* A slot for the child of a pinned parent: owned by the parent until the child adopts it, at the pin's
 * epoch. When every slot is taken, dead owners are reaped once. NULL when there is still none: the
 * child then starts unpinned (and its inherited zero-copy arrays unprotected; documented). */
static tbl_slot_t *handover_slot_take(tbl_t *t)
{
	tbl_slot_t *s;
	int attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		if (tbl_misc_lock(t) != TBL_OK) {
			return NULL;
		}
		s = slot_take_free(t, t->pid, t->slot->start_time);
		if (s) {
			atomic_store(&s->epoch, atomic_load(&t->slot->epoch));
			s->handover_ms = tbl_clock_monotonic_ms();
			atomic_store(&s->flags, TBL_SLOT_PINNED | TBL_SLOT_HANDOVER);
		}
		tbl_misc_unlock(t);
		if (s || tbl_slots_reap(t, 0) == 0) {
			return s;
		}
	}
	return NULL;
}

/* In a pinned parent, before fork(): claim the child's slot at the pin's epoch (owned by the parent
 * until the child adopts it), so the pointers the child inherits are covered from its first instant. */
static void on_fork_prepare(void)
{
	int i;

	for (i = 0; i < TBL_MAX_TRACKED; i++) {
		tbl_t *t = tracked[i];
		tbl_slot_t *s;

		if (!t || !t->pinned || !t->slot) {
			continue;
		}
		s = handover_slot_take(t);
		t->handover = s;
		t->handed_over |= s != NULL;
	}
}

static void on_fork_parent(void)
{
	int i;

	for (i = 0; i < TBL_MAX_TRACKED; i++) {
		if (tracked[i]) {
			tracked[i]->handover = NULL;
		}
	}
}

/* In the child: the slot belongs to the parent. A pinned child adopts the slot its parent prepared;
 * any other child claims a fresh one on its next call. */
static void on_fork_child(void)
{
	int i;

	for (i = 0; i < TBL_MAX_TRACKED; i++) {
		tbl_t *t = tracked[i];
		tbl_slot_t *s;

		if (!t) {
			continue;
		}
		s = t->handover;
		t->handover = NULL;
		t->handed_over = 0;
		t->slot = NULL;
		if (s) {
			pid_t me = tbl_proc_self();
			int32_t parent = (int32_t)t->pid;

			/* Under the misc lock, so the reaper never sees the new pid with the parent's start time. */
			if (tbl_misc_lock(t) == TBL_OK) {
				if (atomic_compare_exchange_strong(&s->pid, &parent, (int32_t)me)) {
					s->start_time = tbl_proc_start_time(me);
					atomic_store(&s->flags, TBL_SLOT_PINNED);
					t->slot = s;
				}
				tbl_misc_unlock(t);
			}
		}
		if (t->slot) {
			t->pid = tbl_proc_self();
		} else {
			t->pinned = 0;   /* no fork handover (no free slot): the inherited pin cannot be kept */
			t->pid = 0;
		}
	}
}

void tbl_epoch_track_fork(tbl_t *t)
{
	int i;

	tbl_proc_on_fork(on_fork_prepare, on_fork_parent, on_fork_child);
	for (i = 0; i < TBL_MAX_TRACKED; i++) {
		if (!tracked[i]) {
			tracked[i] = t;
			return;
		}
	}
}

void tbl_epoch_untrack_fork(tbl_t *t)
{
	int i;

	for (i = 0; i < TBL_MAX_TRACKED; i++) {
		if (tracked[i] == t) {
			tracked[i] = NULL;
		}
	}
}

/* ---- retire and reclaim ------------------------------------------------------------------------- */

void tbl_retire_locked(tbl_t *t, uint64_t entry_off)
{
	tbl_header_t *h = t->hdr;
	tbl_entry_t *e = tbl_entry_at(t, entry_off);

	e->retire_next = 0;
	e->retire_epoch = atomic_fetch_add_explicit(&h->epoch, 1, memory_order_seq_cst);
	if (h->retire_tail) {
		tbl_entry_at(t, h->retire_tail)->retire_next = entry_off;
	} else {
		h->retire_head = entry_off;
	}
	TBL_CRASH_POINT("epoch.retire.linked");
	h->retire_tail = entry_off;
	h->retired_blocks++;
	h->retired_bytes += e->bytes;
	h->retires_since_reclaim++;
}

uint64_t tbl_epoch_min_active(tbl_t *t)
{
	uint32_t i, hwm = atomic_load(&t->hdr->slots_hwm);
	uint64_t min = UINT64_MAX;

	for (i = 0; i < hwm; i++) {
		uint64_t e = atomic_load_explicit(&t->slots[i].epoch, memory_order_seq_cst);
		if (e != TBL_EPOCH_IDLE && e < min) {
			min = e;
		}
	}
	return min;
}

uint64_t tbl_reclaim_locked(tbl_t *t, int reap)
{
	tbl_header_t *h = t->hdr;
	uint64_t freed = 0, min;

	h->retires_since_reclaim = 0;
	if (!h->retire_head) {
		return 0;
	}
	min = tbl_epoch_min_active(t);
	if (reap && tbl_entry_at(t, h->retire_head)->retire_epoch >= min
	    && tbl_slots_reap(t, tbl_entry_at(t, h->retire_head)->retire_epoch) > 0) {
		min = tbl_epoch_min_active(t);
	}
	while (h->retire_head) {
		uint64_t off = h->retire_head;
		tbl_entry_t *e = tbl_entry_at(t, off);

		if (e->retire_epoch >= min) {
			break;
		}
		/* Unlink before freeing: a crash in between leaks the block (the GC finds it) instead of
		 * leaving a freed block on the queue. */
		h->retire_head = e->retire_next;
		if (!h->retire_head) {
			h->retire_tail = 0;
		}
		TBL_CRASH_POINT("epoch.reclaim.unlinked");
		h->retired_blocks--;
		h->retired_bytes -= e->bytes;
		freed += e->bytes;
		tbl_free(&h->alloc, t->base, off);
	}
	return freed;
}
