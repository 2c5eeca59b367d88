/* session.h - one Z3 context and push/pop solver for a model's partition
 * (session.c): Z3's errors recorded, never fatal; the ASTs kept for the
 * parameter in hand; bit-vector sorts and constants. */
#ifndef BCW_SOLVER_SESSION_H
#define BCW_SOLVER_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <z3.h>

#include "errors.h"

/* Each Z3 check gives up, answering unknown, after this much work,
 * counted by Z3 the same on any machine under any load, so that the
 * answers (and the categories, the plan, an oracle's entries) are the
 * same on every run: Z3's resource units and its search's conflicts,
 * whichever comes first (the SAT search counts few resource units).  Of
 * the 4495 checks of the six development libraries, those that answer
 * take at most 0.62 M units and 4919 conflicts, in 0.3 s here. */
#define BCW_Z3_RLIMIT 1500000u
#define BCW_Z3_MAX_CONFLICTS 10000u
/* ... or after this long, a backstop they reach first, kept by a thread
 * of the session's (Z3's own "timeout" hands every check to a timer
 * thread: a tenth of SQLite's analysis) */
#define BCW_Z3_TIMEOUT_MS 10000u

struct bcw_watch; /* session.c's */

typedef struct bcw_session {
    Z3_context z;
    Z3_solver sv; /* one solver for every check, scoped by push/pop: a
                     fresh one per query costs ~50x more (6-9 ms a
                     query against 0.09-0.18 ms) */
    Z3_ast *kept; /* every AST made for the parameter in hand */
    size_t nkept, capkept;
    int err; /* the first failure, sticky: BCW_ENOMEM or BCW_ERROR */
    Z3_error_code z3_code;    /* the first error Z3 reported to the handler */
    char z3_msg[256];         /* ... and its message, copied at once */
    struct bcw_session *next; /* the thread's open sessions */
    struct bcw_watch *watch;  /* the backstop's thread, or NULL: Z3's */
} bcw_session;

/* Opens a session in `s` (overwritten): a reference-counted context
 * whose errors are recorded in s, and a solver with the time-out.  The
 * handler finds the session by its address: `s` stays where it is until
 * closed.  0, or BCW_ERROR with Z3's message; `s` is closed again after
 * a failure. */
BCW_INTERNAL int bcw__session_open(bcw_session *s);

/* A check of the session's solver starts (`on`) or ended: the backstop
 * interrupts one that runs past BCW_Z3_TIMEOUT_MS. */
BCW_INTERNAL void bcw__session_checking(bcw_session *s, int on);

/* Releases everything the session holds; a zeroed or closed session is
 * fine. */
BCW_INTERNAL void bcw__session_close(bcw_session *s);

/* The session's state after a group of Z3 calls: 0, or its first
 * failure (sticky) — an allocation that failed (BCW_ENOMEM) or an error
 * Z3 reported (BCW_ERROR with Z3's message, recorded by bcw_error_last). */
BCW_INTERNAL int bcw__session_check(bcw_session *s);

/* Holds `a`, just returned by Z3, until bcw__session_release: in a
 * reference-counted context an AST with no reference may be freed at the
 * next call.  Returns `a` (borrowed from the session), or NULL when the
 * session has failed — also when `a` is NULL: Z3 failed to make it.
 * Callers check for NULL before handing the result to Z3 again. */
BCW_INTERNAL Z3_ast bcw__session_keep(bcw_session *s, Z3_ast a);

/* Drops every AST kept so far; the session stays usable. */
BCW_INTERNAL void bcw__session_release(bcw_session *s);

/* The bit-vector sort of `bits` bits (1 to 64), kept; NULL when the
 * session has failed. */
BCW_INTERNAL Z3_sort bcw__session_bv_sort(bcw_session *s, unsigned bits);

/* Bit-vector constant `v` (taken modulo 2^bits) and free variable `name`
 * of `bits` bits, kept; NULL when the session has failed. */
BCW_INTERNAL Z3_ast bcw__session_int(bcw_session *s, int64_t v, unsigned bits);
BCW_INTERNAL Z3_ast bcw__session_var(bcw_session *s, const char *name,
                                     unsigned bits);

#endif
