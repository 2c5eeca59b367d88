/* status.c - what an init function's status says: the constants it
 * returns before it has written anything into the storage it fills are
 * its failures; those it returns after are its success.  int
 * vec_init(vec *v, size_t cap) returning -1 before touching v and 0 once
 * it filled it succeeds with 0; bool returning false early succeeds with
 * not 0.  A walk treats any other result as "no object" (rejected). */
#include "status.h"

#include <stdlib.h>

#include "alloc.h"
#include "bitcode.h"

static bool body_writes(LLVMValueRef fn, LLVMValueRef p, int depth);

/* Does instruction i write what p points to: a store through it (or a
 * field of it), or a call given it or a field of it, unless the call is
 * of a module function that only reads it (deflateStateCheck(strm)),
 * `depth` calls down so far? */
static bool writes(LLVMValueRef i, LLVMValueRef p, int depth)
{
    LLVMValueRef a = NULL;
    if (LLVMIsAStoreInst(i))
        a = LLVMGetOperand(i, 1);
    LLVMValueRef callee = LLVMIsACallInst(i) ? bcw__called_function(i) : NULL;
    for (unsigned k = 0; a == NULL && LLVMIsACallInst(i) &&
                         k < (unsigned)LLVMGetNumArgOperands(i);
         k++) {
        LLVMValueRef v = LLVMGetOperand(i, k);
        LLVMValueRef b = v;
        while (LLVMIsAGetElementPtrInst(b) || LLVMIsABitCastInst(b))
            b = LLVMGetOperand(b, 0);
        if (b != p || LLVMIsADbgInfoIntrinsic(i))
            continue;
        if (b == v && callee != NULL && !LLVMIsDeclaration(callee) &&
            k < LLVMCountParams(callee) && depth < 3 &&
            !body_writes(callee, LLVMGetParam(callee, k), depth + 1))
            continue;
        a = v;
    }
    while (a != NULL && (LLVMIsAGetElementPtrInst(a) || LLVMIsABitCastInst(a)))
        a = LLVMGetOperand(a, 0);
    return a == p;
}

/* Does any instruction of fn write what p, its parameter, points to? */
static bool body_writes(LLVMValueRef fn, LLVMValueRef p, int depth)
{
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b != NULL;
         b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in != NULL;
             in = LLVMGetNextInstruction(in))
            if (writes(in, p, depth))
                return true;
    return false;
}

typedef struct cfg {
    LLVMBasicBlockRef *bb;
    unsigned n;
    bool *writes; /* block i writes p */
    bool *seen;
} cfg;

static int index_of(const cfg *g, LLVMBasicBlockRef b)
{
    for (unsigned i = 0; i < g->n; i++)
        if (g->bb[i] == b)
            return (int)i;
    return -1;
}

/* Can a block writing p reach block b (b included)?  Walks b's
 * predecessors: the blocks whose terminator branches to it. */
static bool written_before(cfg *g, LLVMBasicBlockRef b)
{
    int at = index_of(g, b);
    if (at < 0 || g->seen[at])
        return false;
    g->seen[at] = true;
    if (g->writes[at])
        return true;
    for (unsigned i = 0; i < g->n; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[i]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++)
            if (LLVMGetSuccessor(t, s) == b && written_before(g, g->bb[i]))
                return true;
    }
    return false;
}

typedef struct results {
    bool early_zero, early_other; /* constants returned before a write */
    bool late_zero, late_other;   /* and after one */
    bool unknown;                 /* a value that is no constant */
    enum bcw_status via;          /* what the init functions whose result
                                     it returns say (deflateInit_ returning
                                     deflateInit2_(strm, ...)) */
} results;

static enum bcw_status status_at(LLVMValueRef fn, unsigned self, int depth);

/* The status of v, a call of a module function given p as its k-th
 * argument, when that function is an init function of its own; NONE
 * otherwise. */
static enum bcw_status delegated(LLVMValueRef v, LLVMValueRef p, int depth)
{
    unsigned k = 0;
    LLVMValueRef q = depth < 4 ? bcw__passed_to(v, p, &k) : NULL;
    return q != NULL ? status_at(LLVMGetParamParent(q), k, depth + 1)
                     : BCW_STATUS_NONE;
}

/* Sorts the value v returned from block `from` into r, through phis. */
static void sort_value(cfg *g, LLVMValueRef v, LLVMBasicBlockRef from,
                       results *r, LLVMValueRef p, int depth, int hops)
{
    if (LLVMIsAPHINode(v) && hops < 8) {
        for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
            sort_value(g, LLVMGetIncomingValue(v, k),
                       LLVMGetIncomingBlock(v, k), r, p, depth, hops + 1);
        return;
    }
    enum bcw_status via = delegated(v, p, depth);
    if (via != BCW_STATUS_NONE && (r->via == BCW_STATUS_NONE || r->via == via)) {
        r->via = via;
        return;
    }
    if (!LLVMIsAConstantInt(v)) {
        r->unknown = true;
        return;
    }
    for (unsigned i = 0; i < g->n; i++)
        g->seen[i] = false;
    bool zero = LLVMConstIntGetZExtValue(v) == 0;
    bool late = written_before(g, from);
    *(late ? (zero ? &r->late_zero : &r->late_other)
           : (zero ? &r->early_zero : &r->early_other)) = true;
}

static enum bcw_status status_at(LLVMValueRef fn, unsigned self, int depth)
{
    if (fn == NULL || LLVMIsDeclaration(fn) || self >= LLVMCountParams(fn))
        return BCW_STATUS_NONE;
    LLVMValueRef p = LLVMGetParam(fn, self);
    cfg g = {0};
    g.n = LLVMCountBasicBlocks(fn);
    g.bb = bcw__calloc(g.n ? g.n : 1, sizeof *g.bb);
    g.writes = bcw__calloc(g.n ? g.n : 1, sizeof *g.writes);
    g.seen = bcw__calloc(g.n ? g.n : 1, sizeof *g.seen);
    results r = {0};
    if (g.bb == NULL || g.writes == NULL || g.seen == NULL)
        r.unknown = true;
    LLVMGetBasicBlocks(fn, g.bb);
    for (unsigned i = 0; !r.unknown && i < g.n; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(g.bb[i]); in;
             in = LLVMGetNextInstruction(in))
            g.writes[i] = g.writes[i] || writes(in, p, 0);
    for (unsigned i = 0; !r.unknown && i < g.n; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g.bb[i]);
        if (t != NULL && LLVMIsAReturnInst(t) && LLVMGetNumOperands(t) == 1)
            sort_value(&g, LLVMGetOperand(t, 0), g.bb[i], &r, p, depth, 0);
    }
    free(g.bb);
    free(g.writes);
    free(g.seen);
    if (r.unknown)
        return BCW_STATUS_NONE;
    /* returning another init function's status: what it says, unless a
     * constant of its own returned before any write says otherwise */
    if (r.via == BCW_STATUS_ZERO && !r.early_zero)
        return BCW_STATUS_ZERO;
    if (r.via == BCW_STATUS_NONZERO && !r.early_other)
        return BCW_STATUS_NONZERO;
    if (r.via != BCW_STATUS_NONE)
        return BCW_STATUS_NONE;
    /* failures before anything was written, never 0, and 0 after: 0 is
     * success (the others after are failures too: a malloc failing
     * once a field was set); and the other way round */
    if (r.early_other && !r.early_zero && r.late_zero)
        return BCW_STATUS_ZERO;
    if (r.early_zero && !r.early_other && r.late_other)
        return BCW_STATUS_NONZERO;
    return BCW_STATUS_NONE;
}

enum bcw_status bcw__status_of(LLVMValueRef fn, unsigned self)
{
    return status_at(fn, self, 0);
}
