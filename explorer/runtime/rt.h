/* rt.h - the worker runtime's internal interface between its files. */
#ifndef BCW_RT_H
#define BCW_RT_H

#include <stddef.h>

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
