/* elemsize.c - the size of the elements a unit copies: a constructor's
 * integer parameter stored in a field of the unit that a method's copy
 * of an element argument (memcpy, memmove) takes as its length, a map of
 * fixed-size keys (Collections-C's cc_array_sized_new(element_size,
 * &out)).  The copies are the elements the caller gave: bcwalk's
 * built-in callbacks read an element's identity from its first bytes,
 * that many of them, not from its address. */
#include "elemsize.h"

#include <string.h>

#include "addr.h"
#include "bitcode.h"

#define MAX_DEPTH 3 /* calls followed down */
#define MAX_HOPS 8  /* casts, GEPs and arithmetic followed */

/* v without the casts and integer arithmetic around a length: the
 * field load in `n * s->key_size`, `(size_t)s->size`. */
static LLVMValueRef length_load(LLVMValueRef v, int hops)
{
    if (v == NULL || hops > MAX_HOPS || !LLVMIsAInstruction(v))
        return NULL;
    if (LLVMIsALoadInst(v))
        return v;
    if (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v) || LLVMIsATruncInst(v))
        return length_load(LLVMGetOperand(v, 0), hops + 1);
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMMul || op == LLVMShl) {
        LLVMValueRef a = length_load(LLVMGetOperand(v, 0), hops + 1);
        return a != NULL || op == LLVMShl
                   ? a
                   : length_load(LLVMGetOperand(v, 1), hops + 1);
    }
    return NULL;
}

static bool is_copy(LLVMValueRef callee)
{
    const char *name = callee ? bcw__value_name(callee) : "";
    return strncmp(name, "llvm.memcpy", 11) == 0 ||
           strncmp(name, "llvm.memmove", 12) == 0 ||
           strcmp(name, "memcpy") == 0 || strcmp(name, "memmove") == 0;
}

/* Does the code copy from element pointer `e` (a copy's source) as many
 * bytes as the field of `unit` at some offset holds?  Then *off is that
 * field's offset.  Through casts and module functions given both. */
static bool copies_from(LLVMTargetDataRef td, LLVMValueRef e, LLVMValueRef unit,
                        int depth, int hops, uint32_t *off)
{
    if (hops > MAX_HOPS)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(e); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsABitCastInst(user) &&
            copies_from(td, user, unit, depth, hops + 1, off))
            return true;
        LLVMValueRef callee =
            LLVMIsACallInst(user) ? bcw__called_function(user) : NULL;
        if (callee == NULL)
            continue;
        if (is_copy(callee)) {
            LLVMValueRef n = length_load(LLVMGetOperand(user, 2), 0);
            if (LLVMGetOperand(user, 1) == e && n != NULL &&
                bcw__addr_field_offset(td, LLVMGetOperand(n, 0), unit, off))
                return true;
            continue;
        }
        if (LLVMIsDeclaration(callee) || depth == 0)
            continue;
        unsigned np = LLVMCountParams(callee);
        for (unsigned k = 0; k < np; k++) {
            if (LLVMGetOperand(user, k) != e)
                continue;
            for (unsigned j = 0; j < np; j++)
                if (LLVMGetOperand(user, j) == unit &&
                    copies_from(td, LLVMGetParam(callee, k),
                                LLVMGetParam(callee, j), depth - 1, hops + 1,
                                off))
                    return true;
        }
    }
    return false;
}

/* Does integer `v` get stored, as it is or widened, in a field at byte
 * `off` of some struct, here or in a module function given it? */
static bool stored_at(LLVMTargetDataRef td, LLVMValueRef v, uint32_t off,
                      int depth, int hops)
{
    if (hops > MAX_HOPS)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if ((LLVMIsAZExtInst(user) || LLVMIsASExtInst(user) ||
             LLVMIsATruncInst(user)) &&
            stored_at(td, user, off, depth, hops + 1))
            return true;
        if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == v) {
            LLVMValueRef at = LLVMGetOperand(user, 1), base = at;
            while (LLVMIsAGetElementPtrInst(base) || LLVMIsABitCastInst(base))
                base = LLVMGetOperand(base, 0);
            uint32_t o;
            if (!LLVMIsAAllocaInst(base) &&
                bcw__addr_field_offset(td, at, base, &o) && o == off)
                return true;
            continue;
        }
        LLVMValueRef callee =
            LLVMIsACallInst(user) ? bcw__called_function(user) : NULL;
        if (callee == NULL || LLVMIsDeclaration(callee) || depth == 0)
            continue;
        unsigned np = LLVMCountParams(callee);
        for (unsigned k = 0; k < np; k++)
            if (LLVMGetOperand(user, k) == v &&
                stored_at(td, LLVMGetParam(callee, k), off, depth - 1,
                          hops + 1))
                return true;
    }
    return false;
}

static bool is_integer(const bcw_param *p)
{
    return p->abi >= BCW_ABI_S8 && p->abi <= BCW_ABI_U64;
}

void bcw__elemsize_find(LLVMModuleRef mod, LLVMTargetDataRef td, bcw_unit *u)
{
    uint32_t off = 0;
    bool found = false;
    for (unsigned i = 0; i < u->nfuncs && !found; i++) {
        const bcw_func *fn = &u->funcs[i];
        LLVMValueRef v = LLVMGetNamedFunction(mod, fn->name);
        if (fn->self < 0 || v == NULL || LLVMIsDeclaration(v) ||
            (unsigned)fn->self >= LLVMCountParams(v))
            continue;
        for (unsigned p = 0; p < fn->nparams && !found; p++)
            found = fn->params[p].kind == BCW_PK_ELEMENT &&
                    p < LLVMCountParams(v) &&
                    copies_from(td, LLVMGetParam(v, p),
                                LLVMGetParam(v, (unsigned)fn->self), MAX_DEPTH,
                                0, &off);
    }
    for (unsigned i = 0; i < u->nfuncs && found; i++) {
        bcw_func *fn = &u->funcs[i];
        LLVMValueRef v = LLVMGetNamedFunction(mod, fn->name);
        if ((fn->role != BCW_ROLE_CONSTRUCTOR &&
             fn->role != BCW_ROLE_INIT_CONSTRUCTOR) ||
            v == NULL || LLVMIsDeclaration(v))
            continue;
        for (unsigned p = 0; p < fn->nparams && p < LLVMCountParams(v); p++)
            fn->params[p].elem_size =
                is_integer(&fn->params[p]) &&
                stored_at(td, LLVMGetParam(v, p), off, MAX_DEPTH, 0);
    }
}
