/* rt_seq.c - running one sequence (rt_seq.h): the calls in order, the
 * object each constructor makes or a call rebinds, the handles given
 * out, what the last call returned, and a clean start for the next
 * sequence.  Calls whose arguments are only the object and scalars take
 * a fast path; the others go through rt_args.c. */
#define _GNU_SOURCE /* process_vm_readv */
#include "rt_seq.h"

#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rt_alloc.h"
#include "rt_args.h"
#include "rt_call.h"
#include "rt_closure.h"
#include "rt_contain.h"
#include "rt_custom.h"
#include "rt_det.h"
#include "rt_files.h"
#include "rt_halt.h"
#include "rt_observe.h"
#include "rt_sanitize.h"

int bcw_rt_seq_is_simple(const bcw_wire_func *f)
{
    if (f->role == BCW_ROLE_CONSTRUCTOR ||
        (f->flags & (BCW_WIRE_REBINDS | BCW_WIRE_OK_ZERO | BCW_WIRE_OK_NONZERO |
                     BCW_WIRE_RETAINS)) ||
        f->ret.fixed != 0 || f->ret.abi == BCW_ABI_STRUCT)
        return 0;
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        int scalar = p->kind == BCW_PK_INT || p->kind == BCW_PK_ENUM ||
                     p->kind == BCW_PK_BOOL || p->kind == BCW_PK_CHAR ||
                     p->kind == BCW_PK_FLOAT || p->kind == BCW_PK_LENGTH;
        if (!(p->kind == BCW_PK_UNIT && p->fixed == 0) &&
            !(scalar && (p->fixed == 0 || p->fixed == BCW_FIXED_VALUE)))
            return 0;
    }
    return 1;
}

/* Up to n bytes at p into buf, without trusting p (an address the code
 * under test returned): process_vm_readv on the worker itself fails
 * where a read would fault.  The pages are read one by one, so a string
 * ending just before an unmapped page is read whole.  Bytes read. */
static size_t read_untrusted(char *buf, const char *p, size_t n)
{
    const uintptr_t page = 4096;
    size_t got = 0;
    while (got < n) {
        uintptr_t at = (uintptr_t)p + got;
        size_t chunk = page - at % page;
        if (chunk > n - got)
            chunk = n - got;
        struct iovec local = {buf + got, chunk};
        struct iovec remote = {(void *)at, chunk};
        if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) !=
            (ssize_t)chunk)
            break;
        got += chunk;
    }
    return got;
}

/* The last call's text into r (text_of: 0 its result, k + 1 buffer
 * parameter k): the bytes at p, up to their first NUL, of at most n
 * (the string's or the buffer's), cut at BCW_TEXT_MAX. */
static void take_text(bcw_wire_result *r, unsigned of, const char *p, size_t n,
                      int untrusted)
{
    char buf[BCW_TEXT_MAX + 1];
    if (n > sizeof buf)
        n = sizeof buf;
    size_t got = untrusted ? read_untrusted(buf, p, n) : n;
    if (!untrusted)
        memcpy(buf, p, n);
    size_t len = strnlen(buf, got);
    r->flags |= BCW_RESULT_TEXT;
    r->text_of = (uint8_t)of;
    r->ntext = (uint8_t)(len < BCW_TEXT_MAX ? len : BCW_TEXT_MAX);
    /* past the limit, or no NUL where the string became unreadable */
    r->text_cut = len > BCW_TEXT_MAX || (untrusted && len == got && got < n);
    memcpy(r->text, buf, r->ntext);
}

/* The bytes of the object at the target: the unit's size in the
 * worker's storage (an init function's), else a pointer's (a cell's
 * head; a heap block is followed whole). */
static size_t target_bytes(const bcw_rt_worker *w)
{
    char *t = w->target;
    return t >= w->unit_storage && t < w->unit_storage + sizeof w->unit_storage
               ? w->shm->unit_size
               : sizeof(void *);
}

/* What method call fi, which freed blocks (result `raw`), did to the
 * object's life: freeing the block the object is in, it replaced the
 * object by the live block it returned (a string that moves as it
 * grows) or ended it (a destructor, whatever its name: the calls after
 * it are not made, nor the teardown); not given the object, it may not
 * free what the object holds (a caller's misuse: the call is not made
 * as one, rejected). */
static void lifetime(bcw_rt_worker *w, unsigned fi, uint64_t raw)
{
    const bcw_wire_func *f = &w->shm->funcs[fi];
    /* given the object as another argument too, what it frees is the
     * aliasing's doing (a replacement by itself), reported as such */
    if (w->target == NULL || w->with_target[fi] > 1)
        return;
    if (bcw_rt_alloc_freed_now(w->target)) {
        if (f->ret.abi == BCW_ABI_PTR && raw != 0 &&
            bcw_rt_alloc_live((void *)(uintptr_t)raw, 1)) {
            w->target = (void *)(uintptr_t)raw;
            if (w->flight.call == w->len)
                w->flight.result.flags |= BCW_RESULT_REPLACED;
        } else {
            w->ended = w->flight.call;
            if (w->flight.call == w->len)
                w->flight.result.flags |= BCW_RESULT_ENDED;
        }
    } else if (!w->with_target[fi] &&
               bcw_rt_alloc_holds_freed(w->target, target_bytes(w))) {
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_HELD);
    }
}

/* A method call's lifetime check, when it freed anything since `frees`. */
static inline void after_call(bcw_rt_worker *w, unsigned fi, uint64_t frees,
                              uint64_t raw)
{
    if (bcw_rt_alloc_nfrees != frees && w->flight.call >= 1 &&
        w->flight.call <= w->len)
        lifetime(w, fi, raw);
}

/* run_call for a simple entry. */
static void run_simple(bcw_rt_worker *w, unsigned fi, bcw_wire_result *r,
                       int last)
{
    const bcw_wire_func *f = &w->shm->funcs[fi];
    uint64_t vals[BCW_MAX_PARAMS];
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        vals[k] = p->kind == BCW_PK_UNIT ? (uint64_t)(uintptr_t)w->target
                  : p->fixed             ? (uint64_t)p->value
                             : bcw_gen_next(&w->gen, p->kind, p->abi);
    }
    uint64_t frees = bcw_rt_alloc_nfrees;
    uint64_t raw = bcw_rt_call(w, fi, vals);
    after_call(w, fi, frees, raw);
    /* pointer results are numbered on every call (see run_call) */
    uint64_t ret = f->ret.abi == BCW_ABI_PTR
                       ? bcw_rt_call_pointer(w, (void *)(uintptr_t)raw)
                       : raw;
    if (last)
        r->ret = ret;
    if (last && f->ret.kind == BCW_PK_STRING && raw != 0)
        take_text(r, 0, (const char *)(uintptr_t)raw, BCW_TEXT_MAX + 1, 1);
}

/* A struct result's elements (w->ret_words), pointers numbered: the
 * first is returned, the others go to out[nparams ...] when out is not
 * NULL (the reported call). */
static uint64_t struct_result(bcw_rt_worker *w, const bcw_wire_func *f,
                              uint64_t *out)
{
    uint64_t first = 0;
    for (unsigned k = 0; k < f->ret.nsig; k++) {
        uint64_t v = w->ret_words[k];
        if (f->ret.sig[k] == BCW_ABI_PTR)
            v = bcw_rt_call_pointer(w, (void *)(uintptr_t)v);
        if (k == 0)
            first = v;
        else if (out != NULL && f->nparams + k - 1 < BCW_MAX_PARAMS)
            out[f->nparams + k - 1] = v;
    }
    return first;
}

/* Handle h of slot `slot` is given out: the last, the others one older;
 * the pointers of it calls need changed, as they are now. */
static void give(bcw_rt_worker *w, unsigned slot, void *h)
{
    void **ages = w->handles[slot];
    /* held: the target reaches it now, or did when it was given out
     * before (web_take(w) hands out the node it lets go) */
    uint8_t held = 0;
    for (unsigned a = 0; a < BCW_HANDLE_AGES && h != NULL; a++)
        held |= ages[a] == h && w->held[slot][a];
    held = held || (w->held_check[slot] && h != NULL && w->target != NULL &&
                    bcw_rt_alloc_reaches(w->target, h));
    memmove(&ages[1], &ages[0], (BCW_HANDLE_AGES - 1) * sizeof *ages);
    ages[0] = h;
    memmove(&w->held[slot][1], &w->held[slot][0], BCW_HANDLE_AGES - 1);
    w->held[slot][0] = held;
    uint64_t mask = w->snap_mask[slot];
    if (mask == 0)
        return;
    memmove(&w->snaps[slot][1], &w->snaps[slot][0],
            (BCW_HANDLE_AGES - 1) * sizeof w->snaps[slot][0]);
    for (; mask != 0; mask &= mask - 1) {
        unsigned i = (unsigned)__builtin_ctzll(mask);
        w->snaps[slot][0][i] = h != NULL ? ((void *const *)h)[i] : NULL;
    }
}

/* run_call for any other entry. */
static void run_general(bcw_rt_worker *w, unsigned fi, bcw_wire_result *r,
                        int last)
{
    const bcw_wire_func *f = &w->shm->funcs[fi];
    void *outs[BCW_MAX_PARAMS] = {0};
    uint64_t frees = bcw_rt_alloc_nfrees;
    uint64_t raw = bcw_rt_args_invoke(w, fi, outs, last ? r->out : NULL, NULL);
    after_call(w, fi, frees, raw);
    /* a failure status is reported as the call returned it */
    if (last && (f->flags & (BCW_WIRE_OK_ZERO | BCW_WIRE_OK_NONZERO)))
        r->ret = raw;
    bcw_rt_args_status(f, raw);
    /* a reference taken: released at the end */
    if ((f->flags & BCW_WIRE_RETAINS) && raw != 0 &&
        (void *)(uintptr_t)raw == w->target && w->retains < BCW_RT_MAX_RETAINS)
        w->retained[w->retains++] = w->target;
    /* a struct returned by value (ret.size bytes) by its copy's address;
     * all zero, it stands for no handle (json-c's end iterator) */
    if (f->ret.fixed == BCW_FIXED_HANDLE)
        give(w, (unsigned)f->ret.value,
             f->ret.size && raw != 0 ? bcw_rt_args_keep(w, &raw, f->ret.size)
                                     : (void *)(uintptr_t)raw);
    for (unsigned k = 0; k < f->nparams; k++)
        if (f->params[k].fixed == BCW_FIXED_HANDLE_OUT)
            give(w, (unsigned)f->params[k].value, outs[k]);
    if (f->role == BCW_ROLE_CONSTRUCTOR) {
        w->target = (void *)(uintptr_t)raw;
        /* int t_open(..., T **out): the unit comes back in the cell */
        for (unsigned k = 0; k < f->nparams; k++)
            if (f->params[k].kind == BCW_PK_UNIT_OUT)
                w->target = *(void **)outs[k];
    }
    if ((f->flags & BCW_WIRE_REBINDS) && raw != 0)
        w->target = (void *)(uintptr_t)raw;
    /* every call's pointers are numbered, not only the reported last
     * call's: ptr#k then names the same pointer in a sequence and in its
     * extensions, which show it as a handle argument */
    uint64_t ret = f->ret.abi == BCW_ABI_PTR
                       ? bcw_rt_call_pointer(w, (void *)(uintptr_t)raw)
                       : raw;
    if (f->ret.abi == BCW_ABI_STRUCT)
        ret = struct_result(w, f, last ? r->out : NULL);
    for (unsigned k = 0; k < f->nparams; k++) {
        uint64_t out = 0;
        if (f->params[k].fixed == BCW_FIXED_CLOSURE)
            out = w->closures[fi][k]->calls;
        else if (f->params[k].kind == BCW_PK_OUT)
            out = f->params[k].pointee == BCW_ABI_PTR
                      ? bcw_rt_call_pointer(w, *(void **)outs[k])
                      : bcw_rt_call_scalar(outs[k], f->params[k].pointee);
        else
            continue; /* invoke reported it, or nothing to report */
        if (last)
            r->out[k] = out;
    }
    if (last)
        r->ret = ret;
    /* what it said in words: a string it returned, else the first
     * buffer it was given, as it left it */
    if (last && f->ret.kind == BCW_PK_STRING && raw != 0)
        take_text(r, 0, (const char *)(uintptr_t)raw, BCW_TEXT_MAX + 1, 1);
    for (unsigned k = 0;
         last && !(r->flags & BCW_RESULT_TEXT) && k < f->nparams; k++)
        if (f->params[k].filled && outs[k] != NULL)
            take_text(r, k + 1, outs[k], r->out[k], 0);
}

/* bcwalk's call of the library's setup function (explore --setup), made
 * in the unit's bitcode; empty without one. */
void bcw_unit_setup(void);

int bcw_rt_seq_setup(bcw_rt_worker *w)
{
    /* a halt in it comes back here; a fatal signal is recorded as the
     * sequence in flight's, results[cur] */
    if (sigsetjmp(w->flight.env, 0) != 0)
        return -1;
    w->flight.armed = 1;
    bcw_unit_setup();
    w->flight.armed = 0;
    bcw_rt_alloc_keep();
    if (w->globals_size > 0)
        memcpy(w->globals_copy, w->globals, w->globals_size);
    return 0;
}

/* Makes one call of plan entry `fi`, recording into `r` if `last`; a
 * call that wrote past a heap block ends there, and the worker with it. */
static void run_call(bcw_rt_worker *w, unsigned fi, bcw_wire_result *r,
                     int last)
{
    if (w->simple[fi])
        run_simple(w, fi, r, last);
    else
        run_general(w, fi, r, last);
    if (bcw_rt_alloc_overflowed())
        bcw_rt_halt_fatal(BCW_RUN_CRASH, BCW_SIG_OVERFLOW);
    /* the batch's header as the parent wrote it, or the call wrote over
     * shared memory: nothing the worker writes there can be trusted */
    const bcw_batch *b = w->batch;
    if (b->nonce != w->flight.nonce || b->tail != w->flight.nonce ||
        b->first != w->first || b->nseq != w->nseq ||
        b->slot != w->flight.slot) {
        bcw_rt_cause(BCW_CAUSE_SCRIBBLE);
        bcw_rt_halt_fatal(BCW_RUN_CRASH, BCW_SIG_SCRIBBLE);
    }
}

/* The unit's invariant function on the object after a call that
 * returned: false is that call's failure.  One that halts says nothing
 * (the predicates' env: it may not be meant for every state). */
static void check_invariant(bcw_rt_worker *w)
{
    uint32_t inv = w->shm->invariant;
    if (inv == 0 || w->target == NULL)
        return;
    int alive = (char *)w->target >= w->unit_storage &&
                (char *)w->target < w->unit_storage + sizeof w->unit_storage;
    if (!alive && !bcw_rt_alloc_live(w->target, 1))
        return;
    const bcw_wire_func *f = &w->shm->funcs[inv - 1];
    uint64_t args[BCW_MAX_PARAMS] = {(uint64_t)(uintptr_t)w->target};
    volatile uint64_t raw = 1;
    if (sigsetjmp(w->flight.pred_env, 0) == 0) {
        w->flight.in_pred = 1;
        uint64_t got = 0;
        bcw_unit_stubs[f->sym](args, &got);
        raw = got;
    }
    w->flight.in_pred = 0;
    if ((raw & 0xff) == 0)
        bcw_rt_halt(BCW_RUN_FAILURE, BCW_SIG_INVARIANT);
}

/* After the destructor: what the sequence allocated that nothing bcwalk
 * holds reaches (results, handles, arguments' storage, the unit's
 * globals) is its leak, flagged in r. */
static void check_leaks(bcw_rt_worker *w, bcw_wire_result *r)
{
    bcw_rt_span roots[] = {
        {(uintptr_t)w->arena, w->arena_used, 0, 0},
        {(uintptr_t)w->globals, w->globals_size, 0, 0},
        {(uintptr_t)w->ptrs, w->nptrs * sizeof *w->ptrs, 0, 0},
        {(uintptr_t)w->handles, sizeof w->handles, 0, 0},
    };
    if (bcw_rt_alloc_leaks(roots, sizeof roots / sizeof *roots))
        r->flags |= BCW_RESULT_LEAK;
}

/* Did destructor d, just called, refuse the object of form `form`:
 * return a failure (an int not 0, a bool false) and leave a heap
 * object's block live, as gzclose_r does with a file open for writing,
 * or free nothing of an object in storage (`nfrees` frees before the
 * call), as inflateEnd does with a stream inflateBackInit_ made?  A
 * void one never does, nor one that says it succeeded (a leak of its
 * own stays one). */
static bool refused(const bcw_rt_worker *w, unsigned d, unsigned form,
                    uint64_t nfrees)
{
    enum bcw_abi abi = (enum bcw_abi)w->shm->funcs[d].ret.abi;
    if (abi == BCW_ABI_VOID || abi >= BCW_ABI_FLOAT)
        return false;
    int64_t v = bcw_value_int(abi, w->ret_words[0]);
    return (abi == BCW_ABI_BOOL ? v == 0 : v != 0) &&
           ((form & BCW_FORM_HEAP) ? bcw_rt_alloc_live(w->target, 1)
                                   : bcw_rt_alloc_nfrees == nfrees);
}

/* The teardown of the sequence q, whose constructor is plan entry ctor:
 * a destructor made for its object, and while one refuses it, the next
 * of them, each once; how many refused goes into r's flags.  The
 * destructor that tore it down. */
static unsigned teardown(bcw_rt_worker *w, const uint16_t *q, unsigned ctor,
                         bcw_wire_result *r)
{
    const bcw_shm *shm = w->shm;
    unsigned form =
        bcw_wire_form_of(shm->funcs[ctor].role, shm->funcs[ctor].family);
    unsigned fit =
        bcw_wire_destructors_fit(shm->ndestructors, shm->dtor_forms, form);
    unsigned tries = 0, d;
    for (;;) {
        d = shm->destructors[bcw_wire_destructor_of(
            &q[1], w->len, shm->ndestructors, shm->dtor_forms, form, tries)];
        /* said before the call: a halt in it is this destructor's */
        r->flags = (r->flags & ~BCW_RESULT_DTOR_TRIES) |
                   tries << BCW_RESULT_DTOR_SHIFT;
        uint64_t nfrees = bcw_rt_alloc_nfrees;
        run_call(w, d, r, 0);
        if (tries + 1 >= fit || tries == 7 || !refused(w, d, form, nfrees))
            return d;
        tries++;
    }
}

/* Ends the sequence: its calls into r, its leftovers freed, the
 * children it forked killed, its result published. */
static void finish(bcw_rt_worker *w, bcw_wire_result *r)
{
    r->calls = w->flight.calls;
    bcw_rt_files_close_streams();
    bcw_rt_alloc_reset();
    bcw_rt_contain_end();
    bcw_rt_publish(0);
}

void bcw_rt_seq_run(bcw_rt_worker *w, uint32_t i)
{
    bcw_shm *shm = w->shm;
    const uint16_t *q = &w->seqs[w->off[i]];
    w->len = q[0] & BCW_SEQ_LEN_MASK;
    w->check = (q[0] & BCW_SEQ_CHECK_OBSERVER) != 0;
    w->npins = (q[0] & BCW_SEQ_PINNED) ? q[w->len + 2] : 0;
    w->pins = &q[w->len + 3];
    bcw_wire_result *r = &w->flight.result;
    memset(r, 0, sizeof *r);
    w->flight.seq = i;
    __atomic_store_n(&w->batch->cur, i, __ATOMIC_RELEASE);
    w->target = NULL;
    w->nptrs = 0;
    memset(w->handles, 0, w->nhandle_types * sizeof w->handles[0]);
    memset(w->held, 0, w->nhandle_types * sizeof w->held[0]);
    w->ended = 0;
    bcw_rt_unpoison(w->arena, w->arena_used);
    w->arena_used = 0;
    w->narena_spans = 0;
    w->arena_spans_lost = 0;
    w->flight.calls = 0;
    w->flight.call = 0;
    bcw_rt_alloc_walks = 0; /* a halt may have left it set */
    if (w->globals_size > 0)
        memcpy(w->globals, w->globals_copy, w->globals_size);
    memset(&w->gen, 0, sizeof w->gen);
    w->retains = 0;
    w->elem_size = 0;
    bcw_rt_custom_reset();
    bcw_rt_det_reset();
    bcw_rt_files_reset();
    /* a halt comes back here (rt_halt.c): only w's memory, not this
     * function's locals, may have changed since */
    if (sigsetjmp(w->flight.env, 0) != 0) {
        r->outcome = (uint8_t)w->flight.outcome;
        r->signo = (uint8_t)w->flight.signo;
        r->halted_at = (uint16_t)w->flight.call;
        finish(w, r);
        return;
    }
    w->flight.armed = 1;
    unsigned ctor = q[1];
    if (shm->funcs[ctor].role == BCW_ROLE_INIT_CONSTRUCTOR ||
        shm->funcs[ctor].role == BCW_ROLE_EMPTY) {
        /* an init function is given storage as a C caller's stack holds
         * it, not zeroed: a field it forgets to set reads as garbage (the
         * mutation benchmark's counter_init without its store); one that
         * tests fields for 0 first gets them zeroed, as its callers must
         * (z_stream s = {0}); an empty cell is a NULL pointer */
        memset(w->unit_storage,
               shm->funcs[ctor].role == BCW_ROLE_EMPTY ||
                       (shm->funcs[ctor].flags & BCW_WIRE_DEFAULTS)
                   ? 0
                   : BCW_RT_FILL_BYTE,
               shm->unit_size);
        w->target = w->unit_storage;
    }
    /* an empty cell is made by no call: it is NULL */
    if (shm->funcs[ctor].role != BCW_ROLE_EMPTY)
        run_call(w, ctor, r, w->len == 0);
    check_invariant(w);
    if (w->target == NULL) {
        /* a constructor that gives no object rejects its arguments */
        w->flight.armed = 0;
        r->outcome = BCW_RUN_REJECTED;
        finish(w, r);
        return;
    }
    w->before = 0;
    for (w->flight.call = 1; w->flight.call <= w->len; w->flight.call++) {
        unsigned fi = q[1 + w->flight.call];
        /* an earlier call freed the object: nothing follows it */
        if (w->ended != 0)
            bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_ENDED);
        /* a function of another family than the constructor's */
        if (shm->funcs[fi].family != 0 && shm->funcs[ctor].family != 0 &&
            shm->funcs[fi].family != shm->funcs[ctor].family)
            bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_FAMILY);
        /* an observer last: the state before it, hashed in this run (a
         * prefix's own run may differ: time, randomness) */
        if (w->flight.call == w->len && w->check &&
            (shm->funcs[fi].flags & BCW_WIRE_OBSERVER) &&
            (shm->state_flags & BCW_STATE_HASH))
            w->before = bcw_rt_observe_state(w);
        run_call(w, fi, r, w->flight.call == w->len);
        check_invariant(w);
    }
    /* the state the sequence left, before predicates call anything; an
     * object a method ended has none */
    if ((shm->state_flags & BCW_STATE_HASH) && w->ended == 0) {
        bcw_rt_observe_record(w, r);
        if (w->before != 0 && r->state != 0 && w->before != r->state)
            r->flags |= BCW_RESULT_OBSERVER_CHANGED;
    }
    if ((shm->state_flags & BCW_STATE_PREDS) && w->ended == 0)
        bcw_rt_observe_preds(w, r);
    /* the destructor's result is not reported: r is not written; an
     * object a method ended has none */
    if (shm->ndestructors > 0 && w->ended != 0) {
        check_leaks(w, r);
    } else if (shm->ndestructors > 0) {
        unsigned d = teardown(w, q, ctor, r);
        /* once more for each reference the sequence took */
        for (uint32_t k = 0; k < w->retains; k++) {
            /* on the object it was taken of: a call may since have
             * replaced the target (json_pointer_set(&obj, "", v)) */
            w->target = w->retained[k];
            run_call(w, d, r, 0);
        }
        check_leaks(w, r);
        /* one that checks its object for NULL is given NULL too, once a
         * constructor's sequence */
        if (w->len == 0 && (shm->funcs[d].flags & BCW_WIRE_NULLABLE_SELF)) {
            w->target = NULL;
            w->flight.call = w->len + 2;
            run_call(w, d, r, 0);
        }
    }
    w->flight.armed = 0;
    finish(w, r);
}
