/*
 * split.c - values stored in pieces, so that a write never fails for want of one contiguous hole.
 *
 * WHY. An entry held by a zero-copy reader cannot move and cannot be evicted until its holder's request
 * ends. A few of them spread over the heap cut the free memory into holes: a table almost empty could
 * refuse a 2 MB value because no hole of 2 MB is left, however much else is free. Eviction cannot help
 * (a window never crosses a held block), nor can moving entries (a held one is exactly what must not
 * move). So a value that finds no single block is stored in several, as memcached chains its large
 * items; reads copy it together. Only values without ops can be split: a zero-copy image points into
 * itself and must be contiguous, so the binding stores such an array again in its compact encoding
 * (TBL_ENOCONTIG). Split entries are never held, so they never fragment the heap themselves.
 *
 * LAYOUT (segment.h). The entry's own block holds its header (type | TBL_T_SPLIT), its key and a
 * directory of piece references; each piece block holds a tbl_entry_t header of type TBL_T_PIECE whose
 * `next` names the entry, then value bytes. Pieces are allocated first (the largest free blocks first,
 * then, when none is left that carries TBL_SPLIT_MIN_PIECE bytes, with eviction as any write, halving
 * the request until a window can be found; at most TBL_SPLIT_ROOM_FAILS failures and TBL_SPLIT_ROOM_MS
 * in all, so that one write's time stays bounded), the entry's block last, when the directory's size is
 * known; the pieces are then given their owner. Nothing is linked before the whole value is written.
 * A write that failed because memory waits for readers (as much retired as the value) is not split:
 * its pieces would wait the same way.
 *
 * LIFE. Everything else treats the entry as one: it is linked, counted (its `bytes` include every piece),
 * retired and reclaimed as one, and when it is freed (epoch.c) its pieces are freed with it. Eviction
 * meets a piece inside a window like any block: it evicts the piece's owner (evict.c).
 *
 * CRASHES (the points below). A writer killed before its entry is linked leaves used blocks nothing
 * references: the GC retires each of them on its own, and clears the split mark of an unreferenced
 * entry first, so that reclaiming it never follows a directory that may be half written or whose pieces
 * the GC retires separately. A reclaim killed between freeing the pieces and freeing the entry leaves
 * the entry unreferenced: the same rule applies. The GC marks the pieces of every referenced split entry.
 */
#include <string.h>
#include "crash.h"
#include "room.h"
#include "split.h"
#include "sync.h"
#include "table_core.h"

/* Value bytes piece block `off` can carry. */
static uint64_t piece_capacity(const tbl_t *t, uint64_t off)
{
	return tbl_alloc_block_size(t->base, off) - TBL_ALLOC_HDR - sizeof(tbl_entry_t);
}

/* A block that carries between `lo` and `hi` value bytes (as many as the largest free block allows),
 * without evicting; failing that, make room as any write does, for *room bytes (at most hi), then half
 * as many, down to `lo` (a window of a smaller size can often be found between held blocks when a
 * larger one cannot). *room keeps the size that worked for the next piece, so each size fails once per
 * value; *fails and `deadline` (monotonic ms) bound the whole value's effort. */
static uint64_t piece_block(tbl_t *t, uint32_t held, uint64_t lo, uint64_t hi, uint64_t *room, unsigned *fails,
                            uint64_t deadline, tbl_now_t now)
{
	uint64_t off = tbl_room_alloc_free(t, lo + sizeof(tbl_entry_t), hi + sizeof(tbl_entry_t)), want;

	for (want = *room < hi ? *room : hi; !off; want = want / 2 > lo ? want / 2 : lo) {
		if (*fails == 0 || tbl_clock_monotonic_ms() >= deadline) {
			break;
		}
		*room = want;
		if (!(off = tbl_room_alloc(t, held, want + sizeof(tbl_entry_t), now))) {
			--*fails;
			if (want <= lo) {
				break;
			}
		}
	}
	return off;
}

static void pieces_free(tbl_t *t, const tbl_split_t *sp)
{
	uint32_t i;

	if (!sp->n || tbl_alloc_lock(t) != TBL_OK) {
		return;   /* an unusable allocator lock: the GC retires the pieces */
	}
	for (i = 0; i < sp->n; i++) {
		tbl_free(&t->hdr->alloc, t->base, sp->off[i]);
		TBL_CRASH_POINT("split.abandon.freed");
	}
	tbl_alloc_unlock(t);
}

uint64_t tbl_split_alloc(tbl_t *t, uint32_t held, uint64_t hash, size_t klen, uint32_t len, tbl_now_t now,
                         tbl_split_t *sp)
{
	uint64_t min = ((uint64_t)len + TBL_SPLIT_MAX_PIECES - 1) / TBL_SPLIT_MAX_PIECES, head, room = len, waiting;
	uint32_t left = len, i;
	unsigned fails = TBL_SPLIT_ROOM_FAILS;
	uint64_t deadline = tbl_clock_monotonic_ms() + TBL_SPLIT_ROOM_MS;

	if (min < TBL_SPLIT_MIN_PIECE) {
		min = TBL_SPLIT_MIN_PIECE;
	}
	sp->n = 0;
	sp->bytes = 0;
	if (tbl_alloc_lock(t) != TBL_OK) {
		return 0;
	}
	waiting = t->hdr->retired_bytes;
	tbl_alloc_unlock(t);
	if (waiting >= len) {
		return 0;
	}
	while (left) {
		uint64_t off, cap;
		tbl_entry_t *p;

		/* At most TBL_SPLIT_MAX_PIECES, and the entry's `bytes` (32 bits) must count them all. */
		if (sp->n == TBL_SPLIT_MAX_PIECES
		    || sp->bytes + left + (uint64_t)(TBL_SPLIT_MAX_PIECES + 1) * 96u + 16384u > UINT32_MAX
		    || !(off = piece_block(t, held, left < min ? left : min, left, &room, &fails, deadline, now))) {
			pieces_free(t, sp);
			return 0;
		}
		cap = piece_capacity(t, off);
		p = tbl_entry_at(t, off);
		/* Its header says what it is before anything else happens to it; no owner yet. */
		atomic_store_explicit(&p->next, 0, memory_order_relaxed);
		p->hash = hash;
		p->retire_next = 0;
		p->ns = 0;
		p->key_len = 0;
		p->type = TBL_T_PIECE;
		p->flags = 0;
		p->val_len = cap < left ? (uint32_t)cap : left;
		p->bytes = (uint32_t)tbl_alloc_block_size(t->base, off);
		sp->off[sp->n] = off;
		sp->len[sp->n] = p->val_len;
		sp->bytes += p->bytes;
		sp->n++;
		left -= p->val_len;
		TBL_CRASH_POINT("split.piece.allocated");
	}
	head = tbl_room_alloc(t, held, tbl_entry_alloc_size(klen, TBL_T_SPLIT, tbl_piece_dir_size(sp->n)), now);
	if (!head) {
		pieces_free(t, sp);
		return 0;
	}
	sp->bytes += tbl_alloc_block_size(t->base, head);
	for (i = 0; i < sp->n; i++) {
		atomic_store_explicit(&tbl_entry_at(t, sp->off[i])->next, head, memory_order_relaxed);
	}
	TBL_CRASH_POINT("split.pieces.owned");
	return head;
}

void tbl_split_write(tbl_t *t, tbl_entry_t *e, const tbl_split_t *sp, const void *data)
{
	tbl_piece_dir_t *d = (tbl_piece_dir_t *)(void *)tbl_entry_value(e);
	tbl_piece_ref_t *ref = (tbl_piece_ref_t *)(void *)(d + 1);
	const unsigned char *src = data;
	uint32_t i;

	d->n = sp->n;
	d->reserved = 0;
	for (i = 0; i < sp->n; i++) {
		ref[i].off = sp->off[i];
		ref[i].len = sp->len[i];
		ref[i].reserved = 0;
		memcpy(tbl_piece_data(t, sp->off[i]), src, sp->len[i]);
		src += sp->len[i];
	}
}

void tbl_view_copy(const tbl_t *t, const tbl_view_t *v, void *dst)
{
	const tbl_piece_ref_t *ref;
	unsigned char *out = dst;
	uint32_t n, i, left = v->len;

	if (!(v->type & TBL_T_SPLIT)) {
		if (v->len) {
			memcpy(dst, v->data, v->len);
		}
		return;
	}
	ref = tbl_entry_pieces(tbl_entry_at(t, v->entry), &n);
	for (i = 0; i < n && left; i++) {
		uint32_t take = ref[i].len < left ? ref[i].len : left;

		memcpy(out, tbl_piece_data(t, ref[i].off), take);
		out += take;
		left -= take;
	}
}

int tbl_split_equals(const tbl_t *t, const tbl_entry_t *e, const void *data, uint32_t len)
{
	const unsigned char *p = data;
	const tbl_piece_ref_t *ref;
	uint32_t n, i;

	if (e->val_len != len) {
		return 0;
	}
	ref = tbl_entry_pieces(e, &n);
	for (i = 0; i < n; i++) {
		if (ref[i].len > len || memcmp(tbl_piece_data(t, ref[i].off), p, ref[i].len) != 0) {
			return 0;
		}
		p += ref[i].len;
		len -= ref[i].len;
	}
	return len == 0;
}
