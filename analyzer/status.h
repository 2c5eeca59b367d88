/* status.h - the success of an init function returning a status
 * (status.c). */
#ifndef BCW_STATUS_H
#define BCW_STATUS_H

#include <llvm-c/Core.h>

#include "model.h"

/* What init function fn, filling the storage its parameter `self`
 * points to, returns when it made the object: 0 when it returns 0 after
 * writing the storage and before it only other constants; not 0 the
 * other way round; BCW_STATUS_NONE when its results do not tell (a
 * value that is no constant, 0 before anything was written). */
BCW_INTERNAL enum bcw_status bcw__status_of(LLVMValueRef fn, unsigned self);

#endif
