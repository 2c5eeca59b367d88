/* conditions.c - the branch conditions an integer parameter decides: the
 * comparisons (and switch cases) in the function whose operands depend on
 * the parameter through arithmetic and casts, as expression trees the
 * solver turns into Z3 terms, with their C text both ways. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "bitcode.h"
#include "fields.h"

#define MAX_NODES 256
#define MAX_CONDS 16

typedef struct builder {
    LLVMTargetDataRef td;
    bcw_param *p;
    unsigned param;   /* index of the parameter */
    LLVMValueRef arg; /* the parameter's value */
    LLVMValueRef unit;
    size_t cap;
    int uses_param;
} builder;

static int64_t node(builder *b, bcw_cnode n)
{
    if (b->p->nnodes >= MAX_NODES ||
        bcw__grow(&b->p->nodes, &b->cap, b->p->nnodes + 1,
                  sizeof *b->p->nodes) < 0)
        return -1;
    b->p->nodes[b->p->nnodes] = n;
    return b->p->nnodes++;
}

static unsigned width(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t)
                                                     : 0;
}

/* The expression tree of integer value `v`, or -1 if it is not made of
 * the parameter, constants, fields and integer arithmetic. */
static int64_t build(builder *b, LLVMValueRef v, int depth)
{
    unsigned bits = width(v);
    if (bits == 0 || bits > 64 || depth > 16)
        return -1;
    if (v == b->arg) {
        b->uses_param = 1;
        return node(b,
                    (bcw_cnode){BCW_C_PARAM, (uint8_t)bits, 0, b->param, 0, 0});
    }
    if (LLVMIsAConstantInt(v))
        return node(b, (bcw_cnode){BCW_C_CONST, (uint8_t)bits, 0,
                                   LLVMConstIntGetSExtValue(v), 0, 0});
    if (!LLVMIsAInstruction(v))
        return -1;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMLoad) {
        /* a field of the unit: the solver keeps such bounds relative */
        uint32_t off;
        if (b->unit == NULL ||
            !bcw__field_offset(b->td, LLVMGetOperand(v, 0), b->unit, &off))
            return -1;
        return node(b, (bcw_cnode){BCW_C_FIELD, (uint8_t)bits, 0, off, 0, 0});
    }
    static const struct {
        LLVMOpcode op;
        enum bcw_cop c;
    } ops[] = {
        {LLVMAdd, BCW_C_ADD},    {LLVMSub, BCW_C_SUB},   {LLVMMul, BCW_C_MUL},
        {LLVMSDiv, BCW_C_SDIV},  {LLVMUDiv, BCW_C_UDIV}, {LLVMSRem, BCW_C_SREM},
        {LLVMURem, BCW_C_UREM},  {LLVMAnd, BCW_C_AND},   {LLVMOr, BCW_C_OR},
        {LLVMXor, BCW_C_XOR},    {LLVMShl, BCW_C_SHL},   {LLVMLShr, BCW_C_LSHR},
        {LLVMAShr, BCW_C_ASHR},  {LLVMZExt, BCW_C_ZEXT}, {LLVMSExt, BCW_C_SEXT},
        {LLVMTrunc, BCW_C_TRUNC}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (ops[i].op != op)
            continue;
        int64_t a = build(b, LLVMGetOperand(v, 0), depth + 1);
        if (a < 0)
            return -1;
        int64_t c = 0;
        if (op != LLVMZExt && op != LLVMSExt && op != LLVMTrunc &&
            (c = build(b, LLVMGetOperand(v, 1), depth + 1)) < 0)
            return -1;
        return node(b, (bcw_cnode){(uint8_t)ops[i].c, (uint8_t)bits, 0, 0,
                                   (uint32_t)a, (uint32_t)c});
    }
    return -1;
}

static int add_cond(builder *b, size_t *cap, int64_t root, char *text,
                    char *negated)
{
    bcw_param *p = b->p;
    int err = 0;
    if (text == NULL || negated == NULL || root < 0) {
        err = root < 0 ? 0 : BCW_ENOMEM;
        goto drop;
    }
    for (unsigned i = 0; i < p->nconds; i++)
        if (strcmp(p->conds[i].text, text) == 0 ||
            strcmp(p->conds[i].negated, text) == 0)
            goto drop; /* the same branch, seen again */
    if (p->nconds >= MAX_CONDS ||
        (err = bcw__grow(&p->conds, cap, p->nconds + 1, sizeof *p->conds)) < 0)
        goto drop;
    p->conds[p->nconds++] = (bcw_cond){text, negated, (uint32_t)root};
    return 0;
drop:
    free(text);
    free(negated);
    return err;
}

/* One parameter: every decided comparison and switch that depends on it. */
static int find(const bcw_unit *u, bcw_func *f, LLVMValueRef fn, unsigned k)
{
    builder b = {0};
    b.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(LLVMGetGlobalParent(fn)));
    b.p = &f->params[k];
    b.param = k;
    b.arg = LLVMGetParam(fn, k);
    b.unit = f->self >= 0 ? LLVMGetParam(fn, (unsigned)f->self) : NULL;
    size_t cap = 0;
    int err = 0;
    for (LLVMValueRef in = bcw__first_instruction(fn); in && !err;
         in = bcw__next_instruction(in)) {
        if (LLVMIsAICmpInst(in)) {
            b.uses_param = 0;
            unsigned mark = b.p->nnodes;
            int64_t l = build(&b, LLVMGetOperand(in, 0), 0);
            int64_t r = l < 0 ? -1 : build(&b, LLVMGetOperand(in, 1), 0);
            if (r < 0 || !b.uses_param) {
                b.p->nnodes = mark; /* not this parameter's branch */
                continue;
            }
            int64_t root =
                node(&b, (bcw_cnode){BCW_C_ICMP, 1,
                                     (uint8_t)LLVMGetICmpPredicate(in), 0,
                                     (uint32_t)l, (uint32_t)r});
            err = add_cond(&b, &cap, root, bcw__cond_text(u, f, fn, in, false),
                           bcw__cond_text(u, f, fn, in, true));
        } else if (LLVMIsASwitchInst(in) && LLVMGetOperand(in, 0) == b.arg) {
            /* switch (x): case k is the condition x == k */
            unsigned bits = width(b.arg);
            for (unsigned s = 1; s < LLVMGetNumSuccessors(in) && !err; s++) {
                LLVMValueRef cv = LLVMGetOperand(in, 2 * s);
                if (!LLVMIsAConstantInt(cv))
                    continue;
                int64_t v = LLVMConstIntGetSExtValue(cv);
                int64_t x = node(
                    &b, (bcw_cnode){BCW_C_PARAM, (uint8_t)bits, 0, k, 0, 0});
                int64_t c = node(
                    &b, (bcw_cnode){BCW_C_CONST, (uint8_t)bits, 0, v, 0, 0});
                int64_t root =
                    x < 0 || c < 0
                        ? -1
                        : node(&b, (bcw_cnode){BCW_C_ICMP, 1, LLVMIntEQ, 0,
                                               (uint32_t)x, (uint32_t)c});
                const char *name = b.p->name;
                err = add_cond(&b, &cap, root,
                               bcw__sprintf("%s == %lld", name, (long long)v),
                               bcw__sprintf("%s != %lld", name, (long long)v));
            }
        }
    }
    LLVMDisposeTargetData(b.td);
    return err;
}

int bcw__conditions_find(const bcw_unit *u, bcw_func *f, LLVMValueRef fn)
{
    int err = 0;
    for (unsigned k = 0; k < f->nparams && err == 0; k++) {
        enum bcw_pkind kind = f->params[k].kind;
        if (kind == BCW_PK_INT || kind == BCW_PK_ENUM || kind == BCW_PK_CHAR ||
            kind == BCW_PK_LENGTH)
            err = find(u, f, fn, k);
    }
    return err;
}
