/* errors.h - what every file of bcwalk includes first: the hidden-visibility
 * and printf attributes, the last-error record and broken-invariant aborts. */
#ifndef BCW_ERRORS_H
#define BCW_ERRORS_H

#include "bcwalk/error.h"

#if defined(__GNUC__)
#define BCW_INTERNAL __attribute__((visibility("hidden")))
#define BCW_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define BCW_INTERNAL
#define BCW_PRINTF(a, b)
#endif

/* Records a failure message and returns `code`, so callers can write
 * `return bcw__error(BCW_EINPUT, "...")`. */
BCW_INTERNAL int bcw__error(int code, const char *fmt, ...) BCW_PRINTF(2, 3);
BCW_INTERNAL void bcw__error_clear(void);

/* Broken invariants abort with the expression and where it failed. */
#define BCW_ASSERT(e) ((e) ? (void)0 : bcw__assert_fail(#e, __FILE__, __LINE__))
BCW_INTERNAL void bcw__assert_fail(const char *expr, const char *file, int line)
    __attribute__((noreturn));

#endif
