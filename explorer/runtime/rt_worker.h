/* rt_worker.h - the worker's state, one struct handed to every file of
 * the runtime (AFL++'s afl_state_t), and the runtime's tunables.
 *
 * main (rt_main.c) owns the one instance.  The plan part is filled once
 * at set-up (rt_plan.c) and read-only afterwards; the sequence part is
 * reset before each sequence (rt_seq.c).  What the code under test calls
 * without context (the allocator, the interposed abort) keeps its own
 * state in its file (rt_alloc.c, rt_halt.c). */
#ifndef BCW_RT_WORKER_H
#define BCW_RT_WORKER_H

#include <ffi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "custom.h"
#include "proto.h"
#include "rt_alloc.h"
#include "rt_halt.h"
#include "values.h"

/* The memo of values computed from the live object (rt_bounds.c): a
 * BCW_FIXED_BOUNDS parameter's value depends on the plan and on the
 * fields and earlier arguments its bounds read, its leaves; at most this
 * many leaves make the key of a memo entry (a parameter reading more is
 * solved on every call), in a table of this many entries. */
#define BCW_RT_BOUNDS_LEAVES 6
#define BCW_RT_BOUNDS_MEMO 1024

/* The leaves of one parameter's bounds, pool indices. */
typedef struct bcw_rt_leaves {
    uint8_t n; /* > BCW_RT_BOUNDS_LEAVES: too many, not memoised */
    uint16_t node[BCW_RT_BOUNDS_LEAVES];
} bcw_rt_leaves;

/* One memo entry: the parameter (fi * BCW_MAX_PARAMS + k + 1, 0 for an
 * empty entry), its leaves' values and what they gave. */
typedef struct bcw_rt_memo {
    uint16_t id;
    bool met;
    uint64_t value;
    uint64_t key[BCW_RT_BOUNDS_LEAVES];
} bcw_rt_memo;

/* Bytes of the per-sequence arena: strings, buffers, out-parameter and
 * scratch storage.  A sequence that needs more ends as an abort. */
#define BCW_RT_ARENA_SIZE (1u << 20)
/* Arena allocations the state hash follows; a sequence making more is
 * not hashed (its state is 0). */
#define BCW_RT_ARENA_SPANS 4096
/* Element cells (`void *` arguments): cell k holds k, shown Obj#k. */
#define BCW_RT_CELLS BCW_CUSTOM_CELLS
#define BCW_RT_CELL_SIZE 16
#define BCW_RT_MAX_RETAINS 64 /* references a sequence takes, at most */
/* Distinct pointer results a sequence can give: every call's result and
 * out-parameters (the constructor, up to BCW_SEQ_LEN_MASK methods, the
 * destructor), so the table numbering them never fills up. */
#define BCW_RT_MAX_PTRS ((BCW_SEQ_LEN_MASK + 2u) * (1u + BCW_MAX_PARAMS))
/* Its first size; it doubles from there. */
#define BCW_RT_PTRS_START 64u

struct bcw_rt_closure; /* a built-in callback (rt_closure.h) */

typedef struct bcw_rt_worker {
    /* The plan, read-only, and the batch, shared with the parent
     * (proto.h). */
    bcw_shm *shm;
    bcw_batch *batch;
    /* The batch in flight, the worker's own copy: what the code under
     * test writes over in `batch` changes no sequence to run. */
    uint32_t first, nseq;
    uint32_t off[BCW_MAX_BATCH];
    uint16_t seqs[BCW_MAX_SEQ_WORDS];

    /* Prepared at set-up, by plan entry (rt_plan.c). */
    ffi_cif cifs[BCW_MAX_FUNCS];
    ffi_type *argtypes[BCW_MAX_FUNCS][BCW_MAX_PARAMS];
    struct bcw_rt_closure *closures[BCW_MAX_FUNCS][BCW_MAX_PARAMS];
    struct bcw_rt_closure *fills[BCW_MAX_FILLS]; /* shm->fills' */
    bcw_rt_leaves leaves[BCW_MAX_FUNCS][BCW_MAX_PARAMS];
    /* libffi's types of struct results (BCW_ABI_STRUCT) */
    ffi_type ret_structs[BCW_MAX_FUNCS];
    ffi_type *ret_elems[BCW_MAX_FUNCS][BCW_MAX_STRUCT_WORDS + 1];
    /* the call's result: its raw word, or a struct's elements */
    uint64_t ret_words[BCW_MAX_STRUCT_WORDS];
    /* 1: the entry's arguments are only the object and generated or
     * fixed scalars, and its result is no handle and no new object: the
     * common call, made without the general argument machinery */
    uint8_t simple[BCW_MAX_FUNCS];
    /* How many of the entry's arguments are the object (itself, its
     * cell, the list its cell holds): 0 not given it, 2 or more given it
     * as another argument too (aliasing) */
    uint8_t with_target[BCW_MAX_FUNCS];
    /* 1: an entry given the object takes handles of the slot, so
     * whether the object held each when it was given out is kept */
    uint8_t held_check[BCW_MAX_HANDLES];
    unsigned nhandle_types; /* the plan gives out handles 0 .. n-1 */
    char *globals;          /* the unit's bcw_globals section */
    size_t globals_size;
    char *globals_copy; /* its bytes at start-up, restored each sequence */

    /* The sequence in flight (rt_seq.c). */
    bcw_rt_flight flight; /* where a halt returns to, calls made */
    void *target;         /* the unit's object */
    bcw_gen gen;          /* the master generator's position */
    /* the handles of each slot given out in this sequence, the last
     * first (handles[slot][0]), NULL where fewer were */
    void *handles[BCW_MAX_HANDLES][BCW_HANDLE_AGES];
    /* 1: the object reached that handle when it was given out */
    uint8_t held[BCW_MAX_HANDLES][BCW_HANDLE_AGES];
    /* the call that ended the object (BCW_RESULT_ENDED), 0: none */
    uint32_t ended;
    /* the pointers of each handle, as it was given out, that a call needs
     * changed since (wire `needs`, an iterator's current entry): the
     * words of snap_mask[slot], at their index */
    uint64_t snap_mask[BCW_MAX_HANDLES];
    /* the slots given out as copies of structs returned by value (an
     * iterator): their words all zero, the handle is at its end */
    uint8_t by_value[BCW_MAX_HANDLES];
    /* references the sequence took (BCW_WIRE_RETAINS), to the target
     * as it was then: the destructor is called once more on each */
    uint32_t retains;
    void *retained[BCW_RT_MAX_RETAINS];
    /* the target's element size (its constructor's elem_size argument),
     * 0: none; built-in callbacks read an element's number from that
     * many of its first bytes, a copy's as the original's */
    uint64_t elem_size;
    void *snaps[BCW_MAX_HANDLES][BCW_HANDLE_AGES][64];
    uint32_t len; /* methods in the sequence */
    /* its pinned values (BCW_SEQ_PINNED): npins of BCW_PIN_WORDS words */
    const uint16_t *pins;
    uint32_t npins;
    int check;       /* hash the state before an observer last call too */
    uint64_t before; /* that state */
    /* Pointer results numbered so far: ptr#k is ptrs[k] (rt_call.c). */
    void **ptrs;
    uint32_t nptrs, capptrs;
    /* The candidate value of the parameter a HOLDS/FAILS category is
     * being solved for: what BCW_C_PARAM nodes evaluate to (rt_bounds.c),
     * and the values of the call's parameters before it, what BCW_C_ARG
     * nodes evaluate to. */
    uint64_t solving_x;
    const uint64_t *solving_args;
    unsigned nsolving_args;
    /* what earlier calls of this process solved (rt_bounds.c) */
    bcw_rt_memo memo[BCW_RT_BOUNDS_MEMO];
    /* The arena (rt_args.c) and its allocations, for the state hash to
     * follow pointers into; past BCW_RT_ARENA_SPANS the state is not
     * hashed. */
    size_t arena_used;
    size_t narena_spans;
    int arena_spans_lost;
    bcw_rt_span arena_spans[BCW_RT_ARENA_SPANS];
    _Alignas(16) char arena[BCW_RT_ARENA_SIZE];
    _Alignas(4096) char unit_storage[BCW_MAX_UNIT_STORAGE];
    _Alignas(16) char cells[BCW_RT_CELLS][BCW_RT_CELL_SIZE];
} bcw_rt_worker;

#endif
