/* engine.h - the engine stage's interface: the workers and the jobs they
 * run (pool.h), the walks' enumeration (walk.h) and the state walk
 * (states.h) with its concrete-state sets (stateset.h), the checkpoint
 * journal (journal.h), the results read back for a replay (replay.h),
 * and the executor that runs a walk's jobs on one of them (exec.h).  The stages
 * after it include this header only; spill.h is the walk's own. */
#ifndef BCW_ENGINE_H
#define BCW_ENGINE_H

#include "exec.h"
#include "journal.h"
#include "pool.h"
#include "replay.h"
#include "states.h"
#include "stateset.h"
#include "walk.h"

#endif
