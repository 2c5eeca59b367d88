/* reinit.c - a unit's other initialisers.  int cms_import(cms *c, const
 * char *path) reads a sketch from a file into c: it writes every field
 * cms_init writes, reads none of them before it wrote it, and stores a
 * block it allocated in one.  Called on a live object it would leak what
 * that field held, so a caller gives it fresh storage, as an
 * initialiser's; walked as a mutator after cms_init it is bcwalk that
 * leaks.  A method reading the state it changes (a clear reading the
 * count it zeroes, a grow freeing or copying the old block) is none. */
#include "reinit.h"

#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "alloc.h"
#include "bitcode.h"
#include "effects.h"
#include "params.h"
#include "status.h"

#define MAX_FIELDS 64
#define MAX_DEPTH 3

/* What a function does to the storage its parameter points to, in the
 * order its instructions are laid out (a helper's at its call). */
typedef struct fill {
    uint32_t off[MAX_FIELDS]; /* the fields written so far, by offset */
    unsigned n;
    bool all;        /* memset or memcpy over the whole storage */
    bool read_first; /* a field read before it was written, or the
                        storage given to code bcwalk cannot see */
    bool stores_new; /* a new block stored in a field */
} fill;

static bool written(const fill *s, uint32_t off)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->off[i] == off)
            return true;
    return s->all;
}

static void write_at(fill *s, uint32_t off)
{
    if (!written(s, off) && s->n < MAX_FIELDS)
        s->off[s->n++] = off;
}

static void follow(const bcw_finder *f, LLVMValueRef fn, LLVMValueRef p,
                   fill *s, int depth);

/* A call given p or a field's address. */
static void call_with(const bcw_finder *f, LLVMValueRef call, LLVMValueRef p,
                      fill *s, int depth)
{
    LLVMValueRef callee = bcw__called_function(call);
    const char *name = callee != NULL ? bcw__value_name(callee) : "";
    if (LLVMIsADbgInfoIntrinsic(call))
        return;
    unsigned n = (unsigned)LLVMGetNumArgOperands(call);
    for (unsigned k = 0; k < n && !s->read_first; k++) {
        LLVMValueRef v = LLVMGetOperand(call, k);
        uint32_t at;
        if (bcw__uncast(v) == p) {
            if (callee != NULL && !LLVMIsDeclaration(callee) &&
                k < LLVMCountParams(callee) && depth < MAX_DEPTH)
                follow(f, callee, LLVMGetParam(callee, k), s, depth + 1);
            else if (k == 0 && (strncmp(name, "llvm.memset", 11) == 0 ||
                                strncmp(name, "llvm.memcpy", 11) == 0))
                s->all = true;
            else
                s->read_first = true;
        } else if (bcw__addr_field_offset(f->td, v, p, &at)) {
            /* fread(&c->width, ...): the field filled */
            write_at(s, at);
        }
    }
}

static void follow(const bcw_finder *f, LLVMValueRef fn, LLVMValueRef p,
                   fill *s, int depth)
{
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn);
         b != NULL && !s->read_first; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b);
             i != NULL && !s->read_first; i = LLVMGetNextInstruction(i)) {
            uint32_t at;
            if (LLVMIsALoadInst(i) &&
                bcw__addr_field_offset(f->td, LLVMGetOperand(i, 0), p, &at))
                s->read_first = !written(s, at);
            else if (LLVMIsAStoreInst(i) &&
                     bcw__addr_field_offset(f->td, LLVMGetOperand(i, 1), p, &at)) {
                write_at(s, at);
                s->stores_new |=
                    bcw__effects_new_block(f->fx, LLVMGetOperand(i, 0));
            } else if (LLVMIsACallInst(i)) {
                call_with(f, i, p, s, depth);
            }
        }
}

/* What function `name` does to the storage its first parameter points
 * to. */
static fill fill_of(const bcw_finder *f, const char *name)
{
    fill s = {0};
    LLVMValueRef fn = LLVMGetNamedFunction(f->mod, name);
    if (fn == NULL || LLVMIsDeclaration(fn) || LLVMCountParams(fn) == 0)
        s.read_first = true;
    else
        follow(f, fn, LLVMGetParam(fn, 0), &s, 0);
    return s;
}

/* Does `m` write every field `init` writes? */
static bool covers(const fill *m, const fill *init)
{
    if (init->all)
        return m->all;
    for (unsigned i = 0; i < init->n; i++)
        if (!written(m, init->off[i]))
            return false;
    return init->n > 0;
}

/* Makes mutator fn an initialiser. */
static void make_init(const bcw_finder *f, bcw_func *fn)
{
    LLVMValueRef v = LLVMGetNamedFunction(f->mod, fn->name);
    char *why = bcw__strdup("fills every field an initialiser fills, reading "
                            "none first, and stores a new block in one");
    if (why == NULL)
        return;
    free(fn->why);
    fn->why = why;
    fn->role = BCW_ROLE_INIT_CONSTRUCTOR;
    if (fn->ret.kind == BCW_PK_INT || fn->ret.kind == BCW_PK_BOOL ||
        fn->ret.kind == BCW_PK_ENUM)
        fn->ok = bcw__status_of(v, 0);
    fn->defaults = bcw__params_fields_tested(v, 0);
}

void bcw__reinit_find(bcw_finder *f)
{
    for (unsigned k = 0; k < f->model->nunits; k++) {
        bcw_unit *u = &f->model->units[k];
        bool dtor = false;
        for (unsigned i = 0; i < u->nfuncs; i++)
            dtor |= u->funcs[i].role == BCW_ROLE_DESTRUCTOR;
        for (unsigned i = 0; dtor && i < u->nfuncs; i++) {
            const bcw_func *init = &u->funcs[i];
            if (init->role != BCW_ROLE_INIT_CONSTRUCTOR || init->self != 0)
                continue;
            fill fi = fill_of(f, init->name);
            for (unsigned j = 0; j < u->nfuncs; j++) {
                bcw_func *m = &u->funcs[j];
                if (m->role != BCW_ROLE_MUTATOR || m->self != 0)
                    continue;
                fill fm = fill_of(f, m->name);
                if (!fm.read_first && fm.stores_new && covers(&fm, &fi))
                    make_init(f, m);
            }
        }
    }
}
