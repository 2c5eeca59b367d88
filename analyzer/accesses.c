/* accesses.c - field-level effects: which fields of its unit a method
 * loads and stores, following calls that pass the unit pointer on to
 * module functions, and which module globals it touches.  A field
 * reached through a pointer field counts as that field's block as a
 * whole ("*data"). */
#define _POSIX_C_SOURCE 200809L
#include "accesses.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "alloc.h"
#include "bitcode.h"

#define MAX_DEPTH 6 /* calls followed below the method */

/* Fields found, as keys of their addresses (see key). */
typedef struct keyset {
    uint64_t *v;
    size_t n, cap;
} keyset;

/* Module globals found, as their variables. */
typedef struct globset {
    LLVMValueRef *v;
    size_t n, cap;
} globset;

typedef struct walker {
    LLVMTargetDataRef td;
    keyset reads, writes;
    globset greads, gwrites;
    LLVMValueRef stack[MAX_DEPTH]; /* recursion guard */
    unsigned depth;
} walker;

static uint64_t key(bcw_addr a)
{
    return ((uint64_t)(uint32_t)(a.via + 1) << 32) | a.off;
}

static int add_key(keyset *s, uint64_t k)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == k)
            return 0;
    if (bcw__grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0)
        return BCW_ENOMEM;
    s->v[s->n++] = k;
    return 0;
}

/* The module global `ptr` points into, or NULL. */
static LLVMValueRef global_of(LLVMValueRef ptr)
{
    for (int hops = 0; ptr != NULL && hops < 8; hops++) {
        if (LLVMIsAGlobalVariable(ptr))
            return LLVMIsDeclaration(ptr) || LLVMIsGlobalConstant(ptr) ? NULL
                                                                       : ptr;
        if (!(LLVMIsAGetElementPtrInst(ptr) || LLVMIsABitCastInst(ptr) ||
              LLVMIsAConstantExpr(ptr)))
            return NULL;
        ptr = LLVMGetOperand(ptr, 0);
    }
    return NULL;
}

static int add_global(globset *s, LLVMValueRef g)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == g)
            return 0;
    if (bcw__grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0)
        return BCW_ENOMEM;
    s->v[s->n++] = g;
    return 0;
}

static int access(walker *c, LLVMValueRef unit, LLVMValueRef ptr, int write)
{
    bcw_addr a = bcw__addr_of(c->td, ptr, unit, 0);
    if (!a.ok) {
        LLVMValueRef g = global_of(ptr);
        if (g == NULL)
            return 0;
        return add_global(write ? &c->gwrites : &c->greads, g);
    }
    if (a.via >= 0)
        a.off = BCW_ADDR_UNKNOWN_OFF; /* the block as a whole */
    return add_key(write ? &c->writes : &c->reads, key(a));
}

static int walk_function(walker *c, LLVMValueRef fn, LLVMValueRef unit);

static int walk_call(walker *c, LLVMValueRef call, LLVMValueRef unit)
{
    LLVMValueRef callee = bcw__called_function(call);
    const char *name = callee ? bcw__value_name(callee) : "";
    unsigned n = (unsigned)LLVMGetNumArgOperands(call);
    int err = 0;
    for (unsigned a = 0; a < n && err == 0; a++) {
        LLVMValueRef arg = LLVMGetOperand(call, a);
        if (LLVMGetTypeKind(LLVMTypeOf(arg)) != LLVMPointerTypeKind)
            continue;
        bcw_addr at = bcw__addr_of(c->td, arg, unit, 0);
        bool is_unit = at.ok && at.via < 0 && at.off == 0;
        if (callee != NULL && !LLVMIsDeclaration(callee)) {
            if (is_unit && a < LLVMCountParams(callee))
                err = walk_function(c, callee, LLVMGetParam(callee, a));
            continue;
        }
        /* memset/memcpy/free of a field or its block writes it */
        if (is_unit && strcmp(name, "free") == 0)
            continue; /* freeing the unit itself: the destructor role */
        bool dest =
            a == 0 &&
            (strncmp(name, "llvm.mem", 8) == 0 || strcmp(name, "memset") == 0 ||
             strcmp(name, "memcpy") == 0 || strcmp(name, "memmove") == 0 ||
             strcmp(name, "free") == 0 || strcmp(name, "realloc") == 0);
        if (dest)
            err = access(c, unit, arg, 1);
        else if (strncmp(name, "llvm.", 5) != 0)
            err = access(c, unit, arg, 0);
    }
    return err;
}

static int walk_function(walker *c, LLVMValueRef fn, LLVMValueRef unit)
{
    for (unsigned i = 0; i < c->depth; i++)
        if (c->stack[i] == fn)
            return 0; /* recursion: already being walked */
    if (c->depth == MAX_DEPTH)
        return 0;
    c->stack[c->depth++] = fn;
    int err = 0;
    for (LLVMValueRef in = bcw__first_instruction(fn); in && !err;
         in = bcw__next_instruction(in)) {
        switch (LLVMGetInstructionOpcode(in)) {
        case LLVMLoad:
            err = access(c, unit, LLVMGetOperand(in, 0), 0);
            break;
        case LLVMStore:
            err = access(c, unit, LLVMGetOperand(in, 1), 1);
            break;
        case LLVMAtomicRMW:
        case LLVMAtomicCmpXchg:
            err = access(c, unit, LLVMGetOperand(in, 0), 1);
            break;
        case LLVMCall:
        case LLVMInvoke:
            err = walk_call(c, in, unit);
            break;
        default:
            break;
        }
    }
    c->depth--;
    return err;
}

static int cmp_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Keys to names, in layout order, then the globals ("global calls"). */
static int name_keys(const bcw_unit *u, keyset *keys, const globset *globals,
                     char ***out, unsigned *nout)
{
    size_t n = keys->n, ng = globals->n;
    if (n > 0)
        qsort(keys->v, n, sizeof *keys->v, cmp_keys);
    *out = NULL;
    *nout = 0;
    if (n + ng == 0)
        return 0;
    char **v = bcw__calloc(n + ng, sizeof *v);
    if (v == NULL)
        return BCW_ENOMEM;
    *out = v;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = keys->v[i];
        bcw_addr a = {1, (int32_t)(k >> 32) - 1, (uint32_t)k, 0};
        if ((v[i] = bcw__addr_text(u, a)) == NULL)
            return BCW_ENOMEM;
        (*nout)++;
    }
    for (size_t i = 0; i < ng; i++) {
        if ((v[n + i] = bcw__sprintf("global %s",
                                     bcw__value_name(globals->v[i]))) == NULL)
            return BCW_ENOMEM;
        (*nout)++;
    }
    return 0;
}

int bcw__accesses_find(const bcw_unit *u, LLVMTargetDataRef td, LLVMValueRef fn,
                       LLVMValueRef unit, bcw_func *f)
{
    walker c = {0};
    c.td = td;
    int err = walk_function(&c, fn, unit);
    if (err == 0)
        err = name_keys(u, &c.reads, &c.greads, &f->reads, &f->nreads);
    if (err == 0)
        err = name_keys(u, &c.writes, &c.gwrites, &f->wrote, &f->nwrote);
    free(c.reads.v);
    free(c.writes.v);
    free(c.greads.v);
    free(c.gwrites.v);
    return err;
}
