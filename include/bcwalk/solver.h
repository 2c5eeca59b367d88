/* solver.h - Z3-guided input categories (category-partition testing). */
#ifndef BCWALK_SOLVER_H
#define BCWALK_SOLVER_H

#include "bcwalk/model.h"

/* Computes the categories of every integer parameter that decides branch
 * conditions: the feasible combinations of those conditions, each with a
 * representative and its boundary values (or, for conditions over the
 * unit's fields, bounds read from the live object).  A parameter whose
 * conditions are not partitioned, or some of whose combinations Z3
 * answered unknown about (a time-out), gets a note saying so.  Returns
 * 0, BCW_ENOMEM when an allocation failed, or BCW_ERROR with Z3's
 * message if Z3 failed; after a failure the model keeps what was
 * computed, which may be incomplete: do not save it. */
int bcw_model_partition(bcw_model *model);

/* The model of `bitcode`: loaded from the model cache (`cache_dir`, or
 * $XDG_CACHE_HOME/bcwalk, keyed by the bitcode's content and bcwalk's
 * own) or analysed, partitioned (bcw_model_partition) and cached, so unchanged
 * bitcode is analysed once. Fails as bcw_model_analyze and
 * bcw_model_partition do, leaving *out NULL and the cache without a model
 * made under the failure. */
int bcw_model_open(bcw_model **out, const char *bitcode, const char *cache_dir);

/* Links the bitcode files of `link` (a comma-separated list; NULL or ""
 * for none) into `bitcode`'s module, so that a file calling functions
 * only the others define can be built and walked; the units and API of
 * the result stay `bitcode`'s own, the others' code only what they call.
 * *built is the result's path (`bitcode` itself when there is nothing to
 * link), the caller's (free()); it is cached in `cache_dir` by the
 * content of every file.  0, BCW_EINPUT naming a file that is missing,
 * not bitcode or does not link (a function defined twice), BCW_ERROR or
 * BCW_ENOMEM. */
int bcw_bitcode_link(char **built, const char *bitcode, const char *link,
                     const char *cache_dir);

/* bcw_model_open of bcw_bitcode_link's result, the model naming
 * `bitcode`; *built as bcw_bitcode_link's. */
int bcw_model_open_linked(bcw_model **out, char **built, const char *bitcode,
                          const char *link, const char *cache_dir);

#endif
