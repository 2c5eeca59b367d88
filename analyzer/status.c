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
    LLVMValueRef p; /* the parameter whose storage is filled */
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

static bool written_before(cfg *g, LLVMBasicBlockRef b);

/* Can a block writing p reach one of b's predecessors (the blocks whose
 * terminator branches to it), those included? */
static bool written_above(cfg *g, LLVMBasicBlockRef b)
{
    for (unsigned i = 0; i < g->n; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[i]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++)
            if (LLVMGetSuccessor(t, s) == b && written_before(g, g->bb[i]))
                return true;
    }
    return false;
}

/* Can a block writing p reach block b (b included)? */
static bool written_before(cfg *g, LLVMBasicBlockRef b)
{
    int at = index_of(g, b);
    if (at < 0 || g->seen[at])
        return false;
    g->seen[at] = true;
    return g->writes[at] || written_above(g, b);
}

typedef struct results {
    bool early_zero, early_other; /* constants returned before a write */
    bool late_zero, late_other;   /* and after one */
    bool unknown;                 /* a value that is no constant */
} results;

/* Has p been written before instruction `at`: by an instruction of its
 * block before it, or by a block that can reach its block? */
static bool written_before_inst(cfg *g, LLVMValueRef at)
{
    LLVMBasicBlockRef b = LLVMGetInstructionParent(at);
    int i = index_of(g, b);
    if (i < 0)
        return false;
    if (g->writes[i])
        for (LLVMValueRef in = LLVMGetFirstInstruction(b); in != at;
             in = LLVMGetNextInstruction(in))
            if (writes(in, g->p, 0))
                return true;
    for (unsigned k = 0; k < g->n; k++)
        g->seen[k] = false;
    g->seen[i] = true;
    return written_above(g, b);
}

static void collect(LLVMValueRef fn, unsigned self, int depth, results *r);

/* Sorts into r what v, a call of a module function given p, returns
 * when that function fills p too (deflateInit_ returning
 * deflateInit2_(strm, ...), an init returning its helper's
 * setup(cms, ...)): the helper's constants, all of them after a write
 * when the caller wrote p before the call.  False when v is no such
 * call. */
static bool delegated(cfg *g, LLVMValueRef v, results *r, int depth)
{
    unsigned k = 0;
    LLVMValueRef q = depth < 4 ? bcw__passed_to(v, g->p, &k) : NULL;
    if (q == NULL)
        return false;
    results h = {0};
    collect(LLVMGetParamParent(q), k, depth + 1, &h);
    if (!h.early_zero && !h.early_other && !h.late_zero && !h.late_other)
        return false;
    bool late = written_before_inst(g, v);
    r->unknown |= h.unknown;
    r->late_zero |= h.late_zero || (late && h.early_zero);
    r->late_other |= h.late_other || (late && h.early_other);
    r->early_zero |= !late && h.early_zero;
    r->early_other |= !late && h.early_other;
    return true;
}

/* Sorts the value v returned from block `from` into r, through phis. */
static void sort_value(cfg *g, LLVMValueRef v, LLVMBasicBlockRef from,
                       results *r, int depth, int hops)
{
    if (LLVMIsAPHINode(v) && hops < 8) {
        for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
            sort_value(g, LLVMGetIncomingValue(v, k),
                       LLVMGetIncomingBlock(v, k), r, depth, hops + 1);
        return;
    }
    /* return s->cells == NULL ? -1 : 0: both, from the same block */
    if (LLVMIsASelectInst(v) && hops < 8) {
        sort_value(g, LLVMGetOperand(v, 1), from, r, depth, hops + 1);
        sort_value(g, LLVMGetOperand(v, 2), from, r, depth, hops + 1);
        return;
    }
    if (delegated(g, v, r, depth))
        return;
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

/* Sorts every value fn returns into r, as to the storage its parameter
 * `self` points to. */
static void collect(LLVMValueRef fn, unsigned self, int depth, results *r)
{
    if (fn == NULL || LLVMIsDeclaration(fn) || self >= LLVMCountParams(fn)) {
        r->unknown = true;
        return;
    }
    cfg g = {0};
    g.p = LLVMGetParam(fn, self);
    g.n = LLVMCountBasicBlocks(fn);
    g.bb = bcw__calloc(g.n ? g.n : 1, sizeof *g.bb);
    g.writes = bcw__calloc(g.n ? g.n : 1, sizeof *g.writes);
    g.seen = bcw__calloc(g.n ? g.n : 1, sizeof *g.seen);
    if (g.bb == NULL || g.writes == NULL || g.seen == NULL)
        r->unknown = true;
    else
        LLVMGetBasicBlocks(fn, g.bb);
    for (unsigned i = 0; !r->unknown && i < g.n; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(g.bb[i]); in;
             in = LLVMGetNextInstruction(in))
            g.writes[i] = g.writes[i] || writes(in, g.p, 0);
    for (unsigned i = 0; !r->unknown && i < g.n; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g.bb[i]);
        if (t != NULL && LLVMIsAReturnInst(t) && LLVMGetNumOperands(t) == 1)
            sort_value(&g, LLVMGetOperand(t, 0), g.bb[i], r, depth, 0);
    }
    free(g.bb);
    free(g.writes);
    free(g.seen);
}

enum bcw_status bcw__status_of(LLVMValueRef fn, unsigned self)
{
    results r = {0};
    collect(fn, self, 0, &r);
    if (r.unknown)
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
