/* rt_args.c - the arguments of a call (rt_args.h) and the general call:
 * every parameter kind and every way a category fixes a value.  The
 * common call (the object and scalars) takes a faster path in rt_seq.c.
 * Strings, buffers and out-parameter storage come from the sequence's
 * arena, which the state hash follows pointers into. */
#include "rt_args.h"

#include <stdbool.h>
#include <string.h>

#include "rt_alloc.h"
#include "rt_bounds.h"
#include "rt_call.h"
#include "rt_closure.h"
#include "rt_custom.h"
#include "rt_halt.h"
#include "rt_sanitize.h"

/* n zeroed bytes of the sequence's arena, 16-byte aligned; a sequence
 * that needs more than the arena holds ends as an abort.  `guarded`: a
 * buffer whose length the call is given; at least 16 bytes follow it,
 * which AddressSanitizer is told are no one's (with --sanitize address),
 * so reading or writing past it is reported.  (Others are not guarded:
 * how much a string or out-parameter may take is the caller's guess.) */
static void *arena_alloc(bcw_rt_worker *w, size_t n, int guarded)
{
    size_t exact = n;
    n = ((n + 15) & ~(size_t)15) + (guarded ? 16 : 0);
    if (n > BCW_RT_ARENA_SIZE - w->arena_used)
        bcw_rt_halt(BCW_RUN_ABORT, 0);
    char *p = w->arena + w->arena_used;
    w->arena_used += n;
    memset(p, 0, n);
    if (guarded)
        bcw_rt_poison(p + exact, n - exact);
    if (w->narena_spans < BCW_RT_ARENA_SPANS)
        w->arena_spans[w->narena_spans++] =
            (bcw_rt_span){(uintptr_t)p, n, 0, 0};
    else
        w->arena_spans_lost = 1;
    return p;
}

/* A string category's value, copied so the code may write it. */
static char *plan_string(bcw_rt_worker *w, int64_t off)
{
    const bcw_shm *shm = w->shm;
    if (off < 0 || (uint64_t)off >= shm->nstrings)
        return arena_alloc(w, 1, 0);
    const char *s = shm->strings + off;
    size_t len = strnlen(s, shm->nstrings - (size_t)off) + 1;
    char *d = arena_alloc(w, len, 0);
    memcpy(d, s, len - 1);
    return d;
}

/* The handle argument `p` takes (BCW_FIXED_HANDLE*): the one of its age
 * given out.  Halts the sequence when there is none (rejected: a meaningless
 * call) or when it points into a block freed since (a crash: the use
 * after free the call would make). */
static uint64_t pass_handle(const bcw_rt_worker *w, const bcw_wire_param *p)
{
    void *h =
        w->handles[p->value % BCW_MAX_HANDLES][p->value / BCW_MAX_HANDLES];
    if (h == NULL && p->fixed == BCW_FIXED_HANDLE)
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_NO_ARG);
    if (bcw_rt_alloc_freed(h))
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_FREED);
    return (uint64_t)(uintptr_t)h;
}

/* Another unit's instance for a BCW_FIXED_UNIT_CTOR argument `p`: made
 * by that unit's constructor, plan entry `fi`, as its result, in its
 * T **out, or in storage of the unit's size its init function fills; the
 * runtime frees it with the sequence's other leftovers. */
static uint64_t make_instance(bcw_rt_worker *w, unsigned fi,
                              const bcw_wire_param *p)
{
    const bcw_wire_func *f = &w->shm->funcs[fi];
    void *outs[BCW_MAX_PARAMS] = {0};
    void *self = f->role == BCW_ROLE_INIT_CONSTRUCTOR
                     ? arena_alloc(w, p->size ? p->size : 8, 0)
                     : NULL;
    int walks = bcw_rt_alloc_walks;
    bcw_rt_alloc_walks = 1; /* what it allocates is the walk's */
    uint64_t raw = bcw_rt_args_invoke(w, fi, outs, NULL, self);
    bcw_rt_alloc_walks = walks;
    if (self != NULL)
        raw = (uint64_t)(uintptr_t)self;
    for (unsigned k = 0; k < f->nparams; k++)
        if (f->params[k].kind == BCW_PK_UNIT_OUT && outs[k] != NULL)
            raw = (uint64_t)(uintptr_t) * (void **)outs[k];
    if (raw == 0)
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_NO_ARG);
    /* the callbacks its constructor left for the user to set */
    for (uint32_t i = 0; i < w->shm->nfills; i++) {
        const bcw_wire_fill *fill = &w->shm->fills[i];
        void **field = (void **)(uintptr_t)(raw + fill->offset);
        if (fill->func == fi && *field == NULL)
            *field = w->fills[i]->code;
    }
    return raw;
}

uint64_t bcw_rt_args_invoke(bcw_rt_worker *w, unsigned fi, void **outs,
                            uint64_t *report, void *self)
{
    const bcw_shm *shm = w->shm;
    const bcw_wire_func *f = &shm->funcs[fi];
    bcw_gen *g = &w->gen;
    uint64_t vals[BCW_MAX_PARAMS];
    /* values first: a buffer's size is its length parameter's value */
    const char *strs[BCW_MAX_PARAMS] = {0};
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        /* a category may be solved on the values chosen before it */
        w->solving_args = vals;
        w->nsolving_args = k;
        bool met = true;
        vals[k] = p->fixed == BCW_FIXED_BOUNDS ? bcw_rt_bounds_value(w, p, &met)
                  : p->fixed == BCW_FIXED_CUSTOM
                      ? bcw_rt_custom_next(fi, k, p, g, &strs[k])
                  : p->fixed == BCW_FIXED_HANDLE ||
                          p->fixed == BCW_FIXED_HANDLE_OR_NULL
                      ? pass_handle(w, p)
                  : p->fixed == BCW_FIXED_UNIT_CTOR
                      ? make_instance(w, (unsigned)p->value, p)
                  : p->fixed ? (uint64_t)p->value
                             : bcw_gen_next(g, p->kind, p->abi);
        /* a category the object allows no value of: the call is not
         * made under a false label */
        if (!met)
            bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_UNMET);
    }
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        uint64_t raw = vals[k];
        switch (p->fixed) {
        case BCW_FIXED_STRING:
            if (p->kind != BCW_PK_BUFFER)
                raw = (uint64_t)(uintptr_t)plan_string(w, p->value);
            break;
        case BCW_FIXED_SYMBOL:
            raw = (uint64_t)(uintptr_t)bcw_unit_symtab[p->value];
            break;
        case BCW_FIXED_CLOSURE:
            w->closures[fi][k]->calls = 0;
            raw = (uint64_t)(uintptr_t)w->closures[fi][k]->code;
            break;
        case BCW_FIXED_CUSTOM:
            if (p->kind == BCW_PK_STRING) {
                /* the generator's string, or its NULL */
                size_t len = strs[k] ? strlen(strs[k]) + 1 : 0;
                raw = strs[k] ? (uint64_t)(uintptr_t)memcpy(
                                    arena_alloc(w, len, 0), strs[k], len)
                              : 0;
            }
            break;
        default:
            break;
        }
        bool made =
            (p->fixed == BCW_FIXED_STRING && p->kind != BCW_PK_BUFFER) ||
            p->fixed == BCW_FIXED_SYMBOL || p->fixed == BCW_FIXED_CLOSURE ||
            p->fixed == BCW_FIXED_UNIT_CTOR ||
            (p->fixed == BCW_FIXED_CUSTOM && p->kind == BCW_PK_STRING);
        switch (made ? BCW_PK_NONE : p->kind) {
        case BCW_PK_UNIT:
            raw = (uint64_t)(uintptr_t)(self != NULL ? self : w->target);
            break;
        case BCW_PK_UNIT_DEREF:
            raw = (uint64_t)(uintptr_t) * (void **)w->target;
            if (raw == 0 && p->fixed == BCW_FIXED_NONNULL)
                bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_NO_ARG);
            break;
        case BCW_PK_STRING: {
            const char *s = bcw_gen_strings[raw];
            size_t len = strlen(s) + 1;
            raw = (uint64_t)(uintptr_t)memcpy(arena_alloc(w, len, 0), s, len);
            break;
        }
        case BCW_PK_ELEMENT: {
            if (raw == BCW_ELEMENT_NULL) {
                raw = 0;
                break;
            }
            char *cell = w->cells[raw % BCW_RT_CELLS];
            memcpy(cell, &raw, sizeof raw);
            raw = (uint64_t)(uintptr_t)cell;
            break;
        }
        case BCW_PK_OUT:
        case BCW_PK_SCRATCH:
        case BCW_PK_UNIT_REF:
        case BCW_PK_UNIT_OUT:
            outs[k] = arena_alloc(w, p->size ? p->size : 8, 0);
            raw = (uint64_t)(uintptr_t)outs[k];
            break;
        case BCW_PK_BUFFER: {
            /* as long as its length says, up to BCW_RT_MAX_BUFFER;
             * distinct printable bytes, so reads of them are observable */
            uint64_t n = p->size;
            if (p->pair >= 0 && p->pair < f->nparams && vals[p->pair] > n)
                n = vals[p->pair] < BCW_RT_MAX_BUFFER ? vals[p->pair]
                                                      : BCW_RT_MAX_BUFFER;
            /* a permutation's content (--permute) first */
            const char *content = "";
            size_t clen = 0;
            if (p->fixed == BCW_FIXED_STRING && p->value >= 0 &&
                (uint64_t)p->value < shm->nstrings) {
                content = shm->strings + p->value;
                clen = strnlen(content, shm->nstrings - (size_t)p->value);
            }
            if (clen > n)
                n = clen;
            char *b = arena_alloc(w, n, 1);
            for (uint64_t j = 0; j < n; j++)
                b[j] = j < clen ? content[j] : (char)('a' + j % 26);
            if (report != NULL)
                report[k] = n;
            outs[k] = b; /* its content after the call: the observation */
            raw = (uint64_t)(uintptr_t)b;
            break;
        }
        default:
            break;
        }
        vals[k] = raw;
        /* a value computed from the object is reported as passed */
        if (report != NULL && p->fixed == BCW_FIXED_BOUNDS)
            report[k] = raw;
    }
    return bcw_rt_call(w, fi, vals);
}
