/* terms.c - a parameter's conditions as Z3 bit-vector terms (terms.h).
 *
 * Widths are checked before every Z3 call: IR Z3 cannot take is a
 * condition not translated, never a Z3 error. */
#define _POSIX_C_SOURCE 200809L
#include "terms.h"

#include <stdbool.h>
#include <stdio.h>

/* Deeper trees than the analyzer builds (16 levels a frame) are not
 * translated. */
#define MAX_DEPTH 64

/* The width of bit-vector term t; 0 if t is a formula (a comparison). */
static unsigned width(bcw_session *s, Z3_ast t)
{
    Z3_sort sort = Z3_get_sort(s->z, t);
    if (sort == NULL || Z3_get_sort_kind(s->z, sort) != Z3_BV_SORT)
        return 0;
    return Z3_get_bv_sort_size(s->z, sort);
}

/* An ICMP node's formula over a and b (bit-vectors of one width); NULL
 * for a predicate that is not LLVMIntPredicate's. */
static Z3_ast compare(bcw_session *s, unsigned pred, Z3_ast a, Z3_ast b)
{
    Z3_context z = s->z;
    switch (pred) { /* LLVMIntPredicate's values */
    case 32:
        return Z3_mk_eq(z, a, b);
    case 33: {
        Z3_ast eq = bcw__session_keep(s, Z3_mk_eq(z, a, b));
        return eq == NULL ? NULL : Z3_mk_not(z, eq);
    }
    case 34:
        return Z3_mk_bvugt(z, a, b);
    case 35:
        return Z3_mk_bvuge(z, a, b);
    case 36:
        return Z3_mk_bvult(z, a, b);
    case 37:
        return Z3_mk_bvule(z, a, b);
    case 38:
        return Z3_mk_bvsgt(z, a, b);
    case 39:
        return Z3_mk_bvsge(z, a, b);
    case 40:
        return Z3_mk_bvslt(z, a, b);
    case 41:
        return Z3_mk_bvsle(z, a, b);
    default:
        return NULL;
    }
}

/* An arithmetic or conversion node's term over a (and b): bit-vectors
 * whose widths the caller checked. */
static Z3_ast arith(Z3_context z, const bcw_cnode *n, unsigned aw, Z3_ast a,
                    Z3_ast b)
{
    switch ((enum bcw_cop)n->op) {
    case BCW_C_ADD:
        return Z3_mk_bvadd(z, a, b);
    case BCW_C_SUB:
        return Z3_mk_bvsub(z, a, b);
    case BCW_C_MUL:
        return Z3_mk_bvmul(z, a, b);
    case BCW_C_SDIV:
        return Z3_mk_bvsdiv(z, a, b);
    case BCW_C_UDIV:
        return Z3_mk_bvudiv(z, a, b);
    case BCW_C_SREM:
        return Z3_mk_bvsrem(z, a, b);
    case BCW_C_UREM:
        return Z3_mk_bvurem(z, a, b);
    case BCW_C_AND:
        return Z3_mk_bvand(z, a, b);
    case BCW_C_OR:
        return Z3_mk_bvor(z, a, b);
    case BCW_C_XOR:
        return Z3_mk_bvxor(z, a, b);
    case BCW_C_SHL:
        return Z3_mk_bvshl(z, a, b);
    case BCW_C_LSHR:
        return Z3_mk_bvlshr(z, a, b);
    case BCW_C_ASHR:
        return Z3_mk_bvashr(z, a, b);
    case BCW_C_ZEXT:
        return Z3_mk_zero_ext(z, n->bits - aw, a);
    case BCW_C_SEXT:
        return Z3_mk_sign_ext(z, n->bits - aw, a);
    case BCW_C_TRUNC:
        return Z3_mk_extract(z, n->bits - 1u, 0, a);
    default:
        return NULL;
    }
}

/* Node i's term, as bcw__term_cond says. */
static int term(Z3_ast *out, bcw_session *s, const bcw_param *p, uint32_t i,
                Z3_ast x, int depth)
{
    *out = NULL;
    if (i >= p->nnodes || depth > MAX_DEPTH)
        return 0;
    const bcw_cnode *n = &p->nodes[i];
    bool leaf =
        n->op == BCW_C_CONST || n->op == BCW_C_FIELD || n->op == BCW_C_ARG;
    if (n->op == BCW_C_PARAM) {
        *out = x;
        return 0;
    }
    if (leaf && (n->bits == 0 || n->bits > 64))
        return 0;
    if (n->op == BCW_C_CONST) {
        *out = bcw__session_int(s, n->value, n->bits);
        return *out != NULL ? 0 : s->err;
    }
    if (n->op == BCW_C_FIELD || n->op == BCW_C_ARG) {
        /* a field of the object or an earlier parameter: free here,
         * read at call time */
        char name[32];
        snprintf(name, sizeof name, "%s@%lld",
                 n->op == BCW_C_FIELD ? "field" : "arg", (long long)n->value);
        *out = bcw__session_var(s, name, n->bits);
        return *out != NULL ? 0 : s->err;
    }
    bool unary =
        n->op == BCW_C_ZEXT || n->op == BCW_C_SEXT || n->op == BCW_C_TRUNC;
    bool binary =
        (n->op >= BCW_C_ADD && n->op <= BCW_C_ASHR) || n->op == BCW_C_ICMP;
    if (!unary && !binary)
        return 0;
    Z3_ast a = NULL, b = NULL;
    int err = term(&a, s, p, n->a, x, depth + 1);
    if (err < 0 || a == NULL)
        return err;
    if (binary && ((err = term(&b, s, p, n->b, x, depth + 1)) < 0 || b == NULL))
        return err;
    unsigned aw = width(s, a), bw = binary ? width(s, b) : 0;
    if ((err = bcw__session_check(s)) < 0)
        return err;
    /* a comparison inside arithmetic, operands of different widths, an
     * extension that narrows, a truncation that widens */
    if (aw == 0 || (binary && bw != aw) ||
        ((n->op == BCW_C_ZEXT || n->op == BCW_C_SEXT) &&
         (n->bits < aw || n->bits > 64)) ||
        (n->op == BCW_C_TRUNC && (n->bits == 0 || n->bits > aw)))
        return 0;
    Z3_ast r = n->op == BCW_C_ICMP ? compare(s, n->pred, a, b)
                                   : arith(s->z, n, aw, a, b);
    if (r == NULL && (err = bcw__session_check(s)) < 0)
        return err;
    if (r == NULL)
        return 0; /* a predicate we do not know */
    *out = bcw__session_keep(s, r);
    return *out != NULL ? 0 : s->err;
}

int bcw__term_cond(Z3_ast *out, bcw_session *s, const bcw_param *p, unsigned k,
                   Z3_ast x)
{
    *out = NULL;
    if (k >= p->nconds || p->conds[k].root >= p->nnodes ||
        p->nodes[p->conds[k].root].op != BCW_C_ICMP)
        return 0; /* only comparisons are formulas */
    return term(out, s, p, p->conds[k].root, x, 0);
}
