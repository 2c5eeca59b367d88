/* rt_plan.c - the worker's set-up (rt_plan.h): everything the plan in
 * shared memory says is checked here once, so running sequences can
 * trust it.  Anything the parent or a stale cache could get wrong is
 * data to validate, never an index to trust. */
#include "rt_plan.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_alloc.h"
#include "rt_bounds.h"
#include "rt_call.h"
#include "rt_closure.h"
#include "rt_custom.h"
#include "rt_halt.h"
#include "rt_seq.h"

/* The unit's mutable globals, gathered into one section by bcwalk. */
extern char __start_bcw_globals[] __attribute__((weak));
extern char __stop_bcw_globals[] __attribute__((weak));

/* Checks parameter k of plan entry i and prepares what it needs. */
static int setup_param(bcw_rt_worker *w, unsigned i, unsigned k)
{
    const bcw_shm *shm = w->shm;
    const bcw_wire_param *p = &shm->funcs[i].params[k];
    w->argtypes[i][k] = bcw_rt_call_type((enum bcw_abi)p->abi);
    if (p->fixed == BCW_FIXED_BOUNDS)
        bcw_rt_bounds_setup(w, i, k);
    bool handle = p->fixed == BCW_FIXED_HANDLE ||
                  p->fixed == BCW_FIXED_HANDLE_OR_NULL ||
                  p->fixed == BCW_FIXED_HANDLE_OUT;
    /* another unit's constructor, a later entry, so that making an
     * instance ends */
    bool ctor = p->fixed == BCW_FIXED_UNIT_CTOR;
    if (ctor && (p->value <= i || p->value >= shm->nfuncs ||
                 (shm->funcs[p->value].role != BCW_ROLE_CONSTRUCTOR &&
                  shm->funcs[p->value].role != BCW_ROLE_INIT_CONSTRUCTOR)))
        return -1;
    int64_t slots = p->fixed == BCW_FIXED_HANDLE_OUT
                        ? BCW_MAX_HANDLES
                        : BCW_MAX_HANDLES * BCW_HANDLE_AGES;
    if ((handle && (p->value < 0 || p->value >= slots)) ||
        (p->fixed == BCW_FIXED_SYMBOL &&
         (p->value < 0 || p->value >= bcw_unit_nsyms)) ||
        (p->fixed == BCW_FIXED_CLOSURE &&
         bcw_rt_closure_make(w, p, &w->closures[i][k]) < 0) ||
        (p->fixed == BCW_FIXED_HANDLE_OUT && p->kind != BCW_PK_SCRATCH))
        return -1;
    if (p->fixed == BCW_FIXED_HANDLE_OUT &&
        (unsigned)p->value + 1 > w->nhandle_types)
        w->nhandle_types = (unsigned)p->value + 1;
    if (handle && p->fixed != BCW_FIXED_HANDLE_OUT)
        w->snap_mask[p->value % BCW_MAX_HANDLES] |= p->needs;
    return 0;
}

/* Does a constructor of the plan take the worker's storage for the
 * unit (an init function, an empty cell)? */
static bool stored(const bcw_shm *shm)
{
    for (uint32_t i = 0; i < shm->nfuncs && i < BCW_MAX_FUNCS; i++)
        if (shm->funcs[i].role == BCW_ROLE_INIT_CONSTRUCTOR ||
            shm->funcs[i].role == BCW_ROLE_EMPTY)
            return true;
    return false;
}

/* Checks plan entry i and prepares its call. */
static int setup_func(bcw_rt_worker *w, unsigned i)
{
    const bcw_shm *shm = w->shm;
    const bcw_wire_func *f = &shm->funcs[i];
    if ((f->role != BCW_ROLE_EMPTY && f->sym >= bcw_unit_nsyms) ||
        f->nparams > BCW_MAX_PARAMS)
        return -1;
    for (unsigned k = 0; k < f->nparams; k++) {
        if (setup_param(w, i, k) < 0)
            return -1;
        const bcw_wire_param *p = &f->params[k];
        w->with_target[i] +=
            (p->kind == BCW_PK_UNIT && p->fixed == 0) ||
            p->kind == BCW_PK_UNIT_CELL || p->kind == BCW_PK_UNIT_DEREF;
    }
    for (unsigned k = 0; w->with_target[i] && k < f->nparams; k++)
        if (f->params[k].fixed == BCW_FIXED_HANDLE ||
            f->params[k].fixed == BCW_FIXED_HANDLE_OR_NULL)
            w->held_check[f->params[k].value % BCW_MAX_HANDLES] = 1;
    if (f->ret.fixed == BCW_FIXED_HANDLE &&
        (f->ret.value < 0 || f->ret.value >= BCW_MAX_HANDLES))
        return -1;
    if (f->ret.fixed == BCW_FIXED_HANDLE &&
        (unsigned)f->ret.value + 1 > w->nhandle_types)
        w->nhandle_types = (unsigned)f->ret.value + 1;
    if (f->ret.fixed == BCW_FIXED_HANDLE && f->ret.size == sizeof(uint64_t))
        w->by_value[f->ret.value] = 1;
    else if (f->ret.fixed == BCW_FIXED_HANDLE && f->ret.size != 0)
        return -1; /* one word only */
    w->simple[i] = (uint8_t)bcw_rt_seq_is_simple(f);
    if (f->ret.abi == BCW_ABI_STRUCT && bcw_rt_call_struct_type(w, i) < 0)
        return -1;
    ffi_type *rt = f->ret.abi == BCW_ABI_STRUCT
                       ? &w->ret_structs[i]
                       : bcw_rt_call_type((enum bcw_abi)f->ret.abi);
    if (rt == NULL || ffi_prep_cif(&w->cifs[i], FFI_DEFAULT_ABI, f->nparams, rt,
                                   w->argtypes[i]) != FFI_OK)
        return -1;
    return 0;
}

int bcw_rt_plan_setup(bcw_rt_worker *w)
{
    /* the plan read-only (the parent sealed it: no mapping of it can
     * be made writable), the batch shared; neither fd is left for the
     * code under test to map again */
    bcw_shm *shm =
        mmap(NULL, sizeof *shm, PROT_READ, MAP_SHARED, BCW_FD_SHM, 0);
    /* the batch and the coverage bytes after it: as many as the unit
     * has flags, which the plan must say */
    bool cov_ok = shm != MAP_FAILED && shm->ncov == bcw_rt_cov_count();
    bcw_batch *batch =
        cov_ok ? mmap(NULL, sizeof *batch + shm->ncov, PROT_READ | PROT_WRITE,
                      MAP_SHARED, BCW_FD_BATCH, 0)
               : MAP_FAILED;
    close(BCW_FD_SHM);
    close(BCW_FD_BATCH);
    if (shm == MAP_FAILED || batch == MAP_FAILED)
        return -1;
    w->shm = shm;
    w->batch = batch;
    if (shm->magic != BCW_SHM_MAGIC || shm->version != BCW_PROTO_VERSION ||
        shm->nfuncs > BCW_MAX_FUNCS ||
        shm->ndestructors > BCW_MAX_DESTRUCTORS ||
        (shm->unit_size > sizeof w->unit_storage && stored(shm)) ||
        shm->npool > BCW_MAX_PLAN_NODES || shm->npreds > BCW_MAX_PREDS ||
        shm->nfills > BCW_MAX_FILLS || shm->invariant > shm->nfuncs ||
        (shm->invariant > 0 &&
         shm->funcs[shm->invariant - 1].sym >= bcw_unit_nsyms))
        return -1;
    for (uint32_t i = 0; i < shm->npreds; i++)
        if (shm->preds[i].interface &&
            (shm->preds[i].func >= shm->nfuncs ||
             shm->funcs[shm->preds[i].func].sym >= bcw_unit_nsyms))
            return -1;
    for (uint32_t i = 0; i < shm->ndestructors; i++)
        if (shm->destructors[i] >= shm->nfuncs)
            return -1;
    for (uint32_t i = 0; i < shm->nfuncs; i++)
        if (setup_func(w, i) < 0)
            return -1;
    /* a fill follows an instance's constructor (an entry after step 0),
     * or is a member of a parameter's table */
    for (uint32_t i = 0; i < shm->nfills; i++)
        if ((shm->fills[i].func == 0 && shm->fills[i].param == 0) ||
            shm->fills[i].func >= shm->nfuncs ||
            shm->fills[i].param > shm->funcs[shm->fills[i].func].nparams ||
            shm->fills[i].offset > UINT32_MAX - sizeof(void *) ||
            bcw_rt_closure_make(w, &shm->fills[i].cb, &w->fills[i]) < 0)
            return -1;
    bcw_rt_alloc_limit((size_t)(shm->memory_mb ? shm->memory_mb : 1024) << 20);
    bcw_rt_closure_free = bcw_rt_alloc_release;
    bcw_rt_alloc_given(w->cells, sizeof w->cells);
    bcw_rt_alloc_given(w->arena, sizeof w->arena);
    w->globals = __start_bcw_globals;
    uintptr_t gstart = (uintptr_t)__start_bcw_globals;
    uintptr_t gstop = (uintptr_t)__stop_bcw_globals;
    if (gstart != 0 && gstop > gstart) {
        w->globals_size = (size_t)(gstop - gstart);
        w->globals_copy = malloc(w->globals_size);
        if (w->globals_copy == NULL)
            return -1;
        memcpy(w->globals_copy, w->globals, w->globals_size);
    }
    return bcw_rt_custom_setup(shm);
}
