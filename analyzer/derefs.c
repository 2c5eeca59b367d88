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

/* Does the code follow pointer v (`checks`: without comparing it with
 * NULL): a load or store through it or a field of it, or a module
 * function given it that does so with its parameter (`depth` calls down
 * at most), through the phis and selects it flows into (a loop starting
 * from it)? */
static bool follows(LLVMValueRef v, int depth, int hops, bool checks)
{
    if ((checks && null_checked(v)) || hops > 8)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if ((LLVMIsALoadInst(user) && LLVMGetOperand(user, 0) == v) ||
            (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v))
            return true;
        if ((LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) &&
            LLVMGetOperand(user, 0) == v &&
            follows(user, depth, hops + 1, checks))
            return true;
        /* the value a loop starts from (raxRandomWalk's n = it->node) */
        if ((LLVMIsAPHINode(user) || LLVMIsASelectInst(user)) &&
            follows(user, depth, hops + 1, checks))
            return true;
        LLVMValueRef callee =
            LLVMIsACallInst(user) ? bcw__called_function(user) : NULL;
        if (callee == NULL || LLVMIsDeclaration(callee) || depth == 0)
            continue;
        unsigned n = LLVMCountParams(callee);
        for (unsigned k = 0; k < n; k++)
            if (LLVMGetOperand(user, k) == v &&
                follows(LLVMGetParam(callee, k), depth - 1, hops + 1, checks))
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

/* Is call i a memcpy or memmove into what p points to? */
static bool copies_into(LLVMValueRef i, LLVMValueRef p)
{
    LLVMValueRef callee = bcw__called_function(i);
    const char *name = callee ? bcw__value_name(callee) : "";
    if (strncmp(name, "llvm.memcpy", 11) != 0 &&
        strncmp(name, "llvm.memmove", 12) != 0 && strcmp(name, "memcpy") != 0)
        return false;
    LLVMValueRef dst = LLVMGetOperand(i, 0);
    while (LLVMIsABitCastInst(dst))
        dst = LLVMGetOperand(dst, 0);
    return dst == p;
}

typedef uint64_t fields_fn(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k,
                           int depth);

/* `each` of the module function call i passes what p points to, or a
 * struct embedded in it, shifted to p's fields: an iterator filled or
 * followed through the iterator embedded in it (a set's iterator over
 * its table's). */
static uint64_t call_fields(LLVMTargetDataRef td, LLVMValueRef i,
                            LLVMValueRef p, int depth, fields_fn *each)
{
    LLVMValueRef callee = LLVMIsACallInst(i) ? bcw__called_function(i) : NULL;
    if (callee == NULL || LLVMIsDeclaration(callee) || depth <= 0)
        return 0;
    uint64_t mask = 0;
    unsigned n = LLVMCountParams(callee);
    for (unsigned k = 0; k < n; k++) {
        uint32_t off;
        LLVMValueRef a = LLVMGetOperand(i, k);
        if (LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMPointerTypeKind &&
            bcw__addr_field_offset(td, a, p, &off) && off % 8 == 0 &&
            off / 8 < 64)
            mask |= each(td, callee, k, depth - 1) << (off / 8);
    }
    return mask;
}

/* The field bit of a pointer field of what p points to at address a,
 * or 0. */
static uint64_t field_bit(LLVMTargetDataRef td, LLVMValueRef a, LLVMValueRef p)
{
    uint32_t off;
    return bcw__addr_field_offset(td, a, p, &off) && off % 8 == 0 &&
                   off / 8 < 64
               ? 1ull << (off / 8)
               : 0;
}

/* The fields instruction i sets to something else than NULL: a store, a
 * copy into what p points to, a module function setting them. */
static uint64_t sets(LLVMTargetDataRef td, LLVMValueRef i, LLVMValueRef p,
                     int depth);

/* The pointer fields of what parameter k of fn points to that fn sets to
 * something else than NULL. */
static uint64_t set_fields(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k,
                           int depth)
{
    if (fn == NULL || LLVMIsDeclaration(fn) || k >= LLVMCountParams(fn))
        return 0;
    LLVMValueRef p = LLVMGetParam(fn, k);
    uint64_t set = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i))
            set |= sets(td, i, p, depth);
    return set;
}

static uint64_t sets(LLVMTargetDataRef td, LLVMValueRef i, LLVMValueRef p,
                     int depth)
{
    if (LLVMIsAStoreInst(i))
        return is_null(LLVMGetOperand(i, 0))
                   ? 0
                   : field_bit(td, LLVMGetOperand(i, 1), p);
    if (LLVMIsACallInst(i) && copies_into(i, p))
        return ~0ull;
    return call_fields(td, i, p, depth, set_fields);
}

uint64_t bcw__derefs_nulled(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k)
{
    return ~set_fields(td, fn, k, MAX_DEPTH);
}

/* The fields instruction i of fn follows (`checks`: unchecked): a
 * pointer field of what p points to loaded and followed (with no load of
 * it compared with NULL), or those of a module function it passes p to. */
static uint64_t follows_at(LLVMTargetDataRef td, LLVMValueRef fn,
                           LLVMValueRef i, LLVMValueRef p, int depth,
                           bool checks);

/* The fields fn follows, through parameter k, before it sets them
 * itself (`checks`: those it follows unchecked). */
static uint64_t following(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k,
                          int depth, bool checks)
{
    if (fn == NULL || LLVMIsDeclaration(fn) || k >= LLVMCountParams(fn))
        return 0;
    LLVMValueRef p = LLVMGetParam(fn, k);
    /* where each field is first set, in the order of the code: one set
     * before it is followed (raxSeek setting it->node) is no need */
    uint32_t first[64], at = 0;
    for (unsigned b = 0; b < 64; b++)
        first[b] = UINT32_MAX;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i), at++)
            for (uint64_t m = sets(td, i, p, depth); m != 0; m &= m - 1)
                if (first[__builtin_ctzll(m)] == UINT32_MAX)
                    first[__builtin_ctzll(m)] = at;
    uint64_t mask = 0;
    at = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i), at++)
            for (uint64_t m = follows_at(td, fn, i, p, depth, checks); m != 0;
                 m &= m - 1)
                if (first[__builtin_ctzll(m)] >= at)
                    mask |= 1ull << __builtin_ctzll(m);
    return mask;
}

static uint64_t unchecked(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k,
                          int depth)
{
    return following(td, fn, k, depth, true);
}

static uint64_t followed(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k,
                         int depth)
{
    return following(td, fn, k, depth, false);
}

static uint64_t follows_at(LLVMTargetDataRef td, LLVMValueRef fn,
                           LLVMValueRef i, LLVMValueRef p, int depth,
                           bool checks)
{
    if (LLVMIsACallInst(i))
        return call_fields(td, i, p, depth, checks ? unchecked : followed);
    if (!LLVMIsALoadInst(i) ||
        LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMPointerTypeKind)
        return 0;
    uint64_t bit = field_bit(td, LLVMGetOperand(i, 0), p);
    return bit != 0 && follows(i, MAX_DEPTH, 0, checks) &&
                   !(checks &&
                     field_checked(td, fn, p,
                                   (uint32_t)(8 * __builtin_ctzll(bit))))
               ? bit
               : 0;
}

uint64_t bcw__derefs_unchecked(LLVMTargetDataRef td, LLVMValueRef fn,
                               unsigned k)
{
    return unchecked(td, fn, k, MAX_DEPTH);
}

uint64_t bcw__derefs_followed(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k)
{
    return followed(td, fn, k, MAX_DEPTH);
}

/* The field address a load of v reads, or NULL. */
static LLVMValueRef loaded_field(LLVMValueRef v)
{
    while (LLVMIsABitCastInst(v))
        v = LLVMGetOperand(v, 0);
    if (!LLVMIsALoadInst(v))
        return NULL;
    LLVMValueRef a = LLVMGetOperand(v, 0);
    return LLVMIsAGetElementPtrInst(a) ? a : NULL;
}

/* Is the value v read from a field that is a "none" marker of the
 * library's (a tree's sentinel): one the module compares pointers with
 * (`n->left != t->sentinel`) and that one function at most sets (where
 * the container is made), unlike a list's head, which every insert and
 * remove sets? */
static bool none_marker(LLVMValueRef v)
{
    LLVMValueRef field = loaded_field(v);
    if (field == NULL)
        return false;
    LLVMModuleRef m = LLVMGetGlobalParent(
        LLVMGetBasicBlockParent(LLVMGetInstructionParent(field)));
    bool compared = false;
    unsigned setters = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn && setters < 2;
         fn = LLVMGetNextFunction(fn)) {
        bool sets_it = false;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
                 i = LLVMGetNextInstruction(i)) {
                LLVMValueRef a =
                    LLVMIsAStoreInst(i) ? LLVMGetOperand(i, 1) : NULL;
                sets_it =
                    sets_it || (a != NULL && LLVMIsAGetElementPtrInst(a) &&
                                bcw__same_field(a, field));
                for (unsigned o = 0; LLVMIsAICmpInst(i) && o < 2; o++) {
                    LLVMValueRef f = loaded_field(LLVMGetOperand(i, o));
                    compared = compared || (f != NULL && bcw__same_field(f, field));
                }
            }
        setters += sets_it;
    }
    return compared && setters < 2;
}

static uint64_t sentinelled(LLVMTargetDataRef td, LLVMValueRef fn, unsigned k,
                            int depth)
{
    if (fn == NULL || LLVMIsDeclaration(fn) || k >= LLVMCountParams(fn))
        return 0;
    LLVMValueRef p = LLVMGetParam(fn, k);
    uint64_t mask = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i)) {
            if (LLVMIsACallInst(i))
                mask |= call_fields(td, i, p, depth, sentinelled);
            else if (LLVMIsAStoreInst(i) &&
                     field_bit(td, LLVMGetOperand(i, 1), p) != 0 &&
                     none_marker(LLVMGetOperand(i, 0)))
                mask |= field_bit(td, LLVMGetOperand(i, 1), p);
        }
    return mask;
}

uint64_t bcw__derefs_sentinelled(LLVMTargetDataRef td, LLVMValueRef fn,
                                 unsigned k)
{
    return sentinelled(td, fn, k, MAX_DEPTH);
}
