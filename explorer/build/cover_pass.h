/* cover_pass.h - compiles coverage flags into a unit's bitcode
 * (coverage.h). */
#ifndef BCW_COVER_PASS_H
#define BCW_COVER_PASS_H

#include <llvm-c/Core.h>

#include "coverage.h"
#include "errors.h"

/* Adds to every function `mod` defines a flag per basic block and per
 * arm of each conditional (a `br` on a condition, a `switch` of at most
 * BCW_COV_MAX_CASES cases), in the array
 *   uint8_t bcw_cov_flags[n]   (its own section, never restored)
 *   const uint32_t bcw_cov_count = n
 * and fills *map (zeroed) with what they mean, and which functions
 * each function refers to (bcw__cov_scope tells a walk's code from
 * them).  Called before bcwalk adds functions of its own to the module.
 * 0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__cov_instrument(LLVMModuleRef mod, bcw_cov_map *map);

#endif
