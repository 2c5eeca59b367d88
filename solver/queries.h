/* queries.h - what the solver asks Z3 about one combination of a
 * parameter's conditions (queries.c): is it feasible, its minimum and
 * maximum, a representative, which of its literals the others imply.
 *
 * Each answers with Z3_L_TRUE, Z3_L_FALSE or Z3_L_UNDEF — Z3's unknown
 * (a check that ran into its limit of work, session.h) is a third answer,
 * not a failure — and returns 0, or the session's failure (BCW_ENOMEM,
 * BCW_ERROR) with nothing answered. */
#ifndef BCW_SOLVER_QUERIES_H
#define BCW_SOLVER_QUERIES_H

#include <stdbool.h>
#include <stdint.h>
#include <z3.h>

#include "session.h"

enum bcw_goal { BCW_GOAL_MIN, BCW_GOAL_MAX };

/* Is formula f satisfiable?  *out: Z3's answer. */
BCW_INTERNAL int bcw__query_feasible(Z3_lbool *out, bcw_session *s, Z3_ast f);

/* The minimum or maximum of bit-vector x under f, as a signed or an
 * unsigned number, by bisection on the push/pop solver.  *found:
 * Z3_L_TRUE with *out the extreme — or, when a check along the way was
 * unknown, the best value found so far, which is in f but may not be its
 * extreme; Z3_L_FALSE if f is infeasible; Z3_L_UNDEF if Z3 gave no value
 * of x at all. */
BCW_INTERNAL int bcw__query_extreme(int64_t *out, Z3_lbool *found,
                                    bcw_session *s, Z3_ast f, Z3_ast x,
                                    bool is_signed, enum bcw_goal goal);

/* A representative of f's values of x within [lo, hi]: 1 if f holds
 * there, else the nearest small value where it surely does (2, 0, 3, -1
 * ... up to 9 and -7), else lo.  A value Z3 was unknown about is passed
 * over. */
BCW_INTERNAL int bcw__query_representative(int64_t *out, bcw_session *s,
                                           Z3_ast f, Z3_ast x, int64_t lo,
                                           int64_t hi);

/* Which of the n literals of a combination its label shows, as a bit
 * mask: each literal the others still shown do not imply (mode == 4
 * implies mode != 1).  A literal Z3 was unknown about is shown. */
BCW_INTERNAL int bcw__query_shown(uint8_t *out, bcw_session *s,
                                  const Z3_ast *lits, unsigned n);

#endif
