/*
 * platform.h - compiler helpers shared by every core file: atomics, branch hints, cache-line size,
 * and the clock the table reads.
 *
 * The core is C11 with <stdatomic.h>. Everything that lives in the shared segment and is touched by more
 * than one process at once is an _Atomic field; everything else is plain and protected by a lock that the
 * field's comment names.
 */
#ifndef TBL_PLATFORM_H
#define TBL_PLATFORM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define TBL_CACHELINE 64

#if defined(__GNUC__) || defined(__clang__)
# define TBL_LIKELY(x)   __builtin_expect(!!(x), 1)
# define TBL_UNLIKELY(x) __builtin_expect(!!(x), 0)
# define TBL_INLINE      static inline __attribute__((always_inline))
# define TBL_NOINLINE    __attribute__((noinline))
# define TBL_ALIGNED(n)  __attribute__((aligned(n)))
#else
# define TBL_LIKELY(x)   (x)
# define TBL_UNLIKELY(x) (x)
# define TBL_INLINE      static inline
# define TBL_NOINLINE
# define TBL_ALIGNED(n)  _Alignas(n)
#endif

#define TBL_ALIGN_UP(n, a) (((n) + ((a) - 1)) & ~((uint64_t)(a) - 1))

/* Relaxed loads and stores for counters and advisory fields (usage, stats). */
#define TBL_LOAD_RELAXED(p)     atomic_load_explicit((p), memory_order_relaxed)
#define TBL_STORE_RELAXED(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)

/* The wall clock as the table sees it: whole seconds for TTLs and metadata, and an LRU clock in
 * 100 ms ticks, from one clock read (a vDSO call, no syscall on Linux). */
typedef struct tbl_now {
	uint32_t sec;   /* unix seconds */
	uint32_t tick;  /* unix time in 100 ms units, truncated to 32 bits; compare with tbl_tick_before() */
} tbl_now_t;

tbl_now_t tbl_clock_now(void);          /* seconds agree with PHP's time(); the tick may lag by one */
uint32_t tbl_clock_seconds(void);       /* tbl_clock_now().sec, without the tick */
/* Milliseconds of CLOCK_MONOTONIC: system-wide, so deadlines can be shared between processes. */
uint64_t tbl_clock_monotonic_ms(void);

/* Wrapping comparison of two LRU ticks: true when a is older than b. */
static inline int tbl_tick_before(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

#endif
