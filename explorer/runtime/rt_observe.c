/* rt_observe.c - what a sequence leaves behind (rt_observe.h): its
 * concrete state's hash and its design-state predicates. */
#include "rt_observe.h"

#include <string.h>

#include "rt_alloc.h"
#include "rt_bounds.h"
#include "rt_call.h"
#include "rt_state.h"

uint64_t bcw_rt_observe_state(const bcw_rt_worker *w)
{
    if (w->arena_spans_lost)
        return 0; /* pointers into the arena could not be followed */
    bcw_rt_roots roots = {.target = w->target,
                          .unit = w->unit_storage,
                          .unit_size = w->shm->unit_size,
                          .globals = w->globals,
                          .globals_size = w->globals_size,
                          .cells = &w->cells[0][0],
                          .cells_size = sizeof w->cells,
                          .cell_size = BCW_RT_CELL_SIZE,
                          .arena = w->arena_spans,
                          .narena = w->narena_spans,
                          .handles = &w->handles[0][0],
                          .nhandles = w->nhandle_types * BCW_HANDLE_AGES};
    return bcw_rt_state_hash(&roots);
}

/* (The state before the last call is its prefix's, which the parent has
 * from the prefix's own run: it checks observers with it.) */
void bcw_rt_observe_record(const bcw_rt_worker *w, bcw_wire_result *r)
{
    uint64_t h = bcw_rt_observe_state(w);
    if (h == 0)
        return;
    r->state = h;
    /* what the master generator draws next decides the next arguments */
    const bcw_gen *g = &w->gen;
    uint64_t k = bcw_rt_state_mix(h, g->ints | (uint64_t)g->chars << 32);
    k = bcw_rt_state_mix(k, g->bools | (uint64_t)g->floats << 32);
    k = bcw_rt_state_mix(k, g->strings | (uint64_t)g->objs << 32);
    r->key = k != 0 ? k : 1;
}

/* Reads a term of a bitcode predicate from the object; 0 when it is
 * behind a pointer that does not lead into a live block. */
static int read_term(const bcw_rt_worker *w, const bcw_wire_term *t,
                     int64_t *out)
{
    if (t->kind != BCW_TERM_FIELD) {
        *out = t->kind == BCW_TERM_CONST ? t->value : 0;
        return 1;
    }
    const char *base = w->target;
    size_t n = (t->bits + 7u) / 8u;
    if (n == 0 || n > 8 || t->offset > (1u << 16))
        return 0;
    if (t->via >= 0) {
        const char *p;
        memcpy(&p, base + t->via, sizeof p);
        if (p == NULL || !bcw_rt_alloc_live(p + t->offset, n))
            return 0;
        base = p;
    }
    uint64_t v = 0;
    memcpy(&v, base + t->offset, n);
    *out = bcw_rt_bounds_sext(v, t->bits);
    return 1;
}

/* Predicate i into r; its own function, so a halt in an interface
 * predicate (siglongjmp back here) clobbers nothing of the caller's. */
static void eval_pred(bcw_rt_worker *w, bcw_wire_result *r, uint32_t i)
{
    const bcw_wire_pred *p = &w->shm->preds[i];
    volatile int value = 0, known = 0;
    if (p->interface) {
        const bcw_wire_func *f = &w->shm->funcs[p->func];
        uint64_t args[BCW_MAX_PARAMS] = {(uint64_t)(uintptr_t)w->target};
        uint64_t raw = 0;
        if (sigsetjmp(w->flight.pred_env, 0) == 0) {
            w->flight.in_pred = 1;
            bcw_unit_stubs[f->sym](args, &raw);
            w->flight.in_pred = 0;
            value = (raw & 0xff) != 0;
            known = 1;
        }
    } else {
        int64_t l, rr;
        if (read_term(w, &p->l, &l) && read_term(w, &p->r, &rr)) {
            known = 1;
            switch ((enum bcw_cmp)p->op) {
            case BCW_CMP_EQ:
                value = l == rr;
                break;
            case BCW_CMP_SLT:
                value = l < rr;
                break;
            case BCW_CMP_SLE:
                value = l <= rr;
                break;
            case BCW_CMP_ULT:
                value = (uint64_t)l < (uint64_t)rr;
                break;
            case BCW_CMP_ULE:
                value = (uint64_t)l <= (uint64_t)rr;
                break;
            }
        }
    }
    r->preds |= (uint32_t)value << i;
    r->known |= (uint32_t)known << i;
}

void bcw_rt_observe_preds(bcw_rt_worker *w, bcw_wire_result *r)
{
    int alive = (char *)w->target >= w->unit_storage &&
                (char *)w->target < w->unit_storage + sizeof w->unit_storage;
    if (!alive && !bcw_rt_alloc_live(w->target, 1))
        return; /* the sequence freed its object: no state */
    for (uint32_t i = 0; i < w->shm->npreds && i < BCW_MAX_PREDS; i++)
        eval_pred(w, r, i);
}
