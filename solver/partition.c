/* partition.c - category-partition with Z3: the feasible combinations of
 * the branch conditions a parameter decides are its categories; each gets
 * a representative and its boundary values, found with Z3's optimizer.
 *
 * One Z3 context for the whole model (creating one costs ~10 ms); its
 * errors are recorded, never fatal.  Conditions over the unit's fields
 * (amount > balance + limit) are relative to the live object: they are
 * not partitioned here, and the parameter says so. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "alloc.h"
#include "bcwalk/solver.h"
#include "hash.h"
#include "kinds.h"
#include "model.h"

#define MAX_COMBO_CONDS 6 /* 64 combinations */
/* Bounds relative to the object's fields make categories only while they
 * are few; x == keys[0] ... x == keys[7] is a search, not a partition. */
#define MAX_RELATIVE_CONDS 2
#define TIMEOUT_MS 300u

/* What Z3 decided about one combination of a parameter's conditions. */
typedef struct verdict {
    bool feasible;
    bool bounded;  /* lo and hi were found */
    uint8_t shown; /* label_mask */
    int64_t lo, hi, rep;
} verdict;

/* Verdicts of every combination, by the shape of the conditions: real
 * code checks the same shapes again and again (`k < 0 || k >= s->count`
 * in every getter), and the shape decides everything but the names.  A
 * hit is confirmed on the whole node array, never on the hash alone. */
typedef struct shape {
    uint64_t key;
    unsigned nnodes, n;
    bcw_cnode *nodes;
    uint32_t roots[MAX_COMBO_CONDS];
    verdict v[1u << MAX_COMBO_CONDS];
} shape;

#define MAX_SHAPES 4096

typedef struct solver {
    Z3_context z;
    Z3_solver sv; /* one solver for the checks, scoped by push/pop: a
                     fresh one per query costs ~50x more (PITFALLS.md) */
    int failed;
    Z3_ast *kept; /* every AST made for the parameter in hand */
    size_t nkept, capkept;
    shape *shapes; /* decided shapes, found by key through shape_ix */
    unsigned nshapes;
    size_t capshapes;
    bcw_index shape_ix;
    unsigned hits; /* parameters decided from the cache */
} solver;

/* Holds `a` until release(): in a reference-counted context an AST with
 * no reference may be freed at the next call. */
static Z3_ast keep(solver *s, Z3_ast a)
{
    if (a == NULL || s->failed)
        return NULL;
    if (bcw__grow(&s->kept, &s->capkept, s->nkept + 1, sizeof *s->kept) < 0) {
        s->failed = 1;
        return NULL;
    }
    Z3_inc_ref(s->z, a);
    s->kept[s->nkept++] = a;
    return a;
}

static void release(solver *s)
{
    while (s->nkept > 0)
        Z3_dec_ref(s->z, s->kept[--s->nkept]);
}

static Z3_sort bv_sort(solver *s, unsigned bits)
{
    Z3_sort t = Z3_mk_bv_sort(s->z, bits);
    keep(s, Z3_sort_to_ast(s->z, t));
    return t;
}

static void on_z3_error(Z3_context z, Z3_error_code code)
{
    (void)z;
    (void)code; /* checked after each group of calls */
}

/* Z3 term of node `i` of p's conditions; NULL if it refers to a field. */
static Z3_ast term(solver *s, const bcw_param *p, uint32_t i, Z3_ast x)
{
    const bcw_cnode *n = &p->nodes[i];
    Z3_context z = s->z;
    Z3_ast a = NULL, b = NULL;
    if (n->op == BCW_C_PARAM)
        return x;
    if (n->op == BCW_C_CONST)
        return keep(s, Z3_mk_int64(z, n->value, bv_sort(s, n->bits)));
    if (n->op == BCW_C_FIELD) {
        /* a field of the object: free here, read at call time */
        char name[32];
        snprintf(name, sizeof name, "field@%lld", (long long)n->value);
        return keep(s, Z3_mk_const(z, Z3_mk_string_symbol(z, name),
                                   bv_sort(s, n->bits)));
    }
    if ((a = term(s, p, n->a, x)) == NULL)
        return NULL;
    if (n->op != BCW_C_ZEXT && n->op != BCW_C_SEXT && n->op != BCW_C_TRUNC &&
        (b = term(s, p, n->b, x)) == NULL)
        return NULL;
    unsigned aw = Z3_get_bv_sort_size(z, Z3_get_sort(z, a));
    switch ((enum bcw_cop)n->op) {
    case BCW_C_ADD:
        return keep(s, Z3_mk_bvadd(z, a, b));
    case BCW_C_SUB:
        return keep(s, Z3_mk_bvsub(z, a, b));
    case BCW_C_MUL:
        return keep(s, Z3_mk_bvmul(z, a, b));
    case BCW_C_SDIV:
        return keep(s, Z3_mk_bvsdiv(z, a, b));
    case BCW_C_UDIV:
        return keep(s, Z3_mk_bvudiv(z, a, b));
    case BCW_C_SREM:
        return keep(s, Z3_mk_bvsrem(z, a, b));
    case BCW_C_UREM:
        return keep(s, Z3_mk_bvurem(z, a, b));
    case BCW_C_AND:
        return keep(s, Z3_mk_bvand(z, a, b));
    case BCW_C_OR:
        return keep(s, Z3_mk_bvor(z, a, b));
    case BCW_C_XOR:
        return keep(s, Z3_mk_bvxor(z, a, b));
    case BCW_C_SHL:
        return keep(s, Z3_mk_bvshl(z, a, b));
    case BCW_C_LSHR:
        return keep(s, Z3_mk_bvlshr(z, a, b));
    case BCW_C_ASHR:
        return keep(s, Z3_mk_bvashr(z, a, b));
    case BCW_C_ZEXT:
        return keep(s, Z3_mk_zero_ext(z, n->bits - aw, a));
    case BCW_C_SEXT:
        return keep(s, Z3_mk_sign_ext(z, n->bits - aw, a));
    case BCW_C_TRUNC:
        return keep(s, Z3_mk_extract(z, n->bits - 1, 0, a));
    case BCW_C_ICMP:
        switch (n->pred) { /* LLVMIntPredicate's values */
        case 32:
            return keep(s, Z3_mk_eq(z, a, b)); /* eq */
        case 33:
            return keep(s, Z3_mk_not(z, keep(s, Z3_mk_eq(z, a, b))));
        case 34:
            return keep(s, Z3_mk_bvugt(z, a, b));
        case 35:
            return keep(s, Z3_mk_bvuge(z, a, b));
        case 36:
            return keep(s, Z3_mk_bvult(z, a, b));
        case 37:
            return keep(s, Z3_mk_bvule(z, a, b));
        case 38:
            return keep(s, Z3_mk_bvsgt(z, a, b));
        case 39:
            return keep(s, Z3_mk_bvsge(z, a, b));
        case 40:
            return keep(s, Z3_mk_bvslt(z, a, b));
        case 41:
            return keep(s, Z3_mk_bvsle(z, a, b));
        default:
            return NULL;
        }
    default:
        return NULL;
    }
}

enum goal { GOAL_MIN, GOAL_MAX };

/* x's value in a model of the solver's last check, sign-extended from
 * its width when signed; false without a model. */
static bool model_value(solver *s, Z3_ast x, unsigned bits, bool is_signed,
                        int64_t *out)
{
    Z3_context z = s->z;
    Z3_model m = Z3_solver_get_model(z, s->sv);
    if (m == NULL)
        return false;
    Z3_model_inc_ref(z, m);
    Z3_ast val = NULL;
    uint64_t raw = 0;
    bool ok = Z3_model_eval(z, m, x, true, &val) &&
              Z3_get_numeral_uint64(z, val, &raw);
    Z3_model_dec_ref(z, m);
    if (ok && is_signed && bits < 64 && (raw >> (bits - 1)) & 1)
        raw |= ~0ull << bits;
    if (ok && !is_signed && bits < 64)
        raw &= (1ull << bits) - 1;
    *out = (int64_t)raw;
    return ok;
}

/* Is f && x <= v (x >= v for GOAL_MAX) satisfiable?  With a model, *w
 * gets x's value in it: a witness at least as good as v. */
static Z3_lbool bounded(solver *s, Z3_ast f, Z3_ast x, unsigned bits,
                        bool is_signed, enum goal goal, int64_t v, int64_t *w)
{
    Z3_context z = s->z;
    Z3_ast c = keep(s, Z3_mk_int64(z, v, bv_sort(s, bits)));
    Z3_ast cmp =
        c == NULL ? NULL
        : goal == GOAL_MIN
            ? keep(s, is_signed ? Z3_mk_bvsle(z, x, c) : Z3_mk_bvule(z, x, c))
            : keep(s, is_signed ? Z3_mk_bvsge(z, x, c) : Z3_mk_bvuge(z, x, c));
    if (cmp == NULL)
        return Z3_L_UNDEF;
    Z3_solver_push(z, s->sv);
    Z3_solver_assert(z, s->sv, f);
    Z3_solver_assert(z, s->sv, cmp);
    Z3_lbool r = Z3_solver_check(z, s->sv);
    if (r == Z3_L_TRUE && !model_value(s, x, bits, is_signed, w))
        r = Z3_L_UNDEF;
    Z3_solver_pop(z, s->sv, 1);
    return r;
}

/* The minimum or the maximum of x as a signed or unsigned number under
 * `f`, by bisection on the push/pop solver: each satisfiable bound gives
 * a model whose value tightens the search at once.  Z3's optimizer found
 * the same values at ~3x the cost on real code (a dozen milliseconds
 * per objective on SQLite). */
static int extreme(solver *s, Z3_ast f, Z3_ast x, bool is_signed,
                   enum goal goal, int64_t *out)
{
    Z3_context z = s->z;
    unsigned bits = Z3_get_bv_sort_size(z, Z3_get_sort(z, x));
    /* the search runs over the order's keys: values with the sign bit
     * flipped when signed, so plain unsigned order serves both */
    uint64_t top = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t flip = is_signed ? 1ull << (bits - 1) : 0;
    int64_t w;
    /* the first witness: the end of the range, if it is in, settles it */
    int64_t end = goal == GOAL_MIN ? (int64_t)(flip ? ~(flip - 1) : 0)
                                   : (int64_t)(flip ? flip - 1 : top);
    Z3_lbool r = bounded(s, f, x, bits, is_signed, goal, end, &w);
    if (r != Z3_L_TRUE) {
        /* not at the end: any model is a first witness */
        Z3_solver_push(z, s->sv);
        Z3_solver_assert(z, s->sv, f);
        r = Z3_solver_check(z, s->sv);
        bool ok = r == Z3_L_TRUE && model_value(s, x, bits, is_signed, &w);
        Z3_solver_pop(z, s->sv, 1);
        if (!ok)
            return -1;
    } else {
        *out = w;
        return s->failed ? -1 : 0;
    }
    /* keys: lo is known out (or the range's end), hi the best witness */
    uint64_t best = ((uint64_t)w ^ flip) & top;
    uint64_t edge = goal == GOAL_MIN ? 0 : top;
    for (int step = 0; step < 128 && best != edge; step++) {
        /* halfway, rounded away from best; no overflow at 64 bits */
        uint64_t mid = goal == GOAL_MIN
                           ? edge + (best - edge) / 2
                           : best + (edge - best) / 2 + ((edge - best) & 1);
        if (mid == best)
            break;
        int64_t v = (int64_t)(mid ^ flip);
        if (is_signed && bits < 64 && ((uint64_t)v >> (bits - 1)) & 1)
            v |= (int64_t)(~0ull << bits);
        r = bounded(s, f, x, bits, is_signed, goal, v, &w);
        if (r == Z3_L_TRUE) {
            best = ((uint64_t)w ^ flip) & top;
        } else if (r == Z3_L_FALSE) {
            /* nothing at or beyond mid: the answer lies past it */
            edge = goal == GOAL_MIN ? mid + 1 : mid - 1;
        } else {
            break; /* unknown: keep the best witness so far */
        }
        if (goal == GOAL_MIN ? edge > best : edge < best)
            break;
    }
    int64_t v = (int64_t)(best ^ flip);
    if (is_signed && bits < 64 && ((uint64_t)v >> (bits - 1)) & 1)
        v |= (int64_t)(~0ull << bits);
    *out = v;
    return s->failed ? -1 : 0;
}

/* Is f satisfiable (unknown counts as yes)? */
static bool feasible(solver *s, Z3_ast f)
{
    Z3_context z = s->z;
    Z3_solver_push(z, s->sv);
    Z3_solver_assert(z, s->sv, f);
    bool sat = Z3_solver_check(z, s->sv) != Z3_L_FALSE;
    Z3_solver_pop(z, s->sv, 1);
    return sat;
}

/* The category's representative: 1 if it holds there, else the nearest
 * small value that does (2, 0, 3, -1 ...), else its minimum. */
static int64_t representative(solver *s, Z3_ast f, Z3_ast x, int64_t lo,
                              int64_t hi)
{
    Z3_context z = s->z;
    Z3_sort sort = Z3_get_sort(z, x);
    for (int64_t d = 0; d <= 8; d++) {
        int64_t tries[2] = {1 + d, 1 - d};
        for (int t = 0; t < (d ? 2 : 1); t++) {
            int64_t v = tries[t];
            if (v < lo || v > hi)
                continue;
            Z3_ast eq =
                keep(s, Z3_mk_eq(z, x, keep(s, Z3_mk_int64(z, v, sort))));
            Z3_ast both[2] = {f, eq};
            if (eq != NULL && feasible(s, keep(s, Z3_mk_and(z, 2, both))))
                return v;
        }
    }
    return lo;
}

/* Is `lit` implied by the other literals still in the label? */
static bool implied(solver *s, Z3_ast *lits, const bool *in, unsigned n,
                    unsigned lit)
{
    Z3_context z = s->z;
    Z3_solver_push(z, s->sv);
    for (unsigned i = 0; i < n; i++)
        if (i != lit && in[i])
            Z3_solver_assert(z, s->sv, lits[i]);
    Z3_ast no = keep(s, Z3_mk_not(z, lits[lit]));
    bool yes = no != NULL && (Z3_solver_assert(z, s->sv, no),
                              Z3_solver_check(z, s->sv) == Z3_L_FALSE);
    Z3_solver_pop(z, s->sv, 1);
    return yes;
}

/* Which literals of a combination its label shows: those the others
 * do not imply (mode == 4 implies mode != 1). */
static uint8_t label_mask(solver *s, Z3_ast *lits, unsigned n)
{
    bool in[MAX_COMBO_CONDS];
    uint8_t mask = 0;
    for (unsigned i = 0; i < n; i++)
        in[i] = true;
    for (unsigned i = 0; i < n; i++)
        if ((in[i] = !implied(s, lits, in, n, i)))
            mask |= (uint8_t)(1u << i);
    return mask;
}

/* The label of one combination: the shown conditions' texts, each as it
 * holds. */
static char *label_text(const bcw_param *p, uint8_t mask, unsigned n,
                        unsigned combo)
{
    bcw_buf b;
    bcw__buf_init(&b, 4096);
    for (unsigned i = 0, k = 0; i < n; i++)
        if (mask & (1u << i))
            bcw__buf_printf(&b, "%s%s", k++ ? " && " : "",
                            combo & (1u << i) ? p->conds[i].text
                                              : p->conds[i].negated);
    return b.data ? b.data : bcw__strdup("any");
}

static int add_part(bcw_param *p, char *label, int64_t rep, int64_t lo,
                    int64_t hi)
{
    if (label == NULL)
        return BCW_ENOMEM;
    bcw_part c = {.label = label, .rel = -1};
    int64_t cand[3] = {rep, lo, hi};
    for (int i = 0; i < 3; i++) {
        bool seen = false;
        for (unsigned j = 0; j < c.nvalues; j++)
            seen = seen || c.values[j] == cand[i];
        if (!seen)
            c.values[c.nvalues++] = cand[i];
    }
    return bcw__param_add_part(p, c);
}

static bool has_op(const bcw_param *p, uint32_t i, enum bcw_cop op, int depth)
{
    const bcw_cnode *n = &p->nodes[i];
    if (n->op == op)
        return true;
    if (depth > 32 || n->op == BCW_C_PARAM || n->op == BCW_C_CONST ||
        n->op == BCW_C_FIELD)
        return false;
    bool unary =
        n->op == BCW_C_ZEXT || n->op == BCW_C_SEXT || n->op == BCW_C_TRUNC;
    return has_op(p, n->a, op, depth + 1) ||
           (!unary && has_op(p, n->b, op, depth + 1));
}

/* The parameter itself, maybe widened or narrowed: `x`, `(long)x`. */
static bool just_param(const bcw_param *p, uint32_t i)
{
    const bcw_cnode *n = &p->nodes[i];
    while (n->op == BCW_C_ZEXT || n->op == BCW_C_SEXT || n->op == BCW_C_TRUNC)
        n = &p->nodes[n->a];
    return n->op == BCW_C_PARAM;
}

/* A bound: condition i is `x pred t` (or `t pred x`) with t made of
 * constants and the unit's fields.  Fills the node of t and the predicate
 * seen from x. */
static bool bound_shape(const bcw_param *p, unsigned i, uint32_t *t,
                        unsigned *pred)
{
    const bcw_cnode *c = &p->nodes[p->conds[i].root];
    /* LLVMIntPredicate with its operands swapped */
    static const unsigned swapped[] = {
        [32] = 32, [33] = 33, [34] = 36, [35] = 37, [36] = 34,
        [37] = 35, [38] = 40, [39] = 41, [40] = 38, [41] = 39};
    if (c->pred < 32 || c->pred > 41)
        return false;
    if (just_param(p, c->a) && !has_op(p, c->b, BCW_C_PARAM, 0)) {
        *t = c->b;
        *pred = c->pred;
        return true;
    }
    if (just_param(p, c->b) && !has_op(p, c->a, BCW_C_PARAM, 0)) {
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

/* C text of node i: fields by name (unit `u`), constants, arithmetic. */
static char *node_text(const bcw_unit *u, const bcw_func *fn,
                       const bcw_param *p, uint32_t i, int depth)
{
    const bcw_cnode *n = &p->nodes[i];
    if (depth > 32)
        return NULL;
    switch ((enum bcw_cop)n->op) {
    case BCW_C_CONST:
        return bcw__sprintf("%lld", (long long)n->value);
    case BCW_C_FIELD:
        return bcw__field_at(u, fn, n->value);
    case BCW_C_ZEXT:
    case BCW_C_SEXT:
    case BCW_C_TRUNC:
        return node_text(u, fn, p, n->a, depth + 1);
    case BCW_C_PARAM:
    case BCW_C_ICMP:
        return NULL;
    default: {
        char *a = node_text(u, fn, p, n->a, depth + 1);
        char *b = node_text(u, fn, p, n->b, depth + 1);
        char *s = a && b ? bcw__sprintf(depth ? "(%s %s %s)" : "%s %s %s", a,
                                        bcw__cop_symbol(n->op), b)
                         : NULL;
        free(a);
        free(b);
        return s;
    }
    }
}

/* A category with bounds on the live object: one LOWER/UPPER/EQUAL node
 * per bounding literal of `combo` (constant and relative alike), read by
 * the worker at call time. */
static int relative_part(const bcw_unit *u, const bcw_func *fn, bcw_param *p,
                         char *label, const uint32_t *t,
                         const unsigned *pred, unsigned n, unsigned combo,
                         int shown)
{
    if (label == NULL)
        return BCW_ENOMEM;
    uint32_t first = p->nnodes, count = 0;
    /* the shown (relative) bound first: the walk passes its boundary */
    for (unsigned j = 0; j < n; j++) {
        unsigned i = j == 0                 ? (unsigned)shown
                     : j <= (unsigned)shown ? j - 1
                                            : j;
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
    char *text = node_text(u, fn, p, t[shown], 0);
    part.rel_text = text == NULL ? NULL
                    : d == 0
                        ? bcw__strdup(text)
                        : bcw__sprintf("%s %c 1", text, d > 0 ? '+' : '-');
    free(text);
    if (part.rel_text == NULL) {
        free(label);
        return BCW_ENOMEM;
    }
    return bcw__param_add_part(p, part);
}

/* A category of conditions that mix x with the object's fields in
 * shapes other than bounds: one HOLDS/FAILS node per condition of
 * `combo`, the worker searching x on the live object at call time. */
static int solved_part(bcw_param *p, char *label, unsigned n, unsigned combo)
{
    bcw_part part = {.label = label, .rel = (int32_t)p->nnodes, .nrel = n,
                     .rel_text = bcw__strdup("solved")};
    for (unsigned i = 0; i < n && label != NULL && part.rel_text != NULL;
         i++) {
        uint8_t op = (combo >> i) & 1u ? BCW_C_HOLDS : BCW_C_FAILS;
        if (bcw__param_add_node(p, (bcw_cnode){op, 1, 0, 0, p->conds[i].root,
                                               0}) < 0)
            break;
    }
    if (label == NULL || part.rel_text == NULL ||
        p->nnodes != (uint32_t)part.rel + n) {
        free(label);
        free(part.rel_text);
        return BCW_ENOMEM;
    }
    return bcw__param_add_part(p, part);
}

static uint64_t shape_key(const bcw_param *p, unsigned n, bool sgn,
                          bool constant)
{
    uint64_t h = bcw__hash(p->nodes, p->nnodes * sizeof *p->nodes,
                           n * 4u + sgn * 2u + constant);
    for (unsigned i = 0; i < n; i++)
        h = bcw__hash(&p->conds[i].root, sizeof p->conds[i].root, h);
    return h;
}

typedef struct shape_probe {
    const solver *s;
    const bcw_param *p;
    unsigned n;
    uint64_t key;
} shape_probe;

static int same_shape(uint32_t i, const void *payload)
{
    const shape_probe *q = payload;
    const shape *e = &q->s->shapes[i];
    if (e->key != q->key || e->n != q->n || e->nnodes != q->p->nnodes ||
        memcmp(e->nodes, q->p->nodes, e->nnodes * sizeof *e->nodes) != 0)
        return 0;
    for (unsigned k = 0; k < q->n; k++)
        if (e->roots[k] != q->p->conds[k].root)
            return 0;
    return 1;
}

/* The verdicts of p's 2^n combinations: from the cache when a parameter
 * of the same shape was decided, else from Z3 (feasibility, the label's
 * implied literals and, for `constant` categories, min, max and the
 * representative).  *out points into the cache. */
static int decide(solver *s, const bcw_param *p, unsigned n, Z3_ast x,
                  Z3_ast *conds, bool sgn, bool constant, verdict **out)
{
    Z3_context z = s->z;
    shape_probe q = {s, p, n, shape_key(p, n, sgn, constant)};
    uint32_t hit = bcw__index_get(&s->shape_ix, q.key, same_shape, &q);
    if (hit != UINT32_MAX) {
        s->hits++;
        *out = s->shapes[hit].v;
        return 0;
    }
    static verdict scratch[1u << MAX_COMBO_CONDS];
    verdict *v = scratch;
    bool cached = s->nshapes < MAX_SHAPES;
    if (cached) {
        if (bcw__grow(&s->shapes, &s->capshapes, s->nshapes + 1,
                      sizeof *s->shapes) < 0)
            return BCW_ENOMEM;
        shape *e = &s->shapes[s->nshapes];
        memset(e, 0, sizeof *e);
        e->nodes = bcw__malloc(p->nnodes * sizeof *p->nodes + 1);
        if (e->nodes == NULL)
            return BCW_ENOMEM;
        memcpy(e->nodes, p->nodes, p->nnodes * sizeof *p->nodes);
        e->key = q.key;
        e->nnodes = p->nnodes;
        e->n = n;
        for (unsigned k = 0; k < n; k++)
            e->roots[k] = p->conds[k].root;
        v = e->v;
    }
    for (unsigned combo = 0; combo < (1u << n); combo++) {
        verdict *d = &v[combo];
        memset(d, 0, sizeof *d);
        Z3_ast lits[MAX_COMBO_CONDS];
        for (unsigned i = 0; i < n; i++)
            lits[i] =
                combo & (1u << i) ? conds[i] : keep(s, Z3_mk_not(z, conds[i]));
        Z3_ast f = keep(s, n ? Z3_mk_and(z, n, lits) : Z3_mk_true(z));
        /* a plain check is ~50x cheaper than optimising: most
         * combinations of several conditions are infeasible */
        if (f == NULL || !feasible(s, f))
            continue;
        d->feasible = true;
        d->shown = label_mask(s, lits, n);
        if (constant && extreme(s, f, x, sgn, GOAL_MIN, &d->lo) == 0 &&
            extreme(s, f, x, sgn, GOAL_MAX, &d->hi) == 0) {
            d->bounded = true;
            d->rep = representative(s, f, x, d->lo, d->hi);
        }
    }
    if (s->failed)
        return 0; /* not cached: the caller reports it */
    if (cached) {
        if (bcw__index_put(&s->shape_ix, q.key, s->nshapes) < 0)
            return BCW_ENOMEM;
        s->nshapes++;
    }
    *out = v;
    return 0;
}

static int partition_param(solver *s, const bcw_unit *u, const bcw_func *fn,
                           bcw_param *p)
{
    Z3_context z = s->z;
    unsigned n = p->nconds;
    if (n > MAX_COMBO_CONDS) {
        int err = bcw__param_set_note(
            p, bcw__sprintf("%u conditions: only the first %d are combined", n,
                            MAX_COMBO_CONDS));
        if (err < 0)
            return err;
        n = MAX_COMBO_CONDS;
    }
    unsigned bits = bcw_abi_bits(p->abi);
    Z3_ast x = keep(
        s, Z3_mk_const(z, Z3_mk_string_symbol(z, p->name), bv_sort(s, bits)));
    Z3_ast conds[MAX_COMBO_CONDS];
    uint32_t rel_t[MAX_COMBO_CONDS];
    unsigned rel_pred[MAX_COMBO_CONDS];
    bool rel[MAX_COMBO_CONDS];
    /* the object's fields are read from the unit the method gets */
    bool object = fn->self >= 0 && fn->params[fn->self].kind == BCW_PK_UNIT;
    bool any_fields = false, all_bounds = true;
    for (unsigned i = 0; i < n; i++) {
        bool bound = bound_shape(p, i, &rel_t[i], &rel_pred[i]);
        bool fields = has_op(p, p->conds[i].root, BCW_C_FIELD, 0);
        rel[i] = bound && fields;
        any_fields = any_fields || fields;
        all_bounds = all_bounds && bound;
        if ((conds[i] = term(s, p, p->conds[i].root, x)) == NULL ||
            (fields && !object)) {
            return bcw__param_set_note(
                p, bcw__strdup("its conditions mix it with the unit's fields "
                               "in a way not partitioned yet"));
        }
    }
    unsigned nrel = 0;
    for (unsigned i = 0; i < n; i++)
        nrel += rel[i];
    if (nrel > MAX_RELATIVE_CONDS) {
        return bcw__param_set_note(
            p, bcw__sprintf("%u conditions compare it with the unit's fields "
                            "(a search over them, like set membership): not "
                            "partitioned",
                            nrel));
    }
    /* fields in other shapes than bounds: the worker solves each
     * category on the live object */
    bool solve = any_fields && !all_bounds;
    bool sgn = bcw_abi_signed(p->abi);
    verdict *v = NULL;
    int err = decide(s, p, n, x, conds, sgn, !solve && nrel == 0, &v);
    for (unsigned combo = 0; combo < (1u << n) && err == 0; combo++) {
        const verdict *d = &v[combo];
        if (!d->feasible)
            continue;
        char *label = label_text(p, d->shown, n, combo);
        /* a category bounded by the object's fields: its bounds are
         * read from the live object at call time; shown: the first
         * relative bound that holds, else the first */
        int r = -1;
        for (unsigned i = 0; i < n && r < 0; i++)
            if (rel[i] && ((combo >> i) & 1u))
                r = (int)i;
        for (unsigned i = 0; i < n && r < 0; i++)
            if (rel[i])
                r = (int)i;
        if (solve)
            err = solved_part(p, label, n, combo);
        else if (r >= 0)
            err = relative_part(u, fn, p, label, rel_t, rel_pred, n,
                                combo, r);
        else if (d->bounded)
            err = add_part(p, label, d->rep, d->lo, d->hi);
        else
            free(label); /* infeasible after all */
    }
    if (err < 0)
        return err;
    return s->failed ? bcw__error(BCW_ERROR, "Z3 failed on %s", p->name) : 0;
}

int bcw_model_partition(bcw_model *m)
{
    solver s = {0};
    Z3_config cfg = Z3_mk_config();
    s.z = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(s.z, on_z3_error);
    s.sv = Z3_mk_simple_solver(s.z);
    Z3_solver_inc_ref(s.z, s.sv);
    Z3_params sp = Z3_mk_params(s.z);
    Z3_params_inc_ref(s.z, sp);
    Z3_params_set_uint(s.z, sp, Z3_mk_string_symbol(s.z, "timeout"),
                       TIMEOUT_MS);
    Z3_solver_set_params(s.z, s.sv, sp);
    Z3_params_dec_ref(s.z, sp);
    int err = 0;
    for (unsigned k = 0; k < m->nunits && err == 0; k++) {
        bcw_unit *u = &m->units[k];
        for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
            bcw_func *f = &u->funcs[i];
            for (unsigned j = 0; j < f->nparams && err == 0; j++) {
                bcw_param *p = &f->params[j];
                if (p->kind == BCW_PK_STRING || p->kind == BCW_PK_CALLBACK ||
                    (p->kind == BCW_PK_ELEMENT && f->self >= 0) ||
                    (p->kind == BCW_PK_LENGTH && p->nconds == 0))
                    err = p->nparts == 0 ? bcw__partition_kind(m, p) : 0;
                else if (p->nconds > 0 && p->nparts == 0 &&
                         p->parts_note == NULL)
                    err = partition_param(&s, u, f, p);
                release(&s);
            }
        }
    }
    Z3_solver_dec_ref(s.z, s.sv);
    Z3_del_context(s.z);
    free(s.kept);
    for (unsigned i = 0; i < s.nshapes; i++)
        free(s.shapes[i].nodes);
    free(s.shapes);
    bcw__index_free(&s.shape_ix);
    return err;
}
