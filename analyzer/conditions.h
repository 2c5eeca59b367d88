/* conditions.h - the branch conditions each integer parameter decides,
 * in the function and its callees, as expression trees. */
#ifndef BCW_CONDITIONS_H
#define BCW_CONDITIONS_H

#include <llvm-c/Core.h>

#include "model.h"

/* Collects the branch conditions each integer parameter of `f` decides,
 * from function `fn` of the simplified module.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__conditions_find(const bcw_unit *u, bcw_func *f,
                                      LLVMValueRef fn);

#endif
