/* samepointer.c - whether a value is the block a parameter points into
 * (samepointer.h): the effects analysis's question for every free and
 * realloc it meets. */
#include "samepointer.h"

#include <stddef.h>

#include "bitcode.h"

/* Is `v` a GEP by constant indices only? */
static bool constant_gep(LLVMValueRef v)
{
    if (!LLVMIsAGetElementPtrInst(v))
        return false;
    for (int i = 1; i < LLVMGetNumOperands(v); i++)
        if (!LLVMIsAConstantInt(LLVMGetOperand(v, (unsigned)i)))
            return false;
    return true;
}

/* The phis and selects one same_pointer query has been through, so that
 * a value many paths reach (a loop's phi, SQLite's big switch joins) is
 * followed once, not once per path: exponential in the depth before. */
typedef struct seen_set {
    struct seen {
        LLVMValueRef v, param;
        unsigned loads;
        int helpers, depth;
    } at[64];
    unsigned n;
} seen_set;

/* Was v reached before in this query, as shallow or shallower?  Notes it
 * when not; a full set stops the search (answering no). */
static bool seen_before(seen_set *seen, LLVMValueRef v, LLVMValueRef param,
                        unsigned loads, int helpers, int depth)
{
    for (unsigned i = 0; i < seen->n; i++) {
        struct seen *e = &seen->at[i];
        if (e->v == v && e->param == param && e->loads == loads &&
            e->helpers == helpers) {
            if (e->depth <= depth)
                return true;
            e->depth = depth;
            return false;
        }
    }
    if (seen->n == sizeof seen->at / sizeof *seen->at)
        return true;
    seen->at[seen->n++] = (struct seen){v, param, loads, helpers, depth};
    return false;
}

static bool same_pointer_in(seen_set *seen, LLVMValueRef v, LLVMValueRef param,
                            unsigned loads, int helpers, int depth);

/* Does module function `callee`, given `v` (param's block) as argument
 * k, return that block on every path (hdr(s))? */
static bool returns_block(seen_set *seen, LLVMValueRef call, LLVMValueRef param,
                          unsigned loads, int helpers)
{
    LLVMValueRef callee = bcw__called_function(call);
    if (callee == NULL || LLVMIsDeclaration(callee) || helpers == 0)
        return false;
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
    for (unsigned k = 0; k < nargs && k < LLVMCountParams(callee); k++) {
        if (!same_pointer_in(seen, LLVMGetOperand(call, k), param, loads,
                             helpers - 1, 0))
            continue;
        bool all = true, any = false;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(callee); bb && all;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
            if (term == NULL || LLVMGetInstructionOpcode(term) != LLVMRet ||
                LLVMGetNumOperands(term) != 1)
                continue;
            any = true;
            all = same_pointer_in(seen, LLVMGetOperand(term, 0),
                                  LLVMGetParam(callee, k), 0, helpers - 1, 0);
        }
        if (any && all)
            return true;
    }
    return false;
}

static bool same_pointer_in(seen_set *seen, LLVMValueRef v, LLVMValueRef param,
                            unsigned loads, int helpers, int depth)
{
    while (v != param && (LLVMIsABitCastInst(v) ||
                          LLVMIsAAddrSpaceCastInst(v) || constant_gep(v)))
        v = LLVMGetOperand(v, 0);
    if (v == param)
        return loads == 0;
    if (LLVMIsALoadInst(v))
        return loads > 0 && same_pointer_in(seen, LLVMGetOperand(v, 0), param,
                                            loads - 1, helpers, depth);
    if (LLVMIsACallInst(v))
        return returns_block(seen, v, param, loads, helpers);
    if (depth > 4 || !(LLVMIsAPHINode(v) || LLVMIsASelectInst(v)) ||
        seen_before(seen, v, param, loads, helpers, depth))
        return false;
    unsigned first = LLVMIsASelectInst(v) ? 1 : 0;
    unsigned n = LLVMIsASelectInst(v) ? 3 : LLVMCountIncoming(v);
    for (unsigned i = first; i < n; i++)
        if (same_pointer_in(seen, LLVMGetOperand(v, i), param, loads, helpers,
                            depth + 1))
            return true;
    return false;
}

bool bcw__same_pointer(LLVMValueRef v, LLVMValueRef param, unsigned loads,
                       int helpers)
{
    seen_set seen;
    seen.n = 0;
    return same_pointer_in(&seen, v, param, loads, helpers, 0);
}
