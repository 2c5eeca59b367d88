/* funcs.h - adding an API function to its unit: its slots classified,
 * an observer turned mutator by its effects, or skipped with a reason. */
#ifndef BCW_FUNCS_H
#define BCW_FUNCS_H

#include "finder.h"
#include "model.h"
#include "sig.h"

/* Appends `s` to unit `unit` with `role` (an observer becomes a mutator
 * if it may write the unit), `self` the parameter that is the unit (-1
 * for none) and `out` a constructor's T **out parameter (-1 for none).
 * A function bcwalk cannot call is listed in the skipped API instead.
 * 0 or BCW_ENOMEM; on failure the unit is as it was. */
BCW_INTERNAL int bcw__funcs_add(bcw_finder *f, int unit, const bcw_sig *s,
                                enum bcw_role role, int self, int out);

#endif
