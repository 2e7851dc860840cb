/*
 * integer.h - integers, the one value changed in place, and the seal that keeps lock-free increments
 * exact.
 *
 * A TBL_T_LONG entry's value is a pair of 8-byte words, 16-byte aligned (segment.h): the integer, then
 * its seal. tbl_incr adds to a linked integer with one 16-byte compare-and-swap that expects the seal
 * clear, inside a read section and without the stripe lock. Every writer that is about to unlink the
 * entry (replace, delete, expire, evict), to copy it (a gdsf move) or to compare its value (cas,
 * delete_if) holds the entry's stripe lock and sets the seal first, with the same instruction: no
 * increment can land after that, so the integer the writer read is final and nothing that raced it is
 * lost. An increment that finds the seal set takes the stripe lock and does its work on whatever the
 * key holds by then. A comparison that fails clears the seal again.
 *
 * Readers load the integer alone (8 bytes, atomic): sealed or not, it is always a whole value.
 *
 * A seal on an entry that is still linked, found by a writer holding the stripe lock, was left by a
 * writer that died between sealing and unlinking: the locked increment clears it as it adds, and no
 * other operation cares.
 *
 * Only x86-64 has the 16-byte compare-and-swap here (cmpxchg16b, which every x86-64 CPU since 2006
 * has). Elsewhere TBL_HAVE_CAS16 is 0: every increment takes the stripe lock, nothing is ever sealed,
 * and the functions below reduce to plain atomic loads and stores.
 */
#ifndef TBL_INTEGER_H
#define TBL_INTEGER_H

#include <stdbool.h>
#include <stdint.h>
#include "segment.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
# define TBL_HAVE_CAS16 1
#else
# define TBL_HAVE_CAS16 0
#endif

typedef struct tbl_long_pair {
	uint64_t value;                /* the int64 */
	uint64_t sealed;               /* 0, or 1 while a locked writer is about to unlink, copy or compare it */
} tbl_long_pair_t;

static inline uint64_t *tbl_long_words(const tbl_entry_t *e)
{
	return (uint64_t *)(void *)tbl_entry_value(e);
}

#if TBL_HAVE_CAS16
/* If *p holds *expected, store desired and return true; otherwise load *p into *expected. Full barrier. */
static inline bool tbl_cas16(uint64_t *p, tbl_long_pair_t *expected, tbl_long_pair_t desired)
{
	bool ok;

	__asm__ __volatile__("lock cmpxchg16b %1"
	                     : "=@ccz"(ok), "+m"(*(volatile uint64_t(*)[2])p), "+a"(expected->value),
	                       "+d"(expected->sealed)
	                     : "b"(desired.value), "c"(desired.sealed)
	                     : "memory");
	return ok;
}
#endif

/* The pair as it is now: the two halves may come from different instants; the compare-and-swap that
 * follows tells. */
static inline tbl_long_pair_t tbl_long_peek(const tbl_entry_t *e)
{
	const uint64_t *w = tbl_long_words(e);
	tbl_long_pair_t p;

	p.value = __atomic_load_n(&w[0], __ATOMIC_RELAXED);
	p.sealed = __atomic_load_n(&w[1], __ATOMIC_RELAXED);
	return p;
}

/* A new entry's pair, before it is linked. */
static inline void tbl_long_init(tbl_entry_t *e, int64_t value)
{
	uint64_t *w = tbl_long_words(e);

	w[0] = (uint64_t)value;
	w[1] = 0;
}

/* Stripe lock held: seal the integer and return its final value (already sealed: the value it has). */
static inline int64_t tbl_long_seal(const tbl_entry_t *e)
{
#if TBL_HAVE_CAS16
	tbl_long_pair_t cur = tbl_long_peek(e);

	while (!cur.sealed) {
		if (tbl_cas16(tbl_long_words(e), &cur, (tbl_long_pair_t){ cur.value, 1 })) {
			break;
		}
	}
	return (int64_t)cur.value;
#else
	return (int64_t)__atomic_load_n(&tbl_long_words(e)[0], __ATOMIC_RELAXED);
#endif
}

/* Stripe lock held: clear a seal this writer set and will not follow with an unlink. */
static inline void tbl_long_unseal(const tbl_entry_t *e)
{
	__atomic_store_n(&tbl_long_words(e)[1], 0, __ATOMIC_RELEASE);
}

/* Seal `e` if it is an integer: called before any unlink (index.h). */
static inline void tbl_long_seal_if(const tbl_entry_t *e)
{
#if TBL_HAVE_CAS16
	if (e->type == TBL_T_LONG) {
		(void)tbl_long_seal(e);
	}
#else
	(void)e;
#endif
}

typedef enum tbl_long_add_result {
	TBL_LONG_ADDED,                /* *result holds the new value */
	TBL_LONG_OVERFLOW,             /* the sum leaves int64: nothing changed */
	TBL_LONG_SEALED,               /* lock-free only: a writer holds it; take the stripe lock */
} tbl_long_add_result_t;

/* Add `delta`. `locked`: the stripe lock is held, and a seal found is a dead writer's (cleared here);
 * otherwise (inside a read section) a sealed pair is left alone. */
static inline tbl_long_add_result_t tbl_long_add(const tbl_entry_t *e, int64_t delta, int locked, int64_t *result)
{
#if TBL_HAVE_CAS16
	/* The words' address once: the compare-and-swap clobbers memory, so the loop would read the entry's
	 * key length and type again for it on every turn. */
	uint64_t *w = tbl_long_words(e);
	tbl_long_pair_t cur = { __atomic_load_n(&w[0], __ATOMIC_RELAXED), __atomic_load_n(&w[1], __ATOMIC_RELAXED) };
	int64_t next;

	for (;;) {
		if (cur.sealed && !locked) {
			return TBL_LONG_SEALED;
		}
		if (__builtin_add_overflow((int64_t)cur.value, delta, &next)) {
			return TBL_LONG_OVERFLOW;
		}
		if (tbl_cas16(w, &cur, (tbl_long_pair_t){ (uint64_t)next, 0 })) {
			*result = next;
			return TBL_LONG_ADDED;
		}
	}
#else
	uint64_t *w = tbl_long_words(e);
	int64_t next;

	(void)locked;   /* always: without the compare-and-swap there is no lock-free path */
	if (__builtin_add_overflow((int64_t)__atomic_load_n(&w[0], __ATOMIC_RELAXED), delta, &next)) {
		return TBL_LONG_OVERFLOW;
	}
	__atomic_store_n(&w[0], (uint64_t)next, __ATOMIC_RELAXED);
	*result = next;
	return TBL_LONG_ADDED;
#endif
}

#endif
