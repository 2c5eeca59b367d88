/* units.c - unit discovery, the driver: the passes that make units from
 * their constructors, give every API function its unit and role, and
 * then find handles, callbacks, fields and contracts.
 *
 * A pointer slot (a parameter or the result) names a unit when debug
 * info or the function's use of it says which struct it points to
 * (pointee.c).  Where neither can tell — optimised bitcode without -g,
 * whose GEPs are plain byte offsets from LLVM 18 on — names decide: a
 * function `X_new` returning a pointer makes unit X, and `X_push(p, ...)`
 * is its method (roles.c). */
#define _POSIX_C_SOURCE 200809L
#include "units.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "callbacks.h"
#include "cells.h"
#include "contracts.h"
#include "diinfo.h"
#include "elemsize.h"
#include "families.h"
#include "fields.h"
#include "finder.h"
#include "funcs.h"
#include "handles.h"
#include "hash.h"
#include "params.h"
#include "reinit.h"
#include "roles.h"
#include "skipped.h"

/* The C type `levels` pointers below spelling `t` ("OcVec **", 2:
 * "OcVec"; a string handle "sds", 0: "sds"), or `fallback` ("struct
 * oc_vec_s") without debug info.
 * Owned by the caller; NULL if out of memory. */
static char *pointed_to(const bcw_di_type *t, unsigned levels,
                        const char *fallback)
{
    size_t len = t->known ? strlen(t->spelling) : 0;
    for (unsigned i = 0; i < levels && len > 0; i++) {
        if (t->spelling[len - 1] != '*')
            return bcw__strdup(fallback);
        len--;
        while (len > 0 && t->spelling[len - 1] == ' ')
            len--;
    }
    return len > 0 ? bcw__strndup(t->spelling, len) : bcw__strdup(fallback);
}

/* Makes unit `name` from constructor `s` whose slot `slot` is the unit. */
static int new_unit(bcw_finder *f, const char *name, const bcw_sig *s,
                    unsigned slot)
{
    bcw_model *m = f->model;
    if (bcw__grow(&m->units, &f->units_cap, m->nunits + 1, sizeof *m->units) <
        0)
        return BCW_ENOMEM;
    if (bcw__grow(&f->origins, &f->origins_cap, m->nunits + 1,
                  sizeof *f->origins) < 0)
        return BCW_ENOMEM;
    f->origins[m->nunits] = (bcw_origin){s->fn, slot};
    bcw_unit *u = &m->units[m->nunits];
    memset(u, 0, sizeof *u);
    m->nunits++; /* counted first: bcw_model_free frees what follows */
    u->name = bcw__strdup(name);
    /* the constructor's result (or init argument, or T **out) spells the
     * type as the library's users write it: a typedef if there is one */
    const bcw_pointee *pt = &s->pt[slot];
    char *tag = bcw__sprintf("struct %s", name);
    if (tag != NULL)
        u->ctype =
            pointed_to(&s->di[slot],
                       pt->kind == BCW_PT_POINTER  ? 2
                       : pt->kind == BCW_PT_HANDLE ? 0 /* typedef char *sds */
                                                   : 1,
                       tag);
    free(tag);
    /* debug info knows the struct even where LLVM has no sized type for
     * it: seen only through T **out, or declared but not defined here */
    u->size = bcw__di_struct_bits(s->fn, slot) / 8;
    if (u->size == 0 && pt->kind == BCW_PT_STRUCT && pt->type != NULL &&
        LLVMTypeIsSized(pt->type))
        u->size = LLVMABISizeOfType(f->td, pt->type);
    if (u->size == 0)
        u->size = pt->alloc_bytes; /* what its constructor allocates */
    if (u->name == NULL || u->ctype == NULL ||
        bcw__finder_add_unit(f, m->nunits - 1) < 0)
        return BCW_ENOMEM;
    return (int)m->nunits - 1;
}

/* A unit living in its callers' cells, seen first in `s` (whose first
 * parameter is the cell): its constructor is the empty cell. */
static int new_cell_unit(bcw_finder *f, const char *name, const bcw_sig *s)
{
    int unit = new_unit(f, name, s, 1);
    if (unit < 0)
        return unit;
    bcw_unit *u = &f->model->units[unit];
    u->cell = true;
    u->size = sizeof(void *); /* the cell */
    char *cell = bcw__sprintf("%s *", u->ctype);
    free(u->ctype);
    u->ctype = cell;
    u->funcs = bcw__calloc(1, sizeof *u->funcs);
    if (u->ctype == NULL || u->funcs == NULL)
        return BCW_ENOMEM;
    u->nfuncs = 1; /* counted first: bcw_model_free frees what follows */
    bcw_func *e = &u->funcs[0];
    e->role = BCW_ROLE_EMPTY;
    e->self = -1;
    e->sym = UINT32_MAX;
    e->ret.kind = BCW_PK_UNIT;
    e->ret.abi = BCW_ABI_PTR;
    e->ret.pair = -1;
    e->name = bcw__strdup("(empty)");
    e->ret.name = bcw__strdup("result");
    e->ret.ctype = bcw__strdup(u->ctype);
    if (e->name == NULL || e->ret.name == NULL || e->ret.ctype == NULL)
        return BCW_ENOMEM;
    return unit;
}

/* Does `s` grow a list of struct `name` held in the caller's cell, its
 * first parameter?  list_prepend(ListEntry **list, v) returns the new
 * entry but reads *list before it writes it: the list lives in the
 * cell.  A T **out constructor only writes its cell.  1, 0 or
 * BCW_ENOMEM. */
static int grows_cell(const bcw_sig *s, const char *name)
{
    const char *cell = s->n > 0 ? bcw__sig_cell(s, 1) : NULL;
    if (cell == NULL || strcmp(cell, name) != 0)
        return 0;
    return bcw__cells_grows(s->fn, 0);
}

/* Is `fn` a function of a unit, or listed as skipped? */
/* The functions placed already, in a unit or skipped ("fn: why"), by
 * name: what skip_unitless asks of every API function. */
typedef struct placed {
    bcw_index ix;
    struct name {
        const char *s;
        size_t n;
    } * names;
    unsigned nnames;
} placed;

static int add_name(placed *pl, const char *s, size_t n)
{
    pl->names[pl->nnames] = (struct name){s, n};
    return bcw__index_put(&pl->ix, bcw__hash(s, n, 0), pl->nnames++);
}

static int placed_make(placed *pl, const bcw_model *m)
{
    size_t n = m->nskipped;
    for (unsigned i = 0; i < m->nunits; i++)
        n += m->units[i].nfuncs;
    memset(pl, 0, sizeof *pl);
    if ((pl->names = bcw__calloc(n ? n : 1, sizeof *pl->names)) == NULL)
        return BCW_ENOMEM;
    int err = 0;
    for (unsigned i = 0; i < m->nunits && err == 0; i++)
        for (unsigned j = 0; j < m->units[i].nfuncs && err == 0; j++)
            err = add_name(pl, m->units[i].funcs[j].name,
                           strlen(m->units[i].funcs[j].name));
    for (unsigned i = 0; i < m->nskipped && err == 0; i++) {
        const char *why = strstr(m->skipped[i], ": ");
        err = add_name(pl, m->skipped[i],
                       why ? (size_t)(why - m->skipped[i])
                           : strlen(m->skipped[i]));
    }
    return err;
}

/* A name looked up in a placed set. */
typedef struct lookup {
    const placed *pl;
    const char *s;
    size_t n;
} lookup;

static int same_name(uint32_t i, const void *payload)
{
    const lookup *k = payload;
    const struct name *x = &k->pl->names[i];
    return x->n == k->n && memcmp(x->s, k->s, k->n) == 0;
}

static bool is_placed(const placed *pl, const char *fn)
{
    lookup k = {pl, fn, strlen(fn)};
    return bcw__index_get(&pl->ix, bcw__hash(fn, k.n, 0), same_name, &k) !=
           UINT32_MAX;
}

static void placed_free(placed *pl)
{
    bcw__index_free(&pl->ix);
    free(pl->names);
}

/* Lists an API function that belongs to no unit, so that nothing the
 * library exports is left out silently. */
static int skip_unitless(bcw_finder *f, const placed *pl, const bcw_sig *s)
{
    if (is_placed(pl, s->name))
        return 0;
    for (unsigned i = 0; i <= s->n; i++) {
        const char *st = bcw__sig_struct(s, i);
        if (st != NULL) {
            char *why = bcw__sprintf("its %s %s has no constructor bcwalk "
                                     "can call",
                                     i == 0 ? "result" : "parameter", st);
            int err = why ? bcw__finder_skip(f, s->name, why) : BCW_ENOMEM;
            free(why);
            return err;
        }
    }
    return bcw__finder_skip(f, s->name, "takes and returns no unit");
}

/* Is struct `name` handed out by a unit, `depth` levels down: returned
 * by a function that takes an existing unit, or a struct so handed out
 * (parson's JSON_Object from json_value_get_object(value), and its
 * JSON_Array from json_object_get_array(object, name))? */
static bool handed_out(const bcw_finder *f, const char *name, int depth)
{
    if (name == NULL)
        return false;
    if (bcw__finder_unit(f, name) >= 0)
        return true;
    for (unsigned g = 0; depth > 0 && g < f->nsigs; g++) {
        const bcw_sig *s = &f->sigs[g];
        const char *ret = bcw__sig_struct(s, 0);
        if (ret == NULL || strcmp(ret, name) != 0)
            continue;
        for (unsigned i = 1; i <= s->n; i++) {
            const char *arg = bcw__sig_struct(s, i);
            if (arg != NULL && strcmp(arg, name) != 0 &&
                handed_out(f, arg, depth - 1))
                return true;
        }
    }
    return false;
}

int bcw__units_find(bcw_model *model, bcw_bitcode *bc, const bcw_effects *fx)
{
    bcw_finder f;
    int err = bcw__finder_init(&f, model, bc, fx);
    /* Pass 1: constructors make units, in definition order: first those
     * that take no unit-like pointer, then the rest, unless they take an
     * existing unit — list_first(list *) gives a derived handle, not a
     * new unit — or grow a list in the caller's cell (Pass 1b). */
    for (int round = 0; round < 2 && err >= 0; round++) {
        for (unsigned g = 0; g < f.nsigs && err >= 0; g++) {
            const bcw_sig *s = &f.sigs[g];
            char buf[64];
            unsigned slot;
            const char *name;
            name = bcw__roles_constructs(s, &slot, buf, sizeof buf);
            if (name == NULL || bcw__finder_unit(&f, name) >= 0)
                continue;
            int grows = grows_cell(s, name);
            if (grows != 0) {
                err = grows < 0 ? grows : 0;
                continue;
            }
            /* what a function taking an existing unit returns or fills
             * is a handle of that unit: the node avl_tree_insert(t, k, v)
             * returns, the iterator it_init(&it, c) fills */
            bool takes = bcw__roles_takes_struct(s), derived = false;
            for (unsigned i = 1; !bcw__roles_makes_from(s, slot) && i <= s->n;
                 i++)
                derived |= i != slot &&
                           handed_out(&f, bcw__sig_struct(s, i), 2);
            if ((round == 0 && !takes) || (round == 1 && !derived))
                err = new_unit(&f, name, s, slot);
        }
    }
    /* Pass 1b: structs with no constructor whose functions take a cell
     * E ** first live in their callers' cells: list_push(&head, v), and
     * list_prepend(&head, v) returning the new entry. */
    for (unsigned g = 0; g < f.nsigs && err >= 0; g++) {
        const bcw_sig *s = &f.sigs[g];
        const char *cell;
        if (s->n > 0 && (cell = bcw__sig_cell(s, 1)) != NULL &&
            bcw__finder_unit(&f, cell) < 0)
            err = new_cell_unit(&f, cell, s);
    }
    /* Pass 2: every API function of a unit gets its role. */
    for (unsigned g = 0; g < f.nsigs && err >= 0; g++) {
        const bcw_sig *s = &f.sigs[g];
        enum bcw_role role;
        int unit, self, out;
        if ((unit = bcw__roles_of(&f, s, &role, &self, &out)) >= 0)
            err = bcw__funcs_add(&f, unit, s, role, self, out);
    }
    if (err >= 0) {
        bcw__roles_release_inits(&f);
        bcw__reinit_find(&f);
        bcw__roles_retains(&f);
        err = bcw__handles_find(&f);
    }
    if (err >= 0)
        err = bcw__families_find(&f);
    placed pl = {0};
    if (err >= 0)
        err = placed_make(&pl, model);
    for (unsigned g = 0; g < f.nsigs && err >= 0; g++)
        err = skip_unitless(&f, &pl, &f.sigs[g]);
    placed_free(&pl);
    if (err >= 0)
        err = bcw__callbacks_find(&f);
    for (unsigned i = 0; i < model->nunits && err >= 0; i++) {
        bcw_unit *u = &model->units[i];
        bcw__elemsize_find(bc->mod, f.td, u);
        err =
            bcw__fields_analyze(u, bc->mod, f.origins[i].fn, f.origins[i].slot);
        if (err == 0)
            err = bcw__contracts_analyze(u, bc->mod);
    }
    if (err >= 0 && model->nunits == 0)
        err = bcw__skipped_no_unit(&f);
    bcw__finder_dispose(&f);
    return err;
}
