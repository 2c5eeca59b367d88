/* rt_bounds.h - values computed from the live object (rt_bounds.c): the
 * arguments of categories whose bounds or conditions involve the unit's
 * fields (BCW_FIXED_BOUNDS). */
#ifndef BCW_RT_BOUNDS_H
#define BCW_RT_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_worker.h"

/* v's low `bits` bits, sign-extended; for 0 or 64 bits v itself. */
int64_t bcw_rt_bounds_sext(uint64_t v, unsigned bits);

/* The value to pass for parameter p, a BCW_FIXED_BOUNDS one, on the
 * object as it is now.  A category bounded by the object's fields: the
 * boundary value of its first bound (the relative one the report shows),
 * kept within the category's other bounds (as signed 64-bit numbers),
 * and stepped off the values it must not take.  A category whose
 * conditions mix the parameter with the fields (HOLDS/FAILS literals):
 * the value nearest 1 that meets them, among 1, 0, -1 and the points
 * where each condition changes.  *met is false when the object allows no
 * value of the category (its bounds cross, or no candidate meets its
 * conditions): the call would be made under a false label. */
uint64_t bcw_rt_bounds_value(bcw_rt_worker *w, const bcw_wire_param *p,
                             bool *met);

/* Finds the leaves (fields, earlier arguments) of the bounds of plan
 * entry fi's parameter k, a BCW_FIXED_BOUNDS one, into w->leaves: set-up,
 * once per worker. */
void bcw_rt_bounds_setup(bcw_rt_worker *w, unsigned fi, unsigned k);

/* bcw_rt_bounds_value for plan entry fi's parameter k, computed once per
 * distinct value of its leaves: a state walk passes the same object
 * state to a call many times, and a solved category costs hundreds of
 * evaluations of its conditions. */
uint64_t bcw_rt_bounds_memo(bcw_rt_worker *w, unsigned fi, unsigned k,
                            bool *met);

#endif
