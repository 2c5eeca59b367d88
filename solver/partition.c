/* partition.c - category-partition of a model's parameters
 * (bcw_model_partition in bcwalk/solver.h): the feasible combinations of
 * the branch conditions a parameter decides are its categories, each
 * with a representative and its boundary values; strings, callbacks,
 * elements and lengths go to kinds.c, and so do enums' enumerators,
 * before their conditions' categories.
 *
 * One Z3 session for the whole model (creating a context costs ~10 ms,
 * session.c).  Conditions over the unit's fields (amount > balance +
 * limit) or earlier parameters (index + length > a->len) make categories
 * relative to the live object and the call (relative.c); those in shapes
 * not partitioned yet leave the parameter a note instead. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "alloc.h"
#include "bcwalk/solver.h"
#include "kinds.h"
#include "model.h"
#include "relative.h"
#include "session.h"
#include "shapes.h"
#include "terms.h"

/* Bounds relative to the object's fields make categories only while they
 * are few; x == keys[0] ... x == keys[7] is a search, not a partition. */
#define MAX_RELATIVE_CONDS 2

/* The label of one combination: the shown conditions' texts, each as it
 * holds; NULL when out of memory (or past a limit no label reaches). */
static char *label_text(const bcw_param *p, uint8_t mask, unsigned n,
                        unsigned combo)
{
    bcw_buf b;
    bcw__buf_init(&b, 1u << 16);
    int err = 0;
    for (unsigned i = 0, k = 0; i < n && err == 0; i++)
        if (mask & (1u << i))
            err = bcw__buf_printf(&b, "%s%s", k++ ? " && " : "",
                                  combo & (1u << i) ? p->conds[i].text
                                                    : p->conds[i].negated);
    if (err < 0) {
        bcw__buf_free(&b);
        return NULL;
    }
    return b.data ? b.data : bcw__strdup("any");
}

/* Adds a category of constant values: its representative, then its
 * minimum and maximum, each once.  Takes `label` (NULL: an allocation
 * that failed); 0 or BCW_ENOMEM. */
static int constant_part(bcw_param *p, char *label, int64_t rep, int64_t lo,
                         int64_t hi)
{
    if (label == NULL)
        return BCW_ENOMEM;
    bcw_part c = {.label = label, .rel = -1};
    int64_t cand[3] = {rep, lo, hi};
    for (int i = 0; i < 3; i++) {
        bool seen = false;
        for (unsigned j = 0; j < c.nvalues; j++)
            seen = seen || c.values[j] == cand[i];
        if (!seen)
            c.values[c.nvalues++] = cand[i];
    }
    /* an enum's `mode == 1` is its enumerator's category again */
    for (unsigned i = 0; i < p->nparts; i++)
        if (p->parts[i].rel < 0 && p->parts[i].nvalues == c.nvalues &&
            memcmp(p->parts[i].values, c.values,
                   c.nvalues * sizeof *c.values) == 0) {
            free(label);
            return 0;
        }
    return bcw__param_add_part(p, c);
}

/* Adds `note` to p's note (a parameter may have two: too many
 * conditions, and combinations Z3 did not decide).  Takes `note`; 0 or
 * BCW_ENOMEM. */
static int add_note(bcw_param *p, char *note)
{
    if (note == NULL || p->parts_note == NULL)
        return bcw__param_set_note(p, note);
    char *both = bcw__sprintf("%s; %s", p->parts_note, note);
    free(note);
    return bcw__param_set_note(p, both);
}

/* The categories of integer parameter p of fn (unit u) from its branch
 * conditions.  0 with categories or a note saying why there are none;
 * BCW_ENOMEM or BCW_ERROR (Z3's) on failure, p then holding some
 * categories or nodes. */
static int partition_param(bcw_session *s, bcw_shapes *shapes,
                           const bcw_unit *u, const bcw_func *fn, bcw_param *p)
{
    unsigned n = p->nconds;
    int err = 0;
    if (n > BCW_MAX_COMBO_CONDS) {
        err = add_note(p, bcw__sprintf("%u conditions: only the first %d are "
                                       "combined",
                                       n, BCW_MAX_COMBO_CONDS));
        if (err < 0)
            return err;
        n = BCW_MAX_COMBO_CONDS;
    }
    Z3_ast x = bcw__session_var(s, p->name, bcw_abi_bits(p->abi));
    if (x == NULL)
        return s->err;
    Z3_ast conds[BCW_MAX_COMBO_CONDS];
    uint32_t rel_t[BCW_MAX_COMBO_CONDS];
    unsigned rel_pred[BCW_MAX_COMBO_CONDS];
    bool rel[BCW_MAX_COMBO_CONDS];
    /* the object's fields are read from the unit the method gets */
    bool object = fn->self >= 0 && fn->params[fn->self].kind == BCW_PK_UNIT;
    /* live: read at call time, from the object's fields or the values
     * the call passes earlier parameters */
    bool any_live = false, all_bounds = true;
    for (unsigned i = 0; i < n; i++) {
        bool bound = bcw__relative_bound(&rel_t[i], &rel_pred[i], p, i);
        bool fields = bcw__relative_uses(p, p->conds[i].root, BCW_C_FIELD);
        bool live =
            fields || bcw__relative_uses(p, p->conds[i].root, BCW_C_ARG);
        rel[i] = bound && live;
        any_live = any_live || live;
        all_bounds = all_bounds && bound;
        if (fields && !object)
            return add_note(
                p, bcw__strdup("its conditions mix it with the unit's fields "
                               "in a way not partitioned yet"));
        if ((err = bcw__term_cond(&conds[i], s, p, i, x)) < 0)
            return err;
        if (conds[i] == NULL)
            return add_note(p,
                            bcw__sprintf("condition %s is not translated to Z3 "
                                         "(an operation or a mix of widths not "
                                         "partitioned yet)",
                                         p->conds[i].text));
    }
    unsigned nrel = 0;
    for (unsigned i = 0; i < n; i++)
        nrel += rel[i];
    if (nrel > MAX_RELATIVE_CONDS) {
        return add_note(
            p, bcw__sprintf("%u conditions compare it with the unit's fields "
                            "(a search over them, like set membership): not "
                            "partitioned",
                            nrel));
    }
    /* fields or earlier parameters in other shapes than bounds: the
     * worker solves each category on the live object and the values
     * chosen before it */
    bool solve = any_live && !all_bounds;
    bcw_verdict v[1u << BCW_MAX_COMBO_CONDS];
    err = bcw__shapes_decide(v, shapes, s, p, n, x, conds,
                             bcw_abi_signed(p->abi), !solve && nrel == 0);
    unsigned undecided = 0;
    for (unsigned combo = 0; combo < (1u << n) && err == 0; combo++) {
        const bcw_verdict *d = &v[combo];
        undecided += d->undecided;
        if (!d->feasible)
            continue;
        char *label = label_text(p, d->shown, n, combo);
        /* a category bounded by the object's fields: its bounds are
         * read from the live object at call time; shown: the first
         * relative bound that holds, else the first */
        int r = -1;
        for (unsigned i = 0; i < n && r < 0; i++)
            if (rel[i] && ((combo >> i) & 1u))
                r = (int)i;
        for (unsigned i = 0; i < n && r < 0; i++)
            if (rel[i])
                r = (int)i;
        if (solve)
            err = bcw__relative_solved_part(p, label, n, combo);
        else if (r >= 0)
            err = bcw__relative_part(u, fn, p, label, rel_t, rel_pred, n, combo,
                                     (unsigned)r);
        else if (d->bounded)
            err = constant_part(p, label, d->rep, d->lo, d->hi);
        else
            free(label); /* not reached: feasible constant ones are bounded */
    }
    /* Z3's unknown is neither feasible nor infeasible: say so */
    if (err == 0 && undecided > 0)
        err = add_note(p, bcw__sprintf("Z3 answered unknown for %u of its "
                                       "%u combinations (a check may have "
                                       "reached its limit of work): they "
                                       "have no category",
                                       undecided, 1u << n));
    return err;
}

/* A buffer's length, its constant categories cut to the longest buffer
 * a walk makes (BCW_MAX_BUFFER_BYTES): a value past it (len > 15 up to
 * SIZE_MAX) is no call a caller makes with the buffer it has; a category
 * with no value left is dropped, and the note says so.  Negative values
 * of a signed length are kept: the code's to refuse.  0 or BCW_ENOMEM. */
static int cut_lengths(bcw_param *p)
{
    bool is_signed = bcw_abi_signed(p->abi);
    unsigned kept = 0, cut = 0;
    for (unsigned i = 0; i < p->nparts; i++) {
        bcw_part *c = &p->parts[i];
        unsigned n = 0;
        for (unsigned v = 0; c->rel < 0 && v < c->nvalues; v++)
            if ((is_signed && c->values[v] < 0) ||
                (uint64_t)c->values[v] <= BCW_MAX_BUFFER_BYTES)
                c->values[n++] = c->values[v];
        if (c->rel >= 0 || n > 0) {
            c->nvalues = c->rel >= 0 ? c->nvalues : n;
            p->parts[kept++] = *c;
            continue;
        }
        free(c->label);
        free(c->str);
        free(c->rel_text);
        cut++;
    }
    p->nparts = kept;
    return cut == 0 ? 0
                    : add_note(p, bcw__sprintf(
                                      "%u categories longer than any buffer "
                                      "a walk makes (%u bytes) left out",
                                      cut, BCW_MAX_BUFFER_BYTES));
}

/* An enum's categories: its enumerators, then those of its branch
 * conditions that are not an enumerator again (`mode == 8`), so values
 * outside the enum (`mode != 0 && mode != 1`) are walked too.  0, or
 * partition_param's failure. */
static int partition_enum(bcw_session *s, bcw_shapes *shapes,
                          const bcw_model *m, const bcw_unit *u,
                          const bcw_func *fn, bcw_param *p)
{
    int err = bcw__partition_kind(m, fn, p);
    return err == 0 && p->nconds > 0 ? partition_param(s, shapes, u, fn, p)
                                     : err;
}

/* Does f, a function of its unit with no target parameter (a handle's
 * user: json_object_set_value(object, name, value)), take an instance of
 * the unit all the same?  Its strings are then keys, as a method's. */
static bool takes_instance(const bcw_func *f)
{
    for (unsigned j = 0; j < f->nparams; j++)
        if (f->params[j].kind == BCW_PK_UNIT)
            return true;
    return false;
}

int bcw_model_partition(bcw_model *m)
{
    bcw_session s;
    bcw_shapes shapes = {0};
    int err = bcw__session_open(&s);
    for (unsigned k = 0; k < m->nunits && err == 0; k++) {
        bcw_unit *u = &m->units[k];
        for (unsigned i = 0; i < u->nfuncs && err == 0; i++) {
            bcw_func *f = &u->funcs[i];
            for (unsigned j = 0; j < f->nparams && err == 0; j++) {
                bcw_param *p = &f->params[j];
                if (p->kind == BCW_PK_UNIT && (int)j != f->self)
                    err = p->nparts == 0 ? bcw__partition_instance(m, u, f, p) : 0;
                else if (p->kind == BCW_PK_STRING && p->nconds == 0 &&
                         (f->self >= 0 || takes_instance(f)))
                    err = bcw__partition_key(p);
                else if (p->kind == BCW_PK_STRING ||
                         p->kind == BCW_PK_CALLBACK ||
                         p->kind == BCW_PK_SCRATCH ||
                         (p->kind == BCW_PK_ELEMENT && f->self >= 0) ||
                         (p->kind == BCW_PK_LENGTH && p->nconds == 0))
                    err = p->nparts == 0 ? bcw__partition_kind(m, f, p) : 0;
                else if (p->kind == BCW_PK_ENUM && p->nparts == 0)
                    err = partition_enum(&s, &shapes, m, u, f, p);
                else if (p->nconds > 0 && p->nparts == 0 &&
                         p->parts_note == NULL) {
                    err = partition_param(&s, &shapes, u, f, p);
                    if (err == 0 && p->kind == BCW_PK_LENGTH && p->pair >= 0)
                        err = cut_lengths(p);
                }
                bcw__session_release(&s);
            }
        }
    }
    bcw__session_close(&s);
    bcw__shapes_free(&shapes);
    return err;
}
