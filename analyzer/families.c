/* families.c - which objects of its unit a function works on, where the
 * unit's functions disagree on what one of its fields points to.  zlib's
 * z_stream has one `state` field: deflate's functions index what it
 * points to as their internal_state, inflate's cast it to an
 * inflate_state first.  A function's view of a field is the struct its
 * code indexes the pointer it loads from the field as (or the one it
 * stores there), itself or in the module functions it hands the unit
 * to; with typed and opaque pointers alike, a GEP names the struct it
 * indexes.  The first field two views of which exist is the unit's
 * family field, and each function's family is its view of it: a walk
 * calls a method, and ends an object with a destructor, only of the
 * family of the constructor that made it. */
#define _POSIX_C_SOURCE 200809L
#include "families.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"

#define MAX_FIELDS 64 /* fields a view is looked for in */
#define MAX_DEPTH 3   /* calls down */

/* A function's views: per field index, the struct it takes the field to
 * point to; NULL none yet, `mixed` more than one. */
typedef struct views {
    const char *of[MAX_FIELDS];
} views;

static const char mixed[] = "";

/* The struct a GEP whose base is v (or a cast of it) indexes, or NULL;
 * `mixed` when two do. */
static const char *indexed_as(LLVMValueRef v, int hops)
{
    const char *as = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u != NULL && hops < 4;
         u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        const char *x = NULL;
        if (LLVMIsABitCastInst(user))
            x = indexed_as(user, hops + 1);
        else if (LLVMIsAGetElementPtrInst(user) &&
                 LLVMGetOperand(user, 0) == v) {
            LLVMTypeRef t = LLVMGetGEPSourceElementType(user);
            x = LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMGetStructName(t)
                                                         : NULL;
        }
        if (x != NULL && as != NULL && strcmp(x, as) != 0)
            return mixed;
        as = x != NULL ? x : as;
    }
    return as;
}

static void note(views *w, unsigned field, const char *as)
{
    if (as == NULL || field >= MAX_FIELDS)
        return;
    const char *had = w->of[field];
    w->of[field] = had == NULL || strcmp(had, as) == 0 ? as : mixed;
}

/* The field index of GEP g from p (&p->field), or -1. */
static int field_of(LLVMValueRef g, LLVMValueRef p)
{
    if (!LLVMIsAGetElementPtrInst(g) ||
        bcw__uncast(LLVMGetOperand(g, 0)) != p || LLVMGetNumOperands(g) != 3 ||
        !LLVMIsAConstantInt(LLVMGetOperand(g, 1)) ||
        LLVMConstIntGetZExtValue(LLVMGetOperand(g, 1)) != 0 ||
        !LLVMIsAConstantInt(LLVMGetOperand(g, 2)))
        return -1;
    return (int)LLVMConstIntGetZExtValue(LLVMGetOperand(g, 2));
}

/* Adds fn's views of the fields of p, its parameter, to w. */
static void view(LLVMValueRef fn, LLVMValueRef p, views *w, int depth)
{
    for (LLVMValueRef in = bcw__first_instruction(fn); in != NULL;
         in = bcw__next_instruction(in)) {
        if (LLVMIsALoadInst(in)) {
            int field = field_of(LLVMGetOperand(in, 0), p);
            if (field >= 0)
                note(w, (unsigned)field, indexed_as(in, 0));
        } else if (LLVMIsAStoreInst(in)) {
            int field = field_of(LLVMGetOperand(in, 1), p);
            if (field >= 0)
                note(w, (unsigned)field,
                     indexed_as(bcw__uncast(LLVMGetOperand(in, 0)), 0));
        }
        LLVMValueRef q;
        for (unsigned k = 0;
             depth < MAX_DEPTH && (q = bcw__passed_to(in, p, &k)); k++)
            view(LLVMGetParamParent(q), q, w, depth + 1);
    }
}

/* Sets the families of unit u's functions (their views of its family
 * field).  0 or BCW_ENOMEM. */
static int unit_families(const bcw_finder *f, bcw_unit *u)
{
    views *all = bcw__calloc(u->nfuncs ? u->nfuncs : 1, sizeof *all);
    if (all == NULL)
        return BCW_ENOMEM;
    for (unsigned i = 0; i < u->nfuncs; i++) {
        const bcw_func *fn = &u->funcs[i];
        LLVMValueRef g = LLVMGetNamedFunction(f->mod, fn->name);
        if (fn->self >= 0 && g != NULL && !LLVMIsDeclaration(g) &&
            (unsigned)fn->self < LLVMCountParams(g))
            view(g, LLVMGetParam(g, (unsigned)fn->self), &all[i], 0);
    }
    int field = -1;
    for (unsigned k = 0; k < MAX_FIELDS && field < 0; k++) {
        const char *first = NULL;
        for (unsigned i = 0; i < u->nfuncs && field < 0; i++) {
            const char *as = all[i].of[k];
            if (as == NULL || as == mixed)
                continue;
            if (first != NULL && strcmp(first, as) != 0)
                field = (int)k;
            first = first ? first : as;
        }
    }
    int err = 0;
    for (unsigned i = 0; field >= 0 && i < u->nfuncs && err == 0; i++) {
        const char *as = all[i].of[field];
        if (as == NULL || as == mixed)
            continue;
        /* "struct.inflate_state": the C name */
        const char *dot = strchr(as, '.');
        if ((u->funcs[i].family = bcw__strdup(dot ? dot + 1 : as)) == NULL)
            err = BCW_ENOMEM;
    }
    free(all);
    return err;
}

int bcw__families_find(bcw_finder *f)
{
    int err = 0;
    for (unsigned i = 0; i < f->model->nunits && err == 0; i++)
        if (!f->model->units[i].cell)
            err = unit_families(f, &f->model->units[i]);
    return err;
}
