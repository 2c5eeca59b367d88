/* analyze.h - the analyzer's entry points beside the public
 * bcw_model_analyze (bcwalk/model.h). */
#ifndef BCW_ANALYZE_H
#define BCW_ANALYZE_H

#include <llvm-c/Core.h>

#include "model.h"

/* bcw_model_analyze in bcwalk's own process (the file still read in a
 * child first): for what watches the analysis itself, a sanitizer or
 * the tests' failing allocations, which a child's would escape. */
BCW_INTERNAL int bcw__model_analyze_here(bcw_model **out, const char *path);

/* bcw_model_analyze for a module already in memory (the opt plugin):
 * analyses a copy, so `mod` is left as it was. */
BCW_INTERNAL int bcw__model_analyze_module(bcw_model **out, LLVMModuleRef mod);

#endif
