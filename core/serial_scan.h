/*
 * serial_scan.h - what a value in PHP's serialize() format names and how deep it nests, read before
 * unserialize() builds anything of it (serial_scan.c).
 *
 * A pure function over a byte range: no table, no lock, no allocation, no recursion. The binding runs it
 * on a value that came from somewhere the table does not control (a tiered namespace's value, which any
 * client of the Redis may have written: serializer/php.c) and refuses the value unless it says OK.
 */
#ifndef TBL_SERIAL_SCAN_H
#define TBL_SERIAL_SCAN_H

#include <stddef.h>

typedef enum tbl_serial_scan {
	TBL_SERIAL_OK = 0,    /* every class named is allowed and nothing nests deeper than max_depth */
	TBL_SERIAL_CORRUPT,   /* not serialize()'s format: a token it never writes, or one cut short */
	TBL_SERIAL_TOO_DEEP,  /* arrays and objects nest deeper than max_depth */
	TBL_SERIAL_REFUSED    /* a class the callback does not allow: *name_off, *name_len say which */
} tbl_serial_scan_t;

/* Whether the class `name` (`len` bytes from the scanned buffer, not NUL-terminated, any bytes at all:
 * they come from outside) may be unserialized: non-zero yes, 0 no. PHP's class names ignore ASCII case;
 * the callback decides how it compares. */
typedef int (*tbl_serial_class_fn)(void *ctx, const char *name, size_t len);

/* Scan `len` bytes of serialize() output, in one pass from the start, and stop at the first problem:
 *   - every class a token names is passed to `class_allowed` (NULL: any class is allowed), in the order
 *     the tokens come: an object's (O:) and a Serializable's (C:) class as soon as its name and the `":`
 *     after it are there, even when what follows is cut short or wrong; an enum case's (E:) class, the
 *     part of its string before the first colon, once the whole token is there. The first refused one
 *     ends the scan with TBL_SERIAL_REFUSED, its place in `buf` in *name_off and *name_len (either may
 *     be NULL; neither is written otherwise): at least one byte, always within the `len` bytes;
 *   - arrays (a:) and objects (O:) may nest `max_depth` levels, one more is TBL_SERIAL_TOO_DEEP. A
 *     Serializable's payload (C:) is skipped whole (its class reads it; unserialize()'s own limits
 *     cover it), so it neither counts nor is looked into;
 *   - anything that is not a token serialize() writes is TBL_SERIAL_CORRUPT, as is a closing } with no
 *     array or object open. Tokens may follow one another (unserialize() reads the first value only);
 *     arrays and objects still open at the end, and no bytes at all, are not refused here:
 *     unserialize() refuses them itself.
 * It reads only `buf[0 .. len)` and nothing else, never calls the callback for a name outside it, and
 * returns the same for the same bytes (given a callback that does). Thread-safe. */
tbl_serial_scan_t tbl_serial_scan(const char *buf, size_t len, size_t max_depth, tbl_serial_class_fn class_allowed,
                                  void *ctx, size_t *name_off, size_t *name_len);

#endif
