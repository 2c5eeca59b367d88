/* kinds.h - categories of string, callback, element, length, enum and
 * second-instance parameters (kinds.c). */
#ifndef BCW_SOLVER_KINDS_H
#define BCW_SOLVER_KINDS_H

#include "model.h"

/* Gives p, of function f, a string with conditions, a callback, an
 * element of a method or an enum (its enumerators, the first 16, with a
 * note when there are more), its categories; other parameters are left
 * alone.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__partition_kind(const bcw_model *m, const bcw_func *f,
                                     bcw_param *p);

/* Gives p, a string of a method that no condition compares, its
 * categories: a new string each call, or "a" every time (a key stored,
 * then found).  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__partition_key(bcw_param *p);

/* Gives p, a parameter of function f of unit u's type other than the
 * target, its categories: an instance of its own (when u has a
 * constructor a walk can call), and the target itself (aliasing) when
 * f compares the two, is an observer, or there is no other.  0 or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__partition_instance(const bcw_model *m, const bcw_unit *u,
                                         const bcw_func *f, bcw_param *p);

#endif
