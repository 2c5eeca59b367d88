/* fields.h - the unit's fields, which fields each method reads and
 * writes, and the unit's state predicates. */
#ifndef BCW_FIELDS_H
#define BCW_FIELDS_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>

#include "model.h"

/* Fills u->fields (from debug info of `ctor`, whose slot `slot` is the
 * unit), every method's reads and writes, and u->preds: Boolean
 * observers taking only the unit, and the comparisons of fields the
 * methods branch on.  `mod` is the simplified module the functions of
 * `u` live in.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__fields_analyze(bcw_unit *u, LLVMModuleRef mod,
                                     LLVMValueRef ctor, unsigned slot);

/* The condition `cond` of `fn` (method f of unit u) in C, over the
 * unit's fields, f's parameters and constants: "amount > 0", "size ==
 * 0"; negated if `negate`.  NULL if it cannot be written so, or on
 * allocation failure.  The string is the caller's (free()). */
BCW_INTERNAL char *bcw__cond_text(const bcw_unit *u, const bcw_func *f,
                                  LLVMValueRef fn, LLVMValueRef cond,
                                  bool negate);

/* Where a value lies: in the method itself (parent NULL), or in a module
 * function the method calls, directly or through other such functions;
 * `call` is then the call in the parent frame that entered fn.  A
 * callee's parameters stand for the arguments that call passes, and
 * `unit`, if not NULL, is the pointer in fn to the method's unit, plus
 * `unit_base` bytes. */
typedef struct bcw_frame {
    LLVMValueRef fn;
    LLVMValueRef unit;
    uint32_t unit_base;
    LLVMValueRef call;
    const struct bcw_frame *parent;
} bcw_frame;

/* As bcw__cond_text, for a condition or integer value `v` of frame `fr`
 * of method f, written in terms of f's parameters: the callee of
 * helper(amount + 1) testing `y > 10` reads "(amount + 1) > 10". */
BCW_INTERNAL char *bcw__cond_text_in(const bcw_unit *u, const bcw_func *f,
                                     const bcw_frame *fr, LLVMValueRef v,
                                     bool negate);

/* Is `ptr` the address of a field of the unit `unit` points to (a
 * constant offset from it)?  Then *off is that offset. */
BCW_INTERNAL bool bcw__field_offset(LLVMTargetDataRef td, LLVMValueRef ptr,
                                    LLVMValueRef unit, uint32_t *off);


#endif
