/* learn.c - a unit's model from its library's traced tests (learn.h):
 * each test's calls of the unit, and those that made their arguments,
 * with their values named; then the graph of them (learn_graph.c),
 * merged (learn_merge.c). */
#define _POSIX_C_SOURCE 200809L
#include "learn.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
 * unit's own, and the last to give an object a needed call takes.  The
 * calls name Obj#1 .. Obj#objs (the namer's last). */
static int mark_needed(const bcw_lcall *calls, unsigned n, unsigned objs,
                       bool *need)
{
    bool *wanted = bcw__calloc((size_t)objs + 1, sizeof *wanted);
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

/* Test x of trace t as unit u (number uidx) sees it: how it ended, and
 * its calls the unit's calls need, named. */
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
        err = mark_needed(all, x->ncalls, nm.objs, need);
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

/* ---- the model ---- */

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
