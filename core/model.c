/* model.c - the model's lifetime, lookups and the names its enums are
 * shown by: what every stage asks of a model. */
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "proto.h"

static void part_free(bcw_part *t)
{
    free(t->label);
    free(t->rel_text);
    free(t->str);
}

void bcw__param_free(bcw_param *p)
{
    free(p->name);
    free(p->ctype);
    free(p->detail);
    for (unsigned i = 0; i < p->nconds; i++) {
        free(p->conds[i].text);
        free(p->conds[i].negated);
        free(p->conds[i].value);
    }
    free(p->conds);
    free(p->nodes);
    for (unsigned i = 0; i < p->nparts; i++)
        part_free(&p->parts[i]);
    free(p->parts);
    free(p->parts_note);
    for (unsigned i = 0; i < p->nmembers; i++)
        free(p->members[i].name);
    free(p->members);
}

int bcw__param_add_part(bcw_param *p, bcw_part part)
{
    size_t cap = p->nparts;
    if (bcw__grow(&p->parts, &cap, p->nparts + 1, sizeof *p->parts) < 0) {
        part_free(&part);
        return BCW_ENOMEM;
    }
    p->parts[p->nparts++] = part;
    return 0;
}

void bcw__param_remove_part(bcw_param *p, unsigned i)
{
    part_free(&p->parts[i]);
    memmove(&p->parts[i], &p->parts[i + 1],
            (p->nparts - i - 1) * sizeof *p->parts);
    p->nparts--;
}

int64_t bcw__param_add_node(bcw_param *p, bcw_cnode node)
{
    size_t cap = p->nnodes;
    if (bcw__grow(&p->nodes, &cap, p->nnodes + 1, sizeof *p->nodes) < 0)
        return -1;
    p->nodes[p->nnodes] = node;
    return p->nnodes++;
}

int bcw__param_set_note(bcw_param *p, char *note)
{
    free(p->parts_note);
    p->parts_note = note;
    return note != NULL ? 0 : BCW_ENOMEM;
}

void bcw_model_free(bcw_model *m)
{
    if (m == NULL)
        return;
    for (unsigned i = 0; i < m->nunits; i++) {
        bcw_unit *u = &m->units[i];
        for (unsigned j = 0; j < u->nfuncs; j++) {
            bcw_func *f = &u->funcs[j];
            free(f->name);
            free(f->why);
            free(f->file);
            free(f->unwalkable);
            free(f->family);
            bcw__strv_free(f->reads, f->nreads);
            bcw__strv_free(f->wrote, f->nwrote);
            for (unsigned k = 0; k < f->ncontracts; k++)
                free(f->contracts[k].expr);
            free(f->contracts);
            bcw__param_free(&f->ret);
            for (unsigned k = 0; k < f->nparams; k++)
                bcw__param_free(&f->params[k]);
        }
        free(u->funcs);
        for (unsigned j = 0; j < u->nfields; j++)
            free(u->fields[j].name);
        free(u->fields);
        for (unsigned j = 0; j < u->npreds; j++) {
            free(u->preds[j].name);
            bcw__strv_free(u->preds[j].users, u->preds[j].nusers);
        }
        free(u->preds);
        for (unsigned j = 0; j < u->nhandles; j++) {
            bcw_handle *h = &u->handles[j];
            free(h->type);
            bcw__strv_free(h->from, h->nfrom);
            bcw__strv_free(h->users, h->nusers);
            bcw__strv_free(h->invalidators, h->ninvalidators);
        }
        free(u->handles);
        free(u->name);
        free(u->ctype);
    }
    for (unsigned i = 0; i < m->nsyms; i++)
        free(m->syms[i]);
    for (unsigned i = 0; i < m->nskipped; i++)
        free(m->skipped[i]);
    for (unsigned i = 0; i < m->nheaders; i++)
        free(m->headers[i]);
    free(m->syms);
    free(m->skipped);
    free(m->headers);
    free(m->units);
    free(m->path);
    free(m);
}

unsigned bcw_model_unit_count(const bcw_model *m)
{
    return m->nunits;
}

const char *bcw_model_unit_name(const bcw_model *m, unsigned i)
{
    return i < m->nunits ? m->units[i].name : NULL;
}

/* The length of the name users give unit u's C type: its ctype, less
 * the " *" of a cell unit's `E *`. */
static size_t type_len(const bcw_unit *u)
{
    size_t n = strlen(u->ctype);
    return u->cell && n > 2 && strcmp(u->ctype + n - 2, " *") == 0 ? n - 2 : n;
}

/* Does `name` name unit u's C type: its typedef (ArrayList for struct
 * _ArrayList) or `struct TAG`? */
static bool names_type(const bcw_unit *u, const char *name)
{
    size_t n = strlen(name);
    if (n == type_len(u) && strncmp(u->ctype, name, n) == 0)
        return true;
    return strncmp(name, "struct ", 7) == 0 && strcmp(name + 7, u->name) == 0;
}

/* Lists the units whose name or type `name` may mean (all of them if
 * `name` is NULL): "_ArrayList (ArrayList), bstack". */
static void list_units(bcw_buf *b, const bcw_model *m, const char *name)
{
    const char *sep = "";
    for (unsigned i = 0; i < m->nunits; i++) {
        const bcw_unit *u = &m->units[i];
        if (name != NULL && !names_type(u, name))
            continue;
        bcw__buf_printf(b, "%s%s", sep, u->name);
        size_t n = type_len(u);
        if (strncmp(u->ctype, "struct ", 7) != 0 &&
            !(n == strlen(u->name) && strncmp(u->ctype, u->name, n) == 0))
            bcw__buf_printf(b, " (%.*s)", (int)n, u->ctype);
        sep = ", ";
    }
}

/* What a name no unit has may be missing, appended to b: C++ (a
 * walked function's name is mangled, _Z...), and debug information,
 * where typedef names come from (no walked function has a source file,
 * which debug information gives). */
static void name_hints(bcw_buf *b, const bcw_model *m)
{
    bool debug = false;
    const char *mangled = NULL;
    for (unsigned i = 0; i < m->nunits; i++)
        for (unsigned k = 0; k < m->units[i].nfuncs; k++) {
            const bcw_func *f = &m->units[i].funcs[k];
            debug = debug || f->file != NULL;
            if (mangled == NULL && strncmp(f->name, "_Z", 2) == 0)
                mangled = f->name;
        }
    if (mangled != NULL)
        bcw__buf_printf(b,
                        "; this looks like C++ (%s is a mangled name): "
                        "bcwalk walks C interfaces, so declare its "
                        "functions extern \"C\"",
                        mangled);
    if (!debug)
        bcw__buf_printf(b, "; typedef names come from debug information, "
                           "which the bitcode lacks: compile it with -g");
}

int bcw_model_find_unit(const bcw_model *m, const char *name)
{
    int found = -1;
    unsigned nfound = 0;
    for (unsigned i = 0; i < m->nunits; i++) {
        if (strcmp(m->units[i].name, name) == 0)
            return (int)i;
        if (names_type(&m->units[i], name)) {
            found = (int)i;
            nfound++;
        }
    }
    if (nfound == 1)
        return found;
    bcw_buf b, hints;
    bcw__buf_init(&b, 4096);
    bcw__buf_init(&hints, 4096);
    list_units(&b, m, nfound > 1 ? name : NULL);
    const char *list = b.err ? "(out of memory)" : b.len ? b.data : "none";
    if (nfound == 0)
        name_hints(&hints, m);
    if (nfound > 1)
        bcw__error(BCW_EINPUT,
                   "%s: '%s' names the type of several units (%s): give "
                   "the unit's name",
                   m->path, name, list);
    else
        /* the hints before the list, which the message may cut */
        bcw__error(BCW_ENOTFOUND, "%s: no unit named '%s'%s (units: %s)",
                   m->path, name,
                   hints.err == 0 && hints.len > 0 ? hints.data : "", list);
    bcw__buf_free(&b);
    bcw__buf_free(&hints);
    return nfound > 1 ? BCW_EINPUT : BCW_ENOTFOUND;
}

const char *bcw__role_name(enum bcw_role role)
{
    switch (role) {
    case BCW_ROLE_CONSTRUCTOR:
        return "constructor";
    case BCW_ROLE_INIT_CONSTRUCTOR:
        return "init-constructor";
    case BCW_ROLE_DESTRUCTOR:
        return "destructor";
    case BCW_ROLE_OBSERVER:
        return "observer";
    case BCW_ROLE_MUTATOR:
        return "mutator";
    case BCW_ROLE_EMPTY:
        return "empty cell";
    }
    return "?";
}

const char *bcw__kind_name(enum bcw_pkind kind)
{
    static const char *const names[] = {
        "unit",     "int",        "bool",   "char",    "float",
        "string",   "element",    "out",    "scratch", "void",
        "enum",     "callback",   "buffer", "length",  "unit_ref",
        "unit_out", "unit_value", "handle", "struct",  "unit_cell", "file"};
    _Static_assert(sizeof names / sizeof *names == BCW_PK_LAST + 1,
                   "a name for every parameter kind");
    return names[kind];
}

const char *bcw__contract_name(enum bcw_contract_origin kind)
{
    static const char *const names[] = {"assert", "abort", "requires",
                                        "ensures", "invariant"};
    return names[kind];
}

const char *bcw__cop_symbol(unsigned op)
{
    static const char *const ops[] = {
        [BCW_C_ADD] = "+",  [BCW_C_SUB] = "-",  [BCW_C_MUL] = "*",
        [BCW_C_SDIV] = "/", [BCW_C_UDIV] = "/", [BCW_C_SREM] = "%",
        [BCW_C_UREM] = "%", [BCW_C_AND] = "&",  [BCW_C_OR] = "|",
        [BCW_C_XOR] = "^",  [BCW_C_SHL] = "<<", [BCW_C_LSHR] = ">>",
        [BCW_C_ASHR] = ">>"};
    return op < sizeof ops / sizeof ops[0] ? ops[op] : NULL;
}

static int ref_ctor(const bcw_model *m, const bcw_param *p, unsigned *unit,
                    int depth);

/* Can a walk make an instance with constructor `f` from values of its
 * own making: generated scalars, strings and elements, a callback's first
 * category, the T **out it fills, the storage an init function fills,
 * and other units' instances it can make in turn, `depth` levels down? */
static bool makeable(const bcw_model *m, const bcw_func *f, int depth)
{
    bool init = f->role == BCW_ROLE_INIT_CONSTRUCTOR;
    if ((f->role != BCW_ROLE_CONSTRUCTOR && !init) || f->unwalkable != NULL)
        return false;
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_param *p = &f->params[k];
        unsigned other;
        switch (p->kind) {
        case BCW_PK_INT:
        case BCW_PK_BOOL:
        case BCW_PK_CHAR:
        case BCW_PK_FLOAT:
        case BCW_PK_ENUM:
        case BCW_PK_STRING:
        case BCW_PK_ELEMENT:
            break;
        case BCW_PK_CALLBACK:
            if (p->nparts == 0 || p->parts[0].nvalues == 0)
                return false;
            break;
        case BCW_PK_UNIT_OUT:
            if (init)
                return false;
            break;
        case BCW_PK_UNIT:
            if (!init || (int)k != f->self)
                return false;
            break;
        case BCW_PK_UNIT_REF:
            if (depth == 0 || ref_ctor(m, p, &other, depth - 1) < 0)
                return false;
            break;
        default:
            return false;
        }
    }
    return true;
}

/* Makeable constructors take their unit at most in its self or out slot:
 * counting parameters of other kinds orders them by what they need. */
static unsigned needs(const bcw_func *f)
{
    unsigned n = 0;
    for (unsigned k = 0; k < f->nparams; k++)
        n += f->params[k].kind == BCW_PK_UNIT_REF ? 4 : 1;
    return n;
}

/* The makeable constructor of unit u needing least, or -1. */
static int best_ctor(const bcw_model *m, const bcw_unit *u, int depth)
{
    int best = -1;
    for (unsigned j = 0; j < u->nfuncs; j++)
        if (makeable(m, &u->funcs[j], depth) &&
            (best < 0 || needs(&u->funcs[j]) < needs(&u->funcs[best])))
            best = (int)j;
    return best;
}

static int ref_ctor(const bcw_model *m, const bcw_param *p, unsigned *unit,
                    int depth)
{
    if (p->kind != BCW_PK_UNIT_REF || p->detail == NULL)
        return -1;
    for (unsigned i = 0; i < m->nunits; i++)
        if (strcmp(m->units[i].name, p->detail) == 0) {
            *unit = i;
            return best_ctor(m, &m->units[i], depth);
        }
    return -1;
}

int bcw__unit_own_ctor(const bcw_model *m, const bcw_unit *u)
{
    return best_ctor(m, u, BCW_REF_DEPTH);
}

int bcw__unit_ref_ctor(const bcw_model *m, const bcw_param *p, unsigned *unit)
{
    return ref_ctor(m, p, unit, BCW_REF_DEPTH);
}

int bcw__unit_ref_ctor_within(const bcw_model *m, const bcw_param *p,
                              unsigned *unit, int depth)
{
    return depth < 0 ? -1 : ref_ctor(m, p, unit, depth);
}

int bcw__handle_index(const bcw_unit *u, const char *type)
{
    for (unsigned i = 0; type != NULL && i < u->nhandles; i++)
        if (strcmp(u->handles[i].type, type) == 0)
            return (int)i;
    return -1;
}

int bcw__handle_given(const bcw_unit *u, const bcw_func *f)
{
    if (f->ret.abi != BCW_ABI_PTR)
        return -1;
    for (unsigned i = 0; i < u->nhandles; i++)
        for (unsigned j = 0; j < u->handles[i].nfrom; j++)
            if (strcmp(u->handles[i].from[j], f->name) == 0)
                return (int)i;
    return -1;
}

int bcw__handle_given_in(const bcw_unit *u, const bcw_func *f, unsigned k)
{
    const bcw_param *p = k < f->nparams ? &f->params[k] : NULL;
    return p != NULL && p->kind == BCW_PK_SCRATCH
               ? bcw__handle_index(u, p->detail)
               : -1;
}

char *bcw__field_ref(const bcw_func *f, const char *name)
{
    for (unsigned i = 0; f != NULL && f->self >= 0 && i < f->nparams; i++)
        if ((int)i != f->self && strcmp(f->params[i].name, name) == 0)
            return bcw__sprintf("%s->%s", f->params[f->self].name, name);
    return bcw__strdup(name);
}

char *bcw__field_at(const bcw_unit *u, const bcw_func *f, int64_t offset)
{
    for (unsigned k = 0; k < u->nfields; k++)
        if (u->fields[k].offset == (uint32_t)offset)
            return bcw__field_ref(f, u->fields[k].name);
    return bcw__sprintf("@%lld", (long long)offset);
}

const char *bcw__callback_name(enum bcw_callback cb)
{
    static const char *const names[] = {"?",        "bcw_compare", "bcw_equal",
                                        "bcw_hash", "bcw_visit",   "bcw_zero",
                                        "bcw_pred", "bcw_free"};
    return (unsigned)cb <= BCW_CB_LAST ? names[cb] : "?";
}

unsigned bcw__func_family(const bcw_unit *u, const bcw_func *fn)
{
    unsigned k = 0;
    for (unsigned i = 0; fn->family != NULL && i < u->nfuncs; i++) {
        const char *f = u->funcs[i].family;
        bool first = f != NULL;
        for (unsigned j = 0; first && j < i; j++)
            first = u->funcs[j].family == NULL ||
                    strcmp(u->funcs[j].family, f) != 0;
        k += first;
        if (first && strcmp(f, fn->family) == 0)
            return k <= BCW_MAX_FAMILIES ? k : 0;
    }
    return 0;
}
