/* cprog.h - a walk's sequences as C a compiler builds with the library
 * and no bcwalk runtime: what the standalone reproductions (standalone.h)
 * and the kept tests of --emit-c (emit_c.h) share.
 *
 * The library's functions are declared by their ABI under the names
 * L_<name> (__asm__ labels), so no header is needed; every argument is
 * spelled as the worker made it (calls.h, bcw__calls_args_c) with the
 * helpers of bcw__cprog_helpers: element cells, zeroed storage, filled
 * buffers, storage for handles, the built-in callbacks. */
#ifndef BCW_CPROG_H
#define BCW_CPROG_H

#include <stdio.h>

#include "calls.h"

/* The helpers, static C functions each file holding calls defines:
 * bcw_obj, bcw_key, bcw_builtin, bcw_keep, bcw_cell, bcw_init_cell,
 * bcw_bytes, bcw_str, bcw_store, bcw_reset, bcw_invariant_false (exit 124),
 * bcw_leaks (exit 123 where LeakSanitizer finds a leak). */
BCW_INTERNAL extern const char bcw__cprog_helpers[];

/* The options of AddressSanitizer and LeakSanitizer bcw_leaks needs:
 * functions of the program, so in one of its files only. */
BCW_INTERNAL extern const char bcw__cprog_sanitizers[];

/* The declarations a file of calls needs: every library function of the
 * model by its ABI, the functions passed as callbacks by name, and the
 * built-in callbacks c has met as static functions. */
BCW_INTERNAL void bcw__cprog_declare(FILE *f, const bcw_model *m,
                                     const bcw_c_names *c);

enum {
    BCW_CPROG_TRACE = 1, /* bcw_call(k) before each call */
    BCW_CPROG_CHECK = 2  /* assert each result the walk observed */
};

/* Sequence s's calls as C statements into f: up to the call that
 * halted, or (a normal run, or a halt of the destructor) all of them
 * and the destructor; then the invariant where the halt was its
 * (bcw_invariant_false) and the leak check where the halt was a leak
 * (bcw_leaks).  c->why is set when an argument has no C spelling. */
BCW_INTERNAL void bcw__cprog_calls(FILE *f, const bcw_reporter *r,
                                   const bcw_seq *s, bcw_c_names *c,
                                   unsigned flags);

#endif
