/* fields.h - the unit's fields, which fields each method reads and
 * writes, and the unit's state predicates. */
#ifndef BCW_FIELDS_H
#define BCW_FIELDS_H

#include <llvm-c/Core.h>

#include "diinfo.h"
#include "model.h"

/* Sets f->callback, nsig and sig where the member `di` describes is a
 * function pointer a built-in can fill: its kind told by its name and
 * type as a callback parameter's; none for a shape only a built-in
 * returning 0 fits (an allocator's would fail every call). */
BCW_INTERNAL void bcw__fields_callback(bcw_field *f, const bcw_di_field *di);

/* Fills u->fields (from debug info of `ctor`, whose slot `slot` is the
 * unit), every method's reads and writes, and u->preds: Boolean
 * observers taking only the unit, and the comparisons of fields the
 * methods branch on.  `mod` is the simplified module the functions of
 * `u` live in.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__fields_analyze(bcw_unit *u, LLVMModuleRef mod,
                                     LLVMValueRef ctor, unsigned slot);

#endif
