/* rt_call.h - making one call of the code under test and reading its
 * result (rt_call.c): through the typed stub bcwalk generated for the
 * function, or through libffi (`--calls ffi`); pointer results numbered
 * canonically, never shown as addresses. */
#ifndef BCW_RT_CALL_H
#define BCW_RT_CALL_H

#include <ffi.h>
#include <stdint.h>
#include <unistd.h>

#include "rt_worker.h"

/* Made by bcwalk in the instrumented bitcode: the unit's functions. */
extern void *bcw_unit_symtab[];
extern const uint32_t bcw_unit_nsyms;
/* Typed stubs: stub(args, ret) calls symtab[i] with args[k] as its k-th
 * parameter and stores the result's raw word in *ret (a struct's
 * elements in ret[0], ret[1] ...). */
typedef void (*bcw_stub)(uint64_t *args, uint64_t *ret);
extern const bcw_stub bcw_unit_stubs[];

/* libffi's type for an ABI class; NULL for an unknown one. */
ffi_type *bcw_rt_call_type(enum bcw_abi abi);

/* Calls plan entry fi through libffi with vals[k] as its k-th argument;
 * the result into w->ret_words as the stubs give it: integers
 * zero-extended from their width, float and pointer bits, a struct's
 * elements one word each. */
void bcw_rt_call_ffi(bcw_rt_worker *w, unsigned fi, uint64_t *vals);

/* The libffi type of plan entry fi's struct result (BCW_ABI_STRUCT), its
 * elements' classes from the plan, into the worker's: 0, or -1 for a bad
 * description. */
int bcw_rt_call_struct_type(bcw_rt_worker *w, unsigned fi);

/* Calls plan entry fi with vals[k] as its k-th argument, counting it as
 * the sequence's call in flight (the parent watches it move); its raw
 * result, a struct's first element (all of them in w->ret_words).
 * Inline: the hot path of every walk. */
static inline uint64_t bcw_rt_call(bcw_rt_worker *w, unsigned fi,
                                   uint64_t *vals)
{
    bcw_shm *shm = w->shm;
    __atomic_store_n(&w->batch->cur_call, w->flight.call, __ATOMIC_RELEASE);
    w->flight.calls++;
    w->ret_words[0] = 0;
    if (shm->use_ffi)
        bcw_rt_call_ffi(w, fi, vals);
    else
        bcw_unit_stubs[shm->funcs[fi].sym](vals, w->ret_words);
    /* a child the call forked returns nowhere: nothing it saw may reach
     * the shared results */
    if (bcw_rt_in_child)
        _exit(0);
    return w->ret_words[0];
}

/* The scalar of ABI class `abi` at p, as a raw word (zero-extended). */
uint64_t bcw_rt_call_scalar(const void *p, enum bcw_abi abi);

/* The canonical form of pointer result p (values.h): NULL, the target,
 * element cell k, or ptr#k, the k-th other pointer the sequence gave out,
 * numbered on first sight.  Halts the sequence (an abort) in the unlikely
 * case the runtime runs out of memory for the numbering, and as a crash
 * (BCW_SIG_GARBAGE) when p is the runtime's guard or fill bytes
 * (bcw_rt_alloc_junk): the call read it where nothing wrote a pointer. */
uint64_t bcw_rt_call_pointer(bcw_rt_worker *w, void *p);

#endif
