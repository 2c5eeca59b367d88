/* rt_args.c - the arguments of a call (rt_args.h) and the general call:
 * every parameter kind and every way a category fixes a value.  The
 * common call (the object and scalars) takes a faster path in rt_seq.c.
 * Strings, buffers and out-parameter storage come from the sequence's
 * arena, which the state hash follows pointers into. */
#define _GNU_SOURCE /* fmemopen */
#include "rt_args.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rt_alloc.h"
#include "rt_bounds.h"
#include "rt_call.h"
#include "rt_closure.h"
#include "rt_custom.h"
#include "rt_files.h"
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

void bcw_rt_args_status(const bcw_wire_func *f, uint64_t raw)
{
    if ((f->flags & (BCW_WIRE_OK_ZERO | BCW_WIRE_OK_NONZERO)) == 0)
        return;
    bool zero = bcw_value_int((enum bcw_abi)f->ret.abi, raw) == 0;
    if (zero != ((f->flags & BCW_WIRE_OK_ZERO) != 0))
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_FAILED);
}

void *bcw_rt_args_keep(bcw_rt_worker *w, const void *p, size_t n)
{
    return memcpy(arena_alloc(w, n, 0), p, n);
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

/* The handle argument `p` of plan entry fi takes (BCW_FIXED_HANDLE*):
 * the one of its age given out.  Halts the sequence (rejected: a
 * meaningless call) when there is none, a pointer field the call
 * follows is NULL or unchanged since the handle was given out, it points
 * into a block freed since (the use after free the call would make), or
 * the target no longer reaches it: an entry of the target, or, for a
 * call given the target, one the target held when it was given out (a
 * vertex since removed from its graph).
 */
static uint64_t pass_handle(const bcw_rt_worker *w, unsigned fi,
                            const bcw_wire_param *p)
{
    void *h =
        w->handles[p->value % BCW_MAX_HANDLES][p->value / BCW_MAX_HANDLES];
    if (h == NULL && p->fixed == BCW_FIXED_HANDLE)
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_NO_ARG);
    if (bcw_rt_alloc_freed(h))
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_FREED);
    /* an iterator with no current entry yet, for a call that follows it:
     * the pointer NULL, or as it was when the handle was given out (a
     * tree's sentinel) */
    void *const *given =
        w->snaps[p->value % BCW_MAX_HANDLES][p->value / BCW_MAX_HANDLES];
    for (uint64_t m = h != NULL ? p->needs : 0; m != 0; m &= m - 1) {
        void *v = ((void *const *)h)[__builtin_ctzll(m)];
        if (v == NULL || v == given[__builtin_ctzll(m)])
            bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_NO_ARG);
    }
    /* an iterator by value moved to its end */
    if (h != NULL && w->by_value[p->value % BCW_MAX_HANDLES] &&
        *(const uint64_t *)h == 0)
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_NO_ARG);
    /* a node popped off the list, no longer its entry (or never one) */
    bool held =
        w->held[p->value % BCW_MAX_HANDLES][p->value / BCW_MAX_HANDLES] != 0;
    if ((p->entry || (held && w->with_target[fi])) && h != NULL &&
        !bcw_rt_alloc_reaches(w->target, h))
        bcw_rt_halt(BCW_RUN_REJECTED, held ? BCW_SIG_LET_GO : BCW_SIG_NO_ARG);
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
    bcw_rt_args_status(f, raw);
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
        if (fill->func == fi && fill->param == 0 && *field == NULL)
            *field = w->fills[i]->code;
    }
    return raw;
}

/* BCW_FIXED_BOUNDS parameter k's value in the call in flight: the one
 * the sequence pins for it (a value the oracle recorded), else its
 * bounds solved on the object.  Another unit's constructor, called to
 * make an argument, is given no pinned value. */
static uint64_t bounds_value(bcw_rt_worker *w, unsigned fi, unsigned k,
                             bool *met)
{
    for (uint32_t i = 0; !bcw_rt_alloc_walks && i < w->npins; i++) {
        const uint16_t *pin = &w->pins[i * BCW_PIN_WORDS];
        if (pin[0] == w->flight.call && pin[1] == k) {
            *met = true;
            return pin[2] | (uint64_t)pin[3] << 16 | (uint64_t)pin[4] << 32 |
                   (uint64_t)pin[5] << 48;
        }
    }
    return bcw_rt_bounds_memo(w, fi, k, met);
}

/* Each parameter's value as the plan chooses it into vals: a category's
 * (bounds solved on the object and the values before it), the custom
 * generator's (its strings in strs), a handle given out earlier, an
 * instance a constructor makes, a fixed one, or the master generator's
 * next; a bounded one pinned by the sequence takes its pinned value.  A
 * category the object allows no value of rejects the call: it is not made under
 * a false label. */
static void choose_values(bcw_rt_worker *w, unsigned fi, uint64_t *vals,
                          const char **strs)
{
    const bcw_wire_func *f = &w->shm->funcs[fi];
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        /* a category may be solved on the values chosen before it */
        w->solving_args = vals;
        w->nsolving_args = k;
        bool met = true;
        vals[k] = p->fixed == BCW_FIXED_BOUNDS ? bounds_value(w, fi, k, &met)
                  : p->fixed == BCW_FIXED_CUSTOM
                      ? bcw_rt_custom_next(fi, k, p, &w->gen, &strs[k])
                  : p->fixed == BCW_FIXED_HANDLE ||
                          p->fixed == BCW_FIXED_HANDLE_OR_NULL
                      ? pass_handle(w, fi, p)
                  : p->fixed == BCW_FIXED_UNIT_CTOR
                      ? make_instance(w, (unsigned)p->value, p)
                  : p->fixed ? (uint64_t)p->value
                             : bcw_gen_next(&w->gen, p->kind, p->abi);
        if (!met)
            bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_UNMET);
    }
}

/* Parameter k's value made from what the plan names (a string of the
 * plan, a symbol, a closure, a custom generator's string); *made when it
 * is then passed as it is. */
static uint64_t named_value(bcw_rt_worker *w, unsigned fi, unsigned k,
                            const bcw_wire_param *p, uint64_t raw,
                            const char *str, bool *made)
{
    *made = (p->fixed == BCW_FIXED_STRING && p->kind != BCW_PK_BUFFER) ||
            p->fixed == BCW_FIXED_SYMBOL || p->fixed == BCW_FIXED_CLOSURE ||
            p->fixed == BCW_FIXED_UNIT_CTOR ||
            (p->fixed == BCW_FIXED_CUSTOM && p->kind == BCW_PK_STRING);
    switch (p->fixed) {
    case BCW_FIXED_STRING:
        return p->kind != BCW_PK_BUFFER
                   ? (uint64_t)(uintptr_t)plan_string(w, p->value)
                   : raw;
    case BCW_FIXED_SYMBOL:
        return (uint64_t)(uintptr_t)bcw_unit_symtab[p->value];
    case BCW_FIXED_CLOSURE:
        w->closures[fi][k]->calls = 0;
        return (uint64_t)(uintptr_t)w->closures[fi][k]->code;
    case BCW_FIXED_CUSTOM:
        if (p->kind != BCW_PK_STRING)
            return raw;
        /* the generator's string, or its NULL */
        if (str == NULL)
            return 0;
        size_t len = strlen(str) + 1;
        return (uint64_t)(uintptr_t)memcpy(arena_alloc(w, len, 0), str, len);
    default:
        return raw;
    }
}

/* A buffer parameter's storage: as long as its length parameter says,
 * holding a permutation's content (--permute) then distinct printable
 * bytes, so that reads of them are observable; its length reported.  A
 * length past BCW_MAX_BUFFER_BYTES (a bound read on the live object) is
 * no buffer a walk makes: the sequence is rejected, never passed a
 * shorter one; a negative one is the code's to refuse. */
static char *buffer_value(bcw_rt_worker *w, const bcw_wire_func *f,
                          const bcw_wire_param *p, const uint64_t *vals,
                          uint64_t *reported)
{
    const bcw_shm *shm = w->shm;
    uint64_t n = p->size;
    if (p->pair >= 0 && p->pair < f->nparams) {
        enum bcw_abi abi = (enum bcw_abi)f->params[p->pair].abi;
        int64_t want = bcw_value_int(abi, vals[p->pair]);
        if (!bcw_abi_signed(abi) || want >= 0) {
            if ((uint64_t)want > BCW_MAX_BUFFER_BYTES)
                bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_UNMET);
            if ((uint64_t)want > n)
                n = (uint64_t)want;
        }
    }
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
    if (reported != NULL)
        *reported = n;
    return b;
}

/* A copy of the n bytes at `raw`, then a NUL at `end` (at most n), in a
 * heap block of the walk's own (no leak of the sequence's when the
 * library keeps it and never frees it), for an argument the library
 * takes over: it may reallocate or free it, as a caller's malloc'd
 * string (buffer_new_with_string(str)), and reads a string given with
 * its length to that length; halts as an abort when out of memory. */
static uint64_t taken_copy(uint64_t raw, size_t n, size_t end)
{
    int walks = bcw_rt_alloc_walks;
    bcw_rt_alloc_walks = 1;
    char *h = bcw_rt_malloc(n + 1);
    bcw_rt_alloc_walks = walks;
    if (h == NULL)
        bcw_rt_halt(BCW_RUN_ABORT, 0);
    memcpy(h, (const void *)(uintptr_t)raw, n);
    h[end < n ? end : n] = '\0';
    return (uint64_t)(uintptr_t)h;
}

/* A FILE * argument: a stream in memory holding BCW_FILE_TEXT, read
 * from its start, then writable, as a caller's fopen of a file gives
 * one; closed at the sequence's end unless the code closed it
 * (rt_files.c).  More than BCW_RT_MAX_STREAMS in a sequence: the call
 * is not made. */
static FILE *stream_value(void)
{
    FILE *f = fmemopen(NULL, BCW_FILE_BYTES, "w+");
    if (f == NULL)
        bcw_rt_halt(BCW_RUN_ABORT, 0);
    if (!bcw_rt_files_stream(f)) {
        fclose(f);
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_UNMET);
    }
    fputs(BCW_FILE_TEXT, f);
    rewind(f);
    return f;
}

/* Parameter k's value as passed, by its kind: the object (or `self`),
 * the pointer it holds, a copy of a string, an element's cell, storage
 * for what the call gives back (outs[k]), a buffer. */
static uint64_t passed_value(bcw_rt_worker *w, const bcw_wire_func *f,
                             unsigned k, uint64_t raw, const uint64_t *vals,
                             void **outs, uint64_t *report, void *self)
{
    const bcw_wire_param *p = &f->params[k];
    switch (p->kind) {
    case BCW_PK_UNIT:
        return (uint64_t)(uintptr_t)(self != NULL ? self : w->target);
    case BCW_PK_UNIT_CELL:
        return (uint64_t)(uintptr_t)&w->target;
    case BCW_PK_UNIT_DEREF:
        raw = (uint64_t)(uintptr_t) * (void **)w->target;
        if (raw == 0 && p->fixed == BCW_FIXED_NONNULL)
            bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_NO_ARG);
        return raw;
    case BCW_PK_STRING: {
        const char *s = bcw_gen_strings[raw];
        size_t len = strlen(s) + 1;
        return (uint64_t)(uintptr_t)memcpy(arena_alloc(w, len, 0), s, len);
    }
    case BCW_PK_ELEMENT: {
        if (raw == BCW_ELEMENT_NULL)
            return 0;
        char *cell = w->cells[raw % BCW_RT_CELLS];
        memcpy(cell, &raw, sizeof raw);
        return (uint64_t)(uintptr_t)cell;
    }
    case BCW_PK_SCRATCH:
        /* storage the code checks for NULL, given NULL (plan.c) */
        if (p->fixed == BCW_FIXED_VALUE)
            return 0;
        /* fall through */
    case BCW_PK_OUT:
    case BCW_PK_UNIT_REF:
    case BCW_PK_UNIT_OUT:
        outs[k] = arena_alloc(w, p->size ? p->size : 8, 0);
        /* a scalar the function reads first: the category's value */
        if (p->kind == BCW_PK_OUT && p->fixed == BCW_FIXED_VALUE)
            memcpy(outs[k], &p->value,
                   p->size && p->size < sizeof p->value ? p->size
                                                        : sizeof p->value);
        /* a table of callbacks: its members built-ins */
        for (uint32_t i = 0; i < w->shm->nfills; i++) {
            const bcw_wire_fill *fill = &w->shm->fills[i];
            if (&w->shm->funcs[fill->func] == f && fill->param == k + 1 &&
                fill->offset + sizeof(void *) <= (p->size ? p->size : 8))
                *(void **)((char *)outs[k] + fill->offset) = w->fills[i]->code;
        }
        return (uint64_t)(uintptr_t)outs[k];
    case BCW_PK_FILE:
        return (uint64_t)(uintptr_t)stream_value();
    case BCW_PK_BUFFER: {
        uint64_t n = 0;
        char *b = buffer_value(w, f, p, vals, &n);
        if (report != NULL)
            report[k] = n;
        /* one the library takes over is its own after the call: not
         * observed */
        if (p->taken)
            return taken_copy((uint64_t)(uintptr_t)b, n,
                              p->pair >= 0 && p->pair < f->nparams
                                  ? vals[p->pair]
                                  : n);
        /* its content after the call: the observation */
        outs[k] = b;
        return (uint64_t)(uintptr_t)b;
    }
    default:
        return raw;
    }
}

uint64_t bcw_rt_args_invoke(bcw_rt_worker *w, unsigned fi, void **outs,
                            uint64_t *report, void *self)
{
    const bcw_wire_func *f = &w->shm->funcs[fi];
    uint64_t vals[BCW_MAX_PARAMS];
    /* values first: a buffer's size is its length parameter's value */
    const char *strs[BCW_MAX_PARAMS] = {0};
    choose_values(w, fi, vals, strs);
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        bool made;
        uint64_t raw = named_value(w, fi, k, p, vals[k], strs[k], &made);
        if (!made)
            raw = passed_value(w, f, k, raw, vals, outs, report, self);
        if (p->taken && p->kind == BCW_PK_STRING && raw != 0) {
            size_t len = strlen((const char *)(uintptr_t)raw);
            raw = taken_copy(raw, len, len);
        }
        vals[k] = raw;
        if (p->elem_size && !bcw_rt_alloc_walks) /* the target's */
            w->elem_size = raw;
        /* a value computed from the object is reported as passed */
        if (report != NULL && p->fixed == BCW_FIXED_BOUNDS)
            report[k] = raw;
    }
    return bcw_rt_call(w, fi, vals);
}
