/* preds.c - a unit's state predicates: its interface's Boolean observers
 * taking only the unit (with the field comparison an observer returns,
 * as its evaluable form), and the integer and pointer comparisons of
 * fields with each other or with constants that a method branches on,
 * selects on or returns, normalised so each appears once. */
#define _POSIX_C_SOURCE 200809L
#include "preds.h"

#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "alloc.h"
#include "bitcode.h"

static int term_of(LLVMTargetDataRef td, LLVMValueRef v, LLVMValueRef unit,
                   bcw_term *t)
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
    bcw_addr a = bcw__addr_of(td, LLVMGetOperand(v, 0), unit, 0);
    if (!a.ok || a.off == BCW_ADDR_UNKNOWN_OFF || a.element)
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
    return bcw__addr_text(u, (bcw_addr){1, t->via, t->offset, 0});
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

static int add_pred(bcw_unit *u, bcw_pred *p, const char *user)
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
    size_t cap = u->npreds; /* grown one at a time: units are small */
    if (bcw__grow(&u->preds, &cap, u->npreds + 1, sizeof *u->preds) < 0)
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

int bcw__preds_branches(bcw_unit *u, LLVMTargetDataRef td, LLVMValueRef fn,
                        LLVMValueRef unit, const char *user)
{
    int err = 0;
    for (LLVMValueRef in = bcw__first_instruction(fn); in && !err;
         in = bcw__next_instruction(in)) {
        if (!LLVMIsAICmpInst(in) || !decides(in))
            continue;
        bcw_pred p = {0};
        p.func = -1;
        if (!term_of(td, LLVMGetOperand(in, 0), unit, &p.l) ||
            !term_of(td, LLVMGetOperand(in, 1), unit, &p.r) ||
            (p.l.kind != BCW_TERM_FIELD && p.r.kind != BCW_TERM_FIELD) ||
            !normalise(LLVMGetICmpPredicate(in), &p.l, &p.r, &p.op))
            continue;
        err = add_pred(u, &p, user);
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
static void formal_form(LLVMTargetDataRef td, LLVMValueRef fn, bcw_pred *p)
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
        !term_of(td, LLVMGetOperand(cmp, 0), unit, &f.l) ||
        !term_of(td, LLVMGetOperand(cmp, 1), unit, &f.r) ||
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

int bcw__preds_interface(bcw_unit *u, LLVMTargetDataRef td, LLVMModuleRef mod)
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
        size_t cap = u->npreds;
        if (bcw__grow(&u->preds, &cap, u->npreds + 1, sizeof *u->preds) < 0)
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
            formal_form(td, fn, p);
        u->npreds++;
    }
    return 0;
}
