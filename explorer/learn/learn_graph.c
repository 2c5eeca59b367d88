/* learn_graph.c - the graph of the tests' named calls (learn.h): a node
 * per call, control edges along each instance of the unit, data edges
 * from the call that gave an object to those taking it. */
#include "learn_graph.h"

#include <stdlib.h>
#include <string.h>

/* The largest k of the Obj#k a call takes or gives. */
static int64_t max_obj(const bcw_lcall *calls, unsigned n)
{
    int64_t max = 0;
    for (unsigned i = 0; i < n; i++) {
        const bcw_lcall *c = &calls[i];
        for (unsigned a = 0; a < c->nargs; a++)
            if (c->args[a].kind == BCW_LV_OBJ && c->args[a].value > max)
                max = c->args[a].value;
        for (unsigned o = 0; o < c->nouts; o++)
            if (c->outs[o].kind == BCW_LV_OBJ && c->outs[o].value > max)
                max = c->outs[o].value;
        if (c->result.kind == BCW_LV_OBJ && c->result.value > max)
            max = c->result.value;
    }
    return max;
}

static int edge_cmp(const void *a, const void *b)
{
    const bcw_ledge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->param < y->param ? -1 : x->param > y->param;
}

void bcw__lgraph_settle(bcw_lgraph *g)
{
    if (g->nedges == 0)
        return;
    qsort(g->edges, g->nedges, sizeof *g->edges, edge_cmp);
    unsigned k = 1;
    for (unsigned i = 1; i < g->nedges; i++)
        if (edge_cmp(&g->edges[i], &g->edges[k - 1]) != 0)
            g->edges[k++] = g->edges[i];
    g->nedges = k;
}

static int add_edge(bcw_lgraph *g, size_t *cap, unsigned from, unsigned to,
                    uint8_t kind, uint8_t param)
{
    if (bcw__grow(&g->edges, cap, g->nedges + 1, sizeof *g->edges) < 0)
        return BCW_ENOMEM;
    g->edges[g->nedges++] = (bcw_ledge){from, to, kind, param};
    return 0;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds s to sorted list l unless there, keeping at most `max`. */
static int set_add(bcw_strlist *l, const char *s, unsigned max)
{
    for (unsigned i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return 0;
    if (l->n >= max)
        return 0;
    int err = bcw__strlist_add(l, bcw__strdup(s));
    if (err == 0)
        qsort(l->v, l->n, sizeof *l->v, str_cmp);
    return err;
}

#define MAX_VALUES 16 /* distinct arguments a node keeps per parameter */
#define MAX_TESTS 64  /* tests a node names */

static int node_of(bcw_lnode *nd, const bcw_lcall *c, const char *test)
{
    memset(nd, 0, sizeof *nd);
    nd->func = c->func;
    nd->count = 1;
    nd->nargs = c->nargs;
    if ((nd->fn = bcw__strdup(c->fn)) == NULL ||
        (c->outcome && (nd->outcome = bcw__strdup(c->outcome)) == NULL))
        return BCW_ENOMEM;
    int err = set_add(&nd->tests, test, MAX_TESTS);
    for (unsigned i = 0; i < c->nargs && err == 0; i++)
        err = set_add(&nd->values[i], c->args[i].text, MAX_VALUES);
    return err;
}

void bcw__lnode_free(bcw_lnode *nd)
{
    free(nd->fn);
    free(nd->outcome);
    for (unsigned i = 0; i < TR_MAX_ARGS; i++)
        bcw__strlist_free(&nd->values[i]);
    bcw__strlist_free(&nd->tests);
}

int bcw__lnode_fold(bcw_lnode *dst, const bcw_lnode *src)
{
    dst->count += src->count;
    int err = 0;
    for (unsigned i = 0; i < src->tests.n && err == 0; i++)
        err = set_add(&dst->tests, src->tests.v[i], MAX_TESTS);
    for (unsigned a = 0; a < src->nargs && a < dst->nargs && err == 0; a++)
        for (unsigned i = 0; i < src->values[a].n && err == 0; i++)
            err = set_add(&dst->values[a], src->values[a].v[i], MAX_VALUES);
    return err;
}

int bcw__learn_graph(bcw_lgraph *out, const bcw_ltest *tests, unsigned ntests)
{
    memset(out, 0, sizeof *out);
    unsigned n = 0;
    for (unsigned t = 0; t < ntests; t++)
        n += tests[t].ncalls;
    if (n == 0)
        return 0;
    if ((out->nodes = bcw__calloc(n, sizeof *out->nodes)) == NULL)
        return BCW_ENOMEM;
    size_t cap = 0;
    int err = 0;
    unsigned base = 0;
    for (unsigned t = 0; t < ntests && err == 0; t++) {
        const bcw_ltest *x = &tests[t];
        /* the last call on each instance #k (k < 64 followed) */
        int last[64], any = -1; /* any: the last call of the unit */
        /* giver[k]: 1 + the call that last gave Obj#k, 0: none */
        unsigned *giver = bcw__calloc((size_t)max_obj(x->calls, x->ncalls) + 1,
                                      sizeof *giver);
        if (giver == NULL) {
            err = BCW_ENOMEM;
            break;
        }
        for (unsigned k = 0; k < 64; k++)
            last[k] = -1;
        for (unsigned i = 0; i < x->ncalls && err == 0; i++) {
            const bcw_lcall *c = &x->calls[i];
            unsigned id = base + i;
            if ((err = node_of(&out->nodes[id], c, x->name)) < 0)
                break;
            out->nnodes++;
            /* control: from the last call on each instance it touches */
            const bcw_lval *touch[TR_MAX_ARGS * 2 + 1];
            unsigned nt = 0;
            for (unsigned a = 0; a < c->nargs; a++)
                touch[nt++] = &c->args[a];
            for (unsigned o = 0; o < c->nouts; o++)
                touch[nt++] = &c->outs[o];
            touch[nt++] = &c->result;
            bool on = false;
            for (unsigned j = 0; j < nt && err == 0; j++) {
                const bcw_lval *v = touch[j];
                if (c->func < 0 || v->kind != BCW_LV_UNIT || v->value < 0 ||
                    v->value >= 64)
                    continue;
                int *l = &last[v->value];
                if (*l >= 0 && (unsigned)*l != id)
                    err = add_edge(out, &cap, (unsigned)*l, id, BCW_LE_CONTROL,
                                   0);
                *l = (int)id;
                on = true;
            }
            /* a call of the unit on no instance of it (NULL) follows the
             * test's last call of the unit */
            if (c->func >= 0 && !on && any >= 0 && err == 0)
                err = add_edge(out, &cap, (unsigned)any, id, BCW_LE_CONTROL, 0);
            if (c->func >= 0)
                any = (int)id;
            /* data: from the call that gave each object it takes */
            for (unsigned a = 0; a < c->nargs && err == 0; a++) {
                const bcw_lval *v = &c->args[a];
                if (v->kind == BCW_LV_OBJ && giver[v->value] > 0)
                    err = add_edge(out, &cap, giver[v->value] - 1, id,
                                   BCW_LE_DATA, (uint8_t)a);
            }
            const bcw_lval *g = &c->result;
            for (unsigned o = 0; o <= c->nouts; o++, g = &c->outs[o - 1])
                if (g->kind == BCW_LV_OBJ)
                    giver[g->value] = id + 1;
        }
        base += x->ncalls;
        free(giver);
    }
    bcw__lgraph_settle(out);
    return err;
}

void bcw__lgraph_free(bcw_lgraph *g)
{
    for (unsigned i = 0; i < g->nnodes; i++)
        bcw__lnode_free(&g->nodes[i]);
    free(g->nodes);
    free(g->edges);
    memset(g, 0, sizeof *g);
}
