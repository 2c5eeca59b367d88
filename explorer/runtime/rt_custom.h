/* rt_custom.h - the worker's side of a custom generator (rt_custom.c):
 * the one the plan names, drawing the parameters it takes. */
#ifndef BCW_RT_CUSTOM_H
#define BCW_RT_CUSTOM_H

#include <stdint.h>

#include "proto.h"
#include "values.h"

/* Loads the generator the plan names, if any: 0, or -1 for a bad plan or
 * a generator that will not load.  Called once, at set-up; the names it
 * gives the generator point into `shm`, which must outlive the worker. */
int bcw_rt_custom_setup(const bcw_shm *shm);

/* Starts a sequence: the generator's reset(), if there is one. */
void bcw_rt_custom_reset(void);

/* Draws parameter k of plan entry fi, a BCW_FIXED_CUSTOM one, as
 * bcw_custom_next does (custom.h): raw bits, or for strings *str (borrowed
 * until the next draw). */
uint64_t bcw_rt_custom_next(unsigned fi, unsigned k, const bcw_wire_param *p,
                            bcw_gen *g, const char **str);

#endif
