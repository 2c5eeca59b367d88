/* rt_observe.h - what a sequence leaves behind (rt_observe.c): the hash
 * of the concrete state it reached (rt_state.c) and the design-state
 * predicates on its object. */
#ifndef BCW_RT_OBSERVE_H
#define BCW_RT_OBSERVE_H

#include <stdint.h>

#include "rt_worker.h"

/* The concrete state's hash now, or 0: not computed (the object is
 * gone, or the sequence made more arena allocations than are tracked). */
uint64_t bcw_rt_observe_state(const bcw_rt_worker *w);

/* Fills r's state and key after a normal sequence's last call: the
 * state's hash and that hash mixed with the master generator's position,
 * which decides the next calls' arguments.  Both stay 0 when the state
 * cannot be hashed. */
void bcw_rt_observe_record(const bcw_rt_worker *w, bcw_wire_result *r);

/* The design-state predicates on the object the sequence left, into r
 * (preds, known).  Interface predicates are calls of the observer; a
 * halt in one leaves that predicate unknown.  Nothing is known when the
 * sequence freed its object. */
void bcw_rt_observe_preds(bcw_rt_worker *w, bcw_wire_result *r);

#endif
