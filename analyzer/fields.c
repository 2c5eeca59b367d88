/* fields.c - field-level effects and state predicates of a unit.
 *
 * Addresses are resolved relative to the unit pointer: `s` itself, a
 * constant-offset GEP from it (typed struct GEPs and the byte GEPs LLVM
 * 18+ canonicalises to), or one level through a pointer field (`s->data`
 * loaded, then indexed).  A field is named by its byte offset; debug
 * info gives the name.  Effects follow calls that pass the unit pointer
 * on to module functions.  Predicates are the integer and pointer
 * comparisons of such fields with each other or with constants that a
 * method branches on, selects on or returns. */
#define _POSIX_C_SOURCE 200809L
#include "fields.h"

#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"
#include "diinfo.h"

#define MAX_FIELDS 256
#define MAX_DEPTH 6
#define UNKNOWN_OFF UINT32_MAX

/* An address relative to the unit: via -1 is the unit itself; via >= 0
 * is the block the pointer field at unit+via points to. */
typedef struct addr {
    int ok;
    int32_t via;
    uint32_t off; /* UNKNOWN_OFF: somewhere in that block */
    int element;  /* some element of the array member at off */
} addr;

typedef struct ctx {
    LLVMTargetDataRef td;
    bcw_unit *u;
    /* accesses found for the function being analysed, as keys */
    uint64_t *reads, *writes;
    size_t nreads, nwrites, capreads, capwrites;
    /* module globals read and written, as their variables */
    LLVMValueRef *greads, *gwrites;
    size_t ngreads, ngwrites, capgreads, capgwrites;
    LLVMValueRef stack[MAX_DEPTH]; /* recursion guard */
    unsigned depth;
} ctx;

static uint64_t key(addr a)
{
    return ((uint64_t)(uint32_t)(a.via + 1) << 32) | a.off;
}

static int add_key(uint64_t **v, size_t *n, size_t *cap, uint64_t k)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i] == k)
            return 0;
    if (bcw__grow(v, cap, *n + 1, sizeof **v) < 0)
        return BCW_ENOMEM;
    (*v)[(*n)++] = k;
    return 0;
}

/* Byte offset of a GEP with constant indices: 0.  A variable index into
 * an array member (s->items[i]) gives the member's offset: 1.  Anything
 * else: -1. */
static int gep_offset(const ctx *c, LLVMValueRef gep, int64_t *out)
{
    LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
    unsigned n = (unsigned)LLVMGetNumOperands(gep);
    int64_t off = 0;
    for (unsigned k = 1; k < n; k++) {
        LLVMValueRef idx = LLVMGetOperand(gep, k);
        if (!LLVMIsAConstantInt(idx)) {
            if (k >= 2 && LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
                *out = off;
                return 1;
            }
            return -1;
        }
        int64_t i = LLVMConstIntGetSExtValue(idx);
        if (k == 1) {
            off += i * (int64_t)LLVMABISizeOfType(c->td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            off += (int64_t)LLVMOffsetOfElement(c->td, t, (unsigned)i);
            t = LLVMStructGetTypeAtIndex(t, (unsigned)i);
        } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
            t = LLVMGetElementType(t);
            off += i * (int64_t)LLVMABISizeOfType(c->td, t);
        } else {
            return -1;
        }
    }
    *out = off;
    return 0;
}

static addr addr_of(const ctx *c, LLVMValueRef v, LLVMValueRef unit, int hops)
{
    addr none = {0};
    if (v == unit)
        return (addr){1, -1, 0, 0};
    if (hops > 8 || !LLVMIsAInstruction(v))
        return none;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
        return addr_of(c, LLVMGetOperand(v, 0), unit, hops + 1);
    case LLVMGetElementPtr: {
        addr a = addr_of(c, LLVMGetOperand(v, 0), unit, hops + 1);
        int64_t off;
        if (!a.ok || a.off == UNKNOWN_OFF)
            return a;
        int r = gep_offset(c, v, &off);
        if (r < 0 || off < 0)
            /* s->data[i]: somewhere in the block; else unknown */
            return a.via >= 0 ? (addr){1, a.via, UNKNOWN_OFF} : none;
        a.off += (uint32_t)off;
        /* an element of an array member: the member as a whole; such an
         * address is not one field's value, so terms reject it */
        a.element = r == 1;
        return a;
    }
    case LLVMLoad: {
        if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMPointerTypeKind)
            return none;
        addr a = addr_of(c, LLVMGetOperand(v, 0), unit, hops + 1);
        if (!a.ok || a.via >= 0 || a.off == UNKNOWN_OFF || a.element)
            return none;
        return (addr){1, (int32_t)a.off, 0, 0};
    }
    default:
        return none;
    }
}

static const bcw_field *field_at(const bcw_unit *u, uint32_t off)
{
    for (unsigned i = 0; i < u->nfields; i++)
        if (u->fields[i].offset == off)
            return &u->fields[i];
    return NULL;
}

/* "size", "*data", or "@8" where debug info is missing. */
static char *field_text(const bcw_unit *u, addr a)
{
    uint32_t at = a.via >= 0 ? (uint32_t)a.via : a.off;
    const bcw_field *f = field_at(u, at);
    char name[80];
    if (f != NULL)
        snprintf(name, sizeof name, "%s", f->name);
    else
        snprintf(name, sizeof name, "@%u", at);
    if (a.via < 0)
        return bcw__strdup(name);
    if (a.off == 0 || a.off == UNKNOWN_OFF)
        return bcw__sprintf("*%s", name);
    return bcw__sprintf("%s->@%u", name, a.off);
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

static int add_global(LLVMValueRef **v, size_t *n, size_t *cap, LLVMValueRef g)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i] == g)
            return 0;
    if (bcw__grow(v, cap, *n + 1, sizeof **v) < 0)
        return BCW_ENOMEM;
    (*v)[(*n)++] = g;
    return 0;
}

static int access(ctx *c, LLVMValueRef unit, LLVMValueRef ptr, int write)
{
    addr a = addr_of(c, ptr, unit, 0);
    if (!a.ok) {
        LLVMValueRef g = global_of(ptr);
        if (g == NULL)
            return 0;
        return write ? add_global(&c->gwrites, &c->ngwrites, &c->capgwrites, g)
                     : add_global(&c->greads, &c->ngreads, &c->capgreads, g);
    }
    if (a.via >= 0)
        a.off = UNKNOWN_OFF; /* the block as a whole */
    return write ? add_key(&c->writes, &c->nwrites, &c->capwrites, key(a))
                 : add_key(&c->reads, &c->nreads, &c->capreads, key(a));
}

static int walk_function(ctx *c, LLVMValueRef fn, LLVMValueRef unit);

static int walk_call(ctx *c, LLVMValueRef call, LLVMValueRef unit)
{
    LLVMValueRef callee = bcw__called_function(call);
    const char *name = callee ? bcw__value_name(callee) : "";
    unsigned n = (unsigned)LLVMGetNumArgOperands(call);
    int err = 0;
    for (unsigned a = 0; a < n && err == 0; a++) {
        LLVMValueRef arg = LLVMGetOperand(call, a);
        if (LLVMGetTypeKind(LLVMTypeOf(arg)) != LLVMPointerTypeKind)
            continue;
        addr at = addr_of(c, arg, unit, 0);
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

static int walk_function(ctx *c, LLVMValueRef fn, LLVMValueRef unit)
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
static int name_keys(const bcw_unit *u, uint64_t *keys, size_t n,
                     LLVMValueRef *globals, size_t ng, char ***out,
                     unsigned *nout)
{
    qsort(keys, n, sizeof *keys, cmp_keys);
    *out = NULL;
    *nout = 0;
    if (n + ng == 0)
        return 0;
    char **v = bcw__calloc(n + ng, sizeof *v);
    if (v == NULL)
        return BCW_ENOMEM;
    *out = v;
    for (size_t i = 0; i < n; i++) {
        addr a = {1, (int32_t)(keys[i] >> 32) - 1, (uint32_t)keys[i], 0};
        if ((v[i] = field_text(u, a)) == NULL)
            return BCW_ENOMEM;
        (*nout)++;
    }
    for (size_t i = 0; i < ng; i++) {
        if ((v[n + i] = bcw__sprintf("global %s",
                                     bcw__value_name(globals[i]))) == NULL)
            return BCW_ENOMEM;
        (*nout)++;
    }
    return 0;
}

/* --- predicates ---------------------------------------------------- */

static int term_of(const ctx *c, LLVMValueRef v, LLVMValueRef unit, bcw_term *t)
{
    memset(t, 0, sizeof *t);
    while (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v) || LLVMIsATruncInst(v))
        v = LLVMGetOperand(v, 0);
    if (LLVMIsAConstantInt(v)) {
        t->kind = BCW_TERM_CONST;
        t->value = LLVMConstIntGetSExtValue(v);
        return 1;
    }
    if (LLVMIsAConstantPointerNull(v)) {
        t->kind = BCW_TERM_NULL;
        return 1;
    }
    if (!LLVMIsALoadInst(v))
        return 0;
    addr a = addr_of(c, LLVMGetOperand(v, 0), unit, 0);
    if (!a.ok || a.off == UNKNOWN_OFF || a.element)
        return 0;
    LLVMTypeRef ty = LLVMTypeOf(v);
    t->kind = BCW_TERM_FIELD;
    t->offset = a.off;
    t->via = a.via;
    t->bits = LLVMGetTypeKind(ty) == LLVMPointerTypeKind
                  ? 64
                  : (LLVMGetTypeKind(ty) == LLVMIntegerTypeKind
                         ? LLVMGetIntTypeWidth(ty)
                         : 0);
    return t->bits != 0;
}

static int term_order(const bcw_term *a, const bcw_term *b)
{
    if (a->kind != b->kind)
        return (int)a->kind - (int)b->kind;
    if (a->via != b->via)
        return a->via - b->via;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    return a->value < b->value ? -1 : a->value > b->value;
}

static char *term_text(const bcw_unit *u, const bcw_term *t)
{
    if (t->kind == BCW_TERM_CONST)
        return bcw__sprintf("%lld", (long long)t->value);
    if (t->kind == BCW_TERM_NULL)
        return bcw__strdup("NULL");
    return field_text(u, (addr){1, t->via, t->offset, 0});
}

static const char *cmp_text(enum bcw_cmp op)
{
    static const char *const ops[] = {"==", "<", "<=", "<", "<="};
    return ops[op];
}

/* The comparison `in` as one Boolean variable (see enum bcw_cmp). */
static int normalise(LLVMIntPredicate p, bcw_term *l, bcw_term *r,
                     enum bcw_cmp *op)
{
    bcw_term tmp;
    switch (p) {
    case LLVMIntEQ:
    case LLVMIntNE:
        *op = BCW_CMP_EQ;
        if (term_order(l, r) > 0)
            tmp = *l, *l = *r, *r = tmp;
        return 1;
    case LLVMIntSLT: /* l < r */
    case LLVMIntSGE: /* !(l < r) */
        *op = BCW_CMP_SLT;
        return 1;
    case LLVMIntSLE:
    case LLVMIntSGT:
        *op = BCW_CMP_SLE;
        return 1;
    case LLVMIntULT:
    case LLVMIntUGE:
        *op = BCW_CMP_ULT;
        return 1;
    case LLVMIntULE:
    case LLVMIntUGT:
        *op = BCW_CMP_ULE;
        return 1;
    default:
        return 0;
    }
}

/* Does the comparison decide something: a branch, a select, a result? */
static int decides(LLVMValueRef cmp)
{
    for (LLVMUseRef u = LLVMGetFirstUse(cmp); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsABranchInst(user) || LLVMIsASelectInst(user) ||
            LLVMIsAReturnInst(user) || LLVMIsAZExtInst(user) ||
            LLVMIsABinaryOperator(user))
            return 1;
    }
    return 0;
}

static int add_pred(bcw_unit *u, size_t *cap, bcw_pred *p, const char *user)
{
    for (unsigned i = 0; i < u->npreds; i++) {
        bcw_pred *q = &u->preds[i];
        if (q->interface || q->op != p->op || term_order(&q->l, &p->l) ||
            term_order(&q->r, &p->r))
            continue;
        for (unsigned k = 0; k < q->nusers; k++)
            if (strcmp(q->users[k], user) == 0)
                return 0;
        size_t ucap = q->nusers;
        if (bcw__grow(&q->users, &ucap, q->nusers + 1, sizeof *q->users) < 0 ||
            (q->users[q->nusers] = bcw__strdup(user)) == NULL)
            return BCW_ENOMEM;
        q->nusers++;
        return 0;
    }
    if (bcw__grow(&u->preds, cap, u->npreds + 1, sizeof *u->preds) < 0)
        return BCW_ENOMEM;
    char *l = term_text(u, &p->l), *r = term_text(u, &p->r);
    p->name = l && r ? bcw__sprintf("%s %s %s", l, cmp_text(p->op), r) : NULL;
    free(l);
    free(r);
    p->users = bcw__calloc(1, sizeof *p->users);
    if (p->name == NULL || p->users == NULL ||
        (p->users[0] = bcw__strdup(user)) == NULL) {
        free(p->name);
        free(p->users);
        return BCW_ENOMEM;
    }
    p->nusers = 1;
    u->preds[u->npreds++] = *p;
    return 0;
}

static int find_preds(ctx *c, LLVMValueRef fn, LLVMValueRef unit,
                      const char *user, size_t *cap)
{
    int err = 0;
    for (LLVMValueRef in = bcw__first_instruction(fn); in && !err;
         in = bcw__next_instruction(in)) {
        if (!LLVMIsAICmpInst(in) || !decides(in))
            continue;
        bcw_pred p = {0};
        p.func = -1;
        if (!term_of(c, LLVMGetOperand(in, 0), unit, &p.l) ||
            !term_of(c, LLVMGetOperand(in, 1), unit, &p.r) ||
            (p.l.kind != BCW_TERM_FIELD && p.r.kind != BCW_TERM_FIELD) ||
            !normalise(LLVMGetICmpPredicate(in), &p.l, &p.r, &p.op))
            continue;
        err = add_pred(c->u, cap, &p, user);
    }
    return err;
}

/* An int observer whose every result is 0 or 1 is a predicate too. */
static int returns_truth_value(LLVMValueRef fn)
{
    int rets = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (term == NULL || !LLVMIsAReturnInst(term) ||
            LLVMGetNumOperands(term) != 1)
            continue;
        LLVMValueRef v = LLVMGetOperand(term, 0);
        rets++;
        if (LLVMIsAZExtInst(v) &&
            LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0))) == 1)
            continue;
        if (LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) <= 1)
            continue;
        return 0;
    }
    return rets > 0;
}

/* An observer whose one result is a comparison of the object's fields
 * (return s->size == 0): that comparison, normalised as bitcode
 * predicates are, into p (formal, negated). */
static void formal_form(const ctx *c, LLVMValueRef fn, bcw_pred *p)
{
    LLVMValueRef cmp = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (term == NULL || !LLVMIsAReturnInst(term))
            continue;
        if (cmp != NULL || LLVMGetNumOperands(term) != 1)
            return; /* more than one result */
        LLVMValueRef v = LLVMGetOperand(term, 0);
        if (LLVMIsAZExtInst(v))
            v = LLVMGetOperand(v, 0);
        if (!LLVMIsAICmpInst(v))
            return;
        cmp = v;
    }
    bcw_pred f = {0};
    LLVMValueRef unit = LLVMCountParams(fn) == 1 ? LLVMGetParam(fn, 0) : NULL;
    LLVMIntPredicate pr = cmp ? LLVMGetICmpPredicate(cmp) : LLVMIntEQ;
    if (cmp == NULL || unit == NULL ||
        !term_of(c, LLVMGetOperand(cmp, 0), unit, &f.l) ||
        !term_of(c, LLVMGetOperand(cmp, 1), unit, &f.r) ||
        (f.l.kind != BCW_TERM_FIELD && f.r.kind != BCW_TERM_FIELD) ||
        !normalise(pr, &f.l, &f.r, &f.op))
        return;
    p->op = f.op;
    p->l = f.l;
    p->r = f.r;
    p->formal = true;
    /* normalise keeps one variable per comparison: !=, >= and > are the
     * negations of ==, < and <= */
    p->negated = pr == LLVMIntNE || pr == LLVMIntSGE || pr == LLVMIntSGT ||
                 pr == LLVMIntUGE || pr == LLVMIntUGT;
}

static int interface_preds(const ctx *c, bcw_unit *u, LLVMModuleRef mod,
                           size_t *cap)
{
    size_t prefix = strlen(u->name);
    for (unsigned i = 0; i < u->nfuncs; i++) {
        const bcw_func *f = &u->funcs[i];
        if (f->role != BCW_ROLE_OBSERVER || f->nparams != 1)
            continue;
        LLVMValueRef fn = LLVMGetNamedFunction(mod, f->name);
        if (f->ret.kind != BCW_PK_BOOL &&
            !(f->ret.kind == BCW_PK_INT && fn && returns_truth_value(fn)))
            continue;
        if (bcw__grow(&u->preds, cap, u->npreds + 1, sizeof *u->preds) < 0)
            return BCW_ENOMEM;
        bcw_pred *p = &u->preds[u->npreds];
        memset(p, 0, sizeof *p);
        bool prefixed =
            strncmp(f->name, u->name, prefix) == 0 && f->name[prefix] == '_';
        p->name = bcw__strdup(prefixed ? f->name + prefix + 1 : f->name);
        if (p->name == NULL)
            return BCW_ENOMEM;
        p->interface = true;
        p->func = (int)i;
        if (fn != NULL)
            formal_form(c, fn, p);
        u->npreds++;
    }
    return 0;
}

static int layout(bcw_unit *u, LLVMValueRef ctor, unsigned slot)
{
    bcw_di_field *di = bcw__calloc(MAX_FIELDS, sizeof *di);
    if (di == NULL)
        return BCW_ENOMEM;
    int n = bcw__di_fields(ctor, slot, di, MAX_FIELDS);
    int err = 0;
    if (n > 0 &&
        (u->fields = bcw__calloc((size_t)n, sizeof *u->fields)) == NULL)
        err = BCW_ENOMEM;
    for (int i = 0; i < n && err == 0; i++) {
        bcw_field *f = &u->fields[u->nfields];
        if ((f->name = bcw__strdup(di[i].name)) == NULL)
            err = BCW_ENOMEM;
        f->offset = di[i].offset_bits / 8;
        f->bits = di[i].size_bits;
        u->nfields += err == 0;
    }
    free(di);
    return err;
}

int bcw__fields_analyze(bcw_unit *u, LLVMModuleRef mod, LLVMValueRef ctor,
                        unsigned slot)
{
    int err = layout(u, ctor, slot);
    ctx c = {0};
    c.u = u;
    c.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(mod));
    size_t cap = 0;
    if (err == 0)
        err = interface_preds(&c, u, mod, &cap);
    for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
        bcw_func *f = &u->funcs[i];
        LLVMValueRef fn = LLVMGetNamedFunction(mod, f->name);
        /* a cell unit's E ** methods reach its fields through the cell:
         * not followed yet */
        if (fn == NULL || f->self < 0 ||
            (u->cell && f->params[f->self].kind == BCW_PK_UNIT))
            continue;
        LLVMValueRef unit = LLVMGetParam(fn, (unsigned)f->self);
        c.nreads = c.nwrites = c.ngreads = c.ngwrites = 0;
        err = walk_function(&c, fn, unit);
        if (err == 0)
            err = name_keys(u, c.reads, c.nreads, c.greads, c.ngreads,
                            &f->reads, &f->nreads);
        if (err == 0)
            err = name_keys(u, c.writes, c.nwrites, c.gwrites, c.ngwrites,
                            &f->wrote, &f->nwrote);
        if (err == 0 &&
            (f->role == BCW_ROLE_OBSERVER || f->role == BCW_ROLE_MUTATOR))
            err = find_preds(&c, fn, unit, f->name, &cap);
    }
    free(c.reads);
    free(c.writes);
    free(c.greads);
    free(c.gwrites);
    LLVMDisposeTargetData(c.td);
    return err;
}

bool bcw__field_offset(LLVMTargetDataRef td, LLVMValueRef ptr,
                       LLVMValueRef unit, uint32_t *off)
{
    ctx c = {0};
    c.td = td;
    addr a = addr_of(&c, ptr, unit, 0);
    if (!a.ok || a.via >= 0 || a.element || a.off == UNKNOWN_OFF)
        return false;
    *off = a.off;
    return true;
}

/* --- conditions as C ----------------------------------------------- */

static const char *icmp_text(LLVMIntPredicate p, bool negate)
{
    static const struct {
        LLVMIntPredicate p, not ;
        const char *text;
    } ops[] = {{LLVMIntEQ, LLVMIntNE, "=="},  {LLVMIntNE, LLVMIntEQ, "!="},
               {LLVMIntSLT, LLVMIntSGE, "<"}, {LLVMIntSGE, LLVMIntSLT, ">="},
               {LLVMIntSGT, LLVMIntSLE, ">"}, {LLVMIntSLE, LLVMIntSGT, "<="},
               {LLVMIntULT, LLVMIntUGE, "<"}, {LLVMIntUGE, LLVMIntULT, ">="},
               {LLVMIntUGT, LLVMIntULE, ">"}, {LLVMIntULE, LLVMIntUGT, "<="}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ops[i].p == p) {
            if (!negate)
                return ops[i].text;
            for (size_t j = 0; j < sizeof ops / sizeof ops[0]; j++)
                if (ops[j].p == ops[i].not )
                    return ops[j].text;
        }
    return NULL;
}

static const char *binop_text(LLVMOpcode op)
{
    switch (op) {
    case LLVMAdd:
        return "+";
    case LLVMSub:
        return "-";
    case LLVMMul:
        return "*";
    case LLVMSDiv:
    case LLVMUDiv:
        return "/";
    case LLVMSRem:
    case LLVMURem:
        return "%";
    case LLVMAnd:
        return "&";
    case LLVMOr:
        return "|";
    case LLVMXor:
        return "^";
    default:
        return NULL;
    }
}

static char *expr_text(const ctx *c, const bcw_func *f, const bcw_frame *fr,
                       LLVMValueRef v, bool negate, int hops);

static char *join(char *l, const char *op, char *r, bool parens)
{
    char *s = l && r
                  ? bcw__sprintf(parens ? "(%s %s %s)" : "%s %s %s", l, op, r)
                  : NULL;
    free(l);
    free(r);
    return s;
}

static char *expr_text(const ctx *c, const bcw_func *f, const bcw_frame *fr,
                       LLVMValueRef v, bool negate, int hops)
{
    if (hops > 12)
        return NULL;
    bool is_bool = LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind &&
                   LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 1;
    if (LLVMIsAICmpInst(v)) {
        const char *op = icmp_text(LLVMGetICmpPredicate(v), negate);
        char *l = expr_text(c, f, fr, LLVMGetOperand(v, 0), false, hops + 1);
        char *r = expr_text(c, f, fr, LLVMGetOperand(v, 1), false, hops + 1);
        if (op == NULL) {
            free(l);
            free(r);
            return NULL;
        }
        return join(l, op, r, false);
    }
    if (is_bool && LLVMIsABinaryOperator(v)) {
        LLVMOpcode op = LLVMGetInstructionOpcode(v);
        LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
        if (op == LLVMXor && LLVMIsAConstantInt(b) &&
            LLVMConstIntGetZExtValue(b) == 1)
            return expr_text(c, f, fr, a, !negate, hops + 1);
        if (op == LLVMAnd || op == LLVMOr) {
            /* De Morgan: !(a && b) is !a || !b */
            bool conj = (op == LLVMAnd) != negate;
            char *l = expr_text(c, f, fr, a, negate, hops + 1);
            char *r = expr_text(c, f, fr, b, negate, hops + 1);
            return join(l, conj ? "&&" : "||", r, true);
        }
    }
    if (is_bool && negate) {
        char *s = expr_text(c, f, fr, v, false, hops + 1);
        char *n = s ? bcw__sprintf("!(%s)", s) : NULL;
        free(s);
        return n;
    }
    if (LLVMIsAConstantInt(v))
        return bcw__sprintf("%lld", (long long)LLVMConstIntGetSExtValue(v));
    if (LLVMIsAConstantPointerNull(v))
        return bcw__strdup("NULL");
    if (LLVMIsAArgument(v)) {
        unsigned n = LLVMCountParams(fr->fn);
        for (unsigned i = 0; i < n; i++) {
            if (LLVMGetParam(fr->fn, i) != v)
                continue;
            /* a callee's parameter is what its caller passed */
            if (fr->parent != NULL)
                return i < (unsigned)LLVMGetNumArgOperands(fr->call)
                           ? expr_text(c, f, fr->parent,
                                       LLVMGetOperand(fr->call, i), negate,
                                       hops + 1)
                           : NULL;
            return i < f->nparams ? bcw__strdup(f->params[i].name) : NULL;
        }
        return NULL;
    }
    if (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v) || LLVMIsATruncInst(v))
        return expr_text(c, f, fr, LLVMGetOperand(v, 0), negate, hops + 1);
    if (LLVMIsALoadInst(v)) {
        addr a = addr_of(c, LLVMGetOperand(v, 0), fr->unit, 0);
        if (!a.ok || a.off == UNKNOWN_OFF)
            return NULL;
        /* a callee's unit pointer may point into the unit */
        if (a.via >= 0)
            a.via += (int32_t)fr->unit_base;
        else
            a.off += fr->unit_base;
        char *name = field_text(c->u, a);
        if (name != NULL && a.via < 0 && !a.element) {
            /* a parameter of the same name: say whose field it is */
            char *ref = bcw__field_ref(f, name);
            free(name);
            name = ref;
        }
        char *s = name && a.element ? bcw__sprintf("%s[...]", name) : NULL;
        if (a.element) {
            free(name);
            return s;
        }
        return name;
    }
    if (LLVMIsABinaryOperator(v)) {
        const char *op = binop_text(LLVMGetInstructionOpcode(v));
        LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
        if (op == NULL)
            return NULL;
        if (*op == '-' && LLVMIsAConstantInt(a) &&
            LLVMConstIntGetSExtValue(a) == 0) {
            char *s = expr_text(c, f, fr, b, false, hops + 1);
            char *n = s ? bcw__sprintf("-%s", s) : NULL;
            free(s);
            return n;
        }
        return join(expr_text(c, f, fr, a, false, hops + 1), op,
                    expr_text(c, f, fr, b, false, hops + 1), true);
    }
    return NULL;
}

char *bcw__cond_text_in(const bcw_unit *u, const bcw_func *f,
                        const bcw_frame *fr, LLVMValueRef v, bool negate)
{
    ctx c = {0};
    c.u = (bcw_unit *)u;
    c.td =
        LLVMCreateTargetData(LLVMGetDataLayoutStr(LLVMGetGlobalParent(fr->fn)));
    char *s = expr_text(&c, f, fr, v, negate, 0);
    LLVMDisposeTargetData(c.td);
    return s;
}

char *bcw__cond_text(const bcw_unit *u, const bcw_func *f, LLVMValueRef fn,
                     LLVMValueRef cond, bool negate)
{
    bcw_frame fr = {fn, NULL, 0, NULL, NULL};
    if (f->self >= 0)
        fr.unit = LLVMGetParam(fn, (unsigned)f->self);
    return bcw__cond_text_in(u, f, &fr, cond, negate);
}
