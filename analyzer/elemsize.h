/* elemsize.h - the constructor parameter that is the size of the
 * elements a unit copies (elemsize.c). */
#ifndef BCW_ELEMSIZE_H
#define BCW_ELEMSIZE_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "model.h"

/* Marks elem_size on u's constructors' integer parameters stored in the
 * field one of u's methods takes as the length of a copy from an
 * element argument (memcpy(slot, key, s->key_size)).  `mod` holds u's
 * functions. */
BCW_INTERNAL void bcw__elemsize_find(LLVMModuleRef mod, LLVMTargetDataRef td,
                                     bcw_unit *u);

#endif
