/* conditions.c - the branch conditions an integer parameter decides: the
 * comparisons (and switch cases) whose operands depend on the parameter
 * through arithmetic and casts, in the function and in the module
 * functions it passes the parameter to (to MAX_CALL_DEPTH calls down),
 * as expression trees the solver turns into Z3 terms, with their C text
 * both ways in terms of the function's own parameters and fields.
 *
 * A condition over several integer parameters (`index + length > a->len`)
 * is the last one's: the earlier ones are BCW_C_ARG nodes, the values the
 * call passes them, so each combination of their categories has the
 * last one solved on it; an unsigned sum of the parameter and an earlier
 * one compared so gets its wrap as a condition too. */
#define _POSIX_C_SOURCE 200809L
#include "conditions.h"

#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "alloc.h"
#include "bitcode.h"
#include "cond_text.h"

#define MAX_NODES 256
#define MAX_CONDS 16
#define MAX_CALL_DEPTH 3 /* calls followed below the function */

typedef struct builder {
    const bcw_unit *u;
    const bcw_func *f;
    LLVMTargetDataRef td;
    bcw_param *p;
    unsigned param;   /* index of the parameter */
    LLVMValueRef arg; /* the parameter's value in the function itself */
    size_t cap, ccap; /* of p->nodes, p->conds */
    int uses_param;
    int err; /* the first allocation failure: a -1 node or a NULL text
                alone mean "not an expression of the parameter" */
} builder;

/* `s`, an allocation's result, noting its failure. */
static char *made(builder *b, char *s)
{
    if (s == NULL)
        b->err = BCW_ENOMEM;
    return s;
}

static int64_t node(builder *b, bcw_cnode n)
{
    if (b->p->nnodes >= MAX_NODES)
        return -1;
    if (bcw__grow(&b->p->nodes, &b->cap, b->p->nnodes + 1,
                  sizeof *b->p->nodes) < 0) {
        b->err = BCW_ENOMEM;
        return -1;
    }
    b->p->nodes[b->p->nnodes] = n;
    return b->p->nnodes++;
}

static unsigned width(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t)
                                                     : 0;
}

/* Index of parameter `v` of `fn`, or -1. */
static int param_index(LLVMValueRef fn, LLVMValueRef v)
{
    unsigned n = LLVMCountParams(fn);
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetParam(fn, i) == v)
            return (int)i;
    return -1;
}

/* The kinds of parameter whose conditions are found. */
static bool integer_kind(enum bcw_pkind kind)
{
    return kind == BCW_PK_INT || kind == BCW_PK_ENUM || kind == BCW_PK_CHAR ||
           kind == BCW_PK_LENGTH;
}

/* The expression tree of integer value `v` of frame `fr`, or -1 if it is
 * not made of the parameter, earlier integer parameters, constants, fields
 * and integer arithmetic.  A callee's parameter is the tree of what its
 * caller passed. */
static int64_t build(builder *b, const bcw_frame *fr, LLVMValueRef v, int depth)
{
    unsigned bits = width(v);
    if (bits == 0 || bits > 64 || depth > 16)
        return -1;
    if (fr->parent == NULL && v == b->arg) {
        b->uses_param = 1;
        return node(b,
                    (bcw_cnode){BCW_C_PARAM, (uint8_t)bits, 0, b->param, 0, 0});
    }
    if (LLVMIsAConstantInt(v))
        return node(b, (bcw_cnode){BCW_C_CONST, (uint8_t)bits, 0,
                                   LLVMConstIntGetSExtValue(v), 0, 0});
    if (fr->parent != NULL && LLVMIsAArgument(v)) {
        int i = param_index(fr->fn, v);
        if (i < 0)
            return -1;
        return build(b, fr->parent, LLVMGetOperand(fr->call, (unsigned)i),
                     depth + 1);
    }
    if (LLVMIsAArgument(v)) {
        /* an earlier integer parameter: its value is chosen first */
        int i = param_index(fr->fn, v);
        if (i < 0 || (unsigned)i >= b->param ||
            !integer_kind(b->f->params[i].kind))
            return -1;
        return node(b, (bcw_cnode){BCW_C_ARG, (uint8_t)bits, 0, i, 0, 0});
    }
    if (!LLVMIsAInstruction(v))
        return -1;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMLoad) {
        /* a field of the unit: the solver keeps such bounds relative */
        uint32_t off;
        if (fr->unit == NULL ||
            !bcw__addr_field_offset(b->td, LLVMGetOperand(v, 0), fr->unit,
                                    &off))
            return -1;
        return node(b, (bcw_cnode){BCW_C_FIELD, (uint8_t)bits, 0,
                                   fr->unit_base + off, 0, 0});
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
        int64_t a = build(b, fr, LLVMGetOperand(v, 0), depth + 1);
        if (a < 0)
            return -1;
        int64_t c = 0;
        if (op != LLVMZExt && op != LLVMSExt && op != LLVMTrunc &&
            (c = build(b, fr, LLVMGetOperand(v, 1), depth + 1)) < 0)
            return -1;
        return node(b, (bcw_cnode){(uint8_t)ops[i].c, (uint8_t)bits, 0, 0,
                                   (uint32_t)a, (uint32_t)c});
    }
    return -1;
}

/* Does `v` of frame `fr` depend on the parameter (as a tree)?  Leaves
 * the nodes as they were. */
static bool depends(builder *b, const bcw_frame *fr, LLVMValueRef v)
{
    unsigned mark = b->p->nnodes;
    int saved = b->uses_param;
    b->uses_param = 0;
    bool yes = build(b, fr, v, 0) >= 0 && b->uses_param;
    b->p->nnodes = mark;
    b->uses_param = saved;
    return yes;
}

/* C text of node i, negated if `negate` (an ICMP): what a condition
 * reads when its C source cannot be followed. */
static char *tree_text(builder *b, uint32_t i, bool negate, int depth)
{
    /* LLVMIntPredicate from LLVMIntEQ (32) on, and its negation */
    static const char *const preds[] = {"==", "!=", ">",  ">=", "<",
                                        "<=", ">",  ">=", "<",  "<="};
    static const unsigned negated[] = {33, 32, 37, 36, 35, 34, 41, 40, 39, 38};
    const bcw_cnode *n = &b->p->nodes[i];
    if (depth > 32)
        return NULL;
    switch ((enum bcw_cop)n->op) {
    case BCW_C_PARAM:
        return made(b, bcw__strdup(b->p->name));
    case BCW_C_CONST:
        return made(b, bcw__sprintf("%lld", (long long)n->value));
    case BCW_C_FIELD:
        return made(b, bcw__field_at(b->u, b->f, n->value));
    case BCW_C_ARG:
        return made(b, bcw__strdup(b->f->params[n->value].name));
    case BCW_C_ZEXT:
    case BCW_C_SEXT:
    case BCW_C_TRUNC:
        return tree_text(b, n->a, false, depth + 1);
    case BCW_C_ICMP:
    default: {
        const char *op;
        if (n->op == BCW_C_ICMP) {
            unsigned pr = n->pred;
            if (pr < 32 || pr > 41)
                return NULL;
            op = preds[(negate ? negated[pr - 32] : pr) - 32];
        } else if (bcw__cop_symbol(n->op) != NULL) {
            op = bcw__cop_symbol(n->op);
        } else {
            return NULL;
        }
        char *l = tree_text(b, n->a, false, depth + 1);
        char *r = tree_text(b, n->b, false, depth + 1);
        char *s = l && r
                      ? made(b, bcw__sprintf(depth ? "(%s %s %s)" : "%s %s %s",
                                             l, op, r))
                      : NULL;
        free(l);
        free(r);
        return s;
    }
    }
}

/* The text of condition or value `v` of `fr`: its C source in the
 * function's terms, else read off its tree `root`.  NULL if neither can
 * be written, or out of memory (b->err). */
static char *text_of(builder *b, const bcw_frame *fr, LLVMValueRef v,
                     int64_t root, bool negate)
{
    char *s;
    int err = bcw__cond_text_in(&s, b->u, b->f, fr, v, negate);
    if (err < 0) {
        b->err = err;
        return NULL;
    }
    return s != NULL || root < 0 ? s : tree_text(b, (uint32_t)root, negate, 0);
}

static int add_cond(builder *b, int64_t root, char *text, char *negated)
{
    bcw_param *p = b->p;
    int err = b->err;
    if (err < 0 || text == NULL || negated == NULL || root < 0)
        goto drop; /* out of memory, or a condition bcwalk cannot write */
    for (unsigned i = 0; i < p->nconds; i++)
        if (strcmp(p->conds[i].text, text) == 0 ||
            strcmp(p->conds[i].negated, text) == 0)
            goto drop; /* the same branch, seen again */
    if (p->nconds >= MAX_CONDS ||
        (err = bcw__grow(&p->conds, &b->ccap, p->nconds + 1,
                         sizeof *p->conds)) < 0)
        goto drop;
    p->conds[p->nconds++] = (bcw_cond){text, negated, (uint32_t)root};
    return 0;
drop:
    free(text);
    free(negated);
    return err;
}

static int scan(builder *b, const bcw_frame *fr, int depth);

/* A call in `fr` passing the parameter on (or an expression of it): the
 * callee's conditions on what it receives are the parameter's too. */
static int follow(builder *b, const bcw_frame *fr, LLVMValueRef call, int depth)
{
    LLVMValueRef callee = bcw__called_function(call);
    if (depth >= MAX_CALL_DEPTH || callee == NULL || LLVMIsDeclaration(callee))
        return 0;
    unsigned n = (unsigned)LLVMGetNumArgOperands(call);
    if (LLVMCountParams(callee) != n)
        return 0; /* varargs, or called through a mismatched cast */
    for (const bcw_frame *up = fr; up != NULL; up = up->parent)
        if (up->fn == callee)
            return 0; /* recursion: already being scanned */
    for (unsigned a = 0; a < n; a++)
        if (width(LLVMGetOperand(call, a)) != width(LLVMGetParam(callee, a)))
            return 0; /* an integer of another width: not the same value */
    bool reaches = false;
    for (unsigned a = 0; a < n && !reaches; a++)
        reaches = depends(b, fr, LLVMGetOperand(call, a));
    if (!reaches)
        return 0;
    bcw_frame in = {callee, NULL, 0, call, fr};
    for (unsigned a = 0; a < n && fr->unit != NULL; a++) {
        LLVMValueRef v = LLVMGetOperand(call, a);
        uint32_t off;
        if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind &&
            bcw__addr_field_offset(b->td, v, fr->unit, &off)) {
            /* fields read through it are the unit's */
            in.unit = LLVMGetParam(callee, a);
            in.unit_base = fr->unit_base + off;
            break;
        }
    }
    return scan(b, &in, depth + 1);
}

/* Node i without the widening or narrowing around it. */
static uint32_t unwrapped(const builder *b, uint32_t i)
{
    while (b->p->nodes[i].op == BCW_C_ZEXT || b->p->nodes[i].op == BCW_C_SEXT ||
           b->p->nodes[i].op == BCW_C_TRUNC)
        i = b->p->nodes[i].a;
    return i;
}

/* Unsigned comparison `cmp` of a sum of the parameter and an earlier one
 * (`index + length > a->len`): the sum's wrap is a condition of its own,
 * sum < its first operand, so the walk passes a length that wraps past
 * the check as well as one that fails it. */
static int wrap_cond(builder *b, uint32_t cmp)
{
    unsigned pred = b->p->nodes[cmp].pred;
    if (pred < LLVMIntUGT || pred > LLVMIntULE)
        return 0;
    uint32_t sides[2] = {b->p->nodes[cmp].a, b->p->nodes[cmp].b};
    for (int k = 0; k < 2; k++) {
        uint32_t sum = unwrapped(b, sides[k]);
        const bcw_cnode *n = &b->p->nodes[sum];
        if (n->op != BCW_C_ADD)
            continue;
        uint8_t l = b->p->nodes[unwrapped(b, n->a)].op;
        uint8_t r = b->p->nodes[unwrapped(b, n->b)].op;
        if (!((l == BCW_C_PARAM && r == BCW_C_ARG) ||
              (l == BCW_C_ARG && r == BCW_C_PARAM)))
            continue;
        unsigned mark = b->p->nnodes, had = b->p->nconds;
        int64_t root = node(b, (bcw_cnode){BCW_C_ICMP, 1, LLVMIntULT, 0, sum,
                                           b->p->nodes[sum].a});
        char *text = root < 0 ? NULL : tree_text(b, sum, false, 0);
        int err = add_cond(
            b, root, text ? made(b, bcw__sprintf("%s wraps", text)) : NULL,
            text ? made(b, bcw__sprintf("%s does not wrap", text)) : NULL);
        free(text);
        if (b->p->nconds == had)
            b->p->nnodes = mark;
        return err;
    }
    return 0;
}

static int icmp_cond(builder *b, const bcw_frame *fr, LLVMValueRef in)
{
    b->uses_param = 0;
    unsigned mark = b->p->nnodes;
    int64_t l = build(b, fr, LLVMGetOperand(in, 0), 0);
    int64_t r = l < 0 ? -1 : build(b, fr, LLVMGetOperand(in, 1), 0);
    if (r < 0 || !b->uses_param) {
        b->p->nnodes = mark; /* not this parameter's branch */
        return 0;
    }
    int64_t root =
        node(b, (bcw_cnode){BCW_C_ICMP, 1, (uint8_t)LLVMGetICmpPredicate(in), 0,
                            (uint32_t)l, (uint32_t)r});
    unsigned had = b->p->nconds;
    int err = add_cond(b, root, text_of(b, fr, in, root, false),
                       text_of(b, fr, in, root, true));
    if (b->p->nconds == had)
        b->p->nnodes = mark; /* seen before: a helper called twice */
    else if (err == 0)
        err = wrap_cond(b, (uint32_t)root);
    return err;
}

/* switch (x): case k is the condition x == k.  In the function itself x
 * must be the parameter; in a callee, any expression of it. */
static int switch_conds(builder *b, const bcw_frame *fr, LLVMValueRef sw)
{
    LLVMValueRef x = LLVMGetOperand(sw, 0);
    if (fr->parent == NULL ? x != b->arg : !depends(b, fr, x))
        return 0;
    unsigned bits = width(x);
    char *name = NULL;
    int err = 0;
    for (unsigned s = 1; s < LLVMGetNumSuccessors(sw) && !err; s++) {
        LLVMValueRef cv = LLVMGetOperand(sw, 2 * s);
        if (!LLVMIsAConstantInt(cv))
            continue;
        int64_t v = LLVMConstIntGetSExtValue(cv);
        unsigned mark = b->p->nnodes, had = b->p->nconds;
        int64_t t = build(b, fr, x, 0);
        int64_t c =
            node(b, (bcw_cnode){BCW_C_CONST, (uint8_t)bits, 0, v, 0, 0});
        int64_t root = t < 0 || c < 0
                           ? -1
                           : node(b, (bcw_cnode){BCW_C_ICMP, 1, LLVMIntEQ, 0,
                                                 (uint32_t)t, (uint32_t)c});
        if (name == NULL && t >= 0)
            name = fr->parent == NULL ? made(b, bcw__strdup(b->p->name))
                                      : text_of(b, fr, x, t, false);
        err = add_cond(
            b, root,
            name ? made(b, bcw__sprintf("%s == %lld", name, (long long)v))
                 : NULL,
            name ? made(b, bcw__sprintf("%s != %lld", name, (long long)v))
                 : NULL);
        if (b->p->nconds == had)
            b->p->nnodes = mark;
    }
    free(name);
    return err;
}

/* Every decided comparison and switch of frame `fr` that depends on the
 * parameter, and those of the module functions it passes it to. */
static int scan(builder *b, const bcw_frame *fr, int depth)
{
    int err = 0;
    for (LLVMValueRef in = bcw__first_instruction(fr->fn); in && !err;
         in = bcw__next_instruction(in)) {
        if (LLVMIsAICmpInst(in))
            err = icmp_cond(b, fr, in);
        else if (LLVMIsASwitchInst(in))
            err = switch_conds(b, fr, in);
        else if (LLVMIsACallInst(in) || LLVMIsAInvokeInst(in))
            err = follow(b, fr, in, depth);
        if (err == 0)
            err = b->err; /* a node or text failed on the way */
    }
    return err;
}

/* One parameter: its conditions in `fn` and in what fn calls. */
static int find(const bcw_unit *u, bcw_func *f, LLVMValueRef fn, unsigned k)
{
    builder b = {0};
    b.u = u;
    b.f = f;
    b.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(LLVMGetGlobalParent(fn)));
    b.p = &f->params[k];
    b.param = k;
    b.arg = LLVMGetParam(fn, k);
    bcw_frame top = {fn, NULL, 0, NULL, NULL};
    if (f->self >= 0)
        top.unit = LLVMGetParam(fn, (unsigned)f->self);
    int err = scan(&b, &top, 0);
    LLVMDisposeTargetData(b.td);
    return err;
}

int bcw__conditions_find(const bcw_unit *u, bcw_func *f, LLVMValueRef fn)
{
    int err = 0;
    for (unsigned k = 0; k < f->nparams && err == 0; k++) {
        enum bcw_pkind kind = f->params[k].kind;
        if (integer_kind(kind))
            err = find(u, f, fn, k);
    }
    return err;
}
