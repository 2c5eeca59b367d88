/* shapes.c - the verdicts of a parameter's combinations of conditions,
 * decided once per shape (shapes.h): the cache, and the Z3 queries that
 * fill it. */
#define _POSIX_C_SOURCE 200809L
#include "shapes.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "queries.h"

/* The cache stops growing here; later shapes are decided every time. */
#define MAX_SHAPES 4096

typedef struct bcw_shape {
    uint64_t key;
    unsigned nnodes, n;
    bcw_cnode *nodes;
    uint32_t roots[BCW_MAX_COMBO_CONDS];
    bcw_verdict v[1u << BCW_MAX_COMBO_CONDS];
} bcw_shape;

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
    const bcw_shapes *c;
    const bcw_param *p;
    unsigned n;
    uint64_t key;
} shape_probe;

static int same_shape(uint32_t i, const void *payload)
{
    const shape_probe *q = payload;
    const bcw_shape *e = &q->c->v[i];
    if (e->key != q->key || e->n != q->n || e->nnodes != q->p->nnodes ||
        memcmp(e->nodes, q->p->nodes, e->nnodes * sizeof *e->nodes) != 0)
        return 0;
    for (unsigned k = 0; k < q->n; k++)
        if (e->roots[k] != q->p->conds[k].root)
            return 0;
    return 1;
}

/* The verdict on one combination, whose literals are lits[0 .. n). */
static int decide_combo(bcw_verdict *d, bcw_session *s, unsigned n,
                        Z3_ast *lits, Z3_ast x, bool sgn, bool constant)
{
    Z3_context z = s->z;
    memset(d, 0, sizeof *d);
    Z3_ast f = bcw__session_keep(s, n ? Z3_mk_and(z, n, lits) : Z3_mk_true(z));
    if (f == NULL)
        return s->err;
    /* a plain check is ~50x cheaper than optimising: most combinations
     * of several conditions are infeasible */
    Z3_lbool r;
    int err = bcw__query_feasible(&r, s, f);
    if (err < 0 || r == Z3_L_FALSE)
        return err;
    if (r == Z3_L_UNDEF) {
        d->undecided = true;
        return 0;
    }
    d->feasible = true;
    if ((err = bcw__query_shown(&d->shown, s, lits, n)) < 0 || !constant)
        return err;
    Z3_lbool lo, hi = Z3_L_FALSE;
    if ((err = bcw__query_extreme(&d->lo, &lo, s, f, x, sgn, BCW_GOAL_MIN)) <
            0 ||
        (lo == Z3_L_TRUE && (err = bcw__query_extreme(&d->hi, &hi, s, f, x, sgn,
                                                      BCW_GOAL_MAX)) < 0))
        return err;
    if (lo == Z3_L_TRUE && hi == Z3_L_TRUE) {
        d->bounded = true;
        return bcw__query_representative(&d->rep, s, f, x, d->lo, d->hi);
    }
    /* no value: infeasible after all, or unknown */
    d->feasible = false;
    d->undecided = lo == Z3_L_UNDEF || hi == Z3_L_UNDEF;
    return 0;
}

/* Keeps the verdicts v of p's shape; 0 or BCW_ENOMEM. */
static int remember(bcw_shapes *c, const bcw_param *p, unsigned n, uint64_t key,
                    const bcw_verdict *v)
{
    if (c->n >= MAX_SHAPES)
        return 0;
    if (bcw__grow(&c->v, &c->cap, c->n + 1, sizeof *c->v) < 0)
        return BCW_ENOMEM;
    bcw_shape *e = &c->v[c->n];
    memset(e, 0, sizeof *e);
    e->nodes = bcw__malloc(p->nnodes * sizeof *p->nodes + 1);
    if (e->nodes == NULL)
        return BCW_ENOMEM;
    memcpy(e->nodes, p->nodes, p->nnodes * sizeof *p->nodes);
    e->key = key;
    e->nnodes = p->nnodes;
    e->n = n;
    for (unsigned k = 0; k < n; k++)
        e->roots[k] = p->conds[k].root;
    memcpy(e->v, v, (sizeof *v) << n);
    if (bcw__index_put(&c->ix, key, c->n) < 0) {
        free(e->nodes);
        return BCW_ENOMEM;
    }
    c->n++;
    return 0;
}

int bcw__shapes_decide(bcw_verdict *out, bcw_shapes *c, bcw_session *s,
                       const bcw_param *p, unsigned n, Z3_ast x,
                       const Z3_ast *conds, bool is_signed, bool constant)
{
    Z3_context z = s->z;
    BCW_ASSERT(n <= BCW_MAX_COMBO_CONDS && n <= p->nconds);
    shape_probe q = {c, p, n, shape_key(p, n, is_signed, constant)};
    uint32_t hit = bcw__index_get(&c->ix, q.key, same_shape, &q);
    if (hit != UINT32_MAX) {
        c->hits++;
        memcpy(out, c->v[hit].v, (sizeof *out) << n);
        return 0;
    }
    for (unsigned combo = 0; combo < (1u << n); combo++) {
        Z3_ast lits[BCW_MAX_COMBO_CONDS];
        for (unsigned i = 0; i < n; i++) {
            lits[i] = combo & (1u << i)
                          ? conds[i]
                          : bcw__session_keep(s, Z3_mk_not(z, conds[i]));
            if (lits[i] == NULL)
                return s->err;
        }
        int err = decide_combo(&out[combo], s, n, lits, x, is_signed, constant);
        if (err < 0)
            return err;
    }
    return remember(c, p, n, q.key, out);
}

void bcw__shapes_free(bcw_shapes *c)
{
    for (unsigned i = 0; i < c->n; i++)
        free(c->v[i].nodes);
    free(c->v);
    bcw__index_free(&c->ix);
    memset(c, 0, sizeof *c);
}
