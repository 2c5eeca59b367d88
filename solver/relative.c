/* relative.c - categories whose conditions involve the unit's fields
 * (relative.h).  Z3 decides which combinations are feasible with the
 * fields free; their values depend on the live object, so the category
 * carries expression nodes the worker evaluates at call time: bounds
 * (0 < amount <= balance + limit) or conditions it solves. */
#define _POSIX_C_SOURCE 200809L
#include "relative.h"

#include <stdlib.h>

#include "alloc.h"

static bool uses(const bcw_param *p, uint32_t i, enum bcw_cop op, int depth)
{
    const bcw_cnode *n = &p->nodes[i];
    if (n->op == op)
        return true;
    if (depth > 32 || n->op == BCW_C_PARAM || n->op == BCW_C_CONST ||
        n->op == BCW_C_FIELD || n->op == BCW_C_ARG)
        return false;
    bool unary =
        n->op == BCW_C_ZEXT || n->op == BCW_C_SEXT || n->op == BCW_C_TRUNC;
    return uses(p, n->a, op, depth + 1) ||
           (!unary && uses(p, n->b, op, depth + 1));
}

bool bcw__relative_uses(const bcw_param *p, uint32_t i, enum bcw_cop op)
{
    return uses(p, i, op, 0);
}

/* The parameter itself, maybe widened or narrowed: `x`, `(long)x`. */
static bool just_param(const bcw_param *p, uint32_t i)
{
    const bcw_cnode *n = &p->nodes[i];
    while (n->op == BCW_C_ZEXT || n->op == BCW_C_SEXT || n->op == BCW_C_TRUNC)
        n = &p->nodes[n->a];
    return n->op == BCW_C_PARAM;
}

bool bcw__relative_bound(uint32_t *t, unsigned *pred, const bcw_param *p,
                         unsigned k)
{
    const bcw_cnode *c = &p->nodes[p->conds[k].root];
    /* LLVMIntPredicate with its operands swapped */
    static const unsigned swapped[] = {
        [32] = 32, [33] = 33, [34] = 36, [35] = 37, [36] = 34,
        [37] = 35, [38] = 40, [39] = 41, [40] = 38, [41] = 39};
    if (c->pred < 32 || c->pred > 41)
        return false;
    if (just_param(p, c->a) && !uses(p, c->b, BCW_C_PARAM, 0)) {
        *t = c->b;
        *pred = c->pred;
        return true;
    }
    if (just_param(p, c->b) && !uses(p, c->a, BCW_C_PARAM, 0)) {
        *t = c->a;
        *pred = swapped[c->pred];
        return true;
    }
    return false;
}

/* LLVMIntPredicate negated: eq<->ne, ugt<->ule, uge<->ult, sgt<->sle,
 * sge<->slt. */
static const unsigned negated[] = {
    [32] = 33, [33] = 32, [34] = 37, [35] = 36, [36] = 35,
    [37] = 34, [38] = 41, [39] = 40, [40] = 39, [41] = 38};

/* The offset from t of a value for which `x pred t` holds (or fails,
 * when !holds): the boundary on the category's side. */
static int64_t boundary_delta(unsigned pred, bool holds)
{
    if (!holds)
        pred = negated[pred];
    switch (pred) {
    case 33: /* != */
    case 34: /* > */
    case 38:
        return 1;
    case 36: /* < */
    case 40:
        return -1;
    default: /* ==, >=, <= */
        return 0;
    }
}

/* C text of node i into *out (the caller's): fields by name (unit `u`),
 * constants, arithmetic.  0, BCW_ENOMEM, or BCW_ERROR for a node that
 * is no such expression. */
static int node_text(char **out, const bcw_unit *u, const bcw_func *fn,
                     const bcw_param *p, uint32_t i, int depth)
{
    const bcw_cnode *n = &p->nodes[i];
    *out = NULL;
    if (depth > 32)
        return bcw__error(BCW_ERROR, "%s: a bound too deep to write", p->name);
    switch ((enum bcw_cop)n->op) {
    case BCW_C_CONST:
        *out = bcw__sprintf("%lld", (long long)n->value);
        break;
    case BCW_C_FIELD:
        *out = bcw__field_at(u, fn, n->value);
        break;
    case BCW_C_ARG:
        *out = bcw__strdup(fn->params[n->value].name);
        break;
    case BCW_C_ZEXT:
    case BCW_C_SEXT:
    case BCW_C_TRUNC:
        return node_text(out, u, fn, p, n->a, depth + 1);
    case BCW_C_PARAM:
    case BCW_C_ICMP:
        return bcw__error(BCW_ERROR, "%s: a bound that is not arithmetic",
                          p->name);
    default: {
        char *a = NULL, *b = NULL;
        int err = node_text(&a, u, fn, p, n->a, depth + 1);
        if (err == 0)
            err = node_text(&b, u, fn, p, n->b, depth + 1);
        if (err == 0)
            *out = bcw__sprintf(depth ? "(%s %s %s)" : "%s %s %s", a,
                                bcw__cop_symbol(n->op), b);
        free(a);
        free(b);
        if (err < 0)
            return err;
        break;
    }
    }
    return *out != NULL ? 0 : BCW_ENOMEM;
}

int bcw__relative_part(const bcw_unit *u, const bcw_func *fn, bcw_param *p,
                       char *label, const uint32_t *t, const unsigned *pred,
                       unsigned n, unsigned combo, unsigned shown)
{
    if (label == NULL)
        return BCW_ENOMEM;
    uint32_t first = p->nnodes, count = 0;
    /* the shown (relative) bound first: the walk passes its boundary */
    for (unsigned j = 0; j < n; j++) {
        unsigned i = j == 0 ? shown : j <= shown ? j - 1 : j;
        bool holds = (combo >> i) & 1u;
        unsigned pr = pred[i];
        int64_t delta = boundary_delta(pr, holds);
        /* which side of t: from the predicate as it holds */
        unsigned q = holds ? pr : negated[pr];
        uint8_t op = q == 32                                    ? BCW_C_EQUAL
                     : q == 34 || q == 35 || q == 38 || q == 39 ? BCW_C_LOWER
                     : q == 33                                  ? BCW_C_UNEQUAL
                                                                : BCW_C_UPPER;
        /* x != t keeps its t: the worker steps off it */
        if (op == BCW_C_UNEQUAL)
            delta = 0;
        if (bcw__param_add_node(p, (bcw_cnode){op, 64, 0, delta, t[i], 0}) <
            0) {
            free(label);
            return BCW_ENOMEM;
        }
        count++;
    }
    /* the bound nodes are contiguous: they were appended last */
    bcw_part part = {.label = label, .rel = (int32_t)first, .nrel = count};
    int64_t d = boundary_delta(pred[shown], (combo >> shown) & 1u);
    char *text = NULL;
    int err = node_text(&text, u, fn, p, t[shown], 0);
    if (err == 0) {
        part.rel_text = d == 0
                            ? bcw__strdup(text)
                            : bcw__sprintf("%s %c 1", text, d > 0 ? '+' : '-');
        err = part.rel_text != NULL ? 0 : BCW_ENOMEM;
    }
    free(text);
    if (err < 0) {
        free(label);
        return err;
    }
    return bcw__param_add_part(p, part);
}

int bcw__relative_solved_part(bcw_param *p, char *label, unsigned n,
                              unsigned combo)
{
    bcw_part part = {.label = label, .rel = (int32_t)p->nnodes, .nrel = n};
    int err = label != NULL ? 0 : BCW_ENOMEM;
    for (unsigned i = 0; i < n && err == 0; i++) {
        uint8_t op = (combo >> i) & 1u ? BCW_C_HOLDS : BCW_C_FAILS;
        if (bcw__param_add_node(
                p, (bcw_cnode){op, 1, 0, 0, p->conds[i].root, 0}) < 0)
            err = BCW_ENOMEM;
    }
    if (err == 0 && (part.rel_text = bcw__strdup("solved")) == NULL)
        err = BCW_ENOMEM;
    if (err < 0) {
        free(label);
        return err;
    }
    return bcw__param_add_part(p, part);
}
