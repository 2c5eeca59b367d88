/* cond_text.c - conditions written as C: a branch condition or integer
 * value of a method (or of a module function it calls) decompiled into C
 * over the unit's fields, the method's parameters and constants, for
 * contracts ("abort size == 0") and the parameters' conditions. */
#define _POSIX_C_SOURCE 200809L
#include "cond_text.h"

#include <llvm-c/Target.h>
#include <stdlib.h>

#include "addr.h"
#include "alloc.h"

/* What the text of a value is written against, and the first
 * allocation failure: a NULL text alone means "cannot be written". */
typedef struct expr {
    const bcw_unit *u;
    LLVMTargetDataRef td;
    int err;
} expr;

/* `s`, an allocation's result, noting its failure. */
static char *made(expr *c, char *s)
{
    if (s == NULL)
        c->err = BCW_ENOMEM;
    return s;
}

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

static char *expr_text(expr *c, const bcw_func *f, const bcw_frame *fr,
                       LLVMValueRef v, bool negate, int hops);

static char *join(expr *c, char *l, const char *op, char *r, bool parens)
{
    char *s = l && r ? made(c, bcw__sprintf(parens ? "(%s %s %s)" : "%s %s %s",
                                            l, op, r))
                     : NULL;
    free(l);
    free(r);
    return s;
}

static char *expr_text(expr *c, const bcw_func *f, const bcw_frame *fr,
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
        return join(c, l, op, r, false);
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
            return join(c, l, conj ? "&&" : "||", r, true);
        }
    }
    if (is_bool && negate) {
        char *s = expr_text(c, f, fr, v, false, hops + 1);
        char *n = s ? made(c, bcw__sprintf("!(%s)", s)) : NULL;
        free(s);
        return n;
    }
    if (LLVMIsAConstantInt(v))
        return made(
            c, bcw__sprintf("%lld", (long long)LLVMConstIntGetSExtValue(v)));
    if (LLVMIsAConstantPointerNull(v))
        return made(c, bcw__strdup("NULL"));
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
            return i < f->nparams ? made(c, bcw__strdup(f->params[i].name))
                                  : NULL;
        }
        return NULL;
    }
    if (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v) || LLVMIsATruncInst(v))
        return expr_text(c, f, fr, LLVMGetOperand(v, 0), negate, hops + 1);
    if (LLVMIsALoadInst(v)) {
        bcw_addr a = bcw__addr_of(c->td, LLVMGetOperand(v, 0), fr->unit, 0);
        if (!a.ok || a.off == BCW_ADDR_UNKNOWN_OFF)
            return NULL;
        /* a callee's unit pointer may point into the unit */
        if (a.via >= 0)
            a.via += (int32_t)fr->unit_base;
        else
            a.off += fr->unit_base;
        char *name = made(c, bcw__addr_text(c->u, a));
        if (name != NULL && a.via < 0 && !a.element) {
            /* a parameter of the same name: say whose field it is */
            char *ref = made(c, bcw__field_ref(f, name));
            free(name);
            name = ref;
        }
        char *s =
            name && a.element ? made(c, bcw__sprintf("%s[...]", name)) : NULL;
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
            char *n = s ? made(c, bcw__sprintf("-%s", s)) : NULL;
            free(s);
            return n;
        }
        return join(c, expr_text(c, f, fr, a, false, hops + 1), op,
                    expr_text(c, f, fr, b, false, hops + 1), true);
    }
    return NULL;
}

int bcw__cond_text_in(char **out, const bcw_unit *u, const bcw_func *f,
                      const bcw_frame *fr, LLVMValueRef v, bool negate)
{
    expr c = {0};
    c.u = u;
    c.td =
        LLVMCreateTargetData(LLVMGetDataLayoutStr(LLVMGetGlobalParent(fr->fn)));
    *out = expr_text(&c, f, fr, v, negate, 0);
    LLVMDisposeTargetData(c.td);
    if (c.err < 0) {
        /* a part failed: what remains would say something else */
        free(*out);
        *out = NULL;
    }
    return c.err;
}

int bcw__cond_text(char **out, const bcw_unit *u, const bcw_func *f,
                   LLVMValueRef fn, LLVMValueRef cond, bool negate)
{
    bcw_frame fr = {fn, NULL, 0, NULL, NULL};
    if (f->self >= 0)
        fr.unit = LLVMGetParam(fn, (unsigned)f->self);
    return bcw__cond_text_in(out, u, f, &fr, cond, negate);
}
