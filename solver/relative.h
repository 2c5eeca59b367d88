/* relative.h - categories over the unit's fields, decided on the live
 * object at call time (relative.c): bounds relative to fields, and
 * conditions the worker solves. */
#ifndef BCW_SOLVER_RELATIVE_H
#define BCW_SOLVER_RELATIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

/* Does node i of p's conditions, or a node below it, have operation
 * `op`?  Looks 32 levels deep. */
BCW_INTERNAL bool bcw__relative_uses(const bcw_param *p, uint32_t i,
                                     enum bcw_cop op);

/* Is condition k of p a bound: `x pred t` (or `t pred x`), x the
 * parameter maybe widened or narrowed, t made of constants and the
 * unit's fields?  Then *t is t's node and *pred the LLVMIntPredicate as
 * seen from x. */
BCW_INTERNAL bool bcw__relative_bound(uint32_t *t, unsigned *pred,
                                      const bcw_param *p, unsigned k);

/* Adds the category `label` of combination `combo` of p's first n
 * conditions, all bounds (t[i], pred[i] from bcw__relative_bound): one
 * LOWER/UPPER/EQUAL/UNEQUAL node per bound, the worker reading them on
 * the live object; `shown` is the relative bound whose boundary value
 * the walk passes, listed first.  Takes `label` (NULL: an allocation
 * that failed).  0, BCW_ENOMEM, or BCW_ERROR if t[shown] cannot be
 * written as C; after a failure p may hold extra nodes no category
 * uses. */
BCW_INTERNAL int bcw__relative_part(const bcw_unit *u, const bcw_func *fn,
                                    bcw_param *p, char *label,
                                    const uint32_t *t, const unsigned *pred,
                                    unsigned n, unsigned combo, unsigned shown);

/* Adds the category `label` of combination `combo` of p's first n
 * conditions, which mix x with the object's fields in shapes other than
 * bounds: one HOLDS/FAILS node per condition, the worker searching x on
 * the live object at call time.  Takes `label` (NULL: an allocation that
 * failed).  0 or BCW_ENOMEM; after a failure p may hold extra nodes no
 * category uses. */
BCW_INTERNAL int bcw__relative_solved_part(bcw_param *p, char *label,
                                           unsigned n, unsigned combo);

#endif
