/* effects.h - the static mod analysis: for every defined function,
 * whether it may write or free memory reachable from each pointer
 * parameter, or write module globals. */
#ifndef BCW_EFFECTS_H
#define BCW_EFFECTS_H

#include <stdbool.h>

#include "bitcode.h"

typedef struct bcw_effects bcw_effects;

/* Analyses every function of bc's module; *out is the caller's, freed
 * with bcw__effects_free.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__effects_new(bcw_effects **out, bcw_bitcode *bc);
/* May `fn` write memory its parameter `param` reaches?  `why` gets a
 * short reason for the first write found. */
BCW_INTERNAL bool bcw__effects_writes(const bcw_effects *fx, const char *fn,
                                      unsigned param, const char **why);
/* Does `fn` free its parameter? */
BCW_INTERNAL bool bcw__effects_frees(const bcw_effects *fx, const char *fn,
                                     unsigned param);
/* Does `fn` free the pointer its parameter holds (`*head`, a list in the
 * caller's cell)? */
BCW_INTERNAL bool bcw__effects_frees_held(const bcw_effects *fx, const char *fn,
                                          unsigned param);
/* Does `fn` free memory its parameter reaches (not the parameter)? */
BCW_INTERNAL bool bcw__effects_releases(const bcw_effects *fx, const char *fn,
                                        unsigned param);
/* Does `fn` reallocate its parameter itself? */
BCW_INTERNAL bool bcw__effects_moves(const bcw_effects *fx, const char *fn,
                                     unsigned param);
/* Does `fn` hand its parameter to code bcwalk cannot see (an external
 * it does not know), so that it may free it unseen?  True when `fn`
 * itself is not defined in the module. */
BCW_INTERNAL bool bcw__effects_escapes(const bcw_effects *fx, const char *fn,
                                       unsigned param);
/* Is v (casts aside) a block just allocated: malloc's or calloc's
 * result, or a module function's returning only such blocks? */
BCW_INTERNAL bool bcw__effects_new_block(const bcw_effects *fx, LLVMValueRef v);
/* NULL is accepted. */
BCW_INTERNAL void bcw__effects_free(bcw_effects *fx);

#endif
