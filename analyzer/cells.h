/* cells.h - lists in their callers' cells: does a function grow the list
 * a T ** parameter holds, or only fill the cell? */
#ifndef BCW_CELLS_H
#define BCW_CELLS_H

#include <llvm-c/Core.h>

#include "errors.h"

/* Does `fn` read the pointer its parameter `param` (a T **) holds before
 * it writes one there, on some path from its entry, itself or in a
 * module function it hands the cell to?  list_prepend(ListEntry **list,
 * v) does: the cell holds a list already.  A constructor's T **out is
 * written without being read.  1, 0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__cells_grows(LLVMValueRef fn, unsigned param);

#endif
