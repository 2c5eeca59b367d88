/* calls.c - a sequence's calls in words (calls.h): each argument as the
 * worker passed it, replayed from the master generator, the custom one
 * or the step's categories; results and out values in words. */
#define _POSIX_C_SOURCE 200809L
#include "calls.h"

#include "engine.h"

#include "plan.h"
#include "text.h"

#include <ctype.h>
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
                       bool json, bcw_c_names *c)
{
    int h = bcw__handle_index(r->unit, pa->detail);
    for (unsigned j = k, older = 0; j-- > 0;) {
        const bcw_func *g = &r->unit->funcs[r->steps[seq->steps[j]].func];
        int q = h < 0 ? -1 : given_in(r->unit, g, h);
        if (q < 0 && (h < 0 || bcw__handle_given(r->unit, g) != h))
            continue;
        if (older++ < age)
            continue;
        if (q >= 0 && c != NULL) {
            if (age > 0)
                c->why = "a handle filled in storage before the last";
            snprintf(buf, n, "bcw_store(\"%s\")", g->params[q].name);
            return;
        }
        if (q >= 0) {
            if (age > 0)
                snprintf(buf, n, "&%s_%u", g->params[q].name, age);
            else
                snprintf(buf, n, "&%s", g->params[q].name);
            return;
        }
        if (seq->rets[j] == BCW_PTR_NULL)
            break;
        if (c != NULL) {
            if (g->ret.by_value)
                c->why = "a handle returned as a struct by value";
            snprintf(buf, n, "r%u", j);
            return;
        }
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
    else if (c != NULL)
        c->why = "a handle the sequence never obtained";
    else if (json)
        snprintf(buf, n, "none");
    else
        snprintf(buf, n, "/* no %s */", pa->detail);
}

/* An integer of ABI class `abi` as a C literal. */
static void int_c(enum bcw_abi abi, uint64_t raw, char *buf, size_t n)
{
    if (bcw_abi_signed(abi)) {
        int64_t v = bcw_value_int(abi, raw);
        if (v == INT64_MIN)
            snprintf(buf, n, "(-9223372036854775807LL - 1)");
        else
            snprintf(buf, n, "%lldLL", (long long)v);
    } else {
        snprintf(buf, n, "%lluULL",
                 (unsigned long long)(abi == BCW_ABI_PTR
                                          ? raw
                                          : (uint64_t)bcw_value_int(abi, raw)));
    }
}

int bcw__c_name(char *buf, size_t n, const char *name, const char *after)
{
    size_t len = 0;
    if (len + 2 < n) {
        buf[len++] = 'L';
        buf[len++] = '_';
    }
    for (const char *p = name; *p && len + 1 < n; p++)
        buf[len++] = isalnum((unsigned char)*p) ? *p : '_';
    buf[len < n ? len : n - 1] = '\0';
    return (int)len + snprintf(buf + len, len < n ? n - len : 0, "%s", after);
}

/* A string argument in C: a writable copy of the literal, as the
 * worker passes one. */
static void string_c(bcw_c_names *c, char *buf, size_t n, const char *str)
{
    size_t len = (size_t)snprintf(buf, n, "bcw_str(");
    if (len < n)
        len += bcw__c_quote_to(buf + len, n - len, str, '"');
    if (len + 1 < n)
        snprintf(buf + len, n - len, ")");
    else
        c->why = "a string longer than an argument's C spelling can be";
}

/* A generated value `raw` of parameter pa in C: a number, a string
 * literal, an element's cell, zeroed storage. */
static void value_c(bcw_c_names *c, const bcw_param *pa, uint64_t raw,
                    char *buf, size_t n)
{
    switch (pa->kind) {
    case BCW_PK_STRING:
        string_c(c, buf, n, bcw_gen_strings[raw % BCW_STRINGS]);
        return;
    case BCW_PK_ELEMENT:
        if (raw == BCW_ELEMENT_NULL)
            snprintf(buf, n, "NULL");
        else
            snprintf(buf, n, "bcw_obj(%llu)", (unsigned long long)raw);
        return;
    case BCW_PK_FLOAT:
        bcw_value_format(buf, n, pa->kind, pa->abi, raw, 0);
        return;
    case BCW_PK_OUT:
    case BCW_PK_SCRATCH:
    case BCW_PK_UNIT_REF:
    case BCW_PK_UNIT_OUT:
        snprintf(buf, n, "bcw_cell(%u)",
                 pa->pointee_size ? pa->pointee_size : 8);
        return;
    case BCW_PK_FILE:
        snprintf(buf, n, "bcw_file()");
        return;
    case BCW_PK_CALLBACK:
    case BCW_PK_HANDLE:
        snprintf(buf, n, "NULL");
        return;
    case BCW_PK_STRUCT:
        c->why = "a struct passed by value";
        snprintf(buf, n, "0");
        return;
    default:
        int_c(pa->abi, raw, buf, n);
        return;
    }
}

/* The callback of category `part` of parameter pa in C: a library
 * function by its name, or a built-in one of pa's signature. */
static void callback_c(bcw_c_names *c, const bcw_param *pa,
                       const bcw_part *part, char *buf, size_t n)
{
    if (part->nvalues > 0 && part->values[0] == BCW_CB_NULL_VALUE) {
        snprintf(buf, n, "NULL");
        return;
    }
    if (part->nvalues > 0 && part->values[0] < 0) {
        if (pa->nsig == 0)
            c->why = "a built-in callback of unknown signature";
        for (unsigned i = 0; i < c->nbuiltins; i++)
            if (c->builtins[i].kind == -part->values[0] &&
                c->builtins[i].nsig == pa->nsig &&
                memcmp(c->builtins[i].sig, pa->sig, pa->nsig) == 0) {
                snprintf(buf, n, "bcw_cb_%u", i);
                return;
            }
        if (bcw__grow(&c->builtins, &c->capbuiltins, c->nbuiltins + 1,
                      sizeof *c->builtins) < 0) {
            c->why = "out of memory";
            return;
        }
        c->builtins[c->nbuiltins].kind = (int)-part->values[0];
        c->builtins[c->nbuiltins].nsig = pa->nsig;
        memcpy(c->builtins[c->nbuiltins].sig, pa->sig, sizeof pa->sig);
        snprintf(buf, n, "bcw_cb_%u", c->nbuiltins++);
        return;
    }
    bool known = false;
    for (unsigned i = 0; i < c->callbacks.n && !known; i++)
        known = strcmp(c->callbacks.v[i], part->str) == 0;
    if (!known && bcw__strlist_add(&c->callbacks, bcw__strdup(part->str)) < 0)
        c->why = "out of memory";
    size_t len = (size_t)snprintf(buf, n, "(void *)");
    if (len < n)
        bcw__c_name(buf + len, n - len, part->str, "");
}

/* The built-in callback of a callback field m (of an instance, of a
 * table of callbacks) in C. */
static void builtin_c(bcw_c_names *c, const bcw_field *m, char *buf, size_t n)
{
    bcw_param cb = {.kind = BCW_PK_CALLBACK, .nsig = m->nsig};
    memcpy(cb.sig, m->sig, sizeof cb.sig);
    bcw_part part = {.nvalues = 1, .values = {-(int64_t)m->callback}};
    callback_c(c, &cb, &part, buf, n);
}

/* A buffer argument in C: writable bytes as the worker filled them (a
 * category's content, then 'a' + i % 26), as many as the call's length
 * parameter says. */
static void buffer_c(const bcw_step *st, const bcw_func *f, unsigned p,
                     const uint64_t *outs, bcw_c_names *c, char *buf, size_t n)
{
    const bcw_param *pa = &f->params[p];
    uint64_t size = BCW_BUFFER_BYTES;
    int q = pa->pair;
    if (outs != NULL) {
        size = outs[p];
    } else if (q >= 0 && (unsigned)q < f->nparams) {
        uint64_t v = st->fixed[q] ? (uint64_t)st->value[q] : BCW_BUFFER_BYTES;
        if (st->relative[q] != NULL || st->custom[q])
            c->why = "a buffer whose length was not reported";
        if (v > size)
            size = v < (64u << 10) ? v : (64u << 10);
    }
    const char *content =
        st->fixed[p] && st->part[p] != NULL && st->part[p]->str != NULL
            ? st->part[p]->str
            : "";
    if (strlen(content) > size)
        size = strlen(content);
    size_t len =
        (size_t)snprintf(buf, n, "bcw_bytes(%llu, ", (unsigned long long)size);
    if (len < n)
        len += bcw__c_quote_to(buf + len, n - len, content, '"');
    if (len < n)
        snprintf(buf + len, n - len, ")");
}

/* Another unit's argument made by constructor `ctor` of unit `other`:
 * "sbuf_new(3)", "rb_tree_new(int_compare)", "cc_array_new(&out)",
 * "conf_init(&storage)", with the generated arguments drawn from `gen`
 * as the worker drew them, other units' instances in turn. */
static void ctor_call(const bcw_reporter *r, unsigned other, int ctor,
                      int depth, bcw_gen *gen, char *buf, size_t n,
                      bcw_c_names *c)
{
    const bcw_func *f = &r->model->units[other].funcs[ctor];
    /* in C an expression giving the instance: the call's result, or
     * the cell or storage it filled */
    const char *wrap = c == NULL ? ""
                       : f->role == BCW_ROLE_INIT_CONSTRUCTOR
                           ? "({ void *bcw_o = bcw_cell(%u); "
                           : "({ void *bcw_o = NULL; ";
    int len = snprintf(buf, n, wrap,
                       (unsigned)(r->model->units[other].size
                                      ? r->model->units[other].size
                                      : 8));
    bool out = false;
    if (c != NULL && f->role != BCW_ROLE_INIT_CONSTRUCTOR) {
        for (unsigned k = 0; k < f->nparams; k++)
            out |= f->params[k].kind == BCW_PK_UNIT_OUT;
        if (!out)
            len += snprintf(buf + len, n - (size_t)len, "bcw_o = ");
    }
    if (len >= 0 && (size_t)len < n)
        len += c != NULL ? bcw__c_name(buf + len, n - (size_t)len, f->name, "(")
                         : snprintf(buf + len, n - (size_t)len, "%s(", f->name);
    for (unsigned k = 0; k < f->nparams && len > 0 && (size_t)len < n; k++) {
        char v[4096];
        const bcw_param *p = &f->params[k];
        unsigned sub = 0;
        int ci = bcw__unit_ref_ctor_within(r->model, p, &sub, depth - 1);
        if (p->kind == BCW_PK_CALLBACK) {
            if (c != NULL)
                callback_c(c, p, &p->parts[0], v, sizeof v);
            else
                snprintf(v, sizeof v, "%s", p->parts[0].str);
        } else if (ci >= 0) {
            ctor_call(r, sub, ci, depth - 1, gen, v, sizeof v, c);
        } else if (p->kind == BCW_PK_UNIT_OUT) {
            snprintf(v, sizeof v, c != NULL ? "&bcw_o" : "&out");
        } else if (p->kind == BCW_PK_UNIT) {
            snprintf(v, sizeof v, c != NULL ? "bcw_o" : "&storage");
        } else {
            uint64_t raw = bcw_gen_next(gen, p->kind, p->abi);
            if (c != NULL)
                value_c(c, p, raw, v, sizeof v);
            else
                bcw_value_format(v, sizeof v, p->kind, p->abi, raw, 0);
        }
        len += snprintf(buf + len, n - (size_t)len, "%s%s", k ? ", " : "", v);
    }
    if (len > 0 && (size_t)len + 1 < n)
        len += snprintf(buf + len, n - (size_t)len, ")");
    if (c == NULL || len <= 0 || (size_t)len >= n)
        return;
    len += snprintf(buf + len, n - (size_t)len, ";");
    /* the callbacks the constructor left NULL, given built-ins as the
     * worker gives them (plan.c's fills) */
    const bcw_unit *o = &r->model->units[other];
    for (unsigned i = 0; i < o->nfields && (size_t)len < n; i++) {
        const bcw_field *m = &o->fields[i];
        if (m->callback == 0 || m->bits != 64 || m->offset % 8 != 0 ||
            m->offset + 8 > o->size)
            continue;
        char fn[64];
        builtin_c(c, m, fn, sizeof fn);
        len += snprintf(buf + len, n - (size_t)len,
                        " if (bcw_o != NULL && ((void **)bcw_o)[%u] == NULL) "
                        "((void **)bcw_o)[%u] = (void *)%s;",
                        m->offset / 8, m->offset / 8, fn);
    }
    if ((size_t)len < n)
        snprintf(buf + len, n - (size_t)len, " bcw_keep(bcw_o); })");
}

/* Zeroed storage whose members are callbacks the worker filled (a
 * table of callbacks): "&{hash = bcw_hash, equal = bcw_equal}", or in C
 * the storage with each member set to a built-in of its signature. */
static void members_arg(const bcw_param *pa, char *buf, size_t n,
                        bcw_c_names *c)
{
    size_t len =
        c != NULL ? (size_t)snprintf(buf, n, "({ void **bcw_t = bcw_cell(%u);",
                                     pa->pointee_size)
                  : (size_t)snprintf(buf, n, "&{");
    for (unsigned i = 0; i < pa->nmembers && len < n; i++) {
        const bcw_field *m = &pa->members[i];
        if (c == NULL) {
            len +=
                (size_t)snprintf(buf + len, n - len, "%s%s = %s", i ? ", " : "",
                                 m->name, bcw__callback_name(m->callback));
            continue;
        }
        char fn[64];
        builtin_c(c, m, fn, sizeof fn);
        len += (size_t)snprintf(buf + len, n - len, " bcw_t[%u] = (void *)%s;",
                                m->offset / 8, fn);
    }
    if (len < n)
        snprintf(buf + len, n - len, c != NULL ? " (void *)bcw_t; })" : "}");
}

/* Another unit's argument: its constructor's call (ctor_call), or
 * "&scratch" when it has no constructor bcwalk can call. */
static void unit_ref_arg(const bcw_reporter *r, const bcw_param *pa,
                         bcw_gen *gen, char *buf, size_t n, bcw_c_names *c)
{
    unsigned other = 0;
    int ctor = r->model ? bcw__unit_ref_ctor(r->model, pa, &other) : -1;
    if (ctor < 0 && c != NULL)
        snprintf(buf, n, "bcw_cell(%u)",
                 pa->pointee_size ? pa->pointee_size : 8);
    else if (ctor < 0)
        snprintf(buf, n, "&scratch");
    else
        ctor_call(r, other, ctor, BCW_REF_DEPTH, gen, buf, n, c);
}

/* A second instance of the unit, of its own: its constructor's call
 * (ctor_call); false when the unit has none a walk can call, and the
 * target is passed. */
static bool own_arg(const bcw_reporter *r, bcw_gen *gen, char *buf, size_t n,
                    bcw_c_names *c)
{
    int ctor = r->model ? bcw__unit_own_ctor(r->model, r->unit) : -1;
    if (ctor >= 0)
        ctor_call(r, (unsigned)(r->unit - r->model->units), ctor, BCW_REF_DEPTH,
                  gen, buf, n, c);
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

/* Argument p of call k of seq (a call of step st) into buf (n bytes),
 * drawing from `gen` what the worker drew: as the text report writes it,
 * with `json` as the jsonl report does, with `c` as C a standalone
 * program compiles (c->why set when it has none). */
static void arg_text(const bcw_reporter *r, const bcw_seq *seq, unsigned k,
                     const bcw_step *st, unsigned p, bcw_gen *gen, char *buf,
                     size_t n, bool json, bcw_c_names *c)
{
    const bcw_unit *u = r->unit;
    const bcw_func *f = &u->funcs[st->func];
    const bcw_param *pa = &f->params[p];
    const uint64_t *outs = k <= seq->len ? seq->outs[k] : NULL;
    if (st->relative[p]) {
        /* computed from the object at call time: the value the
         * worker passed, or the bound if the call did not report or
         * was not made (the object allowed no value) */
        bool unmade = seq->outcome == BCW_RUN_REJECTED &&
                      seq->signo == BCW_SIG_UNMET && seq->halted_at == k;
        if (outs != NULL && !unmade && c != NULL)
            int_c(pa->abi, outs[p], buf, n);
        else if (outs != NULL && !unmade)
            bcw_value_format(buf, n, BCW_PK_INT, pa->abi, outs[p], 0);
        else if (c != NULL)
            c->why = "a value computed from the object that was not reported";
        else
            snprintf(buf, n, "%s", st->relative[p]->rel_text);
        return;
    }
    if (c != NULL && pa->kind == BCW_PK_BUFFER) {
        buffer_c(st, f, p, outs, c, buf, n);
        return;
    }
    if (st->fixed[p] && pa->kind == BCW_PK_SCRATCH) {
        snprintf(buf, n, "NULL"); /* storage checked for NULL, given NULL */
        return;
    }
    if (st->fixed[p] && st->part[p] != NULL && st->part[p]->str) {
        if (pa->kind == BCW_PK_CALLBACK && c != NULL)
            callback_c(c, pa, st->part[p], buf, n);
        else if (pa->kind == BCW_PK_CALLBACK)
            snprintf(buf, n, "%s", st->part[p]->str);
        else if (c != NULL)
            string_c(c, buf, n, st->part[p]->str);
        else
            string_arg(buf, n, st->part[p]->str);
        return;
    }
    if (pa->kind == BCW_PK_BUFFER && outs != NULL) {
        snprintf(buf, n, "bytes[%llu]", (unsigned long long)outs[p]);
        return;
    }
    if (pa->kind == BCW_PK_UNIT && st->part[p] != NULL && !st->fixed[p] &&
        own_arg(r, gen, buf, n, c))
        return;
    if (st->fixed[p] && pa->kind == BCW_PK_OUT) {
        /* storage holding the value the function reads first */
        unsigned size = pa->pointee_size ? pa->pointee_size : 8;
        char v[64];
        bcw_value_format(v, sizeof v, BCW_PK_INT, (enum bcw_abi)pa->pointee,
                         (uint64_t)st->value[p], 0);
        if (c != NULL)
            snprintf(buf, n,
                     "({ void *bcw_v = bcw_cell(%u); uint64_t bcw_x = "
                     "%lluull; memcpy(bcw_v, &bcw_x, %u); bcw_v; })",
                     size, (unsigned long long)st->value[p],
                     size < 8 ? size : 8);
        else
            snprintf(buf, n, "&(%s)", v);
        return;
    }
    if (st->fixed[p] && pa->kind != BCW_PK_UNIT) {
        if (c != NULL)
            value_c(c, pa, (uint64_t)st->value[p], buf, n);
        else
            bcw_value_format(buf, n,
                             pa->kind == BCW_PK_ELEMENT ? BCW_PK_ELEMENT
                                                        : BCW_PK_INT,
                             pa->abi, (uint64_t)st->value[p], 0);
        return;
    }
    if (pa->kind == BCW_PK_HANDLE) {
        handle_arg(r, seq, k, pa, st->age[p], buf, n, json, c);
        return;
    }
    if (pa->kind == BCW_PK_UNIT_REF) {
        unit_ref_arg(r, pa, gen, buf, n, c);
        return;
    }
    if (st->custom[p]) {
        /* the custom generator's draw, replayed as the worker made it */
        const char *str = NULL;
        uint64_t raw = bcw__generator_next(r->gen, f, p, gen, &str);
        if (pa->kind == BCW_PK_STRING && c != NULL && str != NULL)
            string_c(c, buf, n, str);
        else if (pa->kind == BCW_PK_STRING)
            string_arg(buf, n, str);
        else if (c != NULL)
            int_c(pa->abi, raw, buf, n);
        else
            bcw_value_format(buf, n, pa->kind, pa->abi, raw, 0);
        return;
    }
    if (bcw__handle_given_in(u, f, p) >= 0) {
        /* storage the call fills and gives out as a handle */
        snprintf(buf, n, c != NULL ? "bcw_store(\"%s\")" : "&%s", pa->name);
        return;
    }
    uint64_t raw = bcw_gen_next(gen, pa->kind, pa->abi);
    if (pa->kind == BCW_PK_SCRATCH && pa->nmembers > 0) {
        members_arg(pa, buf, n, c);
        return;
    }
    if (c != NULL && (pa->kind == BCW_PK_UNIT || pa->kind == BCW_PK_UNIT_CELL ||
                      pa->kind == BCW_PK_UNIT_DEREF)) {
        /* a cell unit's target is its cell's value */
        snprintf(
            buf, n, "%s",
            (u->cell && pa->kind == BCW_PK_UNIT) || pa->kind == BCW_PK_UNIT_CELL
                ? "&target"
            : pa->kind == BCW_PK_UNIT_DEREF && !u->cell ? "*(void **)target"
                                                        : "target");
        return;
    }
    if (c != NULL && pa->kind == BCW_PK_UNIT_OUT && k == 0) {
        snprintf(buf, n, "&target");
        return;
    }
    if (c != NULL) {
        value_c(c, pa, raw, buf, n);
        return;
    }
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
        arg_text(r, seq, k, st, p, gen, args[p], sizeof args[p], json, NULL);
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

unsigned bcw__report_dtor_step(const bcw_reporter *r, const bcw_seq *s)
{
    const bcw_func *ctor = &r->unit->funcs[r->steps[s->steps[0]].func];
    unsigned form =
        bcw_wire_form_of(ctor->role, bcw__func_family(r->unit, ctor));
    return r->dtors[bcw_wire_destructor_of(s->steps, s->len, r->ndtors,
                                           r->dtor_forms, form,
                                           s->dtor_tries)];
}

const char *bcw__report_destructor(const bcw_reporter *r, const bcw_seq *s)
{
    return r->ndtors > 0
               ? r->unit->funcs[r->steps[bcw__report_dtor_step(r, s)].func].name
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

void bcw__calls_args_c(const bcw_reporter *r, const bcw_seq *seq, unsigned k,
                       unsigned step, bcw_gen *gen, bcw_c_names *c,
                       char (*args)[BCW_C_ARG_CHARS])
{
    const bcw_step *st = &r->steps[step];
    const bcw_func *f = &r->unit->funcs[st->func];
    for (unsigned p = 0; p < f->nparams; p++)
        arg_text(r, seq, k, st, p, gen, args[p], sizeof args[p], false, c);
}

void bcw__c_names_free(bcw_c_names *c)
{
    bcw__strlist_free(&c->callbacks);
    free(c->builtins);
}
