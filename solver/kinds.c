/* kinds.c - categories of the parameters that are not numbers: strings
 * (each literal the code compares against, the empty string and a long
 * one that matches none; a method's key no condition compares, a new
 * one or the same one again), callbacks (the module's functions of the
 * callback's type and kind, else the built-in closure of its kind, and
 * NULL where the code checks for it, analyzer/callbacks.c), elements (a new cell, or the same one again),
 * buffer lengths the code does not branch on (0, 1, small), enums
 * (each enumerator, whether or not the code branches on it) and a
 * second instance of the unit (one of its own, or the target again). */
#define _POSIX_C_SOURCE 200809L
#include "kinds.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "callbacks.h"
#include "model.h"

#define LONG_STRING "a string longer than any literal it is compared with."

/* An enum parameter gets a category for each of its first 16
 * enumerators: a huge enum (error codes, opcodes) would otherwise
 * multiply a call's combinations past what any walk runs. */
#define MAX_ENUMERATORS 16

/* Adds a category: `label`, its string (strings, callbacks) and, if
 * `value`, its value v.  Takes label and str, NULL meaning out of memory
 * (str may be NULL for elements, lengths and enums). */
static int add(bcw_param *p, char *label, char *str, int64_t v, bool value)
{
    bcw_part part = {
        .label = label, .str = str, .nvalues = value, .values = {v}, .rel = -1};
    if (label == NULL || (str == NULL && (p->kind == BCW_PK_STRING ||
                                          p->kind == BCW_PK_CALLBACK))) {
        free(label);
        free(str);
        return BCW_ENOMEM;
    }
    return bcw__param_add_part(p, part);
}

static bool has_value(const bcw_param *p, const char *v)
{
    for (unsigned i = 0; i < p->nparts; i++)
        if (strcmp(p->parts[i].str, v) == 0)
            return true;
    return false;
}

/* A string's categories: its conditions' values, then "" and a long
 * string unless a condition already has them. */
static int strings(bcw_param *p)
{
    int err = 0;
    for (unsigned i = 0; i < p->nconds && err == 0; i++)
        if (p->conds[i].value != NULL && !has_value(p, p->conds[i].value))
            err = add(p, bcw__strdup(p->conds[i].text),
                      bcw__strdup(p->conds[i].value), 0, false);
    if (err == 0 && !has_value(p, ""))
        err = add(p, bcw__sprintf("%s == \"\"", p->name), bcw__strdup(""), 0,
                  false);
    if (err == 0 && !has_value(p, "a") && !has_value(p, "x"))
        err = add(p, bcw__strdup("one character"), bcw__strdup("a"), 0, false);
    if (err == 0 && !has_value(p, LONG_STRING))
        err = add(p, bcw__strdup("none of them"), bcw__strdup(LONG_STRING), 0,
                  false);
    return err;
}

/* A callback's categories: each module function of its type and kind,
 * else the built-in closure of its kind; and NULL where the function
 * checks it for NULL (its own default then). */
static int callbacks(const bcw_model *m, const char *fn_name, bcw_param *p)
{
    for (unsigned i = 0; i < p->nconds; i++) {
        const char *fn = p->conds[i].value;
        unsigned sym = 0;
        while (sym < m->nsyms && strcmp(m->syms[sym], fn) != 0)
            sym++;
        if (sym == m->nsyms)
            continue; /* analysed without its symbol: cannot be passed */
        int err =
            add(p, bcw__strdup(p->conds[i].text), bcw__strdup(fn), sym, true);
        if (err < 0)
            return err;
    }
    int err = 0;
    enum bcw_callback cb =
        p->nparts == 0 && p->nsig > 0 ? bcw__callbacks_kind(p, fn_name) : 0;
    /* one returning a pointer that no built-in can make (bcw_zero's
     * NULL, which the code would follow) where NULL is accepted: NULL */
    bool made_up = cb == BCW_CB_ZERO && p->sig[0] == BCW_ABI_PTR;
    if (cb != 0 && !(made_up && p->nullable))
        err = add(p, bcw__sprintf("%s == %s", p->name, bcw__callback_name(cb)),
                  bcw__strdup(bcw__callback_name(cb)), -(int64_t)cb, true);
    /* the code checks it for NULL: what a caller passes for its default */
    return err == 0 && p->nullable && (p->nparts > 0 || made_up)
               ? add(p, bcw__sprintf("%s == NULL", p->name),
                     bcw__strdup("NULL"), BCW_CB_NULL_VALUE, true)
               : err;
}

/* A method's string no condition compares (a key looked up by strcmp in
 * a loop, or stored): a new string each call (the master generator's)
 * or the same one every time, so what one call stores under a key a
 * later call finds. */
static int keys(bcw_param *p)
{
    /* no string of its own: the generator's */
    bcw_part fresh = {.label = bcw__strdup("a new string"), .rel = -1};
    int err = fresh.label != NULL ? bcw__param_add_part(p, fresh) : BCW_ENOMEM;
    return err < 0 ? err
                   : add(p, bcw__sprintf("%s == \"a\"", p->name),
                         bcw__strdup("a"), 0, false);
}

/* An element's categories: a new cell each call (the master generator's
 * Obj#1, Obj#2 ...) or the same cell Obj#0 every time, so a container's
 * "already there" and "found" paths are reached too. */
static int elements(bcw_param *p)
{
    int err = add(p, bcw__strdup("a new element"), NULL, 0, false);
    return err < 0
               ? err
               : add(p, bcw__sprintf("%s == Obj#0", p->name), NULL, 0, true);
}

/* A buffer's length the code does not branch on: empty, one byte and a
 * small buffer (BCW_BUFFER_BYTES), the buffer as long as it says. */
static int lengths(bcw_param *p)
{
    static const int64_t sizes[] = {0, 1, BCW_BUFFER_BYTES};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int err =
            add(p, bcw__sprintf("%s == %lld", p->name, (long long)sizes[i]),
                NULL, sizes[i], true);
        if (err < 0)
            return err;
    }
    return 0;
}

/* An enum's categories: each enumerator of p->detail ("RED=0, GREEN=1",
 * "..." where the analyzer cut the list), up to MAX_ENUMERATORS, named
 * as the code names it; a note says when some are left out. */
static int enumerators(bcw_param *p)
{
    const char *s = p->detail != NULL ? p->detail : "";
    unsigned n = 0;
    int err = 0;
    while (*s != '\0' && err == 0) {
        const char *eq = strchr(s, '='), *end = strstr(s, ", ");
        if (end == NULL)
            end = s + strlen(s);
        char *stop = NULL;
        long long v = eq != NULL && eq < end ? strtoll(eq + 1, &stop, 10) : 0;
        if (stop != end || n == MAX_ENUMERATORS)
            break; /* "...", or past the cap */
        err = add(p, bcw__strndup(s, (size_t)(eq - s)), NULL, v, true);
        n++;
        s = *end != '\0' ? end + 2 : end;
    }
    if (err == 0 && *s != '\0')
        err = bcw__param_set_note(
            p, bcw__sprintf("categories for its first %u enumerators only", n));
    return err;
}

int bcw__partition_instance(const bcw_model *m, const bcw_unit *u,
                            const bcw_func *f, bcw_param *p)
{
    bool own = bcw__unit_own_ctor(m, u) >= 0;
    int err = own ? add(p, bcw__sprintf("a new %s", u->name), NULL, 0, false)
                  : 0;
    /* the target again: where the code compares the two (what it does
     * then is its own), where it only reads (set_equal(s, s)), or where
     * no other instance can be made */
    return err < 0 ||
                   (own && !p->alias_checked && f->role != BCW_ROLE_OBSERVER)
               ? err
               : add(p, bcw__sprintf("%s is the target", p->name), NULL, 0,
                     true);
}

int bcw__partition_key(bcw_param *p)
{
    return p->kind == BCW_PK_STRING && p->nconds == 0 && p->nparts == 0
               ? keys(p)
               : 0;
}

/* Storage the function reads, checked for NULL (yajl_alloc(cb, afs, ctx)
 * putting its default allocator where afs is NULL): zeroed storage,
 * which no caller makes, and NULL, what a caller passes for the
 * default. */
static int storage(bcw_param *p)
{
    int err = add(p, bcw__strdup("zeroed storage"), NULL, 0, false);
    return err < 0 ? err
                   : add(p, bcw__sprintf("%s == NULL", p->name),
                         bcw__strdup("NULL"), BCW_CB_NULL_VALUE, true);
}

int bcw__partition_kind(const bcw_model *m, const bcw_func *f, bcw_param *p)
{
    if (p->kind == BCW_PK_SCRATCH && p->nullable && !p->filled &&
        p->nparts == 0)
        return storage(p);
    if (p->kind == BCW_PK_ENUM)
        return enumerators(p);
    if (p->kind == BCW_PK_LENGTH && p->nconds == 0)
        return lengths(p);
    if (p->kind == BCW_PK_ELEMENT)
        return elements(p);
    if (p->kind == BCW_PK_STRING && p->nconds > 0)
        return strings(p);
    if (p->kind == BCW_PK_CALLBACK)
        return callbacks(m, f->name, p);
    return 0;
}
