/* rt_call.c - making one call of the code under test and reading its
 * result (rt_call.h): libffi's side of calls, raw scalars, and the
 * numbering of pointer results. */
#include "rt_call.h"

#include <stdlib.h>
#include <string.h>

#include "rt_alloc.h"
#include "rt_halt.h"

ffi_type *bcw_rt_call_type(enum bcw_abi abi)
{
    switch (abi) {
    case BCW_ABI_VOID:
        return &ffi_type_void;
    case BCW_ABI_BOOL:
    case BCW_ABI_U8:
        return &ffi_type_uint8;
    case BCW_ABI_S8:
        return &ffi_type_sint8;
    case BCW_ABI_S16:
        return &ffi_type_sint16;
    case BCW_ABI_U16:
        return &ffi_type_uint16;
    case BCW_ABI_S32:
        return &ffi_type_sint32;
    case BCW_ABI_U32:
        return &ffi_type_uint32;
    case BCW_ABI_S64:
        return &ffi_type_sint64;
    case BCW_ABI_U64:
        return &ffi_type_uint64;
    case BCW_ABI_FLOAT:
        return &ffi_type_float;
    case BCW_ABI_DOUBLE:
        return &ffi_type_double;
    case BCW_ABI_PTR:
        return &ffi_type_pointer;
    case BCW_ABI_STRUCT: /* each its own: bcw_rt_call_struct_type */
        break;
    }
    return NULL;
}

uint64_t bcw_rt_call_scalar(const void *p, enum bcw_abi abi)
{
    uint64_t v = 0;
    switch (abi) {
    case BCW_ABI_BOOL:
    case BCW_ABI_S8:
    case BCW_ABI_U8:
        memcpy(&v, p, 1);
        break;
    case BCW_ABI_S16:
    case BCW_ABI_U16:
        memcpy(&v, p, 2);
        break;
    case BCW_ABI_S32:
    case BCW_ABI_U32:
    case BCW_ABI_FLOAT:
        memcpy(&v, p, 4);
        break;
    default:
        memcpy(&v, p, 8);
        break;
    }
    return v;
}

int bcw_rt_call_struct_type(bcw_rt_worker *w, unsigned fi)
{
    const bcw_wire_param *r = &w->shm->funcs[fi].ret;
    if (r->nsig == 0 || r->nsig > BCW_MAX_STRUCT_WORDS)
        return -1;
    for (unsigned k = 0; k < r->nsig; k++)
        if (r->sig[k] == BCW_ABI_VOID || r->sig[k] >= BCW_ABI_STRUCT ||
            (w->ret_elems[fi][k] = bcw_rt_call_type((enum bcw_abi)r->sig[k])) ==
                NULL)
            return -1;
    w->ret_elems[fi][r->nsig] = NULL;
    w->ret_structs[fi] =
        (ffi_type){.type = FFI_TYPE_STRUCT, .elements = w->ret_elems[fi]};
    return 0;
}

void bcw_rt_call_ffi(bcw_rt_worker *w, unsigned fi, uint64_t *vals)
{
    const bcw_wire_func *f = &w->shm->funcs[fi];
    void *avalues[BCW_MAX_PARAMS];
    for (unsigned k = 0; k < f->nparams; k++)
        avalues[k] = &vals[k];
    union {
        ffi_arg i;
        float f;
        double d;
        void *p;
        _Alignas(16) char s[BCW_MAX_STRUCT_WORDS * 8];
    } rv = {0};
    ffi_call(&w->cifs[fi], FFI_FN(bcw_unit_symtab[f->sym]), &rv, avalues);
    uint64_t *out = w->ret_words;
    switch (f->ret.abi) {
    case BCW_ABI_VOID:
        break;
    case BCW_ABI_PTR:
        out[0] = (uint64_t)(uintptr_t)rv.p;
        break;
    case BCW_ABI_FLOAT:
        out[0] = bcw_rt_call_scalar(&rv.f, BCW_ABI_FLOAT);
        break;
    case BCW_ABI_DOUBLE:
        memcpy(&out[0], &rv.d, sizeof out[0]);
        break;
    case BCW_ABI_STRUCT: {
        size_t offsets[BCW_MAX_STRUCT_WORDS];
        ffi_get_struct_offsets(FFI_DEFAULT_ABI, &w->ret_structs[fi], offsets);
        for (unsigned k = 0; k < f->ret.nsig; k++)
            out[k] = bcw_rt_call_scalar(rv.s + offsets[k],
                                        (enum bcw_abi)f->ret.sig[k]);
        break;
    }
    default:
        out[0] = bcw_rt_call_scalar(&rv.i, (enum bcw_abi)f->ret.abi);
        break;
    }
}

/* Makes room for one more numbered pointer: -1 when out of memory (or,
 * which the bound rules out, past it). */
static int grow_ptrs(bcw_rt_worker *w)
{
    if (w->nptrs < w->capptrs)
        return 0;
    if (w->capptrs >= BCW_RT_MAX_PTRS)
        return -1;
    uint32_t cap = w->capptrs ? w->capptrs * 2 : BCW_RT_PTRS_START;
    if (cap > BCW_RT_MAX_PTRS)
        cap = BCW_RT_MAX_PTRS;
    void **p = realloc(w->ptrs, cap * sizeof *p);
    if (p == NULL)
        return -1;
    w->ptrs = p;
    w->capptrs = cap;
    return 0;
}

uint64_t bcw_rt_call_pointer(bcw_rt_worker *w, void *p)
{
    if (p == NULL)
        return BCW_PTR_NULL;
    if (p == w->target)
        return BCW_PTR_TARGET;
    /* the call read it past a block, or before anything wrote it: the
     * halt is this call's, not that of the call the pointer would crash */
    if (bcw_rt_alloc_junk(p)) {
        bcw_wire_cause *g = bcw_rt_cause(BCW_CAUSE_GARBAGE);
        g->addr = (uint64_t)(uintptr_t)p;
        g->where = BCW_WHERE_WILD;
        bcw_rt_halt(BCW_RUN_CRASH, BCW_SIG_GARBAGE);
    }
    uintptr_t c = (uintptr_t)p, base = (uintptr_t)w->cells;
    if (c >= base && c < base + sizeof w->cells)
        return BCW_PTR_CELL | (uint64_t)((c - base) / BCW_RT_CELL_SIZE);
    for (uint32_t i = 0; i < w->nptrs; i++)
        if (w->ptrs[i] == p)
            return BCW_PTR_OTHER | i;
    /* the runtime's own memory, not the sequence's: a sequence cannot
     * need more than the bound, so this ends it only when malloc fails */
    if (grow_ptrs(w) < 0)
        bcw_rt_halt(BCW_RUN_ABORT, 0);
    w->ptrs[w->nptrs] = p;
    return BCW_PTR_OTHER | w->nptrs++;
}
