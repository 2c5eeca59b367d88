/* inout.c - a scalar a function reads through its pointer before it
 * writes it: sc_timer_cancel(t, uint64_t *id) takes the id sc_timer_add
 * gave out, tests it against SC_TIMER_INVALID and clears it.  Such a
 * parameter is the caller's value, not storage to fill: each constant
 * the function compares it with is a category (storage holding it), and
 * zeroed storage is one more, made up (no caller holds an id 0 the
 * library never gave out): a halt after it is suspect. */
#include "inout.h"

#include <inttypes.h>
#include <stdio.h>

#include "alloc.h"
#include "bitcode.h"

#define MAX_CONSTANTS 2

/* Is instruction i a use of p: a load or store through it, or a call
 * given it? */
static bool uses(LLVMValueRef i, LLVMValueRef p)
{
    if (LLVMIsALoadInst(i))
        return bcw__uncast(LLVMGetOperand(i, 0)) == p;
    if (LLVMIsAStoreInst(i))
        return bcw__uncast(LLVMGetOperand(i, 1)) == p ||
               bcw__uncast(LLVMGetOperand(i, 0)) == p;
    if (LLVMIsACallInst(i) && !LLVMIsADbgInfoIntrinsic(i))
        for (unsigned k = 0; k < (unsigned)LLVMGetNumArgOperands(i); k++)
            if (bcw__uncast(LLVMGetOperand(i, k)) == p)
                return true;
    return false;
}

/* The first instruction of arg's function, in layout order, that uses
 * arg, or NULL. */
static LLVMValueRef first_use(LLVMValueRef arg)
{
    for (LLVMValueRef i = bcw__first_instruction(LLVMGetParamParent(arg));
         i != NULL; i = bcw__next_instruction(i))
        if (uses(i, arg))
            return i;
    return NULL;
}

static int add(bcw_param *p, char *label, bool has, int64_t v)
{
    bcw_part part = {.label = label, .nvalues = has, .values = {v}, .rel = -1};
    return label != NULL ? bcw__param_add_part(p, part) : BCW_ENOMEM;
}

int bcw__inout_categories(LLVMValueRef arg, bcw_param *p)
{
    LLVMValueRef load = first_use(arg);
    if (load == NULL || !LLVMIsALoadInst(load) ||
        LLVMGetTypeKind(LLVMTypeOf(load)) != LLVMIntegerTypeKind)
        return 0;
    int64_t seen[MAX_CONSTANTS];
    unsigned n = 0;
    int err = 0;
    bool is_signed = bcw_abi_signed((enum bcw_abi)p->pointee);
    for (LLVMUseRef u = LLVMGetFirstUse(load); u && err == 0 && n < MAX_CONSTANTS;
         u = LLVMGetNextUse(u)) {
        LLVMValueRef icmp = LLVMGetUser(u);
        LLVMValueRef c = LLVMIsAICmpInst(icmp)
                             ? LLVMGetOperand(icmp, LLVMGetOperand(icmp, 0) == load)
                             : NULL;
        if (c == NULL || !LLVMIsAConstantInt(c))
            continue;
        int64_t v = LLVMConstIntGetSExtValue(c);
        bool again = false;
        for (unsigned k = 0; k < n; k++)
            again |= seen[k] == v;
        if (again)
            continue;
        seen[n++] = v;
        err = add(p,
                  is_signed ? bcw__sprintf("*%s == %" PRId64, p->name, v)
                            : bcw__sprintf("*%s == %" PRIu64, p->name,
                                           (uint64_t)LLVMConstIntGetZExtValue(c)),
                  true, v);
    }
    return err < 0 || n == 0 ? err
                             : add(p, bcw__strdup("zeroed storage"), false, 0);
}
