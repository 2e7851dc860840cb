/*
 * status.h - the one result type every core function returns.
 *
 * The core never prints and never throws. A function that can fail returns a tbl_status_t, and the
 * binding maps each value to exactly one PHP outcome (a return value or one exception) in one place.
 */
#ifndef TBL_STATUS_H
#define TBL_STATUS_H

typedef enum tbl_status {
	TBL_OK = 0,
	TBL_ENOTFOUND,   /* no live entry under that key */
	TBL_EEXIST,      /* add(): a live entry is already there */
	TBL_ENOMEM,      /* the segment has no room, even after reclaim and (policy allowing) eviction */
	TBL_ETOOBIG,     /* the entry can never fit: larger than the biggest block the heap can hold */
	TBL_ETYPE,       /* increment on a value that is not an integer */
	TBL_EOVERFLOW,   /* increment would leave the 64-bit signed range */
	TBL_EMISMATCH,   /* cas(): the stored value is not the expected one */
	TBL_ENSFULL,     /* the namespace table is full */
	TBL_ENOSLOT,     /* every reader slot is held by a live process */
	TBL_EINVAL,      /* bad argument (the binding validates first; this is the core's own guard) */
	TBL_ESYS,        /* a system call failed; the table's errstr names it */
	TBL_EBUSY,       /* remember(): another process is computing this key */
	TBL_ESTALE,      /* the namespace handle predates a recycling of that namespace: look it up again */
	TBL_EFULL,       /* as TBL_ENOMEM, from cas/incr, whose other answers must not be mistaken for it */
	TBL_ENOCONTIG    /* no single block for a value with ops (which cannot be split): store it without ops */
} tbl_status_t;

/* A short, static, human-readable description ("out of memory", ...). Never NULL. */
const char *tbl_status_str(tbl_status_t status);

#endif
