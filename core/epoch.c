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
 * A process that dies inside a read section leaves its slot's epoch published. Reclamation notices a
 * slot that holds the queue head back and, when asked to (`reap`), checks the owner's pid and start
 * time; a dead owner's slot is folded and freed.
 *
 * Zero-copy holds. A hold is a record in the holder's slot (its hold list, TBL_HOLD_MAX offsets after
 * all the slots) plus one count on the entry (tbl_entry_t.holds). Taking one (inside a read section, so
 * the entry cannot be freed meanwhile): record the offset as pending, increment the count, clear the
 * pending bit. Releasing: mark the record pending, decrement, drop the record. Reclamation pops a
 * retired entry whose epoch no reader can see; with a count of 0 it is freed, otherwise it is pushed on
 * the held list (threaded through retire_next, allocator lock). Whoever brings a count to 0 raises
 * held_zeroed, and the next holder release or reclamation sweeps the held list. Ordering: the count is
 * incremented before the reader leaves its read section (a release store); a reclaimer reads the count
 * only after it has seen the slot idle or past the entry's epoch, so it sees the increment.
 *
 * A holder that died, or exec'd another program (pcntl_exec, proc_open's child: the pid and start time
 * stay, but the segment is no longer mapped), never releases: reclamation checks the owners of slots
 * with holds, at most every 200 ms while the held list is not empty, and releases theirs. One killed
 * between its record and the count (or a reaper killed there) leaves a count no record backs: the
 * held list's audit (held_audit_locked) finds it once the entry is retired.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <stdlib.h>
#include <string.h>
#include "crash.h"
#include "epoch.h"
#include "proc.h"
#include "sync.h"
#include "table_core.h"

/* ---- slots ---------------------------------------------------------------------------------------- */

static void fold_counters(tbl_counters_t *into, tbl_counters_t *from)
{
#define TBL_FOLD(f) TBL_STORE_RELAXED(&into->f, TBL_LOAD_RELAXED(&into->f) + TBL_LOAD_RELAXED(&from->f)); \
	TBL_STORE_RELAXED(&from->f, 0)
	TBL_FOLD(hits); TBL_FOLD(misses); TBL_FOLD(sets); TBL_FOLD(deletes);
	TBL_FOLD(evictions); TBL_FOLD(expirations); TBL_FOLD(oom); TBL_FOLD(zero_copy_reads);
#undef TBL_FOLD
}

#ifndef TBL_HOLDS_PER_ENTRY_MAX   /* the crash-point test lowers it to reach the refusal */
#define TBL_HOLDS_PER_ENTRY_MAX 0xFF00u   /* the 16-bit count's ceiling (slots hold an entry once each) */
#endif
#define TBL_SLOT_RETRY_MS       1000u     /* a process without a slot looks for one this often */
#define TBL_HOLDS_REAP_MS       200u      /* how often reclamation looks for dead or exec'd holders */

/* Drop one hold on the entry at `off` (the caller's hold keeps it allocated until the decrement). 1 when
 * the count reached 0. */
/* Give a slot's hold list its blocks in a named segment's file before anything writes it
 * (tbl_seg_reserve; anonymous segments have them). TBL_OK, or TBL_ESYS when the file system is full. */
static tbl_status_t hold_list_reserve(tbl_t *t, _Atomic uint64_t *list)
{
	return tbl_seg_reserve(t, tbl_offset_of(t, list), TBL_HOLD_MAX * sizeof(uint64_t), "a zero-copy hold list");
}

static int hold_drop(tbl_t *t, uint64_t off)
{
	tbl_header_t *h = t->hdr;
	tbl_entry_t *e = tbl_entry_at(t, off);
	uint32_t bytes = e->bytes;

	if (atomic_fetch_sub_explicit(&e->holds, 1, memory_order_acq_rel) != 1) {
		return 0;
	}
	atomic_fetch_sub_explicit(&h->held_bytes, bytes, memory_order_relaxed);
	atomic_fetch_sub_explicit(&h->held_entries, 1, memory_order_relaxed);
	return 1;
}

/* Release every hold record of slot `s`, last first. Pending records are skipped (see epoch.h). */
static int slot_holds_drop(tbl_t *t, tbl_slot_t *s)
{
	_Atomic uint64_t *list = tbl_slot_holds(t, s);
	uint32_t n = atomic_load_explicit(&s->nholds, memory_order_acquire);
	int zeroed = 0;

	if (n > TBL_HOLD_MAX) {
		n = TBL_HOLD_MAX;   /* torn by a crash: never read past the list */
	}
	while (n > 0) {
		uint64_t rec = atomic_load_explicit(&list[n - 1], memory_order_relaxed);

		if (rec && !(rec & TBL_HOLD_PENDING)) {
			atomic_store_explicit(&list[n - 1], rec | TBL_HOLD_PENDING | TBL_HOLD_COUNTING, memory_order_relaxed);
			TBL_CRASH_POINT("epoch.hold.release.marked");
			zeroed |= hold_drop(t, rec);
			TBL_CRASH_POINT("epoch.hold.release.dropped");
		} else if ((rec & TBL_HOLD_COUNTING) && (rec & TBL_HOLD_PENDING)) {
			/* Its taker, releaser or reaper died between the record and the count: the count may be
			 * one too high for good. Noted before the record goes, for the held list's audit. */
			atomic_fetch_add_explicit(&t->hdr->holds_lost, 1, memory_order_relaxed);
		}
		atomic_store_explicit(&s->nholds, --n, memory_order_release);
	}
	if (zeroed) {
		atomic_store(&t->hdr->held_zeroed, 1);
	}
	return zeroed;
}

/* Misc lock held. */
static void slot_free_locked(tbl_t *t, tbl_slot_t *s)
{
	slot_holds_drop(t, s);
	TBL_CRASH_POINT("epoch.slot.free.holds_dropped");
	fold_counters(&t->hdr->folded, &s->stats);
	TBL_CRASH_POINT("epoch.slot.folded");
	atomic_store_explicit(&s->epoch, TBL_EPOCH_IDLE, memory_order_release);
	atomic_store_explicit(&s->flags, 0, memory_order_relaxed);
	atomic_store_explicit(&s->tid, 0, memory_order_relaxed);
	atomic_store_explicit(&s->pid, 0, memory_order_release);
}

/* Claim a free slot for process `me` (thread `tid`, 0 for the whole process), both with their start
 * times. Misc lock held. */
static tbl_slot_t *slot_take_free(tbl_t *t, pid_t me, uint64_t start, pid_t tid, uint64_t tid_start)
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
			s->tid_start = tid_start;
			atomic_store(&s->tid, (int32_t)tid);
			memset((void *)&s->stats, 0, sizeof(s->stats));
			atomic_store(&s->nholds, 0);
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
	pid_t me;
	uint64_t start, tid_start;
	tbl_slot_t *s;

	/* Every slot was taken a moment ago: finding one means reading /proc for every owner, so a process
	 * without a slot (which still reads, tbl_lookup_copy) looks again only now and then. */
	if (TBL_UNLIKELY(t->slot_retry_ms) && tbl_clock_monotonic_ms() < t->slot_retry_ms) {
		return TBL_ENOSLOT;
	}
	me = tbl_proc_self();
	start = tbl_proc_start_time(me);
	tid_start = t->tid ? tbl_proc_thread_start_time(me, t->tid) : 0;
	/* Under the misc lock, so the reaper never sees a half-claimed slot (new pid, old start time). */
	if (tbl_misc_lock(t) != TBL_OK) {
		return TBL_ESYS;
	}
	s = slot_take_free(t, me, start, t->tid, tid_start);
	tbl_misc_unlock(t);
	if (!s && tbl_slots_reap(t, 0) > 0) {
		if (tbl_misc_lock(t) != TBL_OK) {
			return TBL_ESYS;
		}
		s = slot_take_free(t, me, start, t->tid, tid_start);
		tbl_misc_unlock(t);
	}
	if (!s) {
		t->slot_retry_ms = tbl_clock_monotonic_ms() + TBL_SLOT_RETRY_MS;
		return TBL_ENOSLOT;
	}
	t->slot_retry_ms = 0;
	t->slot = s;
	t->pid = me;
	return TBL_OK;
}

void tbl_slot_release(tbl_t *t)
{
	tbl_release_holds(t);
	if (!t->slot) {
		return;
	}
	if (tbl_misc_lock(t) == TBL_OK) {   /* else the slot stays ours until the reaper finds us gone */
		slot_free_locked(t, t->slot);
		tbl_misc_unlock(t);
	}
	t->slot = NULL;
}

/* ---- zero-copy holds ---------------------------------------------------------------------------- */

/* The process-local set cell for `off`: the one holding it, or the empty one where it would go. */
static uint64_t *hold_set_cell(tbl_t *t, uint64_t off)
{
	uint32_t mask = TBL_HOLD_SET_SIZE - 1u, i = (uint32_t)((off >> 4) * 0x9E3779B97F4A7C15ull >> 40) & mask;

	while (t->hold_set[i] != 0 && t->hold_set[i] != off) {
		i = (i + 1u) & mask;
	}
	return &t->hold_set[i];
}

static void hold_set_clear(tbl_t *t)
{
	if (t->hold_set) {
		memset(t->hold_set, 0, (TBL_HOLD_SET_SIZE + TBL_HELD_CACHE) * sizeof(uint64_t));   /* set, cache */
	}
}

/* Add `bytes` to held_bytes unless that passes `budget`: one compare-and-swap, so that processes holding
 * at once can never pass it together (a check followed by an add let two through). */
static int held_reserve(tbl_header_t *h, uint64_t bytes, uint64_t budget)
{
	uint64_t cur = atomic_load_explicit(&h->held_bytes, memory_order_relaxed);

	do {
		if (bytes > budget || cur > budget - bytes) {
			return 0;
		}
	} while (!atomic_compare_exchange_weak_explicit(&h->held_bytes, &cur, cur + bytes, memory_order_relaxed,
	                                                memory_order_relaxed));
	return 1;
}

tbl_status_t tbl_hold(tbl_t *t, const tbl_view_t *v, uint64_t budget)
{
	tbl_header_t *h = t->hdr;
	tbl_slot_t *s = t->slot;
	_Atomic uint64_t *list;
	uint64_t off = v->entry, *cell;
	tbl_entry_t *e;
	uint32_t n, bytes;
	uint16_t cur;
	int reserved = 0, checked = 0, counting = 0;

	/* A split value is copied by every reader (tbl_view_copy): there is nothing to hold. */
	if (!s || !off || (off & 15u) || (v->type & TBL_T_SPLIT)) {
		return TBL_ENOMEM;
	}
	if (TBL_UNLIKELY(!t->hold_set)) {
		if (!(t->hold_set = calloc(TBL_HOLD_SET_SIZE + TBL_HELD_CACHE, sizeof(uint64_t)))) {
			return TBL_ENOMEM;
		}
		t->held_cache = t->hold_set + TBL_HOLD_SET_SIZE;
	}
	cell = hold_set_cell(t, off);
	if (TBL_LIKELY(*cell == off)) {
		return TBL_OK;   /* held already, by this process */
	}
	n = atomic_load_explicit(&s->nholds, memory_order_relaxed);
	if (n >= TBL_HOLD_MAX) {
		return TBL_ENOMEM;
	}
	list = tbl_slot_holds(t, s);
	if (TBL_UNLIKELY(t->holds_ready != s)) {
		/* This slot's first hold here: a named segment's file may have no room for its list (copy). */
		if (hold_list_reserve(t, list) != TBL_OK) {
			return TBL_ENOMEM;
		}
		t->holds_ready = s;
	}
	e = tbl_entry_at(t, off);
	bytes = e->bytes;
	atomic_store_explicit(&list[n], off | TBL_HOLD_PENDING, memory_order_relaxed);
	atomic_store_explicit(&s->nholds, n + 1, memory_order_release);
	TBL_CRASH_POINT("epoch.hold.take.recorded");
	/* The count goes 0 -> 1 only together with the entry's bytes in held_bytes, reserved first within
	 * the budget; a reservation that turns out not to be needed (someone else held it first) is given
	 * back. Between a release's 1 -> 0 and its subtraction a new first holder may count the entry a
	 * second time for a moment: held_bytes may over-count, never pass the budget. held_entries moves with
	 * held_bytes, so a count is never above 0 without them (the audit's 1 -> 0 takes both back). */
	cur = atomic_load_explicit(&e->holds, memory_order_relaxed);
	for (;;) {
		if (TBL_UNLIKELY(cur >= TBL_HOLDS_PER_ENTRY_MAX)) {
			break;
		}
		if (cur == 0 && !reserved) {
			if (!held_reserve(h, bytes, budget)) {
				/* Dead holders may be what fills the budget (checked at most every 200 ms). */
				if (!checked && (checked = 1, tbl_holders_check(t, 0) > 0)) {
					cur = atomic_load_explicit(&e->holds, memory_order_relaxed);
					continue;
				}
				break;
			}
			atomic_fetch_add_explicit(&h->held_entries, 1, memory_order_relaxed);
			reserved = 1;
			TBL_CRASH_POINT("epoch.hold.take.reserved");
		}
		if (!counting) {
			/* From here a reaper cannot tell whether the count moved (epoch.h). */
			atomic_store_explicit(&list[n], off | TBL_HOLD_PENDING | TBL_HOLD_COUNTING, memory_order_relaxed);
			counting = 1;
		}
		if (atomic_compare_exchange_weak_explicit(&e->holds, &cur, (uint16_t)(cur + 1), memory_order_acq_rel,
		                                          memory_order_relaxed)) {
			break;
		}
	}
	if (TBL_UNLIKELY(cur >= TBL_HOLDS_PER_ENTRY_MAX || (cur == 0 && !reserved))) {
		/* Refused: at the count's ceiling, or past the budget. */
		if (reserved) {
			atomic_fetch_sub_explicit(&h->held_bytes, bytes, memory_order_relaxed);
			atomic_fetch_sub_explicit(&h->held_entries, 1, memory_order_relaxed);
		}
		TBL_CRASH_POINT("epoch.hold.take.undone");
		atomic_store_explicit(&s->nholds, n, memory_order_release);
		return TBL_ENOMEM;
	}
	if (cur != 0 && reserved) {
		atomic_fetch_sub_explicit(&h->held_bytes, bytes, memory_order_relaxed);   /* counted already */
		atomic_fetch_sub_explicit(&h->held_entries, 1, memory_order_relaxed);
	}
	TBL_CRASH_POINT("epoch.hold.take.counted");
	atomic_store_explicit(&list[n], off, memory_order_release);
	*cell = off;
	cell = &t->held_cache[e->hash & (TBL_HELD_CACHE - 2u)];   /* two ways: cell and cell + 1 */
	cell[cell[0] != 0 && cell[1] == 0] = off;
	return TBL_OK;
}

uint32_t tbl_holds(const tbl_t *t)
{
	return t->slot ? atomic_load_explicit(&t->slot->nholds, memory_order_relaxed) : 0;
}

/* Free the pieces of split entry `e`, which is being freed (allocator lock held). The directory is the
 * segment's layout (segment.h), so reclamation needs nothing of split.c, which sits above it. Out of
 * line, as it was in split.c: inlined, the rare loop made entry_free_locked too big to inline into the
 * reclamation loop, and every set paid a call (+16 instructions per set-record). */
static TBL_NOINLINE void pieces_free_locked(tbl_t *t, tbl_entry_t *e)
{
	const tbl_piece_ref_t *ref;
	uint32_t n, i;

	ref = tbl_entry_pieces(e, &n);
	for (i = 0; i < n; i++) {
		tbl_free(&t->hdr->alloc, t->base, ref[i].off);
		TBL_CRASH_POINT("split.free.piece");
	}
}

/* Give an entry's memory back: its block, and a split entry's pieces first (allocator lock held). */
static void entry_free_locked(tbl_t *t, uint64_t off)
{
	tbl_entry_t *e = tbl_entry_at(t, off);

	if (TBL_UNLIKELY(tbl_entry_split(e))) {
		pieces_free_locked(t, e);
	}
	tbl_free(&t->hdr->alloc, t->base, off);
}

/* Free the held entries whose holders are all gone (allocator lock held). */
static uint64_t held_sweep_locked(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	uint64_t *link = &h->held_head, off, freed = 0;

	if (!h->held_head || !atomic_exchange(&h->held_zeroed, 0)) {
		return 0;
	}
	while ((off = *link) != 0) {
		tbl_entry_t *e = tbl_entry_at(t, off);

		if (atomic_load_explicit(&e->holds, memory_order_acquire) != 0) {
			link = &e->retire_next;
			continue;
		}
		/* One store unlinks it: a crash before the free leaks the block, which the GC finds. */
		atomic_signal_fence(memory_order_seq_cst);
		__atomic_store_n(link, e->retire_next, __ATOMIC_RELAXED);   /* held_head: read unlocked */
		atomic_signal_fence(memory_order_seq_cst);
		TBL_CRASH_POINT("epoch.hold.sweep.unlinked");
		freed += e->bytes;
		entry_free_locked(t, off);
	}
	return freed;
}

/* How many records name the entry at `off` across every slot's hold list; -1 when one of them is pending
 * (someone is releasing it: its count is moving). Misc lock held. */
static int64_t hold_records(tbl_t *t, uint64_t off, uint32_t hwm)
{
	int64_t r = 0;
	uint32_t i, j, n;

	for (i = 0; i < hwm; i++) {
		tbl_slot_t *s = &t->slots[i];
		_Atomic uint64_t *list = tbl_slot_holds(t, s);

		if ((n = atomic_load_explicit(&s->nholds, memory_order_acquire)) > TBL_HOLD_MAX) {
			n = TBL_HOLD_MAX;
		}
		for (j = 0; j < n; j++) {
			uint64_t rec = atomic_load_explicit(&list[j], memory_order_acquire);

			if ((rec & ~(uint64_t)TBL_HOLD_FLAGS) != off) {
				continue;
			}
			if (rec & TBL_HOLD_PENDING) {
				return -1;
			}
			r++;
		}
	}
	return r;
}

/* A record dropped while pending with TBL_HOLD_COUNTING (its holder, or the reaper releasing it, was
 * killed between the record and the count: holds_lost) may have left its entry a count that no record
 * backs, and that entry would stay held for good. Once such an entry is retired and on the held list,
 * nobody can take a new hold on it (it is unreachable; holds are taken inside read sections), so its
 * count can only fall, and only by releases that mark their record pending first. Its true count is
 * then the number of records naming it: with no record of it pending anywhere, a count above that is
 * set down to it by a compare-and-swap against the count read before the records were (any release
 * meanwhile changes the count and fails it), with the 1 -> 0 bookkeeping of a last release. A fork
 * handing holds over adds counts, so a slot being handed over (claimed under the misc lock, which this
 * holds) makes the audit wait for a later pass. Allocator lock held; takes the misc lock. Returns 1 when
 * a count reached 0 (held_zeroed is raised: the sweep frees it). */
static int held_audit_locked(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	uint32_t i, hwm;
	uint64_t off, n = 0, max = h->alloc.used_blocks, fixed = 0;
	int zeroed = 0;

	if (tbl_misc_lock(t) != TBL_OK) {
		return 0;
	}
	hwm = atomic_load(&h->slots_hwm);
	if (!atomic_load_explicit(&h->held_entries, memory_order_acquire)) {
		atomic_store_explicit(&h->holds_lost, 0, memory_order_relaxed);   /* no count above 0 anywhere */
		tbl_misc_unlock(t);
		return 0;
	}
	for (i = 0; i < hwm; i++) {
		if (atomic_load(&t->slots[i].pid) != 0 && (atomic_load(&t->slots[i].flags) & TBL_SLOT_HANDOVER)) {
			tbl_misc_unlock(t);
			return 0;
		}
	}
	for (off = h->held_head; off && n <= max; off = tbl_entry_at(t, off)->retire_next, n++) {
		tbl_entry_t *e = tbl_entry_at(t, off);
		uint16_t c = atomic_load_explicit(&e->holds, memory_order_acquire);
		int64_t r;

		if (c == 0) {
			zeroed = 1;   /* set down by an audit killed before it raised held_zeroed: swept now */
			continue;
		}
		if ((r = hold_records(t, off, hwm)) < 0 || r >= c) {
			continue;
		}
		if (!atomic_compare_exchange_strong_explicit(&e->holds, &c, (uint16_t)r, memory_order_acq_rel,
		                                             memory_order_relaxed)) {
			continue;   /* a release moved it: the next pass looks again */
		}
		/* Killed here, the entry is still swept (above, by the next audit: holds_lost is not lowered yet),
		 * but held_bytes and held_entries stay one entry high, as after epoch.hold.take.reserved. */
		TBL_CRASH_POINT("epoch.hold.audit.set_down");
		fixed += (uint64_t)c - (uint64_t)r;
		if (r == 0) {
			atomic_fetch_sub_explicit(&h->held_bytes, e->bytes, memory_order_relaxed);
			atomic_fetch_sub_explicit(&h->held_entries, 1, memory_order_relaxed);
			zeroed = 1;
		}
	}
	/* The sweep is asked for before holds_lost comes down, so that an audit killed in between has still
	 * handed what it set down to the sweep. What was not found may still be on a live or queued entry:
	 * audited once it reaches the held list. */
	if (zeroed) {
		atomic_store(&h->held_zeroed, 1);
	}
	if (fixed) {
		uint32_t lost = atomic_load_explicit(&h->holds_lost, memory_order_relaxed);
		atomic_store_explicit(&h->holds_lost, fixed >= lost ? 0 : lost - (uint32_t)fixed, memory_order_relaxed);
	}
	tbl_misc_unlock(t);
	return zeroed;
}

uint64_t tbl_held_retired_bytes_locked(tbl_t *t)
{
	uint64_t off, bytes = 0, n = 0, max = t->hdr->alloc.used_blocks;

	/* The held list, and the held entries still in the retire queue (waiting for readers' epochs). */
	for (off = t->hdr->held_head; off && n <= max; off = tbl_entry_at(t, off)->retire_next, n++) {
		bytes += tbl_entry_at(t, off)->bytes;
	}
	for (off = t->hdr->retire_head; off && n <= max; off = tbl_entry_at(t, off)->retire_next, n++) {
		if (atomic_load_explicit(&tbl_entry_at(t, off)->holds, memory_order_relaxed) != 0) {
			bytes += tbl_entry_at(t, off)->bytes;
		}
	}
	return bytes;
}

void tbl_release_holds(tbl_t *t)
{
	tbl_header_t *h = t->hdr;
	uint32_t i, hwm;
	uint64_t now;

	if (!t->slot) {
		return;
	}
	if (atomic_load_explicit(&t->slot->nholds, memory_order_relaxed) > 0) {
		int zeroed = slot_holds_drop(t, t->slot);

		hold_set_clear(t);
		if (zeroed && __atomic_load_n(&h->held_head, __ATOMIC_RELAXED) && tbl_alloc_lock(t) == TBL_OK) {
			held_sweep_locked(t);   /* (an unusable allocator lock leaves them for a later sweep) */
			tbl_alloc_unlock(t);
		}
	}
	if (!t->handed_over) {
		return;
	}
	/* A slot claimed for a child that has not adopted it within the grace period never will be (the
	 * fork failed): give it back. One still young is left for the next release, or for the reaper once
	 * this process is gone. */
	t->handed_over = 0;
	now = tbl_clock_monotonic_ms();
	hwm = atomic_load(&h->slots_hwm);
	if (tbl_misc_lock(t) != TBL_OK) {
		return;
	}
	for (i = 0; i < hwm; i++) {
		tbl_slot_t *s = &t->slots[i];
		if (s == t->slot || atomic_load(&s->pid) != (int32_t)t->pid || atomic_load(&s->tid) != (int32_t)t->tid
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

/* Whether the owner of slot `s` is gone for the table's purposes: dead, its pid reused, a thread that
 * ended (its process lives on), or (when `check_map`) alive but no longer mapping the segment because it
 * exec'd another program. */
static int owner_gone(tbl_t *t, tbl_slot_t *s, int32_t pid, int check_map)
{
	int32_t tid = atomic_load(&s->tid);

	if (!tbl_proc_alive((pid_t)pid, s->start_time)) {
		return 1;
	}
	/* A handover slot carries its parent thread's id until the child adopts it: the parent's business. */
	if (tid != 0 && !(atomic_load(&s->flags) & TBL_SLOT_HANDOVER)
	    && !tbl_proc_thread_alive((pid_t)pid, (pid_t)tid, s->tid_start)) {
		return 1;
	}
	return check_map && tbl_proc_maps((pid_t)pid, t->base, t->hdr->map_ino) == 0;
}

/* Release the slots of holders that died (and, with `maps`, that exec'd: that reads /proc/<pid>/maps)
 * (takes the misc lock). With `all`, slots without holds whose owner died are released too. Handover
 * slots still owned by a live parent are its business (tbl_release_holds). */
static unsigned holders_reap(tbl_t *t, int maps, int all)
{
	tbl_header_t *h = t->hdr;
	uint32_t i, hwm = atomic_load(&h->slots_hwm);
	unsigned reaped = 0;

	if (tbl_misc_lock(t) != TBL_OK) {
		return 0;   /* never reap without the lock; the holds stay until it works again */
	}
	for (i = 0; i < hwm; i++) {
		tbl_slot_t *s = &t->slots[i];
		int32_t pid = atomic_load(&s->pid);
		int holding;

		if (pid == 0 || s == t->slot) {
			continue;
		}
		holding = atomic_load(&s->nholds) != 0;
		if (!holding && !all) {
			continue;
		}
		if (owner_gone(t, s, pid, maps && holding && !(atomic_load(&s->flags) & TBL_SLOT_HANDOVER))) {
			slot_free_locked(t, s);
			reaped++;
		}
	}
	tbl_misc_unlock(t);
	return reaped;
}

unsigned tbl_slots_reap_gone(tbl_t *t)
{
	return holders_reap(t, 1, 1);
}

unsigned tbl_holders_check(tbl_t *t, int force)
{
	tbl_header_t *h = t->hdr;
	uint64_t now, last;
	int periodic;

	if (!atomic_load_explicit(&h->held_entries, memory_order_relaxed) && !__atomic_load_n(&h->held_head, __ATOMIC_RELAXED)) {
		return 0;   /* nobody holds anything */
	}
	now = tbl_clock_monotonic_ms();
	last = __atomic_load_n(&h->holds_reap_ms, __ATOMIC_RELAXED);
	/* One process per period does the full check (the maps too); the others skip it. */
	periodic = now - last >= TBL_HOLDS_REAP_MS
	           && __atomic_compare_exchange_n(&h->holds_reap_ms, &last, now, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	if (!periodic && !force) {
		return 0;
	}
	return holders_reap(t, periodic || force > 1, 0);
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
		/* Checking every slot (all are taken): one whose owner exec'd another program is free too. */
		if (owner_gone(t, s, pid, max_epoch == 0 && !(atomic_load(&s->flags) & TBL_SLOT_HANDOVER))) {
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

/* A slot for the child of a holding parent: owned by the parent until the child adopts it, with a copy
 * of the parent's hold records (each counted again on its entry). When every slot is taken, dead owners
 * are reaped once. NULL when there is still none: the child then holds nothing of its own, and the
 * arrays it inherited stay valid only while the parent's holds last (documented). */
static tbl_slot_t *handover_slot_take(tbl_t *t)
{
	_Atomic uint64_t *from = tbl_slot_holds(t, t->slot), *to;
	uint32_t i, n = atomic_load(&t->slot->nholds), k = 0;
	tbl_slot_t *s;
	int attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		if (tbl_misc_lock(t) != TBL_OK) {
			return NULL;
		}
		s = slot_take_free(t, t->pid, t->slot->start_time, t->tid, t->slot->tid_start);
		if (s) {
			s->handover_ms = tbl_clock_monotonic_ms();
			atomic_store(&s->flags, TBL_SLOT_HANDOVER);
		}
		tbl_misc_unlock(t);
		if (s || tbl_slots_reap(t, 0) == 0) {
			break;
		}
	}
	if (!s) {
		return NULL;
	}
	TBL_CRASH_POINT("epoch.hold.handover.claimed");
	to = tbl_slot_holds(t, s);
	if (n > 0 && hold_list_reserve(t, to) != TBL_OK) {
		/* A named segment's file has no room for the child's list: it holds nothing, as without a slot. */
		if (tbl_misc_lock(t) == TBL_OK) {
			slot_free_locked(t, s);
			tbl_misc_unlock(t);
		}
		return NULL;
	}
	for (i = 0; i < n; i++) {
		uint64_t rec = atomic_load_explicit(&from[i], memory_order_relaxed);

		if (!rec || (rec & TBL_HOLD_PENDING)) {
			continue;
		}
		/* The parent's own hold keeps the entry allocated, so the count is above 0 already. */
		atomic_store_explicit(&to[k], rec | TBL_HOLD_PENDING | TBL_HOLD_COUNTING, memory_order_relaxed);
		atomic_store_explicit(&s->nholds, k + 1, memory_order_release);
		TBL_CRASH_POINT("epoch.hold.handover.recorded");
		atomic_fetch_add_explicit(&tbl_entry_at(t, rec)->holds, 1, memory_order_acq_rel);
		TBL_CRASH_POINT("epoch.hold.handover.counted");
		atomic_store_explicit(&to[k], rec, memory_order_release);
		k++;
	}
	return s;
}

/* Thread handles of this process (tbl_thread_open), linked through thread_next/prev: in a forked child
 * only the thread that forked goes on, so only its handle may keep a slot there. A spin flag, not a
 * mutex (the core has no mutex of its own outside the segment): it is held for a list update, and by a
 * forking thread from the prepare step to the parent or child step. */
static tbl_t *threads;
static atomic_flag threads_busy = ATOMIC_FLAG_INIT;
static pid_t fork_tid;   /* the forking thread, between the prepare step and the parent or child step */

static void threads_lock(void)
{
	while (atomic_flag_test_and_set_explicit(&threads_busy, memory_order_acquire)) {
	}
}

static void threads_unlock(void)
{
	atomic_flag_clear_explicit(&threads_busy, memory_order_release);
}

/* In a holding parent, before fork(): claim the child's slot with a copy of the holds, so the pointers
 * the child inherits are covered from its first instant. */
static void fork_prepare_one(tbl_t *t)
{
	tbl_slot_t *s;

	if (!t->slot || atomic_load(&t->slot->nholds) == 0) {
		return;
	}
	s = handover_slot_take(t);
	t->handover = s;
	t->handed_over |= s != NULL;
}

/* In the child: the slot belongs to the parent. A child of a holding parent adopts the slot its parent
 * prepared (its hold set, inherited, matches that slot's records); any other child claims a fresh one on
 * its next call and holds nothing. */
static void fork_child_one(tbl_t *t)
{
	tbl_slot_t *s = t->handover;

	t->handover = NULL;
	t->handed_over = 0;
	t->slot_retry_ms = 0;
	t->slot = NULL;
	if (t->tid) {
		t->tid = tbl_proc_thread_self();   /* the forking thread is the child's main thread */
	}
	if (s) {
		pid_t me = tbl_proc_self();
		int32_t parent = (int32_t)t->pid;

		/* Under the misc lock, so the reaper never sees the new pid with the parent's start time. */
		if (tbl_misc_lock(t) == TBL_OK) {
			if (atomic_compare_exchange_strong(&s->pid, &parent, (int32_t)me)) {
				s->start_time = tbl_proc_start_time(me);
				s->tid_start = t->tid ? tbl_proc_thread_start_time(me, t->tid) : 0;
				atomic_store(&s->tid, (int32_t)t->tid);
				atomic_store(&s->flags, 0);
				t->slot = s;
			}
			tbl_misc_unlock(t);
		}
	}
	if (t->slot) {
		t->pid = tbl_proc_self();
	} else {
		hold_set_clear(t);
		t->pid = 0;
	}
}

static void on_fork_prepare(void)
{
	int i;
	tbl_t *t;

	threads_lock();   /* until the parent or child step: no thread handle comes or goes across the fork */
	fork_tid = tbl_proc_thread_self();
	for (i = 0; i < TBL_MAX_TRACKED; i++) {
		if (tracked[i]) {
			fork_prepare_one(tracked[i]);
		}
	}
	for (t = threads; t; t = t->thread_next) {
		if (t->tid == fork_tid) {
			fork_prepare_one(t);
		}
	}
}

static void on_fork_parent(void)
{
	int i;
	tbl_t *t;

	for (i = 0; i < TBL_MAX_TRACKED; i++) {
		if (tracked[i]) {
			tracked[i]->handover = NULL;
		}
	}
	for (t = threads; t; t = t->thread_next) {
		if (t->tid == fork_tid) {
			t->handover = NULL;
		}
	}
	threads_unlock();
}

/* The other threads' handles stay in the child's memory, but their threads do not exist there: they
 * forget their slots (the parent's threads still own them) and are never used again, but may still be
 * closed (tbl_thread_close, e.g. by the child's module shutdown), which then releases nothing. */
static void on_fork_child(void)
{
	int i;
	tbl_t *t;

	for (i = 0; i < TBL_MAX_TRACKED; i++) {
		if (tracked[i]) {
			fork_child_one(tracked[i]);
		}
	}
	for (t = threads; t; t = t->thread_next) {
		if (t->tid == fork_tid) {
			fork_child_one(t);
		} else {
			t->handover = NULL;
			t->handed_over = 0;
			t->slot = NULL;
			t->pid = 0;
			hold_set_clear(t);
		}
	}
	threads_unlock();
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

void tbl_epoch_track_thread(tbl_t *t)
{
	tbl_proc_on_fork(on_fork_prepare, on_fork_parent, on_fork_child);
	threads_lock();
	t->thread_prev = NULL;
	t->thread_next = threads;
	if (threads) {
		threads->thread_prev = t;
	}
	threads = t;
	threads_unlock();
}

void tbl_epoch_untrack_thread(tbl_t *t)
{
	threads_lock();
	if (t->thread_prev) {
		t->thread_prev->thread_next = t->thread_next;
	} else if (threads == t) {
		threads = t->thread_next;
	}
	if (t->thread_next) {
		t->thread_next->thread_prev = t->thread_prev;
	}
	t->thread_next = t->thread_prev = NULL;
	threads_unlock();
}

/* ---- retire and reclaim ------------------------------------------------------------------------- */

void tbl_retire_locked(tbl_t *t, uint64_t entry_off)
{
	tbl_header_t *h = t->hdr;
	tbl_entry_t *e = tbl_entry_at(t, entry_off);

	e->retire_next = 0;
	/* An atomic store: tbl_lookup_held() reads it without the stripe lock (a zero-copy hit). */
	__atomic_store_n(&e->retire_epoch, atomic_fetch_add_explicit(&h->epoch, 1, memory_order_seq_cst),
	                 __ATOMIC_RELEASE);
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
	uint64_t freed, min;

	h->retires_since_reclaim = 0;
	/* Entries held by dead holders, live or retired, would stay held for good: look for those holders
	 * whenever anything is held (at most every 200 ms, or now when asked to reap). */
	tbl_holders_check(t, reap ? 2 : 0);
	if (TBL_UNLIKELY(atomic_load_explicit(&h->holds_lost, memory_order_relaxed)) && h->held_head) {
		held_audit_locked(t);   /* a kill left a count no record backs (rare: see held_audit_locked) */
	}
	freed = held_sweep_locked(t);
	if (!h->retire_head) {
		return freed;
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
		TBL_CRASH_POINT("epoch.reclaim.popped");
		if (atomic_load_explicit(&e->holds, memory_order_acquire) != 0) {
			/* No reader can reach it any more, but a zero-copy reader still uses it. */
			e->retire_next = h->held_head;
			atomic_signal_fence(memory_order_seq_cst);
			__atomic_store_n(&h->held_head, off, __ATOMIC_RELAXED);   /* read unlocked: tbl_release_holds() */
			continue;
		}
		freed += e->bytes;
		entry_free_locked(t, off);
	}
	return freed;
}
