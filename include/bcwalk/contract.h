/* contract.h - contract macros for the code under test (JML's way in C).
 *
 *   REQUIRES(cond)   at a function's entry: a caller's obligation; when
 *                    it fails, bcwalk reports the call as *rejected* (a
 *                    meaningless test, not a fault)
 *   ENSURES(cond)    before returning: the function's promise; a failure
 *                    is a *failure* of the code under test
 *   INVARIANT(cond)  anywhere: a property of the unit's state; a failure
 *                    is a failure too
 *
 * bcwalk finds these calls in the bitcode and lists them per method
 * (`bcwalk analyze`), and its workers catch them.  In a normal build a
 * failed contract prints the condition and aborts, like assert().
 * Define BCW_CONTRACT_NO_SHORT_NAMES to get only the BCW_ spellings. */
#ifndef BCWALK_CONTRACT_H
#define BCWALK_CONTRACT_H

#include <stdio.h>
#include <stdlib.h>

/* Which macro failed: bcw_contract_fail's `kind`, and the signal number
 * bcwalk records for a sequence a failed contract ended. */
enum bcw_contract_kind {
    BCW_CONTRACT_REQUIRES = 1,
    BCW_CONTRACT_ENSURES = 2,
    BCW_CONTRACT_INVARIANT = 3
};

/* Called when a contract fails.  This weak definition prints and aborts;
 * bcwalk's worker runtime replaces it to record the outcome and go on. */
__attribute__((weak, noreturn)) void
bcw_contract_fail(int kind, const char *expr, const char *file, int line);

__attribute__((weak, noreturn)) void
bcw_contract_fail(int kind, const char *expr, const char *file, int line)
{
    static const char *const names[] = {"contract", "REQUIRES", "ENSURES",
                                        "INVARIANT"};
    fprintf(stderr, "%s:%d: %s(%s) failed\n", file, line,
            names[kind >= 1 && kind <= 3 ? kind : 0], expr);
    abort();
}

#define BCW_CONTRACT(kind, cond)                                               \
    ((cond) ? (void)0 : bcw_contract_fail((kind), #cond, __FILE__, __LINE__))
#define BCW_REQUIRES(cond) BCW_CONTRACT(BCW_CONTRACT_REQUIRES, cond)
#define BCW_ENSURES(cond) BCW_CONTRACT(BCW_CONTRACT_ENSURES, cond)
#define BCW_INVARIANT(cond) BCW_CONTRACT(BCW_CONTRACT_INVARIANT, cond)

#ifndef BCW_CONTRACT_NO_SHORT_NAMES
#define REQUIRES(cond) BCW_REQUIRES(cond)
#define ENSURES(cond) BCW_ENSURES(cond)
#define INVARIANT(cond) BCW_INVARIANT(cond)
#endif

#endif
