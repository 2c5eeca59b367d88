/* rt_closure.c - built-in callbacks (rt_closure.h): libffi closures the
 * code under test calls in place of a callback argument. */
#include "rt_closure.h"

#include <stdlib.h>
#include <string.h>

#include "rt_call.h"

/* What an element argument stands for: cell k stands for k (Obj#k),
 * another pointer for itself, past the cells' numbers (NULL is not
 * Obj#0).  Where the target copies its elements, the number in an
 * element's first elem_size bytes, its copy's too. */
static uint64_t cell_key(const bcw_rt_closure *c, const void *p)
{
    uint64_t n = *c->elem_size, k = 0;
    if (n > 0 && p != NULL) { /* by content: a copy is its original */
        memcpy(&k, p, n < sizeof k ? n : sizeof k);
        return k;
    }
    uintptr_t a = (uintptr_t)p, base = (uintptr_t)c->cells;
    if (a >= base && a < base + (size_t)BCW_RT_CELLS * BCW_RT_CELL_SIZE)
        return (a - base) / BCW_RT_CELL_SIZE;
    return (uint64_t)a + BCW_RT_CELLS;
}

void (*bcw_rt_closure_free)(void *p);

/* A built-in callback (abi.h's bcw_callback): a libffi closure of the
 * callback's signature that counts its calls.  Its elements are its
 * first two pointer arguments: a length or seed between them and user
 * data after them do not count. */
static void on_closure(ffi_cif *cif, void *ret, void **args, void *data)
{
    bcw_rt_closure *c = data;
    c->calls++;
    int64_t v = 0;
    uint64_t key[2] = {0, 0};
    void *first = NULL;
    unsigned nkeys = 0;
    for (unsigned i = 0; i < cif->nargs && nkeys < 2; i++)
        if (c->sig[i + 1] == BCW_ABI_PTR) {
            if (nkeys == 0)
                first = *(void **)args[i];
            key[nkeys++] = cell_key(c, *(void **)args[i]);
        }
    if (c->kind == BCW_CB_FREE && first != NULL && bcw_rt_closure_free != NULL)
        bcw_rt_closure_free(first);
    uint64_t a = key[0], b = key[1];
    switch (c->kind) {
    case BCW_CB_COMPARE:
        v = a < b ? -1 : a > b;
        break;
    case BCW_CB_EQUAL:
        v = a == b;
        break;
    case BCW_CB_HASH:
        v = (int64_t)((a * 0x9e3779b97f4a7c15ull) >> 40);
        break;
    case BCW_CB_PREDICATE:
        v = a & 1;
        break;
    default:
        break;
    }
    switch ((enum bcw_abi)c->sig[0]) {
    case BCW_ABI_VOID:
        break;
    case BCW_ABI_FLOAT:
        *(float *)ret = (float)v;
        break;
    case BCW_ABI_DOUBLE:
        *(double *)ret = (double)v;
        break;
    case BCW_ABI_PTR:
        *(void **)ret = NULL;
        break;
    default:
        *(ffi_sarg *)ret = (ffi_sarg)v;
        break;
    }
}

int bcw_rt_closure_make(bcw_rt_worker *w, const bcw_wire_param *p,
                        bcw_rt_closure **out)
{
    if (p->nsig == 0 || p->nsig > BCW_MAX_PARAMS + 1 || p->value < 1 ||
        p->value > BCW_CB_LAST)
        return -1;
    for (unsigned i = 0; i < p->nsig; i++)
        if (p->sig[i] >= BCW_ABI_STRUCT)
            return -1;
    bcw_rt_closure *c = calloc(1, sizeof *c);
    if (c == NULL)
        return -1;
    c->kind = (uint8_t)p->value;
    c->cells = &w->cells[0][0];
    c->elem_size = &w->elem_size;
    memcpy(c->sig, p->sig, sizeof c->sig);
    for (unsigned i = 1; i < p->nsig; i++)
        c->args[i - 1] = bcw_rt_call_type((enum bcw_abi)p->sig[i]);
    c->fc = ffi_closure_alloc(sizeof(ffi_closure), &c->code);
    if (c->fc == NULL ||
        ffi_prep_cif(&c->cif, FFI_DEFAULT_ABI, p->nsig - 1u,
                     bcw_rt_call_type((enum bcw_abi)p->sig[0]),
                     c->args) != FFI_OK ||
        ffi_prep_closure_loc(c->fc, &c->cif, on_closure, c, c->code) !=
            FFI_OK) {
        if (c->fc != NULL)
            ffi_closure_free(c->fc);
        free(c);
        return -1;
    }
    *out = c;
    return 0;
}
