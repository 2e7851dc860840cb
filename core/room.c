/*
 * room.c - the memory layer's one call upwards: a block of this size, evicting if the policy allows.
 *
 * Writers (write.c) and split values (split.c) ask here for a block; nothing above this file calls the
 * allocator, reclamation or eviction for an entry's block. When an allocation fails, the writer
 * (holding its own stripe lock) tries, in order:
 *   1. reclamation of retired blocks no reader can still see (epoch.c);
 *   2. removal of expired entries, in the stripes whose earliest-expiry hint has passed (evict.c);
 *   3. unless the policy is noeviction, eviction of ONE window (tbl_evict_window, evict.c), which
 *      reclaims and allocates in the same hold of the allocator lock;
 *   4. when the window's blocks (or anything else retired) still wait for readers, a short wait (at
 *      most TBL_ROOM_WAIT_MS, with one check for dead readers) instead of evicting more; no wait at
 *      all when the oldest pin is the writer's own (tbl_pin), which only its request's end releases.
 * A full table therefore costs a failing set() a bounded time and never wipes anything wholesale: one
 * write evicts at most one window while readers hold what it retired, and TBL_EVICT_MAX_WINDOWS in all
 * (core/DESIGN.md, "TTL and eviction", bound 1).
 *
 * Every block handed out has been through tbl_entry_block (entry.h): not retired, held by nobody, its
 * allocator fresh mark cleared.
 */
#include <sched.h>
#include "entry.h"
#include "epoch.h"
#include "evict.h"
#include "expire.h"
#include "room.h"
#include "sync.h"

#define TBL_EVICT_MAX_WINDOWS  16u    /* windows one write may evict, in all: beyond the first, each only
                                       * replaces room another writer took (see tbl_room_alloc) */
#define TBL_EVICT_RESAMPLES    8u     /* fresh samples before a write that found no window fails */
#define TBL_ROOM_WAIT_MS       200u   /* longest a writer waits for pinned blocks */

uint64_t tbl_room_alloc_free(tbl_t *t, uint64_t min, uint64_t max)
{
	tbl_alloc_t *a = &t->hdr->alloc;
	uint64_t largest, off = 0;

	if (tbl_alloc_lock(t) != TBL_OK) {
		t->room_lock_failed = 1;
		return 0;
	}
	largest = tbl_alloc_largest_free(a, t->base);
	if (largest >= min) {
		off = tbl_entry_block(t, tbl_alloc(a, t->base, largest < max ? largest : max));
	}
	tbl_alloc_unlock(t);
	return off;
}

static int can_still_evict(const tbl_header_t *h, unsigned windows)
{
	return h->policy != TBL_POLICY_NOEVICTION && windows < TBL_EVICT_MAX_WINDOWS;
}

uint64_t tbl_room_alloc(tbl_t *t, uint32_t held, uint64_t size, tbl_now_t now)
{
	tbl_header_t *h = t->hdr;
	uint64_t deadline = 0;
	int expired_tried = 0, reaped = 0, reap_now = 0, waited_out = 0, holders_checked = 0;
	unsigned windows = 0, unlucky = 0;

	if (!t->rng) {
		t->rng = ((uint64_t)t->pid << 32) ^ now.tick ^ 0x9E3779B97F4A7C15ull;
	}
	for (;;) {
		uint64_t off, pending, ms, min;
		/* Once we are waiting, check (once per call) whether the readers pinning the retired blocks
		 * are dead processes. */
		int reap = (deadline != 0 || reap_now) && !reaped;

		reaped |= reap;
		if (tbl_alloc_lock(t) != TBL_OK) {
			t->room_lock_failed = 1;   /* an unusable or stuck allocator lock: no room (never allocate
			                              unlocked), and the write says why rather than "no room" */
			return 0;
		}
		off = tbl_alloc(&h->alloc, t->base, size);
		if (!off && (h->retire_head || h->held_head)) {   /* held_head: epoch.c, zero-copy holds */
			tbl_reclaim_locked(t, reap);
			off = tbl_alloc(&h->alloc, t->base, size);
		}
		tbl_entry_block(t, off);
		pending = h->retired_bytes;
		tbl_alloc_unlock(t);
		if (off) {
			return off;
		}
		if (!expired_tried) {
			expired_tried = 1;
			if (tbl_expire_for_room(t, held, now.sec)) {
				continue;
			}
		}
		/* Evict one window. Once one is evicted, its blocks only wait for readers to leave: wait for
		 * them rather than evict a second window (that is what keeps the price of a write bounded).
		 * Nor evict at all while what already waits for readers could cover the request (with slack
		 * for fragmentation): those readers leave, or are found dead and reaped, and a live entry
		 * evicted instead would be lost for nothing. Once waiting for them has run out, evict after
		 * all (at most TBL_EVICT_MAX_WINDOWS in all) rather than fail the write. */
		if (h->policy != TBL_POLICY_NOEVICTION && (windows == 0 || pending == 0 || waited_out)
		    && (pending < 2 * size || waited_out) && windows < TBL_EVICT_MAX_WINDOWS) {
			tbl_evict_result_t r = tbl_evict_window(t, held, size, now, &off);

			if (off) {
				return off;
			}
			if (r == TBL_EV_DONE) {
				windows++;
				continue;
			}
			if (r == TBL_EV_NONE && pending == 0) {
				/* No sampled window could grow to the size: barriers (retired or held blocks) hemmed
				 * in every seed. Held ones may be held by processes that died: release their holds
				 * (once per write), which makes those entries evictable. Other seeds may do better;
				 * after a few samples, it cannot fit. */
				if (!holders_checked) {
					holders_checked = 1;
					if (tbl_holders_check(t, 1) > 0) {
						continue;
					}
				}
				if (++unlucky < TBL_EVICT_RESAMPLES) {
					continue;
				}
				return 0;
			}
		} else if (pending == 0) {
			return 0;       /* noeviction, and nothing will be freed */
		}
		/* Blocks are pinned by readers (or a victim's stripe was busy). Readers leave within
		 * microseconds unless descheduled, so wait, for a bounded time; but not for a reader that
		 * already made a writer wait in vain (a long scan, a stuck process): fail at once instead. */
		min = tbl_epoch_min_active(t);
		ms = tbl_clock_monotonic_ms();
		if (min != UINT64_MAX && min == atomic_load(&h->stuck_epoch)) {
			if (reaped) {
				if (!waited_out && can_still_evict(h, windows)) {
					waited_out = 1;
					continue;
				}
				return 0;
			}
			/* Known to be stuck: do not wait, but do check once whether that reader has died. */
			reap_now = 1;
			continue;
		}
		if (!deadline) {
			deadline = ms + TBL_ROOM_WAIT_MS;
		} else if (ms >= deadline) {
			atomic_store(&h->stuck_epoch, min);
			if (!waited_out && can_still_evict(h, windows)) {
				waited_out = 1;
				continue;
			}
			return 0;
		}
		sched_yield();
	}
}
