/* derefs.c - the pointer fields of a handle a function follows without
 * checking them for NULL, and those the function giving the handle out
 * leaves NULL: an iterator's "last returned entry", which its init
 * leaves NULL and only next sets (Collections-C's
 * cc_hashtable_iter_remove reading iter->prev_entry->key, cc_list's
 * iter_add passing iter->last to link_after).  A walk passes such a
 * handle only once those fields are set. */
#include "derefs.h"

#include <string.h>

#include "addr.h"
#include "bitcode.h"

#define MAX_DEPTH 2 /* callees followed */

static bool is_null(LLVMValueRef v)
{
    return LLVMIsAConstantPointerNull(v) != NULL;
}

/* Is v compared with NULL? */
static bool null_checked(LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAICmpInst(user) && (is_null(LLVMGetOperand(user, 0)) ||
                                      is_null(LLVMGetOperand(user, 1))))
            return true;
    }
    return false;
}

/* Does the code follow pointer v without comparing it with NULL: a load
 * or store through it or a field of it, or a module function given it
 * that does so with its parameter (`depth` calls down at most)? */
static bool follows(LLVMValueRef v, int depth)
{
    if (null_checked(v))
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if ((LLVMIsALoadInst(user) && LLVMGetOperand(user, 0) == v) ||
            (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v))
            return true;
        if ((LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) &&
            LLVMGetOperand(user, 0) == v && follows(user, depth))
            return true;
        LLVMValueRef callee =
            LLVMIsACallInst(user) ? bcw__called_function(user) : NULL;
        if (callee == NULL || LLVMIsDeclaration(callee) || depth == 0)
            continue;
        unsigned n = LLVMCountParams(callee);
        for (unsigned k = 0; k < n; k++)
            if (LLVMGetOperand(user, k) == v &&
                follows(LLVMGetParam(callee, k), depth - 1))
                return true;
    }
    return false;
}

/* The pointer field at byte `off` of what p points to, loaded in fn:
 * is any of its loads compared with NULL? */
static bool field_checked(LLVMTargetDataRef td, LLVMValueRef fn, LLVMValueRef p,
                          uint32_t off)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i)) {
            uint32_t at;
            if (LLVMIsALoadInst(i) &&
                bcw__addr_field_offset(td, LLVMGetOperand(i, 0), p, &at) &&
                at == off && null_checked(i))
                return true;
        }
    return false;
}

/* Is call i a memset of what p points to (or a cast of it) to 0? */
static bool zeroes(LLVMValueRef i, LLVMValueRef p)
{
    LLVMValueRef callee = bcw__called_function(i);
    const char *name = callee ? bcw__value_name(callee) : "";
    if (strncmp(name, "llvm.memset", 11) != 0 && strcmp(name, "memset") != 0)
        return false;
    LLVMValueRef dst = LLVMGetOperand(i, 0), v = LLVMGetOperand(i, 1);
    while (LLVMIsABitCastInst(dst))
        dst = LLVMGetOperand(dst, 0);
    return dst == p && LLVMIsAConstantInt(v) &&
           LLVMConstIntGetZExtValue(v) == 0;
}

typedef uint64_t fields_fn(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k,
                           int depth);

/* `each` of the module functions fn passes what p points to, or a
 * struct embedded in it, shifted to p's fields: an iterator filled or
 * followed through the iterator embedded in it (a set's iterator over
 * its table's). */
static uint64_t through_calls(LLVMTargetDataRef td, LLVMValueRef fn,
                              LLVMValueRef p, int depth, fields_fn *each)
{
    uint64_t mask = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && depth > 0;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i)) {
            LLVMValueRef callee =
                LLVMIsACallInst(i) ? bcw__called_function(i) : NULL;
            if (callee == NULL || LLVMIsDeclaration(callee))
                continue;
            unsigned n = LLVMCountParams(callee);
            for (unsigned k = 0; k < n; k++) {
                uint32_t off;
                LLVMValueRef a = LLVMGetOperand(i, k);
                if (LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMPointerTypeKind &&
                    bcw__addr_field_offset(td, a, p, &off) && off % 8 == 0 &&
                    off / 8 < 64)
                    mask |= each(td, callee, k, depth - 1) << (off / 8);
            }
        }
    return mask;
}

static uint64_t nulled(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k,
                       int depth)
{
    if (fn == NULL || LLVMIsDeclaration(fn) || k >= LLVMCountParams(fn))
        return 0;
    LLVMValueRef p = LLVMGetParam(fn, k);
    uint64_t null = through_calls(td, fn, p, depth, nulled), set = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i)) {
            uint32_t off;
            if (LLVMIsACallInst(i) && zeroes(i, p))
                null = ~0ull;
            if (!LLVMIsAStoreInst(i) ||
                !bcw__addr_field_offset(td, LLVMGetOperand(i, 1), p, &off) ||
                off % 8 != 0 || off / 8 >= 64)
                continue;
            if (is_null(LLVMGetOperand(i, 0)))
                null |= 1ull << (off / 8);
            else
                set |= 1ull << (off / 8);
        }
    return null & ~set;
}

uint64_t bcw__derefs_nulled(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k)
{
    return nulled(td, fn, k, MAX_DEPTH);
}

static uint64_t unchecked(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k,
                          int depth)
{
    if (fn == NULL || LLVMIsDeclaration(fn) || k >= LLVMCountParams(fn))
        return 0;
    LLVMValueRef p = LLVMGetParam(fn, k);
    uint64_t mask = through_calls(td, fn, p, depth, unchecked);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i)) {
            uint32_t off;
            if (!LLVMIsALoadInst(i) ||
                LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMPointerTypeKind ||
                !bcw__addr_field_offset(td, LLVMGetOperand(i, 0), p, &off) ||
                off % 8 != 0 || off / 8 >= 64 ||
                (mask & (1ull << (off / 8))) != 0)
                continue;
            if (follows(i, MAX_DEPTH) && !field_checked(td, fn, p, off))
                mask |= 1ull << (off / 8);
        }
    return mask;
}

uint64_t bcw__derefs_unchecked(LLVMTargetDataRef td, LLVMValueRef fn,
                               unsigned k)
{
    return unchecked(td, fn, k, MAX_DEPTH);
}
