/* learn_use.c - a learned model in a walk (learn.h): the tests' values as
 * categories, their sequences, the gaps and the learned walk. */
#define _POSIX_C_SOURCE 200809L
#include "learn.h"

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "text.h"

/* ---- categories ---- */

#define FROM_TESTS "from tests: " /* a category from the tests' values */
#define GENERATED "generated"     /* generated values, beside them */

static bool int_kind(enum bcw_pkind k)
{
    return k == BCW_PK_INT || k == BCW_PK_BOOL || k == BCW_PK_CHAR ||
           k == BCW_PK_ENUM || k == BCW_PK_LENGTH;
}

/* The first category of p that passes value v (or string s), or -1. */
static int part_passing(const bcw_param *p, const bcw_lval *v)
{
    for (unsigned i = 0; i < p->nparts; i++) {
        const bcw_part *t = &p->parts[i];
        if (v->kind == BCW_LV_INT && t->rel < 0 && t->str == NULL)
            for (unsigned j = 0; j < t->nvalues; j++)
                if (t->values[j] == v->value)
                    return (int)i;
        if (v->kind == BCW_LV_NULL && p->kind == BCW_PK_ELEMENT &&
            t->nvalues > 0 && t->values[0] == (int64_t)BCW_ELEMENT_NULL)
            return (int)i;
        const char *vs = v->kind == BCW_LV_STRING ? v->str
                         : v->kind == BCW_LV_FUNC ? v->text
                                                  : NULL;
        if (vs != NULL && t->str != NULL && strcmp(t->str, vs) == 0)
            return (int)i;
    }
    return -1;
}

static bool from_tests(const bcw_part *t)
{
    return strncmp(t->label, FROM_TESTS, strlen(FROM_TESTS)) == 0;
}

/* Is c a call of function f (its name and arity)? */
static bool calls_func(const bcw_lcall *c, const bcw_func *f)
{
    return c->func >= 0 && strcmp(f->name, c->fn) == 0 &&
           f->nparams == c->nargs;
}

static int symbol_of(const bcw_model *m, const char *name)
{
    for (unsigned i = 0; i < m->nsyms; i++)
        if (strcmp(m->syms[i], name) == 0)
            return (int)i;
    return -1;
}

/* The category of test value v for p, or none (*part.label NULL). */
static int part_of(const bcw_model *m, const bcw_param *p, const bcw_lval *v,
                   bcw_part *part)
{
    memset(part, 0, sizeof *part);
    part->rel = -1;
    if (int_kind(p->kind) && v->kind == BCW_LV_INT) {
        part->nvalues = 1;
        part->values[0] = v->value;
    } else if (p->kind == BCW_PK_STRING && v->kind == BCW_LV_STRING &&
               v->value == 0 && v->str != NULL) {
        if ((part->str = bcw__strdup(v->str)) == NULL)
            return BCW_ENOMEM;
    } else if (p->kind == BCW_PK_ELEMENT && v->kind == BCW_LV_NULL) {
        /* the walk's elements stand for the tests' objects; NULL is its
         * own category */
        part->nvalues = 1;
        part->values[0] = (int64_t)BCW_ELEMENT_NULL;
    } else if (p->kind == BCW_PK_CALLBACK && v->kind == BCW_LV_FUNC &&
               v->text != NULL) {
        int sym = symbol_of(m, v->text);
        if (sym < 0)
            return 0; /* the tests' own function: not the library's */
        part->nvalues = 1;
        part->values[0] = sym;
        if ((part->str = bcw__strdup(v->text)) == NULL)
            return BCW_ENOMEM;
    } else {
        return 0;
    }
    if ((part->label = bcw__sprintf(FROM_TESTS "%s", v->text)) == NULL) {
        free(part->str);
        return BCW_ENOMEM;
    }
    return 0;
}

int bcw__learned_teach(bcw_learned *l, bcw_model **taught, unsigned *added,
                       const bcw_model *model, const bcw_unit *u,
                       const char *path)
{
    int err = bcw__learned_load(l, path);
    if (err < 0)
        return err;
    if (strcmp(l->unit, u->name) != 0)
        return bcw__error(BCW_EINPUT,
                          "%s: a model learned of unit %s, not of %s", path,
                          l->unit, u->name);
    char *data = NULL;
    size_t n = 0;
    if ((err = bcw__model_to_bytes(model, false, &data, &n)) == 0)
        err = bcw__model_from_bytes(taught, data, n, "the model");
    free(data);
    if (err == 0)
        err = bcw__learned_categories(
            *taught, (unsigned)bcw_model_find_unit(*taught, u->name), l, added);
    return err;
}

bool bcw__learned_step(const bcw_unit *u, const bcw_step *st)
{
    for (unsigned k = 0; k < u->funcs[st->func].nparams; k++)
        if (st->part[k] != NULL && from_tests(st->part[k]))
            return true;
    return false;
}

static int add_values(bcw_model *m, bcw_func *f, const bcw_lcall *c,
                      unsigned *added)
{
    int err = 0;
    for (unsigned k = 0; k < f->nparams && k < c->nargs && err == 0; k++) {
        bcw_param *p = &f->params[k];
        const bcw_lval *v = &c->args[k];
        unsigned mine = 0;
        for (unsigned i = 0; i < p->nparts; i++)
            mine += from_tests(&p->parts[i]);
        if (mine >= BCW_TEST_VALUES || part_passing(p, v) >= 0)
            continue;
        bcw_part part;
        if ((err = part_of(m, p, v, &part)) < 0 || part.label == NULL)
            continue;
        /* generated values stay among the categories */
        if (p->nparts == 0) {
            bcw_part gen = {.label = bcw__strdup(GENERATED), .rel = -1};
            if (gen.label == NULL) {
                free(part.label);
                free(part.str);
                return BCW_ENOMEM;
            }
            if ((err = bcw__param_add_part(p, gen)) < 0) {
                free(part.label);
                free(part.str);
                return err;
            }
        }
        if ((err = bcw__param_add_part(p, part)) == 0)
            ++*added;
    }
    return err;
}

int bcw__learned_categories(bcw_model *m, unsigned unit, const bcw_learned *l,
                            unsigned *added)
{
    *added = 0;
    bcw_unit *u = &m->units[unit];
    int err = 0;
    for (unsigned t = 0; t < l->ntests && err == 0; t++)
        for (unsigned i = 0; i < l->tests[t].ncalls && err == 0; i++) {
            const bcw_lcall *c = &l->tests[t].calls[i];
            for (unsigned f = 0; f < u->nfuncs && err == 0; f++)
                if (calls_func(c, &u->funcs[f]))
                    err = add_values(m, &u->funcs[f], c, added);
        }
    return err;
}

static int cmp_tcat(const void *a, const void *b)
{
    const bcw_tcat *x = a, *y = b;
    if (x->uses != y->uses)
        return x->uses < y->uses ? -1 : 1;
    if (x->func != y->func)
        return x->func > y->func ? -1 : 1;
    if (x->param != y->param)
        return x->param > y->param ? -1 : 1;
    return x->part > y->part ? -1 : x->part < y->part;
}

int bcw__learned_ranked(bcw_tcat **out, unsigned *n, const bcw_unit *u,
                        const bcw_learned *l)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    for (unsigned f = 0; f < u->nfuncs; f++)
        for (unsigned k = 0; k < u->funcs[f].nparams; k++)
            for (unsigned i = 0; i < u->funcs[f].params[k].nparts; i++)
                if (from_tests(&u->funcs[f].params[k].parts[i])) {
                    if (bcw__grow(out, &cap, *n + 1, sizeof **out) < 0)
                        return BCW_ENOMEM;
                    (*out)[(*n)++] = (bcw_tcat){f, k, i, 0};
                }
    for (unsigned t = 0; t < l->ntests; t++)
        for (unsigned i = 0; i < l->tests[t].ncalls; i++) {
            const bcw_lcall *c = &l->tests[t].calls[i];
            for (unsigned j = 0; j < *n; j++) {
                bcw_tcat *x = &(*out)[j];
                const bcw_func *f = &u->funcs[x->func];
                x->uses += calls_func(c, f) &&
                           part_passing(&f->params[x->param],
                                        &c->args[x->param]) == (int)x->part;
            }
        }
    if (*n > 0)
        qsort(*out, *n, sizeof **out, cmp_tcat);
    return 0;
}

void bcw__learned_drop(bcw_unit *u, const bcw_tcat *c, bcw_tcat *rest,
                       unsigned nrest)
{
    bcw_param *p = &u->funcs[c->func].params[c->param];
    bcw__param_remove_part(p, c->part);
    for (unsigned j = 0; j < nrest; j++)
        if (rest[j].func == c->func && rest[j].param == c->param &&
            rest[j].part > c->part)
            rest[j].part--;
    /* a parameter the walk generates values for is as it was */
    if (p->nparts == 1 && strcmp(p->parts[0].label, GENERATED) == 0)
        bcw__param_remove_part(p, 0);
}

double bcw__learned_growth(unsigned ctors_before, unsigned methods_before,
                           unsigned ctors_after, unsigned methods_after,
                           unsigned depth)
{
    double with = 0, without = 0, a = ctors_after, b = ctors_before;
    for (unsigned l = 0; l <= depth; l++) {
        with += a;
        without += b;
        a *= methods_after;
        b *= methods_before;
    }
    return without > 0 ? with / without : 1;
}

/* ---- the tests' calls as steps ---- */

/* The text of step st's value for parameter k, as a learned model names
 * values, into buf; NULL when the step passes no fixed value (generated)
 * or one a test cannot pass (relative to fields, the same cell). */
static const char *fixed_text(const bcw_unit *u, const bcw_step *st, unsigned k,
                              char *buf, size_t n, bool *any)
{
    const bcw_param *p = &u->funcs[st->func].params[k];
    *any = !st->fixed[k] && !st->custom[k];
    if (*any || st->relative[k] != NULL || st->part[k] == NULL)
        return NULL;
    const bcw_part *t = st->part[k];
    if (p->kind == BCW_PK_CALLBACK)
        return t->str;
    if (p->kind == BCW_PK_STRING && t->str != NULL) {
        bcw__c_quote_to(buf, n, t->str, '"');
        return buf;
    }
    if (p->kind == BCW_PK_ELEMENT)
        return t->nvalues > 0 && t->values[0] == (int64_t)BCW_ELEMENT_NULL
                   ? "NULL"
                   : NULL;
    if (!int_kind(p->kind))
        return NULL;
    bcw_lval v = {0};
    if (bcw__lval_scalar((uint64_t)st->value[k], (uint8_t)p->abi, &v) < 0)
        return NULL;
    snprintf(buf, n, "%s", v.text);
    free(v.text);
    return buf;
}

/* Does step st pass, for each parameter, a value one of vals[k]'s texts
 * names (a generated one for the tests' objects and the unit)? */
static bool step_passes(const bcw_unit *u, const bcw_step *st,
                        const char *const *vals[], const unsigned *nvals,
                        unsigned nargs)
{
    const bcw_func *f = &u->funcs[st->func];
    if (f->nparams != nargs)
        return false;
    for (unsigned k = 0; k < nargs; k++) {
        char buf[256];
        bool any;
        const char *text = fixed_text(u, st, k, buf, sizeof buf, &any);
        bool unit = f->params[k].kind == BCW_PK_UNIT ||
                    f->params[k].kind == BCW_PK_UNIT_OUT ||
                    f->params[k].kind == BCW_PK_UNIT_DEREF;
        bool found = false;
        for (unsigned i = 0; i < nvals[k] && !found; i++) {
            const char *v = vals[k][i];
            bool object = strncmp(v, "Obj#", 4) == 0 || v[0] == '#' ||
                          strcmp(v, "&out") == 0;
            /* generated: the walk's own objects stand for the tests';
             * a generated scalar for nothing the tests chose */
            found = any ? object || unit : text != NULL && strcmp(text, v) == 0;
        }
        if (!found)
            return false;
    }
    return true;
}

/* The first step of `list` calling c's function with c's values. */
static int step_of(const bcw_unit *u, const bcw_step *steps,
                   const uint16_t *list, unsigned n, const bcw_lcall *c)
{
    const char *const *vals[TR_MAX_ARGS];
    const char *text[TR_MAX_ARGS];
    unsigned nvals[TR_MAX_ARGS];
    for (unsigned k = 0; k < c->nargs; k++) {
        text[k] = c->args[k].text ? c->args[k].text : "";
        vals[k] = &text[k];
        nvals[k] = 1;
    }
    for (unsigned i = 0; i < n; i++) {
        const bcw_step *st = &steps[list[i]];
        if (strcmp(u->funcs[st->func].name, c->fn) == 0 &&
            step_passes(u, st, vals, nvals, c->nargs))
            return list[i];
    }
    return -1;
}

static const bcw_func *func_named(const bcw_unit *u, const char *name)
{
    for (unsigned f = 0; f < u->nfuncs; f++)
        if (strcmp(u->funcs[f].name, name) == 0)
            return &u->funcs[f];
    return NULL;
}

/* Is c a call on instance k (the unit's argument is #k)? */
static bool on_instance(const bcw_unit *u, const bcw_lcall *c, int64_t k)
{
    const bcw_func *fn = func_named(u, c->fn);
    if (fn == NULL || fn->self < 0 || (unsigned)fn->self >= c->nargs)
        return false;
    const bcw_lval *v = &c->args[fn->self];
    return v->kind == BCW_LV_UNIT && v->value == k;
}

/* Is c the call that made instance k? */
static bool makes(const bcw_lcall *c, int64_t k)
{
    if (c->result.kind == BCW_LV_UNIT && c->result.value == k)
        return true;
    for (unsigned o = 0; o < c->nouts; o++)
        if (c->outs[o].kind == BCW_LV_UNIT && c->outs[o].value == k)
            return true;
    for (unsigned a = 0; a < c->nargs; a++)
        if (c->args[a].kind == BCW_LV_UNIT && c->args[a].value == k)
            return true; /* an init constructor's storage */
    return false;
}

static bool same_seq(const bcw_tseq *a, const bcw_tseq *b)
{
    return a->len == b->len &&
           memcmp(a->steps, b->steps, (a->len + 1) * sizeof *a->steps) == 0;
}

#define NO_STEP ", passes values no step of the walk passes"

/* "its call 5, arraylist_append(#0, NULL)" and `what` (NO_STEP) */
static char *call_cut(unsigned n, const bcw_lcall *c, const char *what)
{
    bcw_buf b;
    bcw__buf_init(&b, 4096);
    bcw__buf_printf(&b, "its call %u, %s(", n, c->fn);
    for (unsigned a = 0; a < c->nargs; a++)
        bcw__buf_printf(&b, "%s%s", a ? ", " : "",
                        c->args[a].text ? c->args[a].text : "?");
    bcw__buf_printf(&b, ")%s", what);
    return b.data;
}

/* Why test x gave the walk no sequence: its first call of one of the
 * unit's constructors passes values no constructor step passes, or made
 * no instance; or it calls none. */
static char *no_seq(const bcw_ltest *x, const bcw_unit *u,
                    const bcw_step *steps, const uint16_t *ctors,
                    unsigned nctors)
{
    for (unsigned i = 0; i < x->ncalls; i++) {
        const bcw_lcall *c = &x->calls[i];
        const bcw_func *f = c->func >= 0 ? func_named(u, c->fn) : NULL;
        if (f == NULL || (f->role != BCW_ROLE_CONSTRUCTOR &&
                          f->role != BCW_ROLE_INIT_CONSTRUCTOR))
            continue;
        char *why = call_cut(i + 1, c,
                             step_of(u, steps, ctors, nctors, c) >= 0
                                 ? ", made no instance"
                                 : NO_STEP);
        char *s = why ? bcw__sprintf("%s: %s", x->name, why) : NULL;
        free(why);
        return s;
    }
    return bcw__sprintf("%s: it calls no constructor of %s", x->name, u->name);
}

/* Test x's sequence on instance k, from its call `first` on (after the
 * call that made it, or the first on a cell). */
static int one_seq(bcw_tseq *s, const bcw_ltest *x, unsigned first, int64_t k,
                   const bcw_unit *u, const bcw_step *steps,
                   const uint16_t *methods, unsigned nmethods, int ctor)
{
    memset(s, 0, sizeof *s);
    s->test = x->name;
    s->steps = bcw__calloc(BCW_TEST_SEQ_MAX + 1, sizeof *s->steps);
    if (s->steps == NULL)
        return BCW_ENOMEM;
    s->steps[0] = (uint16_t)ctor;
    for (unsigned i = first; i < x->ncalls; i++) {
        const bcw_lcall *c = &x->calls[i];
        if (c->func < 0 || !on_instance(u, c, k))
            continue;
        const bcw_func *f = func_named(u, c->fn);
        if (f != NULL && f->role == BCW_ROLE_DESTRUCTOR)
            break; /* the instance's end: walks end with it too */
        s->calls++;
        if (s->cut != NULL)
            continue;
        int st = step_of(u, steps, methods, nmethods, c);
        if (s->len < BCW_TEST_SEQ_MAX && st >= 0) {
            s->steps[++s->len] = (uint16_t)st;
            continue;
        }
        s->cut = s->len == BCW_TEST_SEQ_MAX
                     ? bcw__sprintf("longer than %d calls", BCW_TEST_SEQ_MAX)
                     : call_cut(s->calls, c, NO_STEP);
        if (s->cut == NULL)
            return BCW_ENOMEM;
    }
    return 0;
}

int bcw__learned_seqs(bcw_tseqs *out, const bcw_learned *l, const bcw_unit *u,
                      const bcw_step *steps, unsigned nsteps,
                      const uint16_t *ctors, unsigned nctors,
                      const uint16_t *methods, unsigned nmethods)
{
    (void)nsteps;
    memset(out, 0, sizeof *out);
    /* a unit living in a caller's cell starts empty: no call makes it */
    int empty = -1;
    for (unsigned i = 0; i < nctors && empty < 0; i++)
        if (u->funcs[steps[ctors[i]].func].role == BCW_ROLE_EMPTY)
            empty = ctors[i];
    int err = 0;
    for (unsigned t = 0; t < l->ntests && err == 0; t++) {
        const bcw_ltest *x = &l->tests[t];
        uint64_t seen = 0; /* instances #0 .. #63 met */
        bool on_unit = false, made = false;
        for (unsigned i = 0; i < x->ncalls && !on_unit; i++)
            on_unit = x->calls[i].func >= 0;
        for (unsigned i = 0; i < x->ncalls && err == 0; i++) {
            const bcw_lcall *c = &x->calls[i];
            int ctor = c->func >= 0 ? step_of(u, steps, ctors, nctors, c) : -1;
            unsigned first = i + 1;
            /* the instance it made, or the cell first met */
            int64_t k = -1;
            for (int64_t j = 0; j < 64 && k < 0 && ctor >= 0; j++)
                if (makes(c, j))
                    k = j;
            for (int64_t j = 0; j < 64 && k < 0 && ctor < 0 && empty >= 0; j++)
                if (!(seen >> j & 1) && c->func >= 0 && on_instance(u, c, j))
                    k = j, ctor = empty, first = i;
            if (k < 0)
                continue;
            seen |= UINT64_C(1) << k;
            bcw_tseq s;
            if ((err = one_seq(&s, x, first, k, u, steps, methods, nmethods,
                               ctor)) < 0)
                break;
            made = true;
            bool dup = false;
            for (unsigned j = 0; j < out->n && !dup; j++)
                dup = same_seq(&out->v[j], &s) &&
                      (out->v[j].cut == NULL) == (s.cut == NULL);
            if (dup) {
                free(s.steps);
                free(s.cut);
                continue;
            }
            if (bcw__grow(&out->v, &out->cap, out->n + 1, sizeof *out->v) < 0) {
                free(s.steps);
                free(s.cut);
                err = BCW_ENOMEM;
                break;
            }
            out->v[out->n++] = s;
        }
        /* a test calling the unit that gave no sequence: why */
        if (err == 0 && on_unit && !made &&
            bcw__strlist_add(&out->none, no_seq(x, u, steps, ctors, nctors)) <
                0)
            err = BCW_ENOMEM;
    }
    if (err < 0)
        bcw__tseqs_free(out);
    return err;
}

void bcw__tseqs_free(bcw_tseqs *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        free(s->v[i].steps);
        free(s->v[i].cut);
        free(s->v[i].preds);
        free(s->v[i].known);
        free(s->v[i].outcome);
    }
    free(s->v);
    bcw__strlist_free(&s->none);
    memset(s, 0, sizeof *s);
}

/* ---- the learned walk ---- */

/* Does node nd (a call of the unit) take step st? */
static bool node_takes(const bcw_unit *u, const bcw_lnode *nd,
                       const bcw_step *st)
{
    if (nd->func < 0 || strcmp(u->funcs[st->func].name, nd->fn) != 0 ||
        nd->outcome != NULL)
        return false;
    const char *const *vals[TR_MAX_ARGS];
    unsigned nvals[TR_MAX_ARGS];
    for (unsigned k = 0; k < nd->nargs; k++) {
        vals[k] = (const char *const *)nd->values[k].v;
        nvals[k] = nd->values[k].n;
    }
    return step_passes(u, st, vals, nvals, nd->nargs);
}

int bcw__lwalk_new(bcw_lwalk *w, const bcw_learned *l, const bcw_unit *u,
                   const bcw_step *steps, unsigned nsteps)
{
    const bcw_lgraph *g = &l->graph;
    memset(w, 0, sizeof *w);
    w->nnodes = g->nnodes;
    w->nsteps = nsteps;
    w->takes = bcw__calloc((size_t)g->nnodes * nsteps + 1, sizeof *w->takes);
    w->root = bcw__calloc(g->nnodes + 1, sizeof *w->root);
    w->start = bcw__calloc(g->nnodes + 1, sizeof *w->start);
    w->next = bcw__calloc(g->nedges + 1, sizeof *w->next);
    w->at = bcw__calloc(2 * (size_t)g->nnodes + 2, sizeof *w->at);
    w->empty = bcw__calloc(nsteps + 1, sizeof *w->empty);
    if (w->takes == NULL || w->root == NULL || w->start == NULL ||
        w->next == NULL || w->at == NULL || w->empty == NULL) {
        bcw__lwalk_free(w);
        return BCW_ENOMEM;
    }
    for (unsigned st = 0; st < nsteps; st++)
        w->empty[st] = u->funcs[steps[st].func].role == BCW_ROLE_EMPTY;
    for (unsigned i = 0; i < g->nnodes; i++) {
        w->root[i] = true;
        for (unsigned st = 0; st < nsteps; st++)
            w->takes[(size_t)i * nsteps + st] =
                node_takes(u, &g->nodes[i], &steps[st]);
    }
    /* control successors, by node (the edges are sorted by source) */
    unsigned n = 0;
    for (unsigned i = 0; i < g->nnodes; i++) {
        w->start[i] = n;
        for (unsigned e = 0; e < g->nedges; e++)
            if (g->edges[e].from == i && g->edges[e].kind == BCW_LE_CONTROL)
                w->next[n++] = g->edges[e].to;
    }
    w->start[g->nnodes] = n;
    for (unsigned e = 0; e < g->nedges; e++)
        if (g->edges[e].kind == BCW_LE_CONTROL)
            w->root[g->edges[e].to] = false;
    return 0;
}

void bcw__lwalk_free(bcw_lwalk *w)
{
    free(w->takes);
    free(w->root);
    free(w->start);
    free(w->next);
    free(w->at);
    free(w->empty);
    memset(w, 0, sizeof *w);
}

bool bcw__lwalk_extends(bcw_lwalk *w, const uint16_t *seq, unsigned len,
                        uint16_t next)
{
    unsigned n = w->nnodes;
    bool *at = w->at, *to = w->at + n + 1, some = false;
    /* the calls of the constructor; for a unit in a caller's cell, which
     * no call makes, the first calls of the tests on an instance */
    bool cell = w->empty[seq[0]];
    uint16_t first = !cell ? seq[0] : len > 0 ? seq[1] : next;
    for (unsigned i = 0; i < n; i++) {
        at[i] =
            (!cell || w->root[i]) && w->takes[(size_t)i * w->nsteps + first];
        some = some || at[i];
    }
    for (unsigned p = cell ? 2 : 1; p <= len + 1 && some; p++) {
        uint16_t want = p <= len ? seq[p] : next;
        memset(to, 0, n * sizeof *to);
        some = false;
        for (unsigned i = 0; i < n; i++)
            for (unsigned e = w->start[i]; at[i] && e < w->start[i + 1]; e++) {
                unsigned j = w->next[e];
                if (w->takes[(size_t)j * w->nsteps + want])
                    some = to[j] = true;
            }
        memcpy(at, to, n * sizeof *at);
    }
    return some;
}

/* ---- the gaps between tests and walk ---- */

static bool tests_call(const bcw_learned *l, const char *fn)
{
    for (unsigned t = 0; t < l->ntests; t++)
        for (unsigned i = 0; i < l->tests[t].ncalls; i++)
            if (l->tests[t].calls[i].func >= 0 &&
                strcmp(l->tests[t].calls[i].fn, fn) == 0)
                return true;
    return false;
}

static bool walks_fn(const bcw_unit *u, const bcw_step *steps,
                     const uint16_t *v, unsigned n, const char *fn)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(u->funcs[steps[v[i]].func].name, fn) == 0)
            return true;
    return false;
}

/* Does some test sequence make transition t (or reach state k, t NULL)? */
static bool tested(const bcw_states *st, const bcw_tseqs *ts,
                   const bcw_transition *t, int k)
{
    for (unsigned i = 0; i < ts->n; i++) {
        const bcw_tseq *s = &ts->v[i];
        for (unsigned j = 0; j < s->nobs; j++) {
            bool normal = s->outcome[j] == BCW_RUN_NORMAL;
            int to = normal ? bcw__states_of(st, s->preds[j], s->known[j]) : -1;
            if (t == NULL) {
                if (normal && to == k)
                    return true;
                continue;
            }
            if (j == 0 || s->steps[j] != t->step ||
                s->outcome[j] != t->outcome || to != t->to)
                continue;
            if (bcw__states_of(st, s->preds[j - 1], s->known[j - 1]) ==
                (int)t->from)
                return true;
        }
    }
    return false;
}

static int state_gaps(bcw_gaps *g, const bcw_tseqs *ts, const bcw_states *st,
                      const bcw_unit *u, const bcw_step *steps)
{
    int err = 0;
    for (unsigned k = 0; k < st->nstates && err == 0; k++) {
        const bcw_dstate *d = &st->states[k];
        if (d->origin != NULL)
            err = bcw__strlist_add(&g->only_tests,
                                   bcw__sprintf("%s (%s, %u calls)", d->name,
                                                d->origin, d->ncover));
        else if (!tested(st, ts, NULL, (int)k))
            err = bcw__strlist_add(&g->states, bcw__strdup(d->name));
    }
    for (unsigned i = 0; i < st->ntrans && err == 0; i++) {
        const bcw_transition *t = &st->trans[i];
        if (tested(st, ts, t, -1))
            continue;
        char *step = bcw__step_text(u, &steps[t->step]);
        err = bcw__strlist_add(
            &g->transitions,
            step == NULL
                ? NULL
                : bcw__sprintf("%s --%s--> %s%s%s", st->states[t->from].name,
                               step,
                               t->to >= 0 ? st->states[t->to].name : "(halted)",
                               t->outcome != BCW_RUN_NORMAL ? " *" : "",
                               t->outcome != BCW_RUN_NORMAL
                                   ? bcw__outcome_name(t->outcome)
                                   : ""));
        free(step);
    }
    return err;
}

int bcw__learned_gaps(bcw_gaps *g, const bcw_learned *l, const bcw_tseqs *ts,
                      const bcw_states *st, const bcw_unit *u,
                      const bcw_step *steps, const uint16_t *ctors,
                      unsigned nctors, const uint16_t *methods,
                      unsigned nmethods, unsigned depth)
{
    bcw_gaps kept = *g; /* the caller's figures */
    memset(g, 0, sizeof *g);
    g->categories = kept.categories;
    g->ctors_before = kept.ctors_before;
    g->methods_before = kept.methods_before;
    g->growth = kept.growth;
    g->dropped = kept.dropped;
    g->ctors_after = nctors;
    g->methods_after = nmethods;
    g->sequences = ts->n;
    g->depth = depth;
    int err = 0;
    for (unsigned i = 0; i < ts->n && err == 0; i++) {
        g->longer += ts->v[i].len > depth;
        if (ts->v[i].cut != NULL)
            err = bcw__strlist_add(
                &g->cut, bcw__sprintf("%s: %s", ts->v[i].test, ts->v[i].cut));
    }
    for (unsigned i = 0; i < ts->none.n && err == 0; i++)
        err = bcw__strlist_add(&g->none, bcw__strdup(ts->none.v[i]));
    if (err == 0 && st != NULL)
        err = state_gaps(g, ts, st, u, steps);
    /* functions, each once */
    for (unsigned i = 0; i < nmethods && err == 0; i++) {
        const char *fn = u->funcs[steps[methods[i]].func].name;
        if (!tests_call(l, fn) && !walks_fn(u, steps, methods, i, fn))
            err = bcw__strlist_add(&g->methods, bcw__strdup(fn));
    }
    for (unsigned f = 0; f < u->nfuncs && err == 0; f++) {
        const char *fn = u->funcs[f].name;
        if (u->funcs[f].role != BCW_ROLE_DESTRUCTOR && tests_call(l, fn) &&
            !walks_fn(u, steps, methods, nmethods, fn) &&
            !walks_fn(u, steps, ctors, nctors, fn))
            err = bcw__strlist_add(
                &g->unwalked,
                u->funcs[f].unwalkable
                    ? bcw__sprintf("%s (%s)", fn, u->funcs[f].unwalkable)
                    : bcw__strdup(fn));
    }
    return err;
}

void bcw__gaps_free(bcw_gaps *g)
{
    bcw__strlist_free(&g->cut);
    bcw__strlist_free(&g->none);
    bcw__strlist_free(&g->only_tests);
    bcw__strlist_free(&g->states);
    bcw__strlist_free(&g->transitions);
    bcw__strlist_free(&g->methods);
    bcw__strlist_free(&g->unwalked);
    bcw__strlist_free(&g->dropped);
    memset(g, 0, sizeof *g);
}
