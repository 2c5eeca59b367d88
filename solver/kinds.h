/* kinds.h - categories of string, callback, element, length and enum
 * parameters (kinds.c). */
#ifndef BCW_SOLVER_KINDS_H
#define BCW_SOLVER_KINDS_H

#include "model.h"

/* Gives p, a string with conditions, a callback, an element of a
 * method or an enum (its enumerators, the first 16, with a note when
 * there are more), its categories; other parameters are left alone.  0
 * or BCW_ENOMEM. */
BCW_INTERNAL int bcw__partition_kind(const bcw_model *m, bcw_param *p);

#endif
