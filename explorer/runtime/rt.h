/* rt.h - the worker runtime's internal interface between its files. */
#ifndef BCW_RT_H
#define BCW_RT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "values.h"

/* Frees every block the code under test still holds (its leaks) so the
 * next sequence starts clean; returns how many there were. */
size_t bcw_rt_alloc_reset(void);

/* Is `p` inside a block the code under test freed during this sequence
 * (and not inside a live one)?  Freed blocks stay out of libc's hands
 * until the sequence ends (up to a bound), so a handle to one is told
 * from a handle to memory reused since. */
int bcw_rt_alloc_freed(const void *p);

/* Are the n bytes at p inside one live block of the code under test? */
int bcw_rt_alloc_live(const void *p, size_t n);

/* A span of memory the state hash may follow pointers into: a block of
 * the code under test, an arena allocation, the unit's static storage,
 * its globals.  `kind` and `visit` belong to rt_state.c. */
typedef struct bcw_rt_span {
    uintptr_t start;
    size_t size;
    uint32_t kind;
    uint32_t visit; /* 0: not reached yet; else the visit number + 1 */
} bcw_rt_span;

/* Writes the blocks of the code under test into out[0..cap-1], in no
 * particular order: the live ones (kind 0) and those it freed during
 * this sequence (kind 1, still quarantined); returns how many there are
 * (more than cap when out was too small). */
size_t bcw_rt_alloc_spans(bcw_rt_span *out, size_t cap);

/* rt_state.c: what the state hash starts from and which memory it
 * recognises besides the live blocks. */
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
    void *const *handles; /* derived handles given out last */
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

/* rt_halt.c: where a halt of the code under test lands.  rt_main arms
 * it around each sequence (seq_env, in_seq) and each interface predicate
 * (pred_env, in_pred: a halt there leaves the predicate unknown instead
 * of ending the sequence). */
typedef struct bcw_rt_landing {
    sigjmp_buf seq_env, pred_env;
    volatile int in_seq, in_pred;
    volatile enum bcw_outcome outcome; /* how the sequence halted */
    volatile int signo;
} bcw_rt_landing;
extern bcw_rt_landing bcw_rt_land;

/* Ends the sequence in flight with `outcome` (never returns).  Called by
 * the interposed abort, assert and exit, and by the allocator when the
 * code under test frees memory twice. */
void bcw_rt_halt(enum bcw_outcome outcome, int signo) __attribute__((noreturn));

/* rt_custom.c: the custom generator the plan names, if any.  Setup loads
 * it (0, or -1 for a bad plan or a generator that will not load); reset
 * starts a sequence; next draws parameter k of plan entry fi, a
 * BCW_FIXED_CUSTOM one, as bcw_custom_next does (custom.h). */
int bcw_rt_custom_setup(const bcw_shm *shm);
void bcw_rt_custom_reset(void);
uint64_t bcw_rt_custom_next(unsigned fi, unsigned k, const bcw_wire_param *p,
                            bcw_gen *g, const char **str);

#endif
