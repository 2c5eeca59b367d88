/* calls.c - a sequence's calls in words (calls.h): each argument as the
 * worker passed it, replayed from the master generator, the custom one
 * or the step's categories; results and out values in words. */
#define _POSIX_C_SOURCE 200809L
#include "calls.h"

#include "engine.h"

#include "plan.h"
#include "text.h"

#include <string.h>

#define SHOWN_CHARS 24 /* of a string argument, then its length */

/* Parameter of `g` through which it gives out handle h (the storage it
 * fills), or -1. */
static int given_in(const bcw_unit *u, const bcw_func *g, int h)
{
    for (unsigned q = 0; q < g->nparams; q++)
        if (bcw__handle_given_in(u, g, q) == h)
            return (int)q;
    return -1;
}

/* A struct result of f as "{ptr#0, 7}": its first element `first`, the
 * others as the worker reported them after f's parameters' outs. */
static void struct_text(const bcw_func *f, uint64_t first, const uint64_t *outs,
                        char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "{");
    for (unsigned e = 0; e < f->ret.nsig && len < n; e++) {
        char v[64];
        unsigned slot = f->nparams + e - 1;
        if (e > 0 && (outs == NULL || slot >= BCW_MAX_PARAMS))
            snprintf(v, sizeof v, "?");
        else
            bcw_value_format(v, sizeof v, BCW_PK_OUT,
                             (enum bcw_abi)f->ret.sig[e],
                             e == 0 ? first : outs[slot], 1);
        len += (size_t)snprintf(buf + len, n - len, "%s%s", e ? ", " : "", v);
    }
    if (len < n)
        snprintf(buf + len, n - len, "}");
}

/* The handle argument of parameter `pa` of call k: the result of the
 * earlier call giving out that handle `age` calls before the last one
 * that did, as the worker passed it, or the storage it filled ("&iter",
 * an older one "&iter_1"); a call with none takes NULL, or is not made
 * ("none", in C a comment). */
static void handle_arg(const bcw_reporter *r, const bcw_seq *seq, unsigned k,
                       const bcw_param *pa, unsigned age, char *buf, size_t n,
                       bool json)
{
    int h = bcw__handle_index(r->unit, pa->detail);
    for (unsigned j = k, older = 0; j-- > 0;) {
        const bcw_func *g = &r->unit->funcs[r->steps[seq->steps[j]].func];
        int q = h < 0 ? -1 : given_in(r->unit, g, h);
        if (q < 0 && (h < 0 || bcw__handle_given(r->unit, g) != h))
            continue;
        if (older++ < age)
            continue;
        if (q >= 0) {
            if (age > 0)
                snprintf(buf, n, "&%s_%u", g->params[q].name, age);
            else
                snprintf(buf, n, "&%s", g->params[q].name);
            return;
        }
        if (seq->rets[j] == BCW_PTR_NULL)
            break;
        if (g->ret.by_value && age > 0) /* a copy of the struct it returned */
            snprintf(buf, n, "&it_%u", age);
        else if (g->ret.by_value)
            snprintf(buf, n, "&it");
        else
            bcw_value_format(buf, n, BCW_PK_HANDLE, BCW_ABI_PTR, seq->rets[j],
                             1);
        return;
    }
    if (pa->nullable)
        snprintf(buf, n, "NULL");
    else if (json)
        snprintf(buf, n, "none");
    else
        snprintf(buf, n, "/* no %s */", pa->detail);
}

/* Another unit's argument made by constructor `ctor` of unit `other`:
 * "sbuf_new(3)", "rb_tree_new(int_compare)", "cc_array_new(&out)",
 * "conf_init(&storage)", with the generated arguments drawn from `gen`
 * as the worker drew them, other units' instances in turn. */
static void ctor_call(const bcw_reporter *r, unsigned other, int ctor,
                      int depth, bcw_gen *gen, char *buf, size_t n)
{
    const bcw_func *f = &r->model->units[other].funcs[ctor];
    int len = snprintf(buf, n, "%s(", f->name);
    for (unsigned k = 0; k < f->nparams && len > 0 && (size_t)len < n; k++) {
        char v[256];
        const bcw_param *p = &f->params[k];
        unsigned sub = 0;
        int c = bcw__unit_ref_ctor_within(r->model, p, &sub, depth - 1);
        if (p->kind == BCW_PK_CALLBACK) {
            snprintf(v, sizeof v, "%s", p->parts[0].str);
        } else if (c >= 0) {
            ctor_call(r, sub, c, depth - 1, gen, v, sizeof v);
        } else if (p->kind == BCW_PK_UNIT_OUT) {
            snprintf(v, sizeof v, "&out");
        } else if (p->kind == BCW_PK_UNIT) {
            snprintf(v, sizeof v, "&storage");
        } else {
            bcw_value_format(v, sizeof v, p->kind, p->abi,
                             bcw_gen_next(gen, p->kind, p->abi), 0);
        }
        len += snprintf(buf + len, n - (size_t)len, "%s%s", k ? ", " : "", v);
    }
    if (len > 0 && (size_t)len + 1 < n)
        snprintf(buf + len, n - (size_t)len, ")");
}

/* Another unit's argument: its constructor's call (ctor_call), or
 * "&scratch" when it has no constructor bcwalk can call. */
static void unit_ref_arg(const bcw_reporter *r, const bcw_param *pa,
                         bcw_gen *gen, char *buf, size_t n)
{
    unsigned other = 0;
    int ctor = r->model ? bcw__unit_ref_ctor(r->model, pa, &other) : -1;
    if (ctor < 0)
        snprintf(buf, n, "&scratch");
    else
        ctor_call(r, other, ctor, BCW_REF_DEPTH, gen, buf, n);
}

/* A second instance of the unit, of its own: its constructor's call
 * (ctor_call); false when the unit has none a walk can call, and the
 * target is passed. */
static bool own_arg(const bcw_reporter *r, bcw_gen *gen, char *buf, size_t n)
{
    int ctor = r->model ? bcw__unit_own_ctor(r->model, r->unit) : -1;
    if (ctor >= 0)
        ctor_call(r, (unsigned)(r->unit - r->model->units), ctor, BCW_REF_DEPTH,
                  gen, buf, n);
    return ctor >= 0;
}

/* A string argument: a C literal (so ASCII), a long one by its start
 * and length, or NULL. */
static void string_arg(char *buf, size_t n, const char *str)
{
    if (str == NULL) {
        snprintf(buf, n, "NULL");
        return;
    }
    size_t len = strlen(str);
    char head[SHOWN_CHARS + 1], q[4 * SHOWN_CHARS + 3];
    snprintf(head, sizeof head, "%s", str);
    if (len > SHOWN_CHARS) {
        bcw__c_quote_to(q, sizeof q, head, '"');
        snprintf(buf, n, "%.26s... (%zu chars)", q, len);
    } else {
        bcw__c_quote_to(buf, n, head, '"');
    }
}

/* A call's text (a string it returned, a buffer it filled) as a C
 * literal, any bytes escaped, `...` after one that went on. */
static void text_literal(const bcw_seq_text *t, char *buf, size_t n)
{
    char bytes[BCW_TEXT_MAX + 1];
    memcpy(bytes, t->at, t->n);
    bytes[t->n] = '\0';
    size_t len = bcw__c_quote_to(buf, n, bytes, '"');
    if (t->cut && len < n)
        snprintf(buf + len, n - len, "...");
}

/* Argument p of call k of seq into buf (n bytes), drawing from `gen`
 * what the worker drew. */
static void arg_text(const bcw_reporter *r, const bcw_seq *seq, unsigned k,
                     unsigned p, bcw_gen *gen, char *buf, size_t n, bool json)
{
    const bcw_unit *u = r->unit;
    const bcw_step *st = &r->steps[seq->steps[k]];
    const bcw_func *f = &u->funcs[st->func];
    const bcw_param *pa = &f->params[p];
    if (st->relative[p]) {
        /* computed from the object at call time: the value the
         * worker passed, or the bound if the call did not report or
         * was not made (the object allowed no value) */
        bool unmade = seq->outcome == BCW_RUN_REJECTED &&
                      seq->signo == BCW_SIG_UNMET && seq->halted_at == k;
        if (seq->outs[k] != NULL && !unmade)
            bcw_value_format(buf, n, BCW_PK_INT, pa->abi, seq->outs[k][p], 0);
        else
            snprintf(buf, n, "%s", st->relative[p]->rel_text);
        return;
    }
    if (st->fixed[p] && st->part[p] != NULL && st->part[p]->str) {
        if (pa->kind == BCW_PK_CALLBACK)
            snprintf(buf, n, "%s", st->part[p]->str);
        else
            string_arg(buf, n, st->part[p]->str);
        return;
    }
    if (pa->kind == BCW_PK_BUFFER && seq->outs[k] != NULL) {
        snprintf(buf, n, "bytes[%llu]", (unsigned long long)seq->outs[k][p]);
        return;
    }
    if (pa->kind == BCW_PK_UNIT && st->part[p] != NULL && !st->fixed[p] &&
        own_arg(r, gen, buf, n))
        return;
    if (st->fixed[p] && pa->kind != BCW_PK_UNIT) {
        bcw_value_format(
            buf, n, pa->kind == BCW_PK_ELEMENT ? BCW_PK_ELEMENT : BCW_PK_INT,
            pa->abi, (uint64_t)st->value[p], 0);
        return;
    }
    if (pa->kind == BCW_PK_HANDLE) {
        handle_arg(r, seq, k, pa, st->age[p], buf, n, json);
        return;
    }
    if (pa->kind == BCW_PK_UNIT_REF) {
        unit_ref_arg(r, pa, gen, buf, n);
        return;
    }
    if (st->custom[p]) {
        /* the custom generator's draw, replayed as the worker made it */
        const char *str = NULL;
        uint64_t raw = bcw__generator_next(r->gen, f, p, gen, &str);
        if (pa->kind == BCW_PK_STRING)
            string_arg(buf, n, str);
        else
            bcw_value_format(buf, n, pa->kind, pa->abi, raw, 0);
        return;
    }
    if (bcw__handle_given_in(u, f, p) >= 0) {
        /* storage the call fills and gives out as a handle */
        snprintf(buf, n, "&%s", pa->name);
        return;
    }
    uint64_t raw = bcw_gen_next(gen, pa->kind, pa->abi);
    if ((pa->kind == BCW_PK_UNIT || pa->kind == BCW_PK_UNIT_DEREF ||
         pa->kind == BCW_PK_UNIT_CELL) &&
        (json || u->cell || pa->kind == BCW_PK_UNIT_CELL))
        /* a cell unit's cell is &target; its value, target; the address
         * of a unit's handle, &target */
        snprintf(buf, n, "%s%s",
                 (u->cell && pa->kind == BCW_PK_UNIT) ||
                         pa->kind == BCW_PK_UNIT_CELL
                     ? "&"
                     : "",
                 json ? "#0" : "target");
    else
        bcw_value_format(buf, n, pa->kind, pa->abi, raw, 0);
}

/* The result of call k of seq, a call of f, into result (n bytes); ""
 * for void. */
static void result_text(const bcw_func *f, const bcw_seq *seq, unsigned k,
                        char *result, size_t n)
{
    result[0] = '\0';
    bcw_seq_text t = {0};
    if (f->ret.kind == BCW_PK_STRING && seq->outs[k] != NULL)
        t = bcw_seq_text_of(seq->outs[k]);
    if (f->ret.kind == BCW_PK_STRUCT)
        struct_text(f, seq->rets[k], seq->outs[k], result, n);
    else if (t.there && t.of == 0)
        /* a string by its content: the same whatever its address */
        text_literal(&t, result, n);
    else if (f->ret.kind == BCW_PK_STRING)
        /* NULL, or where the worker could not read: by its number */
        bcw_value_format(result, n, BCW_PK_ELEMENT, f->ret.abi, seq->rets[k],
                         1);
    else if (f->ret.kind != BCW_PK_NONE)
        bcw_value_format(result, n, f->ret.kind, f->ret.abi, seq->rets[k], 1);
}

const bcw_func *bcw__report_call(const bcw_reporter *r, const bcw_seq *seq,
                                 unsigned k, bcw_gen *gen, char (*args)[64],
                                 const char **labels, char *result, size_t n,
                                 bool json)
{
    const bcw_step *st = &r->steps[seq->steps[k]];
    const bcw_func *f = &r->unit->funcs[st->func];
    for (unsigned p = 0; p < f->nparams; p++) {
        labels[p] = st->label[p];
        arg_text(r, seq, k, p, gen, args[p], sizeof args[p], json);
    }
    result_text(f, seq, k, result, n);
    return f;
}

unsigned bcw__calls_shown(const bcw_seq *s)
{
    if (s->outcome == BCW_RUN_NORMAL || s->outcome == BCW_RUN_REJECTED)
        return s->len + 1;
    return s->halted_at <= s->len ? s->halted_at + 1u : s->len + 2u;
}

bool bcw__calls_result_shown(const bcw_seq *s, unsigned k)
{
    bool halted = s->outcome != BCW_RUN_NORMAL && k + 1 == bcw__calls_shown(s);
    return k >= s->nprefix && !(halted && (s->outcome != BCW_RUN_REJECTED ||
                                           s->signo == BCW_SIG_NO_ARG));
}

bool bcw__calls_out(const bcw_step *st, const bcw_param *pa, unsigned p,
                    const uint64_t *outs, char *buf, size_t n)
{
    uint64_t raw = outs[p];
    if (bcw__param_filled(pa)) {
        bcw_seq_text t = bcw_seq_text_of(outs);
        if (!t.there || t.of != p + 1)
            return false;
        text_literal(&t, buf, n);
        return true;
    }
    if (pa->kind == BCW_PK_OUT) {
        bcw_value_format(buf, n, BCW_PK_OUT, pa->pointee, raw, 1);
        return true;
    }
    if (pa->kind == BCW_PK_CALLBACK && st->part[p] != NULL &&
        st->part[p]->nvalues > 0 && st->part[p]->values[0] < 0) {
        snprintf(buf, n, "%llu call%s", (unsigned long long)raw,
                 raw == 1 ? "" : "s");
        return true;
    }
    return false;
}

const char *bcw__calls_dtor_arg(const bcw_seq *s, bool json)
{
    if (s->halted_at == s->len + 2u && s->outcome != BCW_RUN_NORMAL)
        return "NULL";
    return json ? "#0" : "target";
}

const char *bcw__report_destructor(const bcw_reporter *r, const bcw_seq *s)
{
    unsigned d = bcw_wire_destructor_of(s->steps, s->len, r->ndtors);
    return r->ndtors > 0 ? r->unit->funcs[r->steps[r->dtors[d]].func].name
                         : "?";
}

const char *bcw__calls_name(const bcw_reporter *r, const bcw_seq *s, uint32_t c)
{
    if (c <= s->len)
        return r->unit->funcs[r->steps[s->steps[c]].func].name;
    return c == s->len + 1 || c == s->len + 2 ? bcw__report_destructor(r, s)
                                              : "?";
}

const char *bcw__report_halted_fn(const bcw_reporter *r, const bcw_seq *s)
{
    return bcw__calls_name(r, s, s->halted_at);
}
