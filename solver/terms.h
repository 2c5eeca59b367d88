/* terms.h - a parameter's conditions (core/wire/abi.h's expression IR)
 * as Z3 terms (terms.c). */
#ifndef BCW_SOLVER_TERMS_H
#define BCW_SOLVER_TERMS_H

#include <stdint.h>
#include <z3.h>

#include "model.h"
#include "session.h"

/* The Z3 formula of condition `k` of p, the parameter being `x` (a
 * bit-vector of the parameter's width) and each field of the object a
 * free variable ("field@8": categories that use it read it from the
 * live object).
 *
 * Returns 0 with *out the formula, kept by the session (borrowed until
 * bcw__session_release); 0 with *out NULL when the condition is not
 * translatable — an operation, a predicate or a mix of widths the
 * translation does not know, which is an outcome for the caller to note;
 * or the session's failure (BCW_ENOMEM, BCW_ERROR) with *out NULL. */
BCW_INTERNAL int bcw__term_cond(Z3_ast *out, bcw_session *s, const bcw_param *p,
                                unsigned k, Z3_ast x);

#endif
