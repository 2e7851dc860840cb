/*
 * gdsf.h - gdsf's half of eviction (gdsf.c): candidate windows from a sweep over the heap, and the moves
 * that keep a window's most valuable entries. Called by evict.c with the allocator lock held.
 */
#ifndef TBL_GDSF_H
#define TBL_GDSF_H

#include "window.h"

#define TBL_GDSF_WINDOWS       32u    /* windows the sweep offers per eviction */
#define TBL_MOVE_TARGETS       16u    /* free blocks (the largest) an eviction plans to move entries to */

/* Up to `max` windows of at least `need` bytes that follow one another upwards from the allocator's
 * hand. *stop: the block the sweep would have looked at next. Returns how many. */
unsigned tbl_gdsf_sweep(tbl_t *t, uint64_t need, uint32_t now_sec, window_t *out, unsigned max,
                        uint64_t *stop);

/* The hand passes the blocks from where it is up to `w` (about to be evicted), stamping the reads of the
 * entries it passes, then moves past `w`. */
void tbl_gdsf_pass(tbl_t *t, const window_t *w, uint32_t now_sec);

/* Choose what `w` keeps: its most valuable movable entries, each with a free block of `free` (the
 * largest first, `nfree` of them) outside the window to move to. */
void tbl_gdsf_plan(tbl_t *t, window_t *w, const uint64_t *free, unsigned nfree);

/* Move entry `e` (its stripe and the allocator lock held) into free block `target`, outside its window.
 * 0 when it no longer fits there: it is evicted with the rest. */
int tbl_gdsf_move(tbl_t *t, tbl_entry_t *e, uint64_t target);

/* After evicting a window: the inflation clock rises to `floor`, the lowest rank among the live entries
 * of every candidate window, when that is above it. */
void tbl_gdsf_note_evicted(tbl_header_t *h, uint32_t floor);

#endif
