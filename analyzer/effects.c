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
 * An indirect call may reach any function whose address the module takes
 * (stores, passes or returns it) and whose type is the call's: a table's
 * hash_func field holds what its constructor was given, a conf's mem_free
 * field `free`.  Its effect is the union of theirs (through a callback
 * parameter, of the module's own functions only).  bcwalk's own
 * callbacks (compare, equal, hash, visitors) write nothing, so a lookup
 * calling a compare function on unit memory stays an observer unless the
 * module's own compare functions write.
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
#include "samepointer.h"
#include "hash.h"
#include "model.h"

/* how many helper calls deep same_pointer follows a pointer: hdr(s) */
#define MAX_HELPERS 2

/* What a function may do to the memory one pointer parameter reaches. */
typedef struct fx_facts {
    bool writes;
    bool frees;      /* frees the parameter itself */
    bool frees_held; /* frees the pointer the parameter holds (*p) */
    bool moves;      /* reallocates the parameter itself */
    bool releases;   /* frees memory the parameter reaches */
    bool escapes;    /* hands the parameter to code bcwalk cannot see */
    const char *why; /* the first write found */
} fx_facts;

typedef struct fx_func {
    LLVMValueRef fn;
    const char *name;
    unsigned nparams;
    fx_facts p[BCW_MAX_PARAMS];
    /* on what each parameter's block holds, not the block itself (a new
     * iterator a caller made, written and freed: not its memory), solved
     * only where a caller passes a block of its own (need_held) */
    fx_facts held[BCW_MAX_PARAMS];
    bool need_held[BCW_MAX_PARAMS];
    signed char fresh; /* returns only new blocks: 1, not: -1, unknown: 0 */
    bool globals;      /* writes a module global */
    const char *gwhy;
} fx_func;

struct bcw_effects {
    unsigned nfuncs;
    fx_func *funcs;
    bcw_index by_fn, by_name;
    unsigned ntaken;
    LLVMValueRef *taken; /* functions whose address the module takes */
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

/* Effect on argument `arg` of calling `callee`, a function; `held`:
 * on what the argument's block holds, not on the block (a module
 * function's held facts; writing or freeing the block is none). */
static void callee_effect(const bcw_effects *fx, LLVMValueRef callee,
                          unsigned arg, bool held, fx_facts *out)
{
    const char *name = bcw__value_name(callee);
    if (strncmp(name, "llvm.", 5) == 0) {
        if (!held &&
            (strncmp(name, "llvm.memset", 11) == 0 ||
             strncmp(name, "llvm.memcpy", 11) == 0 ||
             strncmp(name, "llvm.memmove", 12) == 0) &&
            arg == 0) {
            out->writes = true;
            out->why = name;
        }
        return;
    }
    fx_func *f = lookup(fx, callee);
    if (f != NULL) {
        if (arg >= f->nparams)
            return;
        f->need_held[arg] |= held;
        const fx_facts *g = held ? &f->held[arg] : &f->p[arg];
        if (g->writes) {
            out->writes = true;
            out->why = f->name;
        }
        out->frees |= g->frees;
        out->moves |= g->moves;
        out->releases |= g->releases;
        out->escapes |= g->escapes;
        return;
    }
    if (held && (strcmp(name, "free") == 0 || strcmp(name, "realloc") == 0 ||
                 in_list(dest_writers, name)))
        return;
    if (strcmp(name, "free") == 0 || strcmp(name, "realloc") == 0) {
        out->writes = true;
        out->frees |= strcmp(name, "free") == 0;
        out->moves |= strcmp(name, "realloc") == 0;
        out->why = name;
    } else if (in_list(dest_writers, name)) {
        if (arg == 0) {
            out->writes = true;
            out->why = name;
        }
    } else if (!in_list(readonly_externs, name)) {
        out->writes = true;
        out->escapes = true;
        out->why = name;
    }
}

/* Effect of one call on argument `arg`, a reachable value.  An indirect
 * call may reach every function of its type whose address the module
 * takes, and bcwalk's own callbacks, which write nothing.  Through a
 * callback parameter, only the module's own functions: bcwalk passes
 * those or its own, never a library's (a conf's mem_free field holds
 * `free`, a visitor parameter of the same type never does). */
static void call_effect(const bcw_effects *fx, LLVMValueRef call, unsigned arg,
                        bool held, fx_facts *out)
{
    LLVMValueRef callee = bcw__called_function(call);
    if (callee != NULL) {
        callee_effect(fx, callee, arg, held, out);
        return;
    }
    LLVMTypeRef type = LLVMGetCalledFunctionType(call);
    LLVMValueRef called = LLVMGetCalledValue(call);
    while (LLVMIsABitCastInst(called))
        called = LLVMGetOperand(called, 0);
    bool by_param = LLVMIsAArgument(called) != NULL;
    for (unsigned i = 0; i < fx->ntaken; i++)
        if (LLVMGlobalGetValueType(fx->taken[i]) == type &&
            !(by_param && LLVMIsDeclaration(fx->taken[i])))
            callee_effect(fx, fx->taken[i], arg, held, out);
}

/* A call's effect on `v`, reachable from `param`, at each argument
 * position it takes: freeing the parameter itself makes a destructor,
 * reallocating it a new handle; doing either to memory it reaches is
 * a release and a write.  With param NULL, v is a base (base_uses): only
 * what the call does to what v's block holds counts.  False if `v` is
 * not an argument (the callee). */
static bool call_on(const bcw_effects *fx, LLVMValueRef call, LLVMValueRef v,
                    LLVMValueRef param, fx_facts *out)
{
    unsigned n = (unsigned)LLVMGetNumArgOperands(call);
    bool any = false;
    for (unsigned a = 0; a < n; a++) {
        if (LLVMGetOperand(call, a) != v)
            continue;
        any = true;
        fx_facts got = {.why = out->why};
        call_effect(fx, call, a, param == NULL, &got);
        if (param == NULL) {
            if (got.writes) {
                out->writes = true;
                out->why = got.why;
            }
            out->releases |= got.releases || got.frees;
            out->escapes |= got.escapes;
            continue;
        }
        bool self = bcw__same_pointer(v, param, 0, MAX_HELPERS);
        out->writes |= got.writes;
        out->why = got.why;
        out->frees |= got.frees && self;
        out->frees_held |= got.frees && bcw__same_pointer(v, param, 1, MAX_HELPERS);
        out->moves |= got.moves && self;
        out->releases |= got.releases || (got.frees && !self);
        out->escapes |= got.escapes;
    }
    return any;
}

/* Does fn (`depth` calls down) return only blocks it allocated, never
 * one its caller could reach before (list_iterator_new(list))? */
static bool returns_fresh(const bcw_effects *fx, LLVMValueRef fn, int depth);

typedef struct fresh_ctx {
    const bcw_effects *fx;
    int depth;
} fresh_ctx;

/* Is v a new block: malloc's, calloc's, or a function's returning one? */
static bool is_fresh(LLVMValueRef v, void *ctx)
{
    const fresh_ctx *c = ctx;
    LLVMValueRef callee = LLVMIsACallInst(v) ? bcw__called_function(v) : NULL;
    if (callee == NULL)
        return false;
    const char *name = bcw__value_name(callee);
    return strcmp(name, "malloc") == 0 || strcmp(name, "calloc") == 0 ||
           (c->depth > 0 && returns_fresh(c->fx, callee, c->depth - 1));
}

static bool returns_fresh(const bcw_effects *fx, LLVMValueRef fn, int depth)
{
    fx_func *f = lookup(fx, fn);
    if (f == NULL)
        return false;
    if (f->fresh != 0)
        return f->fresh > 0;
    f->fresh = -1; /* while it is asked: recursion is no evidence */
    fresh_ctx c = {fx, depth};
    f->fresh = bcw__returns_only(fn, is_fresh, &c) ? 1 : -1;
    return f->fresh > 0;
}

bool bcw__effects_new_block(const bcw_effects *fx, LLVMValueRef v)
{
    fresh_ctx c = {fx, MAX_HELPERS};
    return is_fresh(bcw__uncast(v), &c);
}

/* Is call `v`'s result a new block (a walk's base, not reachable)? */
static bool fresh_result(const bcw_effects *fx, LLVMValueRef call)
{
    LLVMValueRef callee = bcw__called_function(call);
    return callee != NULL &&
           LLVMGetTypeKind(LLVMTypeOf(call)) == LLVMPointerTypeKind &&
           returns_fresh(fx, callee, MAX_HELPERS);
}

/* Does an instruction `op` give an address in the block its operand
 * points into: GEPs, casts, phis and selects, and with `arithmetic`
 * pointer arithmetic through integers? */
static bool same_block(LLVMOpcode op, bool arithmetic)
{
    switch (op) {
    case LLVMGetElementPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMPHI:
    case LLVMSelect:
        return true;
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMAdd:
    case LLVMSub:
    case LLVMAnd:
    case LLVMOr:
        return arithmetic;
    default:
        return false;
    }
}

/* Does module function `call` calls store, through its parameter `a`,
 * a pointer derived from the one it is given where `call` passes v
 * (get_node_at(list, i, &node) setting *node to a node of list)? */
static bool fills_from(LLVMValueRef call, unsigned a, LLVMValueRef v)
{
    LLVMValueRef callee = bcw__called_function(call);
    if (callee == NULL || LLVMIsDeclaration(callee) ||
        a >= LLVMCountParams(callee))
        return false;
    LLVMValueRef out = LLVMGetParam(callee, a);
    for (unsigned k = 0; k < LLVMCountParams(callee); k++) {
        if (LLVMGetOperand(call, k) != v)
            continue;
        LLVMValueRef from = LLVMGetParam(callee, k);
        for (LLVMValueRef in = bcw__first_instruction(callee); in != NULL;
             in = bcw__next_instruction(in)) {
            if (!LLVMIsAStoreInst(in))
                continue;
            LLVMValueRef at = LLVMGetOperand(in, 1);
            while (LLVMIsABitCastInst(at))
                at = LLVMGetOperand(at, 0);
            if (at == out && bcw__derived_from(LLVMGetOperand(in, 0), from))
                return true;
        }
    }
    return false;
}

/* The uses of v: memory `param` reaches (w), or with param NULL a base
 * (b: a block the walk does not count, a new one the function made or,
 * for held facts, the parameter's own: what it holds is reachable, what
 * is done to it counts only through what the functions given it do to
 * what it holds). */
static int follow(const bcw_effects *fx, walk *w, walk *b, LLVMValueRef v,
                  LLVMValueRef param, fx_facts *out)
{
    bool base = param == NULL;
    walk *same = base ? b : w;
    int err = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u != NULL && err == 0;
         u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user))
            continue;
        LLVMOpcode op = LLVMGetInstructionOpcode(user);
        if (same_block(op, !base)) {
            err = push(same, user);
            continue;
        }
        switch (op) {
        case LLVMLoad:
            /* A pointer stored in reachable memory points to memory the
             * unit owns (s->data). */
            if (LLVMGetTypeKind(LLVMTypeOf(user)) == LLVMPointerTypeKind)
                err = push(w, user);
            break;
        case LLVMStore:
            if (LLVMGetOperand(user, 1) == v && !base) {
                out->writes = true;
                out->why = "stores into unit memory";
            } else if (LLVMGetOperand(user, 1) != v &&
                       LLVMIsAAllocaInst(LLVMGetOperand(user, 1))) {
                /* spilled to a local: reloads are reachable too, but the
                 * local is no memory of the unit's (a base) */
                err = push(b, LLVMGetOperand(user, 1));
            }
            break;
        case LLVMAtomicRMW:
        case LLVMAtomicCmpXchg:
            if (!base) {
                out->writes = true;
                out->why = "updates unit memory atomically";
            }
            break;
        case LLVMCall:
        case LLVMInvoke:
            if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMPointerTypeKind)
                break;
            /* a new block made from it (an iterator over it) is no
             * memory it reaches, but what the block holds is */
            if (!call_on(fx, user, v, param, out))
                break;
            if (LLVMGetTypeKind(LLVMTypeOf(user)) == LLVMPointerTypeKind)
                err = push(fresh_result(fx, user) ? b : w, user);
            /* a local's address beside it: the callee may store there
             * what v reaches (get_node_at(list, i, &node)), whose reloads
             * are reachable too */
            for (unsigned a = 0; !base && err == 0 &&
                                 a + 1 < (unsigned)LLVMGetNumOperands(user);
                 a++) {
                LLVMValueRef o = LLVMGetOperand(user, a);
                if (o != v && LLVMIsAAllocaInst(o) && fills_from(user, a, v))
                    err = push(b, o);
            }
            break;
        default:
            break;
        }
    }
    return err;
}

/* Follows everything reachable from parameter `p` of `f` into *out: with
 * `held`, from what its block holds, not the block itself. */
static int solve_param(const bcw_effects *fx, fx_func *f, unsigned p, bool held,
                       fx_facts *out)
{
    walk w = {0}, b = {0};
    LLVMValueRef param = LLVMGetParam(f->fn, p);
    int err = push(held ? &b : &w, param);
    while (err == 0 && (w.nwork > 0 || b.nwork > 0) &&
           !(out->writes && out->frees && out->moves && out->releases &&
             out->escapes && out->frees_held))
        err = b.nwork > 0 ? follow(fx, &w, &b, b.work[--b.nwork], NULL, out)
                          : follow(fx, &w, &b, w.work[--w.nwork], param, out);
    free(w.seen.slots);
    free(w.work);
    free(b.seen.slots);
    free(b.work);
    return err;
}

/* Does the module take fn's address (store, pass or return it) rather
 * than only call it? */
static bool address_taken(LLVMValueRef fn)
{
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u != NULL; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMBitCast
                ? address_taken(user)
                : !(LLVMIsACallInst(user) || LLVMIsAInvokeInst(user)) ||
                      LLVMGetCalledValue(user) != fn)
            return true;
    }
    return false;
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
        LLVMValueRef callee = bcw__called_function(in);
        LLVMTypeRef type = LLVMGetCalledFunctionType(in);
        for (unsigned i = 0; i < (callee ? 1 : fx->ntaken); i++) {
            fx_func *g = lookup(fx, callee ? callee : fx->taken[i]);
            if (g != NULL && g->globals &&
                (callee || LLVMGlobalGetValueType(g->fn) == type)) {
                f->globals = true;
                f->gwhy = g->name;
                return;
            }
        }
    }
}

int bcw__effects_new(bcw_effects **out, bcw_bitcode *bc)
{
    *out = NULL;
    bcw_effects *fx = bcw__calloc(1, sizeof *fx);
    if (fx == NULL)
        return BCW_ENOMEM;
    size_t cap = 0, tcap = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(bc->mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        if (address_taken(fn)) {
            if (bcw__grow(&fx->taken, &tcap, fx->ntaken + 1,
                          sizeof *fx->taken)) {
                bcw__effects_free(fx);
                return BCW_ENOMEM;
            }
            fx->taken[fx->ntaken++] = fn;
        }
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
    /* Monotone fixpoint: facts only go from false to true, and so do the
     * held facts asked for (another round solves those newly asked). */
    unsigned asked = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < fx->nfuncs; i++) {
            fx_func *f = &fx->funcs[i];
            for (unsigned p = 0; p < f->nparams; p++) {
                LLVMValueRef param = LLVMGetParam(f->fn, p);
                if (LLVMGetTypeKind(LLVMTypeOf(param)) != LLVMPointerTypeKind)
                    continue;
                for (int held = 0; held < 2; held++) {
                    fx_facts *was = held ? &f->held[p] : &f->p[p];
                    if (held && !f->need_held[p])
                        continue;
                    fx_facts got = *was;
                    int err = solve_param(fx, f, p, held, &got);
                    if (err < 0) {
                        bcw__effects_free(fx);
                        return err;
                    }
                    if (got.writes != was->writes || got.frees != was->frees ||
                        got.moves != was->moves ||
                        got.releases != was->releases ||
                        got.frees_held != was->frees_held ||
                        got.escapes != was->escapes) {
                        *was = got;
                        changed = true;
                    }
                }
            }
            if (!f->globals) {
                solve_globals(fx, f);
                changed = changed || f->globals;
            }
        }
        unsigned now = 0;
        for (unsigned i = 0; i < fx->nfuncs; i++)
            for (unsigned p = 0; p < fx->funcs[i].nparams; p++)
                now += fx->funcs[i].need_held[p];
        changed = changed || now != asked;
        asked = now;
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

/* fn's facts about `param`, NULL when fn is not defined here or param
 * is beyond BCW_MAX_PARAMS. */
static const fx_facts *facts_of(const bcw_effects *fx, const char *fn,
                                unsigned param)
{
    const fx_func *f = by_name(fx, fn);
    return f != NULL && param < f->nparams ? &f->p[param] : NULL;
}

bool bcw__effects_writes(const bcw_effects *fx, const char *fn, unsigned param,
                         const char **why)
{
    const fx_func *f = by_name(fx, fn);
    const fx_facts *g = f != NULL && param < f->nparams ? &f->p[param] : NULL;
    *why = NULL;
    if (f == NULL)
        return true;
    if (g != NULL && g->writes) {
        *why = g->why;
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
    const fx_facts *g = facts_of(fx, fn, param);
    return g != NULL && g->frees;
}

bool bcw__effects_frees_held(const bcw_effects *fx, const char *fn,
                             unsigned param)
{
    const fx_facts *g = facts_of(fx, fn, param);
    return g != NULL && g->frees_held;
}

bool bcw__effects_releases(const bcw_effects *fx, const char *fn,
                           unsigned param)
{
    const fx_facts *g = facts_of(fx, fn, param);
    return g != NULL && g->releases;
}

bool bcw__effects_moves(const bcw_effects *fx, const char *fn, unsigned param)
{
    const fx_facts *g = facts_of(fx, fn, param);
    return g != NULL && g->moves;
}

bool bcw__effects_escapes(const bcw_effects *fx, const char *fn, unsigned param)
{
    const fx_facts *g = facts_of(fx, fn, param);
    return g == NULL || g->escapes;
}

void bcw__effects_free(bcw_effects *fx)
{
    if (fx == NULL)
        return;
    bcw__index_free(&fx->by_fn);
    bcw__index_free(&fx->by_name);
    free(fx->funcs);
    free(fx->taken);
    free(fx);
}
