/* rt_state.h - the hash of a sequence's concrete state (rt_state.c;
 * docs/worker-protocol.md says what is hashed and when two states are
 * equal). */
#ifndef BCW_RT_STATE_H
#define BCW_RT_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_alloc.h"

/* What the state hash starts from and which memory it recognises besides
 * the live blocks of the code under test. */
typedef struct bcw_rt_roots {
    const void *target;  /* the unit's object */
    const char *unit;    /* static storage of init constructors and */
    size_t unit_size;    /*   cell units, used when target is in it */
    const char *globals; /* the unit's bcw_globals section */
    size_t globals_size;
    const char *cells; /* element cells: Obj#k, not followed */
    size_t cells_size, cell_size;
    const bcw_rt_span *arena; /* this sequence's arena allocations */
    size_t narena;
    void *const *handles; /* derived handles given out (rt_worker.h's
                             handles, slot by slot) */
    unsigned nhandles;
} bcw_rt_roots;

/* The hash of the concrete state (docs/worker-protocol.md): the memory
 * reachable from the target, the handles and the globals, pointers
 * replaced by their visit order.  0 when it cannot be computed (the
 * object is gone, or out of memory for the traversal); never 0
 * otherwise. */
uint64_t bcw_rt_state_hash(const bcw_rt_roots *roots);

/* Mixes one word into a hash (the state hash's mixing step). */
uint64_t bcw_rt_state_mix(uint64_t h, uint64_t word);

#endif
