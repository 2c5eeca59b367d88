/* model_print.c - the model for people (text) and tools (JSON). */
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "text.h"

static bool is_ctor(enum bcw_role r)
{
    return r == BCW_ROLE_CONSTRUCTOR || r == BCW_ROLE_INIT_CONSTRUCTOR ||
           r == BCW_ROLE_EMPTY;
}

static void json_params(FILE *f, const bcw_model *m, const bcw_func *fn)
{
    fputs("\"params\": [", f);
    for (unsigned k = 0; k < fn->nparams; k++) {
        const bcw_param *p = &fn->params[k];
        fputs(k ? ", {\"name\": " : "{\"name\": ", f);
        bcw__json_str(f, p->name);
        fputs(", \"type\": ", f);
        bcw__json_str(f, p->ctype);
        fprintf(f, ", \"kind\": \"%s\"", bcw__kind_name(p->kind));
        if (p->detail != NULL) {
            fputs(p->kind == BCW_PK_ENUM       ? ", \"enumerators\": "
                  : p->kind == BCW_PK_CALLBACK ? ", \"signature\": "
                  : p->kind == BCW_PK_HANDLE   ? ", \"handle\": "
                                               : ", \"unit\": ",
                  f);
            bcw__json_str(f, p->detail);
        }
        if (p->elem_size)
            fputs(", \"element_size\": true", f);
        if (p->taken)
            fputs(", \"taken\": true", f);
        if (p->alias_checked)
            fputs(", \"alias_checked\": true", f);
        if (p->nmembers > 0) {
            /* a table of callbacks, each member given a built-in */
            fputs(", \"members\": [", f);
            for (unsigned i = 0; i < p->nmembers; i++) {
                fputs(i ? ", {\"name\": " : "{\"name\": ", f);
                bcw__json_str(f, p->members[i].name);
                fprintf(f, ", \"offset\": %u, \"callback\": \"%s\"}",
                        p->members[i].offset,
                        bcw__callback_name(p->members[i].callback));
            }
            fprintf(f, "], \"members_all\": %s",
                    p->members_all ? "true" : "false");
        }
        if (p->needs_set != 0) {
            /* the byte offsets of the pointers it follows unchecked */
            const char *sep = ", \"needs_set\": [";
            for (uint64_t b = p->needs_set; b != 0; b &= b - 1, sep = ", ")
                fprintf(f, "%s%d", sep, 8 * __builtin_ctzll(b));
            fputs("]", f);
        }
        unsigned other;
        int ctor = bcw__unit_ref_ctor(m, p, &other);
        if (p->kind == BCW_PK_UNIT_REF) {
            /* the constructor that makes the argument, or null: zeroed
             * storage */
            fputs(", \"made_by\": ", f);
            if (ctor >= 0)
                bcw__json_str(f, m->units[other].funcs[ctor].name);
            else
                fputs("null", f);
        }
        if (p->pair >= 0) {
            fputs(p->kind == BCW_PK_BUFFER ? ", \"length\": "
                                           : ", \"buffer\": ",
                  f);
            bcw__json_str(f, fn->params[p->pair].name);
        }
        if (p->nullable)
            fputs(", \"nullable\": true", f);
        if (p->nparts > 0) {
            fputs(", \"partitions\": [", f);
            for (unsigned c = 0; c < p->nparts; c++) {
                fputs(c ? ", {\"label\": " : "{\"label\": ", f);
                bcw__json_str(f, p->parts[c].label);
                fputs(", \"values\": [", f);
                for (unsigned v = 0; v < p->parts[c].nvalues; v++)
                    fprintf(f, "%s\"%lld\"", v ? ", " : "",
                            (long long)p->parts[c].values[v]);
                fputs("]", f);
                if (p->parts[c].str != NULL) {
                    fputs(p->kind == BCW_PK_CALLBACK ? ", \"function\": "
                                                     : ", \"string\": ",
                          f);
                    bcw__json_str(f, p->parts[c].str);
                }
                if (p->parts[c].rel_text != NULL) {
                    fputs(", \"relative\": ", f);
                    bcw__json_str(f, p->parts[c].rel_text);
                }
                fputs("}", f);
            }
            fputs("]", f);
        }
        if (p->parts_note != NULL) {
            fputs(", \"partitions_note\": ", f);
            bcw__json_str(f, p->parts_note);
        }
        fputs("}", f);
    }
    fputs("]", f);
}

static void json_strv(FILE *f, const char *key, char **v, unsigned n)
{
    fprintf(f, ", \"%s\": [", key);
    for (unsigned i = 0; i < n; i++) {
        fputs(i ? ", " : "", f);
        bcw__json_str(f, v[i]);
    }
    fputs("]", f);
}

static void json_term(FILE *f, const bcw_term *t)
{
    switch (t->kind) {
    case BCW_TERM_CONST:
        fprintf(f, "{\"const\": %lld}", (long long)t->value);
        break;
    case BCW_TERM_NULL:
        fputs("{\"null\": true}", f);
        break;
    case BCW_TERM_FIELD:
        fprintf(f, "{\"field\": %u, \"bits\": %u", t->offset, t->bits);
        if (t->via >= 0)
            fprintf(f, ", \"via\": %d", t->via);
        fputs("}", f);
        break;
    }
}

static const char *cmp_name(enum bcw_cmp op)
{
    static const char *const names[] = {"==", "<", "<=", "<u", "<=u"};
    return names[op];
}

static void json_preds(FILE *f, const bcw_unit *u)
{
    fputs(",\n      \"predicates\": [", f);
    for (unsigned i = 0; i < u->npreds; i++) {
        const bcw_pred *p = &u->preds[i];
        fputs(i ? ",\n        {\"name\": " : "\n        {\"name\": ", f);
        bcw__json_str(f, p->name);
        if (p->interface) {
            fputs(", \"source\": \"interface\", \"expr\": ", f);
            char call[160];
            snprintf(call, sizeof call, "%s(target)", u->funcs[p->func].name);
            bcw__json_str(f, call);
            fputs(", \"function\": ", f);
            bcw__json_str(f, u->funcs[p->func].name);
        } else {
            fputs(", \"source\": \"bitcode\", \"expr\": ", f);
            bcw__json_str(f, p->name);
            fprintf(f, ", \"op\": \"%s\", \"l\": ", cmp_name(p->op));
            json_term(f, &p->l);
            fputs(", \"r\": ", f);
            json_term(f, &p->r);
            json_strv(f, "used_by", p->users, p->nusers);
        }
        fputs("}", f);
    }
    fputs(u->npreds ? "\n      ]" : "]", f);
}

static void json_fields(FILE *f, const bcw_unit *u)
{
    fputs(",\n      \"fields\": [", f);
    for (unsigned i = 0; i < u->nfields; i++) {
        fputs(i ? ", {\"name\": " : "{\"name\": ", f);
        bcw__json_str(f, u->fields[i].name);
        fprintf(f, ", \"offset\": %u, \"bits\": %u", u->fields[i].offset,
                u->fields[i].bits);
        if (u->fields[i].callback != 0)
            fprintf(f, ", \"callback\": \"%s\"",
                    bcw__callback_name(u->fields[i].callback));
        fputs("}", f);
    }
    fputs("]", f);
}

/* The unit's contracts, all methods together, and its invariant. */
static void json_contracts(FILE *f, const bcw_unit *u)
{
    fputs(",\n      \"contracts\": [", f);
    bool first = true;
    if (u->invariant >= 0) {
        fputs("\n        {\"kind\": \"invariant_function\", \"function\": ", f);
        bcw__json_str(f, u->funcs[u->invariant].name);
        fputs("}", f);
        first = false;
    }
    for (unsigned i = 0; i < u->nfuncs; i++) {
        const bcw_func *fn = &u->funcs[i];
        for (unsigned k = 0; k < fn->ncontracts; k++) {
            fputs(first ? "\n        {\"function\": "
                        : ",\n        {\"function\": ",
                  f);
            first = false;
            bcw__json_str(f, fn->name);
            fprintf(f, ", \"kind\": \"%s\", \"expr\": ",
                    bcw__contract_name(fn->contracts[k].kind));
            bcw__json_str(f, fn->contracts[k].expr);
            fputs("}", f);
        }
    }
    fputs(first ? "]" : "\n      ]", f);
}

static void json_funcs(FILE *f, const bcw_model *m, const bcw_unit *u,
                       const char *key, bool (*want)(enum bcw_role),
                       bool with_role)
{
    fprintf(f, ",\n      \"%s\": [", key);
    bool first = true;
    for (unsigned j = 0; j < u->nfuncs; j++) {
        const bcw_func *fn = &u->funcs[j];
        if (!want(fn->role))
            continue;
        fputs(first ? "\n        {\"name\": " : ",\n        {\"name\": ", f);
        first = false;
        bcw__json_str(f, fn->name);
        if (with_role)
            fprintf(f, ", \"role\": \"%s\"", bcw__role_name(fn->role));
        if (fn->why != NULL) {
            fputs(", \"why\": ", f);
            bcw__json_str(f, fn->why);
        }
        if (fn->unwalkable != NULL) {
            fputs(", \"not_walked\": ", f);
            bcw__json_str(f, fn->unwalkable);
        }
        if (fn->ret.into_unit)
            fputs(", \"returns_into_unit\": true", f);
        if (fn->rebinds)
            fputs(", \"rebinds\": true", f);
        if (fn->retains)
            fputs(", \"retains\": true", f);
        if (fn->defaults)
            fputs(", \"defaults\": true", f);
        if (fn->family != NULL) {
            fputs(", \"family\": ", f);
            bcw__json_str(f, fn->family);
        }
        if (fn->teardown == BCW_TEARDOWN_RELEASES)
            fputs(", \"teardown\": \"releases\"", f);
        if (fn->ok != BCW_STATUS_NONE)
            fprintf(f, ", \"succeeds_with\": \"%s\"",
                    fn->ok == BCW_STATUS_ZERO ? "zero" : "nonzero");
        if (fn->self > 0)
            fprintf(f, ", \"self\": %d", fn->self);
        json_strv(f, "reads", fn->reads, fn->nreads);
        json_strv(f, "writes", fn->wrote, fn->nwrote);
        fputs(", \"contracts\": [", f);
        for (unsigned k = 0; k < fn->ncontracts; k++) {
            fprintf(f, "%s{\"kind\": \"%s\", \"expr\": ", k ? ", " : "",
                    bcw__contract_name(fn->contracts[k].kind));
            bcw__json_str(f, fn->contracts[k].expr);
            fputs("}", f);
        }
        fputs("]", f);
        fputs(", \"returns\": ", f);
        bcw__json_str(f, fn->ret.ctype);
        if (fn->is_static)
            fputs(", \"static\": true", f);
        fputs(", ", f);
        json_params(f, m, fn);
        fputs("}", f);
    }
    fputs(first ? "]" : "\n      ]", f);
}

static bool want_ctor(enum bcw_role r)
{
    return is_ctor(r);
}

static bool want_dtor(enum bcw_role r)
{
    return r == BCW_ROLE_DESTRUCTOR;
}

static bool want_method(enum bcw_role r)
{
    return r == BCW_ROLE_OBSERVER || r == BCW_ROLE_MUTATOR;
}

/* Is u no abstract data type but a struct made for other units'
 * functions (a configuration its init fills for a constructor, a node
 * handed to a list): no method, no destructor? */
static bool is_part(const bcw_unit *u)
{
    for (unsigned j = 0; j < u->nfuncs; j++)
        if (want_method(u->funcs[j].role) || want_dtor(u->funcs[j].role))
            return false;
    return true;
}

/* The units (`parts` false) or the parts (true) as a JSON array's
 * items. */
static void json_units(const bcw_model *m, int only, bool parts, FILE *f)
{
    bool first = true;
    for (unsigned i = 0; i < m->nunits; i++) {
        if ((only >= 0 && (unsigned)only != i) ||
            is_part(&m->units[i]) != parts)
            continue;
        const bcw_unit *u = &m->units[i];
        fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
        first = false;
        bcw__json_str(f, u->name);
        fputs(", \"type\": ", f);
        bcw__json_str(f, u->ctype);
        fprintf(f, ", \"size\": %llu", (unsigned long long)u->size);
        if (u->cell)
            fputs(", \"in_caller_cell\": true", f);
        json_funcs(f, m, u, "constructors", want_ctor, true);
        json_funcs(f, m, u, "destructors", want_dtor, false);
        json_funcs(f, m, u, "methods", want_method, true);
        json_fields(f, u);
        json_preds(f, u);
        json_contracts(f, u);
        fputs(",\n      \"handles\": [", f);
        for (unsigned j = 0; j < u->nhandles; j++) {
            const bcw_handle *h = &u->handles[j];
            fputs(j ? ", {\"type\": " : "{\"type\": ", f);
            bcw__json_str(f, h->type);
            json_strv(f, "from", h->from, h->nfrom);
            json_strv(f, "used_by", h->users, h->nusers);
            json_strv(f, "invalidated_by", h->invalidators, h->ninvalidators);
            fputs("}", f);
        }
        fputs("]", f);
        fputs("}", f);
    }
    fputs(first ? "]" : "\n  ]", f);
}

static void write_json(const bcw_model *m, int only, FILE *f)
{
    fputs("{\"file\": ", f);
    bcw__json_str(f, m->path);
    fputs(",\n  \"units\": [", f);
    json_units(m, only, false, f);
    fputs(",\n  \"parts\": [", f);
    json_units(m, only, true, f);
    fputs(",\n  \"skipped\": [", f);
    for (unsigned i = 0; i < m->nskipped; i++) {
        fputs(i ? ", " : "", f);
        bcw__json_str(f, m->skipped[i]);
    }
    fputs("]}\n", f);
}

static void write_signature(const bcw_func *fn, FILE *f)
{
    const char *rt = fn->ret.ctype;
    size_t n = strlen(rt);
    fprintf(f, "%s%s%s(", rt, n && rt[n - 1] == '*' ? "" : " ", fn->name);
    for (unsigned k = 0; k < fn->nparams; k++) {
        const char *t = fn->params[k].ctype;
        size_t tn = strlen(t);
        const char *star = strstr(t, "(*)");
        if (star != NULL) /* a callback: the name goes inside (*) */
            fprintf(f, "%s%.*s(*%s)%s", k ? ", " : "", (int)(star - t), t,
                    fn->params[k].name, star + 3);
        else
            fprintf(f, "%s%s%s%s", k ? ", " : "", t,
                    tn && t[tn - 1] == '*' ? "" : " ", fn->params[k].name);
    }
    fputs(fn->nparams ? ")" : "void)", f);
}

static void text_strv(FILE *f, const char *what, char **v, unsigned n)
{
    if (n == 0)
        return;
    fprintf(f, "  %-16s %s", "", what);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%s %s", i ? "," : "", v[i]);
    fputc('\n', f);
}

static void text_parts(FILE *f, const bcw_param *p)
{
    for (unsigned c = 0; c < p->nparts; c++) {
        fprintf(f, "  %-16s %s in [%s]:", "", p->name, p->parts[c].label);
        if (p->parts[c].rel_text != NULL)
            fprintf(f, " %s (on the live object)", p->parts[c].rel_text);
        if (p->parts[c].str != NULL && p->kind == BCW_PK_CALLBACK) {
            fprintf(f, " %s\n", p->parts[c].str);
            continue;
        }
        if (p->parts[c].str != NULL) {
            fputc(' ', f);
            bcw__c_quote_file(f, p->parts[c].str, '"');
            fputc('\n', f);
            continue;
        }
        for (unsigned v = 0; v < p->parts[c].nvalues; v++)
            fprintf(f, "%s %lld", v ? "," : "",
                    (long long)p->parts[c].values[v]);
        fputc('\n', f);
    }
    if (p->parts_note != NULL)
        fprintf(f, p->nparts == 0 ? "  %-16s %s: no categories (%s)\n"
                                  : "  %-16s %s: %s\n",
                "", p->name,
                p->parts_note);
}

/* How a walk makes a unit_ref or handle argument. */
static void text_made(FILE *f, const bcw_model *m, const bcw_param *p)
{
    unsigned unit;
    int ctor = bcw__unit_ref_ctor(m, p, &unit);
    if (p->elem_size)
        fprintf(f,
                "  %-16s %s: the size of the elements it copies (built-in "
                "callbacks read that many bytes of an element)\n",
                "", p->name);
    else if (p->nmembers > 0) {
        fprintf(f, "  %-16s %s: zeroed storage, its members", "", p->name);
        for (unsigned i = 0; i < p->nmembers; i++)
            fprintf(f, "%s %s = %s", i ? "," : "", p->members[i].name,
                    bcw__callback_name(p->members[i].callback));
        fputs(p->members_all ? "\n" : " (the rest made up)\n", f);
    }
    else if (p->kind == BCW_PK_HANDLE) {
        fprintf(f, "  %-16s %s: the %s handle given out last", "", p->name,
                p->detail);
        /* the pointer fields it follows: set, or the call is not made */
        const char *sep = ", its pointers at byte ";
        for (uint64_t b = p->needs_set; b != 0; b &= b - 1, sep = ", ")
            fprintf(f, "%s%d", sep, 8 * __builtin_ctzll(b));
        fputs(p->needs_set ? " set\n" : "\n", f);
    } else if (p->kind == BCW_PK_UNIT_REF && ctor >= 0)
        fprintf(f, "  %-16s %s: made by %s()\n", "", p->name,
                m->units[unit].funcs[ctor].name);
    else if (p->kind == BCW_PK_UNIT_REF)
        fprintf(f,
                "  %-16s %s: zeroed storage (%s has no constructor bcwalk "
                "can call)\n",
                "", p->name, p->detail ? p->detail : "the unit");
}

static void write_text(const bcw_model *m, int only, FILE *f)
{
    for (unsigned i = 0; i < m->nunits; i++) {
        if (only >= 0 && (unsigned)only != i)
            continue;
        const bcw_unit *u = &m->units[i];
        fprintf(f, "%s %s (%s, %llu bytes)\n", is_part(u) ? "part" : "unit",
                u->name, u->ctype, (unsigned long long)u->size);
        for (unsigned j = 0; j < u->nfuncs; j++) {
            const bcw_func *fn = &u->funcs[j];
            if (fn->role == BCW_ROLE_EMPTY) {
                fprintf(f,
                        "  %-16s %scell = NULL   [the unit lives in its "
                        "caller's cell]\n",
                        "constructor", u->ctype);
                continue;
            }
            fprintf(f, "  %-16s ", bcw__role_name(fn->role));
            write_signature(fn, f);
            fputc('\n', f);
            if (fn->unwalkable != NULL)
                fprintf(f, "  %-16s not walked: %s\n", "", fn->unwalkable);
            if (fn->retains)
                fprintf(f,
                        "  %-16s takes a reference: the destructor is "
                        "called once more for each\n",
                        "");
            if (fn->family != NULL)
                fprintf(f,
                        "  %-16s of the family whose objects hold a %s: "
                        "called only on those\n",
                        "", fn->family);
            if (fn->defaults)
                fprintf(f,
                        "  %-16s tests fields of its storage for 0: given "
                        "it zeroed\n",
                        "");
            if (fn->ok != BCW_STATUS_NONE)
                fprintf(f,
                        "  %-16s succeeds with %s: any other result is no "
                        "object\n",
                        "", fn->ok == BCW_STATUS_ZERO ? "0" : "not 0");
            text_strv(f, "reads", fn->reads, fn->nreads);
            text_strv(f, "writes", fn->wrote, fn->nwrote);
            for (unsigned k = 0; k < fn->nparams; k++) {
                text_parts(f, &fn->params[k]);
                text_made(f, m, &fn->params[k]);
            }
            for (unsigned k = 0; k < fn->ncontracts; k++)
                fprintf(f, "  %-16s %s %s\n", "",
                        bcw__contract_name(fn->contracts[k].kind),
                        fn->contracts[k].expr);
        }
        if (u->invariant >= 0)
            fprintf(f, "  %-16s %s\n", "invariant",
                    u->funcs[u->invariant].name);
        for (unsigned j = 0; j < u->nhandles; j++) {
            const bcw_handle *h = &u->handles[j];
            fprintf(f, "  %-16s %s\n", "handle", h->type);
            text_strv(f, "from", h->from, h->nfrom);
            text_strv(f, "used by", h->users, h->nusers);
            text_strv(f, "invalidated by", h->invalidators, h->ninvalidators);
        }
        for (unsigned j = 0; j < u->npreds; j++) {
            const bcw_pred *p = &u->preds[j];
            fprintf(f, "  %-16s %s", "predicate", p->name);
            if (p->interface) {
                fprintf(f, "   [interface: %s]\n", u->funcs[p->func].name);
                continue;
            }
            fputs("   [branched on in", f);
            for (unsigned k = 0; k < p->nusers; k++)
                fprintf(f, "%s %s", k ? "," : "", p->users[k]);
            fputs("]\n", f);
        }
        fputc('\n', f);
    }
    for (unsigned i = 0; i < m->nskipped; i++)
        fprintf(f, "skipped %s\n", m->skipped[i]);
}

int bcw_model_write(const bcw_model *m, int unit, enum bcw_model_format fmt,
                    FILE *f)
{
    if (fmt == BCW_MODEL_JSON)
        write_json(m, unit, f);
    else
        write_text(m, unit, f);
    if (fflush(f) != 0 || ferror(f))
        return bcw__error(BCW_ERROR, "writing the model failed");
    return 0;
}
