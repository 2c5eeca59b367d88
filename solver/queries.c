/* queries.c - Z3 checks on one combination of conditions (queries.h):
 * feasibility, extremes by bisection, a representative, implied
 * literals.  Every check runs on the session's one solver, in a push/pop
 * scope of its own. */
#define _POSIX_C_SOURCE 200809L
#include "queries.h"

/* x's value in the model of the solver's last (satisfiable) check,
 * sign-extended from its `bits` when signed. */
static int model_value(int64_t *out, bcw_session *s, Z3_ast x, unsigned bits,
                       bool is_signed)
{
    Z3_context z = s->z;
    Z3_model m = Z3_solver_get_model(z, s->sv);
    int err = bcw__session_check(s);
    if (err < 0)
        return err;
    if (m == NULL)
        return s->err = bcw__error(BCW_ERROR, "Z3 gave no model of a "
                                              "satisfiable check");
    Z3_model_inc_ref(z, m);
    Z3_ast val = NULL;
    uint64_t raw = 0;
    bool ok = Z3_model_eval(z, m, x, true, &val) && val != NULL &&
              Z3_get_numeral_uint64(z, val, &raw);
    Z3_model_dec_ref(z, m);
    if ((err = bcw__session_check(s)) < 0)
        return err;
    if (!ok)
        return s->err = bcw__error(BCW_ERROR, "Z3's model gives %s no value",
                                   Z3_ast_to_string(z, x));
    if (is_signed && bits < 64 && (raw >> (bits - 1)) & 1)
        raw |= ~0ull << bits;
    if (!is_signed && bits < 64)
        raw &= (1ull << bits) - 1;
    *out = (int64_t)raw;
    return 0;
}

/* Checks the conjunction of fs[0 .. n) in a scope of its own.  With x
 * and a satisfiable answer, *value gets x's value (of `bits` bits) in
 * Z3's model. */
static int check(Z3_lbool *out, bcw_session *s, const Z3_ast *fs, unsigned n,
                 Z3_ast x, unsigned bits, bool is_signed, int64_t *value)
{
    Z3_context z = s->z;
    *out = Z3_L_UNDEF;
    Z3_solver_push(z, s->sv);
    for (unsigned i = 0; i < n; i++)
        Z3_solver_assert(z, s->sv, fs[i]);
    bcw__session_checking(s, 1);
    Z3_lbool r = Z3_solver_check(z, s->sv);
    bcw__session_checking(s, 0);
    /* an error makes the check's answer undefined too: look first */
    int err = bcw__session_check(s);
    if (err == 0 && r == Z3_L_TRUE && x != NULL)
        err = model_value(value, s, x, bits, is_signed);
    Z3_solver_pop(z, s->sv, 1);
    if (err == 0 && (err = bcw__session_check(s)) == 0)
        *out = r;
    return err;
}

int bcw__query_feasible(Z3_lbool *out, bcw_session *s, Z3_ast f)
{
    return check(out, s, &f, 1, NULL, 0, false, NULL);
}

/* Is f && x <= v (x >= v for BCW_GOAL_MAX) satisfiable?  If so, *w gets
 * x's value in Z3's model: a witness at least as good as v. */
static int bounded(Z3_lbool *out, int64_t *w, bcw_session *s, Z3_ast f,
                   Z3_ast x, unsigned bits, bool is_signed, enum bcw_goal goal,
                   int64_t v)
{
    Z3_context z = s->z;
    *out = Z3_L_UNDEF;
    Z3_ast c = bcw__session_int(s, v, bits);
    if (c == NULL)
        return s->err;
    Z3_ast cmp = bcw__session_keep(
        s, goal == BCW_GOAL_MIN
               ? (is_signed ? Z3_mk_bvsle(z, x, c) : Z3_mk_bvule(z, x, c))
               : (is_signed ? Z3_mk_bvsge(z, x, c) : Z3_mk_bvuge(z, x, c)));
    if (cmp == NULL)
        return s->err;
    Z3_ast both[2] = {f, cmp};
    return check(out, s, both, 2, x, bits, is_signed, w);
}

/* The signed value of search key k: the order's key with its sign bit
 * flipped back, sign-extended from `bits`. */
static int64_t key_value(uint64_t k, uint64_t flip, unsigned bits,
                         bool is_signed)
{
    int64_t v = (int64_t)(k ^ flip);
    if (is_signed && bits < 64 && ((uint64_t)v >> (bits - 1)) & 1)
        v |= (int64_t)(~0ull << bits);
    return v;
}

/* *bits gets the width of bit-vector term x, after the session's
 * errors are checked; a term of no width or wider than 64 bits is an
 * error. */
static int term_bits(unsigned *bits, bcw_session *s, Z3_ast x)
{
    Z3_sort sort = Z3_get_sort(s->z, x);
    *bits = sort != NULL ? Z3_get_bv_sort_size(s->z, sort) : 0;
    int err = bcw__session_check(s);
    if (err == 0 && (*bits == 0 || *bits > 64))
        err = s->err =
            bcw__error(BCW_ERROR, "no values of a %u-bit term", *bits);
    return err;
}

/* Each satisfiable bound gives a model whose value tightens the search
 * at once.  Z3's optimizer found the same values at ~3x the cost on real
 * code (a dozen milliseconds per objective on SQLite). */
int bcw__query_extreme(int64_t *out, Z3_lbool *found, bcw_session *s, Z3_ast f,
                       Z3_ast x, bool is_signed, enum bcw_goal goal)
{
    *found = Z3_L_UNDEF;
    unsigned bits;
    int err = term_bits(&bits, s, x);
    if (err < 0)
        return err;
    /* the search runs over the order's keys: values with the sign bit
     * flipped when signed, so plain unsigned order serves both */
    uint64_t top = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t flip = is_signed ? 1ull << (bits - 1) : 0;
    int64_t w = 0;
    /* the first witness: the end of the range, if it is in, settles it */
    int64_t end = goal == BCW_GOAL_MIN ? (int64_t)(flip ? ~(flip - 1) : 0)
                                       : (int64_t)(flip ? flip - 1 : top);
    Z3_lbool r;
    if ((err = bounded(&r, &w, s, f, x, bits, is_signed, goal, end)) < 0)
        return err;
    if (r == Z3_L_TRUE) {
        *out = w;
        *found = Z3_L_TRUE;
        return 0;
    }
    /* not at the end (or unknown there): any model is a first witness */
    if ((err = check(&r, s, &f, 1, x, bits, is_signed, &w)) < 0)
        return err;
    if (r != Z3_L_TRUE) {
        *found = r; /* infeasible, or unknown: no value at all */
        return 0;
    }
    /* keys: edge is known out (or the range's end), best the best
     * witness */
    uint64_t best = ((uint64_t)w ^ flip) & top;
    uint64_t edge = goal == BCW_GOAL_MIN ? 0 : top;
    for (int step = 0; step < 128 && best != edge; step++) {
        /* halfway, rounded away from best; no overflow at 64 bits */
        uint64_t mid = goal == BCW_GOAL_MIN
                           ? edge + (best - edge) / 2
                           : best + (edge - best) / 2 + ((edge - best) & 1);
        if (mid == best)
            break;
        int64_t v = key_value(mid, flip, bits, is_signed);
        if ((err = bounded(&r, &w, s, f, x, bits, is_signed, goal, v)) < 0)
            return err;
        if (r == Z3_L_TRUE) {
            best = ((uint64_t)w ^ flip) & top;
        } else if (r == Z3_L_FALSE) {
            /* nothing at or beyond mid: the answer lies past it */
            edge = goal == BCW_GOAL_MIN ? mid + 1 : mid - 1;
        } else {
            /* unknown: the best witness so far is in f, if maybe not
             * its extreme */
            break;
        }
        if (goal == BCW_GOAL_MIN ? edge > best : edge < best)
            break;
    }
    *out = key_value(best, flip, bits, is_signed);
    *found = Z3_L_TRUE;
    return 0;
}

int bcw__query_representative(int64_t *out, bcw_session *s, Z3_ast f, Z3_ast x,
                              int64_t lo, int64_t hi)
{
    Z3_context z = s->z;
    unsigned bits;
    int err = term_bits(&bits, s, x);
    if (err < 0)
        return err;
    for (int64_t d = 0; d <= 8; d++) {
        int64_t tries[2] = {1 + d, 1 - d};
        for (int t = 0; t < (d ? 2 : 1); t++) {
            int64_t v = tries[t];
            if (v < lo || v > hi)
                continue;
            Z3_ast c = bcw__session_int(s, v, bits);
            Z3_ast eq = c ? bcw__session_keep(s, Z3_mk_eq(z, x, c)) : NULL;
            Z3_ast both[2] = {f, eq};
            Z3_ast g = eq ? bcw__session_keep(s, Z3_mk_and(z, 2, both)) : NULL;
            Z3_lbool r;
            if (g == NULL)
                return s->err;
            if ((err = bcw__query_feasible(&r, s, g)) < 0)
                return err;
            /* unknown: not shown to hold there, so not the one */
            if (r == Z3_L_TRUE) {
                *out = v;
                return 0;
            }
        }
    }
    *out = lo;
    return 0;
}

/* Is literal `lit` implied by the other literals still in the label? */
static int implied(bool *out, bcw_session *s, const Z3_ast *lits,
                   const bool *in, unsigned n, unsigned lit)
{
    Z3_ast fs[8];
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (i != lit && in[i])
            fs[k++] = lits[i];
    Z3_ast no = bcw__session_keep(s, Z3_mk_not(s->z, lits[lit]));
    if (no == NULL)
        return s->err;
    fs[k++] = no;
    Z3_lbool r;
    int err = check(&r, s, fs, k, NULL, 0, false, NULL);
    /* unknown: not shown implied, so the label keeps the literal */
    *out = err == 0 && r == Z3_L_FALSE;
    return err;
}

int bcw__query_shown(uint8_t *out, bcw_session *s, const Z3_ast *lits,
                     unsigned n)
{
    bool in[8];
    uint8_t mask = 0;
    BCW_ASSERT(n <= 8);
    for (unsigned i = 0; i < n; i++)
        in[i] = true;
    for (unsigned i = 0; i < n; i++) {
        bool yes = false;
        int err = implied(&yes, s, lits, in, n, i);
        if (err < 0)
            return err;
        if ((in[i] = !yes))
            mask |= (uint8_t)(1u << i);
    }
    *out = mask;
    return 0;
}
