/* learn.c - a unit's model from its library's traced tests (learn.h):
 * values named, the graph of control and data dependencies, and James's
 * k-tails style merging of it. */
#define _POSIX_C_SOURCE 200809L
#include "learn.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "text.h"

/* ---- naming the values ---- */

/* The names a test gives its pointers, as it goes. */
typedef struct namer {
    uint64_t *addr;
    bcw_lval *val; /* kind UNIT or OBJ and k */
    unsigned n;
    size_t cap;
    unsigned units, objs; /* the next #k and Obj#k */
} namer;

static void namer_free(namer *nm)
{
    free(nm->addr);
    free(nm->val);
    memset(nm, 0, sizeof *nm);
}

static int lval_set(bcw_lval *v, uint8_t kind, int64_t value, char *text)
{
    v->kind = kind;
    v->value = value;
    v->text = text;
    return text != NULL ? 0 : BCW_ENOMEM;
}

static void lval_free(bcw_lval *v)
{
    free(v->text);
    free(v->str);
    memset(v, 0, sizeof *v);
}

static int namer_find(const namer *nm, uint64_t addr)
{
    for (unsigned i = nm->n; i-- > 0;)
        if (nm->addr[i] == addr)
            return (int)i;
    return -1;
}

/* Gives `addr` the name `kind` #next (a new instance of the unit, or a
 * new object), replacing what it named before. */
static int namer_new(namer *nm, uint64_t addr, uint8_t kind, bcw_lval *out)
{
    int i = namer_find(nm, addr);
    if (i < 0) {
        if (bcw__grow(&nm->addr, &nm->cap, nm->n + 1, sizeof *nm->addr) < 0)
            return BCW_ENOMEM;
        size_t cap = nm->cap;
        void *p = bcw__realloc(nm->val, cap * sizeof *nm->val);
        if (p == NULL)
            return BCW_ENOMEM;
        nm->val = p;
        i = (int)nm->n++;
        nm->addr[i] = addr;
    }
    int64_t k = kind == BCW_LV_UNIT ? nm->units++ : ++nm->objs;
    nm->val[i].kind = kind;
    nm->val[i].value = k;
    return lval_set(out, kind, k,
                    kind == BCW_LV_UNIT ? bcw__sprintf("#%" PRId64, k)
                                        : bcw__sprintf("Obj#%" PRId64, k));
}

static void namer_forget(namer *nm, uint64_t addr)
{
    int i = namer_find(nm, addr);
    if (i >= 0)
        nm->addr[i] = 0; /* never looked up: 0 is NULL */
}

/* A pointer's name: NULL, the function the code names, the name it had,
 * else a new Obj#k (or #k when it is where the unit lives). */
static int name_pointer(namer *nm, uint64_t addr, const char *named, bool unit,
                        bcw_lval *out)
{
    if (addr == 0)
        return lval_set(out, BCW_LV_NULL, 0, bcw__strdup("NULL"));
    int i = namer_find(nm, addr);
    if (i >= 0 && (!unit || nm->val[i].kind == BCW_LV_UNIT))
        return lval_set(out, nm->val[i].kind, nm->val[i].value,
                        nm->val[i].kind == BCW_LV_UNIT
                            ? bcw__sprintf("#%" PRId64, nm->val[i].value)
                            : bcw__sprintf("Obj#%" PRId64, nm->val[i].value));
    if (named != NULL && named[0] != '&')
        return lval_set(out, BCW_LV_FUNC, 0, bcw__strdup(named));
    return namer_new(nm, addr, unit ? BCW_LV_UNIT : BCW_LV_OBJ, out);
}

int bcw__lval_scalar(uint64_t w, uint8_t abi, bcw_lval *out)
{
    char buf[64];
    int64_t v;
    switch (abi) {
    case BCW_ABI_BOOL:
        return lval_set(out, BCW_LV_INT, (int64_t)(w & 1),
                        bcw__strdup(w & 1 ? "true" : "false"));
    case BCW_ABI_FLOAT: {
        float f;
        uint32_t bits = (uint32_t)w;
        memcpy(&f, &bits, sizeof f);
        snprintf(buf, sizeof buf, "%g", (double)f);
        return lval_set(out, BCW_LV_FLOAT, 0, bcw__strdup(buf));
    }
    case BCW_ABI_DOUBLE: {
        double d;
        memcpy(&d, &w, sizeof d);
        snprintf(buf, sizeof buf, "%g", d);
        return lval_set(out, BCW_LV_FLOAT, 0, bcw__strdup(buf));
    }
    case BCW_ABI_VOID:
    case BCW_ABI_STRUCT:
        return lval_set(out, BCW_LV_NONE, 0, bcw__strdup("{...}"));
    default:
        break;
    }
    unsigned bits = bcw_abi_bits(abi);
    if (bcw_abi_signed(abi)) {
        v = bits >= 64 ? (int64_t)w
                       : (int64_t)(w << (64 - bits)) >> (64 - bits);
        snprintf(buf, sizeof buf, "%" PRId64, v);
    } else {
        v = (int64_t)(bits >= 64 ? w : w & ((UINT64_C(1) << bits) - 1));
        snprintf(buf, sizeof buf, "%" PRIu64, (uint64_t)v);
    }
    return lval_set(out, BCW_LV_INT, v, bcw__strdup(buf));
}

/* The kind of the model's parameter i of a call at site s, or -1. */
static int param_kind(const bcw_unit *u, const bcw_trace_site *s, unsigned i)
{
    if (s->func < 0 || u == NULL)
        return -1;
    const bcw_func *f = &u->funcs[s->func];
    return f->nparams == s->nargs && i < f->nparams ? (int)f->params[i].kind
                                                    : -1;
}

static int name_arg(namer *nm, const bcw_trace_site *s, int kind,
                    const bcw_trace_call *c, unsigned i, bcw_lval *out)
{
    if (c->strs[i] != NULL) {
        /* a string recorded in part (value 1) is shown so: no category or
         * step takes it for the whole */
        bool cut = (c->cut >> i & 1) != 0;
        char *q = bcw__c_quote(c->strs[i], '"');
        out->str = bcw__strdup(c->strs[i]);
        if (q == NULL || out->str == NULL) {
            free(q);
            return BCW_ENOMEM;
        }
        char *text = cut ? bcw__sprintf("%s...", q) : q;
        if (cut)
            free(q);
        return lval_set(out, BCW_LV_STRING, cut, text);
    }
    if (kind == BCW_PK_OUT || kind == BCW_PK_UNIT_OUT)
        return lval_set(out, BCW_LV_NONE, 0, bcw__strdup("&out"));
    if (s->abi[i] == BCW_ABI_PTR)
        return name_pointer(nm, c->words[i], s->named[i], kind == BCW_PK_UNIT,
                            out);
    return bcw__lval_scalar(c->words[i], s->abi[i], out);
}

/* How a test ended, in words; `brief`: as its halted call's outcome, a
 * word or two ("assert", "hang"). */
static char *end_text(const bcw_trace_test *x, bool brief)
{
    switch (x->end) {
    case BCW_TRACE_PASSED:
        return bcw__strdup("passed");
    case BCW_TRACE_LEFT:
        return bcw__strdup("left by a jump (its framework's failed check)");
    case BCW_TRACE_KILLED:
        return brief ? bcw__strdup("killed")
                     : bcw__sprintf("killed (%s: out of memory or time)",
                                    bcw__signal_name(x->code));
    case BCW_TRACE_HALTED:
        break;
    }
    switch (x->halt) {
    case TR_HALT_SIGNAL:
        return bcw__sprintf("crash (%s)", bcw__signal_name(x->code));
    case TR_HALT_ABORT:
        return bcw__strdup("abort");
    case TR_HALT_ASSERT:
        return brief ? bcw__strdup("assert")
                     : bcw__sprintf("assertion failed (%s)",
                                    x->message ? x->message : "?");
    case TR_HALT_EXIT:
        return bcw__sprintf("exit %d", x->code);
    case TR_HALT_HANG:
        return bcw__strdup(brief ? "hang" : "hang (its time limit)");
    case TR_HALT_NEST:
        return bcw__strdup(brief ? "halt" : "calls nested too deep to trace");
    default:
        return bcw__strdup(brief ? "halt" : "halted (how was not recorded)");
    }
}

static void lcall_free(bcw_lcall *c)
{
    free(c->fn);
    free(c->outcome);
    free(c->where);
    for (unsigned i = 0; i < TR_MAX_ARGS; i++) {
        lval_free(&c->args[i]);
        lval_free(&c->outs[i]);
    }
    lval_free(&c->result);
}

/* Names call c of a test (site s), with namer nm. */
static int name_call(bcw_lcall *out, namer *nm, const bcw_unit *u, int uidx,
                     const bcw_trace_site *s, const bcw_trace_call *c)
{
    memset(out, 0, sizeof *out);
    bool mine = s->unit == uidx;
    const bcw_func *f = mine ? &u->funcs[s->func] : NULL;
    out->func = mine ? s->func : -1;
    out->nargs = c->nargs;
    if ((out->fn = bcw__strdup(s->fn)) == NULL)
        return BCW_ENOMEM;
    if (s->file != NULL &&
        (out->where = bcw__sprintf("%s:%u", s->file, s->line)) == NULL)
        return BCW_ENOMEM;
    int err = 0;
    for (unsigned i = 0; i < c->nargs && err == 0; i++) {
        int kind = param_kind(mine ? u : NULL, s, i);
        /* an init constructor's storage is a new instance */
        if (f != NULL && f->role == BCW_ROLE_INIT_CONSTRUCTOR &&
            kind == BCW_PK_UNIT && c->words[i] != 0) {
            err = namer_new(nm, c->words[i], BCW_LV_UNIT, &out->args[i]);
            continue;
        }
        err = name_arg(nm, s, kind, c, i, &out->args[i]);
    }
    if (err < 0 || !c->returned)
        return err;
    for (unsigned j = 0; j < c->nouts && err == 0; j++) {
        unsigned a = c->out_arg[j];
        int kind = param_kind(mine ? u : NULL, s, a);
        out->out_arg[out->nouts] = (uint8_t)a;
        bcw_lval *v = &out->outs[out->nouts++];
        if (kind == BCW_PK_UNIT_OUT && f != NULL && c->out_word[j] != 0)
            err = namer_new(nm, c->out_word[j], BCW_LV_UNIT, v);
        else if (kind == BCW_PK_UNIT_OUT && f != NULL)
            err = lval_set(v, BCW_LV_NULL, 0, bcw__strdup("NULL"));
        else if (f != NULL && a < f->nparams &&
                 f->params[a].pointee == BCW_ABI_PTR)
            err = name_pointer(nm, c->out_word[j], NULL, false, v);
        else
            err = bcw__lval_scalar(c->out_word[j],
                                   f != NULL && a < f->nparams
                                       ? f->params[a].pointee
                                       : BCW_ABI_S64,
                                   v);
    }
    if (err < 0)
        return err;
    if (s->ret == BCW_ABI_VOID && (f == NULL || f->ret.kind == BCW_PK_NONE))
        out->result.kind = BCW_LV_NONE;
    else if (f != NULL && f->ret.kind == BCW_PK_UNIT && c->result != 0) {
        /* a constructor's new instance; a rebinding call's result is
         * the instance it was called on */
        if (f->rebinds && f->self >= 0)
            err = name_pointer(nm, c->result, NULL, true, &out->result);
        else
            err = namer_new(nm, c->result, BCW_LV_UNIT, &out->result);
    } else if (s->ret == BCW_ABI_PTR)
        err = name_pointer(nm, c->result, NULL, false, &out->result);
    else
        err = bcw__lval_scalar(c->result, s->ret, &out->result);
    /* what a destructor freed may come back as something else */
    if (err == 0 && f != NULL && f->role == BCW_ROLE_DESTRUCTOR &&
        f->self >= 0 && (unsigned)f->self < c->nargs)
        namer_forget(nm, c->words[f->self]);
    return err;
}

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

/* Does call c give (return or write out) Obj#k for a k `wanted` holds?
 * Takes those k out of it. */
static bool gives_wanted(const bcw_lcall *c, bool *wanted)
{
    bool gave = false;
    const bcw_lval *v = &c->result;
    for (unsigned o = 0; o <= c->nouts; o++, v = &c->outs[o - 1])
        if (v->kind == BCW_LV_OBJ && wanted[v->value]) {
            wanted[v->value] = false;
            gave = true;
        }
    return gave;
}

/* Marks, from the last call back, the calls the unit's calls need: the
 * unit's own, and the last to give an object a needed call takes. */
static int mark_needed(const bcw_lcall *calls, unsigned n, bool *need)
{
    bool *wanted = bcw__calloc((size_t)max_obj(calls, n) + 1, sizeof *wanted);
    if (wanted == NULL)
        return BCW_ENOMEM;
    for (unsigned i = n; i-- > 0;) {
        const bcw_lcall *c = &calls[i];
        need[i] = gives_wanted(c, wanted) || c->func >= 0;
        for (unsigned a = 0; need[i] && a < c->nargs; a++)
            if (c->args[a].kind == BCW_LV_OBJ)
                wanted[c->args[a].value] = true;
    }
    free(wanted);
    return 0;
}

static int learn_test(bcw_ltest *out, const bcw_unit *u, int uidx,
                      const bcw_trace *t, const bcw_trace_test *x)
{
    memset(out, 0, sizeof *out);
    out->made = x->made;
    out->passed = x->end == BCW_TRACE_PASSED;
    if ((out->name = bcw__strdup(x->name)) == NULL ||
        (out->end = end_text(x, false)) == NULL)
        return BCW_ENOMEM;
    if (x->ncalls == 0)
        return 0;
    bcw_lcall *all = bcw__calloc(x->ncalls, sizeof *all);
    bool *need = bcw__calloc(x->ncalls, sizeof *need);
    namer nm = {0};
    int err = all != NULL && need != NULL ? 0 : BCW_ENOMEM;
    unsigned done = 0;
    for (; done < x->ncalls && err == 0; done++) {
        const bcw_trace_call *c = &x->calls[done];
        err = name_call(&all[done], &nm, u, uidx, &t->sites[c->site], c);
        if (err == 0 && !c->returned && x->end != BCW_TRACE_PASSED &&
            x->end != BCW_TRACE_LEFT)
            err = (all[done].outcome = end_text(x, true)) ? 0 : BCW_ENOMEM;
    }
    if (err == 0)
        err = mark_needed(all, x->ncalls, need);
    if (err == 0) {
        unsigned n = 0;
        for (unsigned i = 0; i < x->ncalls; i++)
            n += need[i];
        if (n > 0 && (out->calls = bcw__calloc(n, sizeof *out->calls)) == NULL)
            err = BCW_ENOMEM;
    }
    for (unsigned i = 0; i < done; i++) {
        if (err == 0 && need[i])
            out->calls[out->ncalls++] = all[i];
        else
            lcall_free(&all[i]);
    }
    free(all);
    free(need);
    namer_free(&nm);
    return err;
}

/* ---- the graph ---- */

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

/* Sorts the edges and drops repeated ones. */
static void edges_settle(bcw_lgraph *g)
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
    edges_settle(out);
    return err;
}

/* ---- merging (James: k-tails over control and data, both ways) ---- */

#define DEPTH_CAP 32u /* levels a tree is followed to */

typedef struct adj {
    unsigned *start; /* node i's neighbours: nb[start[i] .. start[i+1]) */
    unsigned *nb;
    uint16_t *key; /* the edge's kind and parameter */
} adj;

static void adj_free(adj *a)
{
    free(a->start);
    free(a->nb);
    free(a->key);
}

/* Neighbours following the edges forward (down) or backward (up). */
static int adj_build(adj *a, const bcw_lgraph *g, bool down)
{
    a->start = bcw__calloc(g->nnodes + 1, sizeof *a->start);
    a->nb = bcw__calloc(g->nedges + 1, sizeof *a->nb);
    a->key = bcw__calloc(g->nedges + 1, sizeof *a->key);
    if (a->start == NULL || a->nb == NULL || a->key == NULL)
        return BCW_ENOMEM;
    for (unsigned e = 0; e < g->nedges; e++)
        a->start[(down ? g->edges[e].from : g->edges[e].to) + 1]++;
    for (unsigned i = 0; i < g->nnodes; i++)
        a->start[i + 1] += a->start[i];
    unsigned *fill = bcw__calloc(g->nnodes + 1, sizeof *fill);
    if (fill == NULL)
        return BCW_ENOMEM;
    for (unsigned e = 0; e < g->nedges; e++) {
        const bcw_ledge *x = &g->edges[e];
        unsigned at = down ? x->from : x->to;
        unsigned k = a->start[at] + fill[at]++;
        a->nb[k] = down ? x->to : x->from;
        a->key[k] = (uint16_t)(x->kind << 8 | x->param);
    }
    free(fill);
    return 0;
}

/* Levels below each node, DEPTH_CAP where a cycle is reachable. */
static void heights(const adj *a, unsigned n, unsigned *h, uint8_t *state,
                    unsigned *stack, unsigned *pos)
{
    memset(state, 0, n);
    for (unsigned r = 0; r < n; r++) {
        if (state[r])
            continue;
        unsigned sp = 0;
        stack[sp] = r;
        pos[sp++] = a->start[r];
        state[r] = 1;
        h[r] = 0;
        while (sp > 0) {
            unsigned v = stack[sp - 1];
            if (pos[sp - 1] < a->start[v + 1]) {
                unsigned w = a->nb[pos[sp - 1]++];
                if (state[w] == 1)
                    h[v] = DEPTH_CAP; /* on the path: a cycle */
                else if (state[w] == 0) {
                    state[w] = 1;
                    h[w] = 0;
                    stack[sp] = w;
                    pos[sp++] = a->start[w];
                } else if (h[w] + 1 > h[v])
                    h[v] = h[w] + 1 > DEPTH_CAP ? DEPTH_CAP : h[w] + 1;
                continue;
            }
            state[v] = 2;
            sp--;
            if (sp > 0) {
                unsigned u = stack[sp - 1];
                if (h[v] + 1 > h[u])
                    h[u] = h[v] + 1 > DEPTH_CAP ? DEPTH_CAP : h[v] + 1;
            }
        }
    }
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* sig[d * n + i]: node i's tree to depth d: its label, and the set of
 * (edge, neighbour's tree to depth d - 1). */
static int signatures(const adj *a, const uint64_t *label, unsigned n,
                      uint64_t *sig)
{
    unsigned maxdeg = 0;
    for (unsigned i = 0; i < n; i++)
        if (a->start[i + 1] - a->start[i] > maxdeg)
            maxdeg = a->start[i + 1] - a->start[i];
    uint64_t *items = bcw__calloc(maxdeg + 1, sizeof *items);
    if (items == NULL)
        return BCW_ENOMEM;
    memcpy(sig, label, n * sizeof *sig);
    for (unsigned d = 1; d <= DEPTH_CAP; d++) {
        const uint64_t *prev = sig + (size_t)(d - 1) * n;
        uint64_t *cur = sig + (size_t)d * n;
        for (unsigned i = 0; i < n; i++) {
            unsigned k = 0;
            for (unsigned e = a->start[i]; e < a->start[i + 1]; e++) {
                uint64_t pair[2] = {a->key[e], prev[a->nb[e]]};
                items[k++] = bcw__hash(pair, sizeof pair, 0x5eed);
            }
            qsort(items, k, sizeof *items, u64_cmp);
            unsigned u = 0;
            for (unsigned j = 0; j < k; j++)
                if (u == 0 || items[j] != items[u - 1])
                    items[u++] = items[j];
            uint64_t hsh = bcw__hash(&label[i], sizeof label[i], d);
            cur[i] = bcw__hash(items, u * sizeof *items, hsh);
        }
    }
    free(items);
    return 0;
}

static unsigned uf_find(unsigned *parent, unsigned x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void uf_union(unsigned *parent, unsigned x, unsigned y)
{
    x = uf_find(parent, x);
    y = uf_find(parent, y);
    if (x < y)
        parent[y] = x;
    else if (y < x)
        parent[x] = y;
}

/* Merges x and y and, to `levels` levels, their trees' matching
 * neighbours. */
static void merge_trees(const adj *a, const uint64_t *sig, unsigned n,
                        unsigned *parent, unsigned x, unsigned y,
                        unsigned levels)
{
    if (uf_find(parent, x) == uf_find(parent, y))
        return;
    uf_union(parent, x, y);
    if (levels <= 1)
        return;
    const uint64_t *below = sig + (size_t)(levels - 2) * n;
    for (unsigned e = a->start[x]; e < a->start[x + 1]; e++)
        for (unsigned f = a->start[y]; f < a->start[y + 1]; f++)
            if (a->key[e] == a->key[f] && below[a->nb[e]] == below[a->nb[f]]) {
                merge_trees(a, sig, n, parent, a->nb[e], a->nb[f], levels - 1);
                break;
            }
}

typedef struct best {
    unsigned levels; /* 0: none */
    int dir;
    unsigned depth; /* the signatures' depth */
    bool whole;     /* the loose threshold's: whole trees alike */
} best;

typedef struct ranked {
    uint64_t sig;
    unsigned node;
} ranked;

static int ranked_cmp(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->sig != y->sig)
        return x->sig < y->sig ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* The n nodes in rk, by their signature s[node], then by number: groups
 * of alike ones side by side. */
static void rank(const uint64_t *s, unsigned n, ranked *rk)
{
    for (unsigned i = 0; i < n; i++)
        rk[i] = (ranked){s[i], i};
    qsort(rk, n, sizeof *rk, ranked_cmp);
}

/* Where the trees to merge next are: the direction and depth of the
 * signatures of two that agree to the most levels (at least k_strict),
 * else of two whole and alike (at least k_loose levels). */
static void find_best(const uint64_t *const sig[2], const unsigned *const h[2],
                      unsigned n, unsigned k_strict, unsigned k_loose,
                      ranked *rk, best *out)
{
    memset(out, 0, sizeof *out);
    best loose = {0};
    for (int dir = 0; dir < 2; dir++)
        for (unsigned d = DEPTH_CAP; d >= 1; d--) {
            rank(sig[dir] + (size_t)d * n, n, rk);
            for (unsigned i = 0; i < n;) {
                unsigned j = i + 1;
                while (j < n && rk[j].sig == rk[i].sig)
                    j++;
                if (j - i >= 2) {
                    /* levels two of them agree to: the second most */
                    unsigned top = 0, second = 0;
                    bool whole = true;
                    for (unsigned m = i; m < j; m++) {
                        unsigned hh = h[dir][rk[m].node];
                        unsigned lv = (hh < d ? hh : d) + 1;
                        whole = whole && hh < d && hh < DEPTH_CAP;
                        if (lv > top)
                            second = top, top = lv;
                        else if (lv > second)
                            second = lv;
                    }
                    if (second >= k_strict && second > out->levels)
                        *out = (best){second, dir, d, false};
                    else if (whole && second >= k_loose &&
                             second > loose.levels)
                        loose = (best){second, dir, d, true};
                }
                i = j;
            }
        }
    if (out->levels == 0)
        *out = loose;
}

/* Merges each group of nodes whose signatures at b's depth agree and
 * whose trees agree to b's levels (whole, for the loose threshold), with
 * their trees: every group tied with the best, one pass. */
static void merge_groups(const adj *a, const uint64_t *sig, const unsigned *h,
                         const uint64_t *label, unsigned n, const best *b,
                         ranked *rk, unsigned *parent)
{
    for (unsigned i = 0; i < n; i++)
        parent[i] = i;
    rank(sig + (size_t)b->depth * n, n, rk);
    for (unsigned i = 0; i < n;) {
        unsigned j = i + 1;
        while (j < n && rk[j].sig == rk[i].sig)
            j++;
        int first = -1;
        for (unsigned m = i; m < j; m++) {
            unsigned v = rk[m].node, hh = h[v];
            unsigned lv = (hh < b->depth ? hh : b->depth) + 1;
            if (lv < b->levels ||
                (b->whole && (hh >= b->depth || hh >= DEPTH_CAP)))
                continue;
            if (first < 0)
                first = (int)v;
            else if (label[v] == label[first])
                merge_trees(a, sig, n, parent, (unsigned)first, v, b->levels);
        }
        i = j;
    }
}

static void lnode_free(bcw_lnode *nd)
{
    free(nd->fn);
    free(nd->outcome);
    for (unsigned i = 0; i < TR_MAX_ARGS; i++)
        bcw__strlist_free(&nd->values[i]);
    bcw__strlist_free(&nd->tests);
}

/* Folds node src into dst. */
static int fold(bcw_lnode *dst, const bcw_lnode *src)
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

/* The graph with each class of `parent` one node (numbered in order of
 * their smallest members). */
static int collapse(bcw_lgraph *g, unsigned *parent)
{
    unsigned n = g->nnodes, *id = bcw__calloc(n, sizeof *id);
    if (id == NULL)
        return BCW_ENOMEM;
    unsigned m = 0;
    int err = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned r = uf_find(parent, i);
        if (r == i) {
            id[i] = m;
            if (m != i)
                g->nodes[m] = g->nodes[i];
            m++;
        } else {
            id[i] = id[r];
            if (err == 0)
                err = fold(&g->nodes[id[r]], &g->nodes[i]);
            lnode_free(&g->nodes[i]);
        }
    }
    for (unsigned e = 0; e < g->nedges; e++) {
        g->edges[e].from = id[g->edges[e].from];
        g->edges[e].to = id[g->edges[e].to];
    }
    g->nnodes = m;
    edges_settle(g);
    free(id);
    return err;
}

static uint64_t node_label(const bcw_lnode *nd)
{
    uint64_t h = bcw__hash_str(nd->fn);
    return nd->outcome ? bcw__hash(nd->outcome, strlen(nd->outcome), h) : h;
}

int bcw__learn_merge(bcw_lgraph *g, unsigned k_strict, unsigned k_loose)
{
    if (k_strict < 1)
        k_strict = 1;
    int err = 0;
    while (err == 0 && g->nnodes > 1) {
        unsigned n = g->nnodes;
        adj a[2] = {{0}};
        uint64_t *label = bcw__calloc(n, sizeof *label);
        uint64_t *sig[2] = {
            bcw__calloc((size_t)(DEPTH_CAP + 1) * n, sizeof(uint64_t)),
            bcw__calloc((size_t)(DEPTH_CAP + 1) * n, sizeof(uint64_t))};
        unsigned *h[2] = {bcw__calloc(n, sizeof(unsigned)),
                          bcw__calloc(n, sizeof(unsigned))};
        unsigned *parent = bcw__calloc(n, sizeof *parent);
        unsigned *stack = bcw__calloc(n, sizeof *stack);
        unsigned *pos = bcw__calloc(n, sizeof *pos);
        uint8_t *state = bcw__calloc(n, 1);
        ranked *rk = bcw__calloc(n, sizeof *rk);
        if (label == NULL || sig[0] == NULL || sig[1] == NULL || h[0] == NULL ||
            h[1] == NULL || parent == NULL || stack == NULL || pos == NULL ||
            state == NULL || rk == NULL)
            err = BCW_ENOMEM;
        for (int dir = 0; dir < 2 && err == 0; dir++)
            err = adj_build(&a[dir], g, dir == 0);
        best b = {0};
        if (err == 0) {
            for (unsigned i = 0; i < n; i++)
                label[i] = node_label(&g->nodes[i]);
            for (int dir = 0; dir < 2 && err == 0; dir++) {
                heights(&a[dir], n, h[dir], state, stack, pos);
                err = signatures(&a[dir], label, n, sig[dir]);
            }
        }
        if (err == 0)
            find_best((const uint64_t *const[2]){sig[0], sig[1]},
                      (const unsigned *const[2]){h[0], h[1]}, n, k_strict,
                      k_loose, rk, &b);
        if (err == 0 && b.levels > 0) {
            merge_groups(&a[b.dir], sig[b.dir], h[b.dir], label, n, &b, rk,
                         parent);
            err = collapse(g, parent);
        }
        for (int dir = 0; dir < 2; dir++) {
            adj_free(&a[dir]);
            free(sig[dir]);
            free(h[dir]);
        }
        free(label);
        free(parent);
        free(stack);
        free(pos);
        free(state);
        free(rk);
        if (b.levels == 0)
            break;
    }
    return err;
}

void bcw__lgraph_free(bcw_lgraph *g)
{
    for (unsigned i = 0; i < g->nnodes; i++)
        lnode_free(&g->nodes[i]);
    free(g->nodes);
    free(g->edges);
    memset(g, 0, sizeof *g);
}

int bcw__learn(bcw_learned *out, const bcw_model *model, unsigned unit,
               const bcw_trace *t, unsigned k_strict, unsigned k_loose)
{
    memset(out, 0, sizeof *out);
    const bcw_unit *u = &model->units[unit];
    out->k_strict = k_strict;
    out->k_loose = k_loose;
    out->nfound = t->nfound;
    out->runs = t->runs;
    out->status = t->status;
    if ((out->unit = bcw__strdup(u->name)) == NULL ||
        (out->how = bcw__strdup(t->how ? t->how : "")) == NULL)
        return BCW_ENOMEM;
    if (t->ntests > 0 &&
        (out->tests = bcw__calloc(t->ntests, sizeof *out->tests)) == NULL)
        return BCW_ENOMEM;
    int err = 0;
    for (unsigned i = 0; i < t->ntests && err == 0; i++) {
        err = learn_test(&out->tests[i], u, (int)unit, t, &t->tests[i]);
        out->ntests++;
    }
    if (err == 0)
        err = bcw__learn_graph(&out->graph, out->tests, out->ntests);
    out->traced_nodes = out->graph.nnodes;
    out->traced_edges = out->graph.nedges;
    if (err == 0)
        err = bcw__learn_merge(&out->graph, k_strict, k_loose);
    return err;
}

void bcw__learned_free(bcw_learned *l)
{
    free(l->unit);
    free(l->tests_path);
    free(l->lib_path);
    free(l->how);
    for (unsigned i = 0; i < l->ntests; i++) {
        bcw_ltest *x = &l->tests[i];
        free(x->name);
        free(x->end);
        for (unsigned j = 0; j < x->ncalls; j++)
            lcall_free(&x->calls[j]);
        free(x->calls);
    }
    free(l->tests);
    bcw__lgraph_free(&l->graph);
    memset(l, 0, sizeof *l);
}
