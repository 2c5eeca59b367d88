/* cond_text.h - a method's conditions and integer values written as C,
 * over the unit's fields, the method's parameters and constants. */
#ifndef BCW_COND_TEXT_H
#define BCW_COND_TEXT_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "model.h"

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

/* *out: the condition `cond` of `fn` (method f of unit u) in C, over
 * the unit's fields, f's parameters and constants: "amount > 0", "size
 * == 0"; negated if `negate`; NULL if it cannot be written so.  The
 * string is the caller's (free()).  0, or BCW_ENOMEM with *out NULL. */
BCW_INTERNAL int bcw__cond_text(char **out, const bcw_unit *u,
                                const bcw_func *f, LLVMValueRef fn,
                                LLVMValueRef cond, bool negate);

/* As bcw__cond_text, for a condition or integer value `v` of frame `fr`
 * of method f, written in terms of f's parameters: the callee of
 * helper(amount + 1) testing `y > 10` reads "(amount + 1) > 10". */
BCW_INTERNAL int bcw__cond_text_in(char **out, const bcw_unit *u,
                                   const bcw_func *f, const bcw_frame *fr,
                                   LLVMValueRef v, bool negate);

#endif
