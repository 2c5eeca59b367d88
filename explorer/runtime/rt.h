/* rt.h - the worker runtime's internal interface between its files. */
#ifndef BCW_RT_H
#define BCW_RT_H

#include <stddef.h>

#include "proto.h"

/* Frees every block the code under test still holds (its leaks) so the
 * next sequence starts clean; returns how many there were. */
size_t bcw_rt_alloc_reset(void);

/* Ends the sequence in flight with `outcome` (never returns).  Called by
 * the interposed abort, assert and exit, and by the allocator when the
 * code under test frees memory twice. */
void bcw_rt_halt(enum bcw_outcome outcome, int signo) __attribute__((noreturn));

#endif
