/* literals.h - what each string parameter is compared with. */
#ifndef BCW_LITERALS_H
#define BCW_LITERALS_H

#include <llvm-c/Core.h>

#include "model.h"

/* Collects what each string parameter of `f` is compared against:
 * conditions with a `value`.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__literals_find(bcw_func *f, LLVMValueRef fn);

#endif
