/* solver.h - Z3-guided input categories (category-partition testing). */
#ifndef BCWALK_SOLVER_H
#define BCWALK_SOLVER_H

#include "bcwalk/model.h"

/* Computes the categories of every integer parameter that decides branch
 * conditions: the feasible combinations of those conditions, each with a
 * representative and its boundary values.  Parameters whose conditions
 * involve the unit's fields get a note instead.  Returns 0, or BCW_ERROR
 * if Z3 failed (the model keeps what was computed). */
int bcw_model_partition(bcw_model *model);

/* The model of `bitcode`: loaded from the model cache (`cache_dir`, or
 * $XDG_CACHE_HOME/bcwalk, keyed by the bitcode's content and bcwalk's
 * own) or analysed, partitioned (bcw_model_partition) and cached, so unchanged
 * bitcode is analysed once. Fails as bcw_model_analyze does. */
int bcw_model_open(bcw_model **out, const char *bitcode, const char *cache_dir);

#endif
