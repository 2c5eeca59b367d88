/* cover_pass.h - compiles coverage flags into a unit's bitcode
 * (coverage.h). */
#ifndef BCW_COVER_PASS_H
#define BCW_COVER_PASS_H

#include <llvm-c/Core.h>

#include "coverage.h"

/* Adds to every function `mod` defines a flag per basic block and per
 * arm of each conditional (a `br` on a condition, a `switch` of at most
 * BCW_COV_MAX_CASES cases), in the array
 *   uint8_t bcw_cov_flags[n]   (its own section, never restored)
 *   const uint32_t bcw_cov_count = n
 * and fills *map (zeroed) with what they mean.  The unit's functions
 * (bcw_cov_fn.unit) are model->syms and what they call or take the
 * address of, directly or through each other.  Called before bcwalk adds
 * functions of its own to the module.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__cov_instrument(LLVMModuleRef mod, const bcw_model *model,
                                     bcw_cov_map *map);

#endif
