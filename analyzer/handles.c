/* handles.c - derived handles: structs (not units) that a unit's methods
 * return and other functions take, like list_first's node for node_next
 * and node_value, or fill in storage they are given, like an iterator's
 * it_init(&it, c) for it_next and it_has_more.  Their users become the
 * unit's functions, taking the handle; the unit's mutators that free
 * memory it reaches may leave them dangling (invalidators).  A list in the
 * caller's cell gives out its entries (list_prepend(&head, v) returns the
 * new one), but every entry its functions take is the list's head. */
#define _POSIX_C_SOURCE 200809L
#include "handles.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "derefs.h"
#include "funcs.h"
#include "params.h"

/* Appends a copy of `name` to a string array unless it is there. */
static int strv_add(char ***v, unsigned *n, const char *name)
{
    for (unsigned i = 0; i < *n; i++)
        if (strcmp((*v)[i], name) == 0)
            return 0;
    size_t cap = *n;
    if (bcw__grow(v, &cap, *n + 1, sizeof **v) < 0 ||
        ((*v)[*n] = bcw__strdup(name)) == NULL)
        return BCW_ENOMEM;
    (*n)++;
    return 0;
}

static bcw_handle *handle_of(bcw_unit *u, const char *type, int *err)
{
    for (unsigned i = 0; i < u->nhandles; i++)
        if (strcmp(u->handles[i].type, type) == 0)
            return &u->handles[i];
    size_t cap = u->nhandles;
    if (bcw__grow(&u->handles, &cap, u->nhandles + 1, sizeof *u->handles) < 0) {
        *err = BCW_ENOMEM;
        return NULL;
    }
    bcw_handle *h = &u->handles[u->nhandles];
    memset(h, 0, sizeof *h);
    if ((h->type = bcw__strdup(type)) == NULL) {
        *err = BCW_ENOMEM;
        return NULL;
    }
    u->nhandles++;
    return h;
}

/* Makes parameter k of `fn` take a `type` handle. */
static int mark_handle_param(bcw_func *fn, unsigned k, const char *type)
{
    if (k >= fn->nparams || fn->params[k].kind == BCW_PK_HANDLE)
        return 0;
    bcw_param *p = &fn->params[k];
    free(p->detail);
    p->kind = BCW_PK_HANDLE;
    p->pointee_size = 0;
    if ((p->detail = bcw__strdup(type)) == NULL)
        return BCW_ENOMEM;
    if (strstr(p->ctype, type) == NULL) {
        free(p->ctype); /* no debug info: classify named the unit */
        if ((p->ctype = bcw__sprintf("struct %s *", type)) == NULL)
            return BCW_ENOMEM;
    }
    return 0;
}

/* The struct s returns by value in one pointer-sized word, as json-c's
 * json_object_iter_begin returns its json_object_iterator, or NULL. */
static const char *by_value_struct(const bcw_sig *s)
{
    const bcw_di_type *di = &s->di[0];
    return di->known && di->value_struct[0] && di->value_bits == 64 &&
                   LLVMGetTypeKind(s->types[0]) == LLVMPointerTypeKind
               ? di->value_struct
               : NULL;
}

/* Makes the users of handle `h` functions of unit `unit`, so walks can
 * call them: with no unit parameter (`self` -1) and the handle first
 * (BCW_PK_HANDLE), an observer or a mutator as their writes through it
 * say, their other parameters of the handle's type handles too (two
 * iterators compared).  Users that are already the unit's functions get
 * the kinds only, and a constructor among them (json-c's
 * json_object_iter_peek_value, returning what the iterator is at) is an
 * observer: it makes nothing. */
static int add_handle_users(bcw_finder *f, unsigned unit, const bcw_handle *h)
{
    for (unsigned i = 0; i < h->nusers; i++) {
        bcw_unit *u = &f->model->units[unit];
        const bcw_sig *s =
            bcw__finder_sig(f, LLVMGetNamedFunction(f->mod, h->users[i]));
        unsigned j = 0;
        while (j < u->nfuncs && strcmp(u->funcs[j].name, h->users[i]) != 0)
            j++;
        if (j == u->nfuncs) {
            if (s == NULL)
                continue;
            unsigned before = u->nfuncs;
            /* self 0 for the effects analysis: writes through the handle
             * change the unit's state */
            int err = bcw__funcs_add(f, (int)unit, s, BCW_ROLE_OBSERVER, 0, -1);
            if (err < 0)
                return err;
            u = &f->model->units[unit];
            if (u->nfuncs == before)
                continue; /* skipped: its reason is listed */
            u->funcs[j].self = -1;
        }
        bcw_func *fn = &u->funcs[j];
        int err = mark_handle_param(fn, 0, h->type);
        for (unsigned k = 1; err == 0 && s != NULL && k < fn->nparams; k++)
            if (bcw__sig_struct(s, k + 1) != NULL &&
                strcmp(bcw__sig_struct(s, k + 1), h->type) == 0)
                err = mark_handle_param(fn, k, h->type);
        if (err < 0)
            return err;
        /* json_object_set_value(object, name, value): the handle first
         * is what the call acts on, and the unit after it another
         * instance (a new one, or the target: the object the handle came
         * from made its own member), not the target by default */
        if (fn->self > 0 && fn->params[fn->self].kind == BCW_PK_UNIT)
            fn->self = -1;
        if (fn->role == BCW_ROLE_CONSTRUCTOR)
            fn->role = BCW_ROLE_OBSERVER;
    }
    return 0;
}

/* Parameters of method `fn` through which it gives out a handle:
 * storage for a struct no unit owns that it fills (hash_table_iterate(t,
 * &iter), cc_array_iter_init(&it, a)).  They keep their kind
 * (BCW_PK_SCRATCH) and get the handle's type as their detail. */
static int find_given_in(bcw_finder *f, bcw_unit *u, bcw_func *fn,
                         const bcw_sig *s)
{
    int err = 0;
    for (unsigned p = 0; p < fn->nparams && p < s->n && err == 0; p++) {
        const char *d = bcw__sig_struct(s, p + 1);
        bcw_handle *h;
        if ((int)p == fn->self || d == NULL ||
            fn->params[p].kind != BCW_PK_SCRATCH ||
            bcw__finder_unit(f, d) >= 0 ||
            !bcw__params_filled(LLVMGetParam(s->fn, p)) ||
            (h = handle_of(u, d, &err)) == NULL)
            continue;
        err = strv_add(&h->from, &h->nfrom, fn->name);
        free(fn->params[p].detail);
        if (err == 0 && (fn->params[p].detail = bcw__strdup(d)) == NULL)
            err = BCW_ENOMEM;
    }
    return err;
}

/* Does unit function `name` fill storage for a `type` handle it gives
 * out (so that it is not one of its users)? */
static bool fills(const bcw_unit *u, const char *name, const char *type)
{
    for (unsigned i = 0; i < u->nfuncs; i++)
        if (strcmp(u->funcs[i].name, name) == 0)
            for (unsigned k = 0; k < u->funcs[i].nparams; k++)
                if (bcw__handle_given_in(u, &u->funcs[i], k) >= 0 &&
                    strcmp(u->funcs[i].params[k].detail, type) == 0)
                    return true;
    return false;
}

/* Is v compared with a pointer loaded from what `self` reaches
 * (item == parent->child)? */
static bool compared_with_held(LLVMValueRef v, LLVMValueRef self, int hops)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u != NULL; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsABitCastInst(user) && hops < 4 &&
            compared_with_held(user, self, hops + 1))
            return true;
        if (!LLVMIsAICmpInst(user))
            continue;
        LLVMValueRef other = LLVMGetOperand(user, LLVMGetOperand(user, 0) == v);
        while (LLVMIsABitCastInst(other))
            other = LLVMGetOperand(other, 0);
        if (LLVMIsALoadInst(other) &&
            bcw__derived_from(LLVMGetOperand(other, 0), self))
            return true;
    }
    return false;
}

/* Is parameter k of fn (signature s), of a unit's type, an entry of the
 * unit fn belongs to: a node the call unlinks or reads, not one it
 * stores (hands over)?  list_remove(list, node), not list_rpush.  Of
 * the unit's own type, only one the call looks for in the target (compares
 * with a pointer it loads from it: cJSON_DetachItemViaPointer(parent,
 * item) testing item != parent->child), not another instance
 * (list_splice(l1, l2)). */
static bool entry_param(const bcw_func *fn, const bcw_sig *s, unsigned k)
{
    if (fn->self < 0 || (int)k == fn->self || k >= fn->nparams ||
        (fn->params[k].kind != BCW_PK_UNIT_REF &&
         fn->params[k].kind != BCW_PK_UNIT) ||
        bcw__params_stored(LLVMGetParam(s->fn, k)))
        return false;
    return fn->params[k].kind == BCW_PK_UNIT_REF ||
           compared_with_held(LLVMGetParam(s->fn, k),
                              LLVMGetParam(s->fn, (unsigned)fn->self), 0);
}

/* Do u's methods take structs `type`, another unit's, as entries of u
 * (entry_param)?  Then what u's methods give out of that type are
 * handles of u: its nodes. */
static bool holds_entries(bcw_finder *f, const bcw_unit *u, const char *type)
{
    for (unsigned i = 0; i < u->nfuncs; i++) {
        const bcw_func *fn = &u->funcs[i];
        const bcw_sig *s =
            bcw__finder_sig(f, LLVMGetNamedFunction(f->mod, fn->name));
        for (unsigned k = 0; s != NULL && k < fn->nparams && k < s->n; k++)
            if (bcw__sig_struct(s, k + 1) != NULL &&
                strcmp(bcw__sig_struct(s, k + 1), type) == 0 &&
                entry_param(fn, s, k))
                return true;
    }
    return false;
}

/* The pointer fields of handle h that the functions filling it (an
 * iterator's init) leave NULL or unset (*left), or set to a "none"
 * marker of the library's (*none: a tree's sentinel). */
static void left_none(bcw_finder *f, const bcw_unit *u, unsigned h,
                      uint64_t *left, uint64_t *none)
{
    *left = *none = 0;
    for (unsigned i = 0; i < u->nfuncs; i++)
        for (unsigned k = 0; k < u->funcs[i].nparams; k++)
            if (bcw__handle_given_in(u, &u->funcs[i], k) == (int)h) {
                LLVMValueRef v = LLVMGetNamedFunction(f->mod, u->funcs[i].name);
                *left |= bcw__derefs_nulled(f->td, v, k);
                *none |= bcw__derefs_sentinelled(f->td, v, k);
            }
}

/* The pointer fields of the handle each handle parameter of u's
 * functions needs set (derefs.c): those it follows unchecked, before it
 * sets them itself, where the function filling the handle left them NULL
 * or unset, and those it follows at all where that function set a
 * "none" marker (a NULL check does not tell a sentinel).  The handle is
 * passed only once they changed (by next, by seek). */
static void needs_set(bcw_finder *f, bcw_unit *u)
{
    for (unsigned h = 0; h < u->nhandles && h < 64; h++) {
        uint64_t left, none;
        left_none(f, u, h, &left, &none);
        for (unsigned i = 0; (left | none) != 0 && i < u->nfuncs; i++) {
            bcw_func *fn = &u->funcs[i];
            LLVMValueRef v = LLVMGetNamedFunction(f->mod, fn->name);
            for (unsigned p = 0; p < fn->nparams; p++)
                if (fn->params[p].kind == BCW_PK_HANDLE &&
                    bcw__handle_index(u, fn->params[p].detail) == (int)h)
                    fn->params[p].needs_set =
                        (left & bcw__derefs_unchecked(f->td, v, p)) |
                        (none & bcw__derefs_followed(f->td, v, p));
        }
    }
}

int bcw__handles_find(bcw_finder *f)
{
    int err = 0;
    for (unsigned k = 0; k < f->model->nunits && err == 0; k++) {
        bcw_unit *u = &f->model->units[k];
        for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
            bcw_func *fn = &u->funcs[i];
            const bcw_sig *s =
                bcw__finder_sig(f, LLVMGetNamedFunction(f->mod, fn->name));
            const char *d;
            bcw_handle *h;
            int of;
            if (fn->self >= 0 && s != NULL)
                err = find_given_in(f, u, fn, s);
            if (err < 0 || fn->self < 0 || s == NULL ||
                ((d = bcw__sig_struct(s, 0)) == NULL &&
                 (d = by_value_struct(s)) == NULL) ||
                ((of = bcw__finder_unit(f, d)) >= 0 &&
                 !(u->cell && of == (int)k) && !holds_entries(f, u, d)) ||
                (h = handle_of(u, d, &err)) == NULL)
                continue;
            fn->ret.by_value = bcw__sig_struct(s, 0) == NULL;
            err = strv_add(&h->from, &h->nfrom, fn->name);
        }
        for (unsigned j = 0; j < u->nhandles && err == 0; j++) {
            bcw_handle *h = &u->handles[j];
            /* a cell unit's entries, or another unit's structs held as
             * entries: only u's own methods take them */
            bool entries = (u->cell && strcmp(h->type, u->name) == 0) ||
                           bcw__finder_unit(f, h->type) >= 0;
            for (unsigned g = 0; g < f->nsigs && !err && !entries; g++) {
                const bcw_sig *s = &f->sigs[g];
                if (s->n == 0 || !bcw__sig_struct(s, 1) ||
                    strcmp(bcw__sig_struct(s, 1), h->type) ||
                    fills(u, s->name, h->type))
                    continue;
                err = strv_add(&h->users, &h->nusers, s->name);
                if (err == 0 && bcw__sig_struct(s, 0) &&
                    strcmp(bcw__sig_struct(s, 0), h->type) == 0)
                    err = strv_add(&h->from, &h->nfrom, s->name);
            }
            for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
                const bcw_func *fn = &u->funcs[i];
                if ((fn->role == BCW_ROLE_MUTATOR ||
                     fn->role == BCW_ROLE_DESTRUCTOR) &&
                    fn->self >= 0 &&
                    bcw__effects_releases(f->fx, fn->name, (unsigned)fn->self))
                    err =
                        strv_add(&h->invalidators, &h->ninvalidators, fn->name);
            }
        }
        for (unsigned j = 0; j < f->model->units[k].nhandles && err == 0; j++)
            err = add_handle_users(f, k, &f->model->units[k].handles[j]);
        needs_set(f, &f->model->units[k]);
        /* the unit's own methods taking a handle in another position
         * (dlist_insert_after(l, n, v)) get the handle given out last */
        u = &f->model->units[k];
        for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
            bcw_func *fn = &u->funcs[i];
            const bcw_sig *s =
                bcw__finder_sig(f, LLVMGetNamedFunction(f->mod, fn->name));
            for (unsigned p = 0; s != NULL && fn->self >= 0 && err == 0 &&
                                 p < fn->nparams && p < s->n;
                 p++) {
                const char *d = bcw__sig_struct(s, p + 1);
                if ((int)p == fn->self || d == NULL ||
                    fn->params[p].kind == BCW_PK_HANDLE ||
                    fn->params[p].kind == BCW_PK_UNIT_DEREF ||
                    bcw__handle_given_in(u, fn, p) >= 0 ||
                    (bcw__finder_unit(f, d) >= 0 && !entry_param(fn, s, p)))
                    continue;
                for (unsigned j = 0; j < u->nhandles && err == 0; j++)
                    if (strcmp(d, u->handles[j].type) == 0 &&
                        (err = mark_handle_param(fn, p, d)) == 0)
                        err = strv_add(&u->handles[j].users,
                                       &u->handles[j].nusers, fn->name);
            }
        }
    }
    return err;
}
