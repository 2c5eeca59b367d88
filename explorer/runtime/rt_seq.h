/* rt_seq.h - running one sequence of the batch (rt_seq.c): the
 * constructor, the methods, the state it leaves, the destructor; and the
 * library's setup before the first. */
#ifndef BCW_RT_SEQ_H
#define BCW_RT_SEQ_H

#include <stdint.h>

#include "rt_worker.h"

/* Runs sequence i of the batch (the worker's copy) from scratch (the
 * unit's globals restored, its leftovers of the sequence before freed)
 * and publishes results[i]; keeps the batch's cur and cur_call current
 * for the parent.  A call that leaves the batch's header changed wrote
 * over shared memory: a crash of its own (BCW_CAUSE_SCRIBBLE).  A halt
 * of the code under test (abort, assert, exit, a contract, an argument
 * that cannot be made) ends only the sequence; a fatal signal ends the
 * worker (rt_halt.c). */
void bcw_rt_seq_run(bcw_rt_worker *w, uint32_t i);

/* Calls the library's setup function (explore --setup), once, before
 * any sequence; the globals it leaves are those every sequence starts
 * from, and the blocks it allocated stay for the worker's life (not
 * leftovers, never freed).  0, or -1 when it halted (abort, assert,
 * exit); a fatal signal in it ends the worker (rt_halt.c). */
int bcw_rt_seq_setup(bcw_rt_worker *w);

/* Can plan entry f take the fast path (bcw_rt_worker's `simple`)? */
int bcw_rt_seq_is_simple(const bcw_wire_func *f);

#endif
