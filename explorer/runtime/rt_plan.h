/* rt_plan.h - the worker's set-up from the plan (rt_plan.c): mapping the
 * shared memory, checking the plan, preparing each entry's call. */
#ifndef BCW_RT_PLAN_H
#define BCW_RT_PLAN_H

#include "rt_worker.h"

/* Maps the shared memory (BCW_FD_SHM) into w->shm, checks the plan in
 * it (magic, version, every index and count within bounds, every symbol
 * in the unit's table), prepares one libffi call interface and the
 * built-in callbacks of each entry, decides which entries take the fast
 * path, snapshots the unit's globals and loads the custom generator the
 * plan names.  0, or -1 for a plan this worker cannot run (the worker
 * then exits with BCW_EXIT_SETUP before its hello); w is then only fit
 * to be dropped. */
int bcw_rt_plan_setup(bcw_rt_worker *w);

#endif
