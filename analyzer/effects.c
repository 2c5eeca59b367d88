/* effects.c - interprocedural mod analysis: may a function write memory
 * reachable from a pointer parameter, or a module global?
 *
 * A value is "reachable" from parameter p if it is p, an address computed
 * from a reachable pointer (GEP, casts, phi, select, pointer arithmetic),
 * or a pointer loaded from reachable memory (the unit's field pointers).
 * A function writes p's memory if it stores through a reachable pointer,
 * hands one to memset/memcpy/free/realloc or an unknown external, or to a
 * module function that writes that parameter.  Module functions are
 * solved together to a fixpoint, so recursion is handled.
 *
 * This is stricter than LLVM's function-attrs, whose `readonly` on a
 * parameter is shallow: a method writing s->data[i] keeps `readonly` on s
 * there, because the store goes through a loaded field pointer. */
#define _POSIX_C_SOURCE 200809L
#include "effects.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"
#include "hash.h"
#include "model.h"

/* how many helper calls deep same_pointer follows a pointer: hdr(s) */
#define MAX_HELPERS 2

typedef struct fx_func {
    LLVMValueRef fn;
    const char *name;
    unsigned nparams;
    bool writes[BCW_MAX_PARAMS];
    bool frees[BCW_MAX_PARAMS];
    bool moves[BCW_MAX_PARAMS];    /* reallocates the parameter itself */
    bool releases[BCW_MAX_PARAMS]; /* frees memory the parameter reaches */
    const char *why[BCW_MAX_PARAMS];
    bool globals; /* writes a module global */
    const char *gwhy;
} fx_func;

struct bcw_effects {
    unsigned nfuncs;
    fx_func *funcs;
    bcw_index by_fn, by_name;
};

/* External functions known not to write through their pointer
 * arguments; anything else unknown is assumed to write what it gets. */
static const char *const readonly_externs[] = {
    "strlen",  "strnlen", "strcmp",   "strncmp", "strcasecmp", "strncasecmp",
    "memcmp",  "memchr",  "strchr",   "strrchr", "strstr",     "strspn",
    "strcspn", "strpbrk", "printf",   "puts",    "putchar",    "fputs",
    "fprintf", "vprintf", "vfprintf", "fwrite",  "abort",      "__assert_fail",
    "exit",    "_exit",   "atoi",     "atol",    "strtol",     "strtoul",
    "strtod",  "isalpha", "isdigit",  "isspace", "isupper",    "islower",
    "isalnum", "toupper", "tolower",  "malloc",  "calloc",     "bcmp",
    "perror",  "fflush",  NULL};

/* Externals that write their first argument (and nothing else). */
static const char *const dest_writers[] = {
    "memcpy",  "memmove",        "memset",   "strcpy",    "strncpy",  "strcat",
    "strncat", "sprintf",        "snprintf", "vsnprintf", "vsprintf", "qsort",
    "bzero",   "explicit_bzero", "fgets",    "fread",     NULL};

static bool in_list(const char *const *list, const char *name)
{
    for (; *list != NULL; list++)
        if (strcmp(*list, name) == 0)
            return true;
    return false;
}

/* A small open-addressing set of LLVM values. */
typedef struct vset {
    LLVMValueRef *slots;
    size_t cap, len;
} vset;

static size_t vhash(LLVMValueRef v, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)v * 0x9E3779B97F4A7C15ULL;
    return (size_t)(x >> 17) & (cap - 1);
}

static int vset_add(vset *s, LLVMValueRef v, bool *added)
{
    *added = false;
    if ((s->len + 1) * 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 64;
        LLVMValueRef *n = bcw__calloc(ncap, sizeof *n);
        if (n == NULL)
            return BCW_ENOMEM;
        for (size_t i = 0; i < s->cap; i++) {
            if (s->slots[i] == NULL)
                continue;
            size_t j = vhash(s->slots[i], ncap);
            while (n[j] != NULL)
                j = (j + 1) & (ncap - 1);
            n[j] = s->slots[i];
        }
        free(s->slots);
        s->slots = n;
        s->cap = ncap;
    }
    size_t j = vhash(v, s->cap);
    while (s->slots[j] != NULL) {
        if (s->slots[j] == v)
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->slots[j] = v;
    s->len++;
    *added = true;
    return 0;
}

typedef struct probe {
    const bcw_effects *fx;
    LLVMValueRef fn;
    const char *name;
} probe;

static int same_fn(uint32_t i, const void *payload)
{
    const probe *p = payload;
    return p->fx->funcs[i].fn == p->fn;
}

static int same_name(uint32_t i, const void *payload)
{
    const probe *p = payload;
    return strcmp(p->fx->funcs[i].name, p->name) == 0;
}

static fx_func *lookup(const bcw_effects *fx, LLVMValueRef fn)
{
    probe p = {fx, fn, NULL};
    uint32_t i = fn ? bcw__index_get(&fx->by_fn, bcw__hash_ptr(fn), same_fn, &p)
                    : UINT32_MAX;
    return i == UINT32_MAX ? NULL : &fx->funcs[i];
}

/* Does `v` point into a module global that is not constant? */
static bool is_global_address(LLVMValueRef v)
{
    for (int guard = 0; v != NULL && guard < 16; guard++) {
        if (LLVMIsAGlobalVariable(v))
            return !LLVMIsGlobalConstant(v);
        if (LLVMIsAGetElementPtrInst(v) || LLVMIsABitCastInst(v) ||
            LLVMIsAConstantExpr(v))
            v = LLVMGetOperand(v, 0);
        else
            return false;
    }
    return false;
}

typedef struct walk {
    vset seen;
    LLVMValueRef *work;
    size_t nwork, capwork;
} walk;

static int push(walk *w, LLVMValueRef v)
{
    bool added;
    int err = vset_add(&w->seen, v, &added);
    if (err < 0 || !added)
        return err;
    if (bcw__grow(&w->work, &w->capwork, w->nwork + 1, sizeof *w->work) < 0)
        return BCW_ENOMEM;
    w->work[w->nwork++] = v;
    return 0;
}

/* Effect of one call on the reachable values: sets *writes and *frees, and
 * says why.  `arg` is the tainted argument position. */
static void call_effect(const bcw_effects *fx, LLVMValueRef call, unsigned arg,
                        bool *writes, bool *frees, bool *moves, bool *releases,
                        const char **why)
{
    LLVMValueRef callee = bcw__called_function(call);
    if (callee == NULL) {
        *writes = true;
        *why = "passes unit memory to an indirect call";
        return;
    }
    const char *name = bcw__value_name(callee);
    if (strncmp(name, "llvm.", 5) == 0) {
        if ((strncmp(name, "llvm.memset", 11) == 0 ||
             strncmp(name, "llvm.memcpy", 11) == 0 ||
             strncmp(name, "llvm.memmove", 12) == 0) &&
            arg == 0) {
            *writes = true;
            *why = name;
        }
        return;
    }
    fx_func *f = lookup(fx, callee);
    if (f != NULL) {
        if (arg < f->nparams && f->writes[arg]) {
            *writes = true;
            *why = f->name;
        }
        if (arg < f->nparams && f->frees[arg])
            *frees = true;
        if (arg < f->nparams && f->moves[arg])
            *moves = true;
        if (arg < f->nparams && f->releases[arg])
            *releases = true;
        return;
    }
    if (strcmp(name, "free") == 0 || strcmp(name, "realloc") == 0) {
        *writes = true;
        *frees = *frees || strcmp(name, "free") == 0;
        *moves = *moves || strcmp(name, "realloc") == 0;
        *why = name;
    } else if (in_list(dest_writers, name)) {
        if (arg == 0) {
            *writes = true;
            *why = name;
        }
    } else if (!in_list(readonly_externs, name)) {
        *writes = true;
        *why = name;
    }
}

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

/* Is `v` the block parameter `param` points into: the parameter through
 * casts, at a constant offset (a string handle's header before it, s -
 * sizeof(struct hdr)), or as a module function given it returns it
 * (hdr(s)), up to `depth` calls deep? */
static bool same_pointer(LLVMValueRef v, LLVMValueRef param, int depth)
{
    while (v != param && (LLVMIsABitCastInst(v) ||
                          LLVMIsAAddrSpaceCastInst(v) || constant_gep(v)))
        v = LLVMGetOperand(v, 0);
    if (v == param)
        return true;
    LLVMValueRef callee = LLVMIsACallInst(v) ? bcw__called_function(v) : NULL;
    if (callee == NULL || LLVMIsDeclaration(callee) || depth == 0)
        return false;
    /* the helper returns its argument k's block, given param's */
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(v);
    for (unsigned k = 0; k < nargs && k < LLVMCountParams(callee); k++) {
        if (!same_pointer(LLVMGetOperand(v, k), param, depth - 1))
            continue;
        bool all = true, any = false;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(callee); bb && all;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
            if (term == NULL || LLVMGetInstructionOpcode(term) != LLVMRet ||
                LLVMGetNumOperands(term) != 1)
                continue;
            any = true;
            all = same_pointer(LLVMGetOperand(term, 0), LLVMGetParam(callee, k),
                               depth - 1);
        }
        if (any && all)
            return true;
    }
    return false;
}

/* Follows everything reachable from parameter `p` of `f`. */
static int solve_param(const bcw_effects *fx, fx_func *f, unsigned p,
                       bool *writes, bool *frees, bool *moves, bool *releases,
                       const char **why)
{
    walk w = {0};
    int err = push(&w, LLVMGetParam(f->fn, p));
    LLVMValueRef param = LLVMGetParam(f->fn, p);
    while (err == 0 && w.nwork > 0 &&
           !(*writes && *frees && *moves && *releases)) {
        LLVMValueRef v = w.work[--w.nwork];
        for (LLVMUseRef u = LLVMGetFirstUse(v); u != NULL && err == 0;
             u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!LLVMIsAInstruction(user))
                continue;
            switch (LLVMGetInstructionOpcode(user)) {
            case LLVMGetElementPtr:
            case LLVMBitCast:
            case LLVMAddrSpaceCast:
            case LLVMPtrToInt:
            case LLVMIntToPtr:
            case LLVMPHI:
            case LLVMSelect:
            case LLVMAdd:
            case LLVMSub:
            case LLVMAnd:
            case LLVMOr:
                err = push(&w, user);
                break;
            case LLVMLoad:
                /* A pointer stored in reachable memory points to memory
                 * the unit owns (s->data). */
                if (LLVMGetTypeKind(LLVMTypeOf(user)) == LLVMPointerTypeKind)
                    err = push(&w, user);
                break;
            case LLVMStore:
                if (LLVMGetOperand(user, 1) == v) {
                    *writes = true;
                    *why = "stores into unit memory";
                } else if (LLVMIsAAllocaInst(LLVMGetOperand(user, 1))) {
                    /* spilled to a local: reloads are reachable too */
                    err = push(&w, LLVMGetOperand(user, 1));
                }
                break;
            case LLVMAtomicRMW:
            case LLVMAtomicCmpXchg:
                *writes = true;
                *why = "updates unit memory atomically";
                break;
            case LLVMCall:
            case LLVMInvoke: {
                unsigned n = (unsigned)LLVMGetNumArgOperands(user);
                bool any = false;
                for (unsigned a = 0; a < n; a++) {
                    if (LLVMGetOperand(user, a) != v ||
                        LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMPointerTypeKind)
                        continue;
                    any = true;
                    bool fr = false, mv = false;
                    call_effect(fx, user, a, writes, &fr, &mv, releases, why);
                    /* freeing the parameter itself makes a destructor,
                     * reallocating it a new handle; doing either to a
                     * field pointer is only a write */
                    if (fr && same_pointer(v, param, MAX_HELPERS))
                        *frees = true;
                    else if (fr)
                        *releases = true;
                    if (mv && same_pointer(v, param, MAX_HELPERS))
                        *moves = true;
                }
                if (any &&
                    LLVMGetTypeKind(LLVMTypeOf(user)) == LLVMPointerTypeKind)
                    err = push(&w, user);
                break;
            }
            default:
                break;
            }
        }
    }
    free(w.seen.slots);
    free(w.work);
    return err;
}

static void solve_globals(const bcw_effects *fx, fx_func *f)
{
    for (LLVMValueRef in = bcw__first_instruction(f->fn); in != NULL;
         in = bcw__next_instruction(in)) {
        LLVMOpcode op = LLVMGetInstructionOpcode(in);
        if (op == LLVMStore && is_global_address(LLVMGetOperand(in, 1))) {
            f->globals = true;
            f->gwhy = "writes a module global";
            return;
        }
        if (op != LLVMCall && op != LLVMInvoke)
            continue;
        fx_func *g = lookup(fx, bcw__called_function(in));
        if (g != NULL && g->globals) {
            f->globals = true;
            f->gwhy = g->name;
            return;
        }
    }
}

int bcw__effects_new(bcw_effects **out, bcw_bitcode *bc)
{
    *out = NULL;
    bcw_effects *fx = bcw__calloc(1, sizeof *fx);
    if (fx == NULL)
        return BCW_ENOMEM;
    size_t cap = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(bc->mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        if (bcw__grow(&fx->funcs, &cap, fx->nfuncs + 1, sizeof *fx->funcs)) {
            bcw__effects_free(fx);
            return BCW_ENOMEM;
        }
        fx_func *f = &fx->funcs[fx->nfuncs++];
        memset(f, 0, sizeof *f);
        f->fn = fn;
        f->name = bcw__value_name(fn);
        f->nparams = LLVMCountParams(fn);
        if (f->nparams > BCW_MAX_PARAMS)
            f->nparams = BCW_MAX_PARAMS;
        uint32_t i = fx->nfuncs - 1;
        if (bcw__index_put(&fx->by_fn, bcw__hash_ptr(fn), i) < 0 ||
            bcw__index_put(&fx->by_name, bcw__hash_str(f->name), i) < 0) {
            bcw__effects_free(fx);
            return BCW_ENOMEM;
        }
    }
    /* Monotone fixpoint: facts only go from false to true. */
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < fx->nfuncs; i++) {
            fx_func *f = &fx->funcs[i];
            for (unsigned p = 0; p < f->nparams; p++) {
                LLVMValueRef param = LLVMGetParam(f->fn, p);
                if (LLVMGetTypeKind(LLVMTypeOf(param)) != LLVMPointerTypeKind)
                    continue;
                bool w = f->writes[p], fr = f->frees[p], mv = f->moves[p];
                bool rl = f->releases[p];
                const char *why = f->why[p];
                if (w && fr && mv && rl)
                    continue;
                int err = solve_param(fx, f, p, &w, &fr, &mv, &rl, &why);
                if (err < 0) {
                    bcw__effects_free(fx);
                    return err;
                }
                if (w != f->writes[p] || fr != f->frees[p] ||
                    mv != f->moves[p] || rl != f->releases[p]) {
                    f->writes[p] = w;
                    f->frees[p] = fr;
                    f->moves[p] = mv;
                    f->releases[p] = rl;
                    f->why[p] = why;
                    changed = true;
                }
            }
            if (!f->globals) {
                solve_globals(fx, f);
                changed = changed || f->globals;
            }
        }
    }
    *out = fx;
    return 0;
}

static const fx_func *by_name(const bcw_effects *fx, const char *name)
{
    probe p = {fx, NULL, name};
    uint32_t i =
        bcw__index_get(&fx->by_name, bcw__hash_str(name), same_name, &p);
    return i == UINT32_MAX ? NULL : &fx->funcs[i];
}

bool bcw__effects_writes(const bcw_effects *fx, const char *fn, unsigned param,
                         const char **why)
{
    const fx_func *f = by_name(fx, fn);
    *why = NULL;
    if (f == NULL)
        return true;
    if (param < f->nparams && f->writes[param]) {
        *why = f->why[param];
        return true;
    }
    if (f->globals) {
        *why = f->gwhy;
        return true;
    }
    return false;
}

bool bcw__effects_frees(const bcw_effects *fx, const char *fn, unsigned param)
{
    const fx_func *f = by_name(fx, fn);
    return f != NULL && param < f->nparams && f->frees[param];
}

bool bcw__effects_releases(const bcw_effects *fx, const char *fn,
                           unsigned param)
{
    const fx_func *f = by_name(fx, fn);
    return f != NULL && param < f->nparams && f->releases[param];
}

bool bcw__effects_moves(const bcw_effects *fx, const char *fn, unsigned param)
{
    const fx_func *f = by_name(fx, fn);
    return f != NULL && param < f->nparams && f->moves[param];
}

void bcw__effects_free(bcw_effects *fx)
{
    if (fx == NULL)
        return;
    bcw__index_free(&fx->by_fn);
    bcw__index_free(&fx->by_name);
    free(fx->funcs);
    free(fx);
}
