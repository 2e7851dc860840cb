/*
 * image.h - zero-copy arrays (table.zero_copy): an array laid out in the segment the way opcache lays
 * out its immutable arrays, so that get() can return the segment's own zend_array without copying.
 *
 * An image is built in place by the core (tbl_value_ops_t.write, under the stripe lock), from an array
 * made only of null, bools, ints, floats, strings and such arrays. Inside it:
 *   - every array is refcount 2, GC_ARRAY | IS_ARRAY_IMMUTABLE | GC_NOT_COLLECTABLE, with
 *     HASH_FLAG_STATIC_KEYS and no destructor: the engine separates it before any write;
 *   - every string is refcount 2, GC_STRING | IS_STR_INTERNED, never IS_STR_PERMANENT (caches that keep
 *     permanent strings by pointer across requests would then keep pointers into the segment), with
 *     its hash precomputed;
 *   - pointers are absolute: the segment is mapped before workers fork, at the same address in all.
 * Arrays derived from an image (array_merge, a separated copy) still point into it, so a process that
 * was handed one holds that entry (tbl_hold) until its request's memory is gone (post_deactivate).
 */
#ifndef PHP_TABLE_IMAGE_H
#define PHP_TABLE_IMAGE_H

#include "php.h"
#include "core/table_core.h"

/* Write and compare images; `data` is the source HashTable. */
extern const tbl_value_ops_t php_table_image_ops;

/* The size of `ht`'s image in bytes, or 0 when it cannot have one (it holds objects, references or
 * resources, is nested deeper than PHP_TABLE_MAX_DEPTH, or its image would be larger than
 * php_table_image_limit: too big for the table as an image, it may still fit compactly) or should not:
 * its image would be over twice its compact encoding, and either memory is short (`memory_short`, from
 * tbl_memory_short()) or the image is 64 KiB or more. In that last case `native` (empty on entry) holds
 * the compact encoding on return, for the caller to store; otherwise `native` is left empty. */
size_t php_table_image_size(const HashTable *ht, bool memory_short, smart_str *native);
/* The largest image the table can hold (set in MINIT from the table's geometry; SIZE_MAX until then). */
extern size_t php_table_image_limit;

/* The array an image holds, ready to hand out: immutable, so the zval carries no refcount flags. */
static zend_always_inline void php_table_image_zval(const void *image, zval *out)
{
	Z_ARR_P(out) = (zend_array *)image;
	Z_TYPE_INFO_P(out) = IS_ARRAY;
}

/* This process's segment base minus the address its images were written for (its creator's): not 0
 * only for a named segment mapped elsewhere, where images are copied out, never handed out. */
extern ptrdiff_t php_table_image_shift;

/* A process-local deep copy of an image (for reads that do not hold the entry), relocated by
 * php_table_image_shift. */
zend_result php_table_image_copy(const void *image, uint32_t len, zval *out);
/* The same, from a copy of an image's bytes made elsewhere (`copy`), whose pointers still name the place
 * it was copied from (`orig`). */
zend_result php_table_image_copy_moved(const void *copy, uint32_t len, const void *orig, zval *out);

#endif
