/* exec.h - what a walk's jobs run on: the workers, through the
 * checkpoint's journal when there is one, or in a replay the results
 * recorded; and the results kept for the results file's replay
 * section. */
#ifndef BCW_EXEC_H
#define BCW_EXEC_H

#include "alloc.h"
#include "journal.h"
#include "pool.h"
#include "replay.h"

/* Each may be NULL but one of pool and recorded. */
typedef struct bcw_executor {
    bcw_pool *pool;
    bcw_journal *journal;
    bcw_recorded *recorded;
    bcw_buf *record;
} bcw_executor;

/* A bcw_walk_cfg's exec over the executor `payload`: the jobs run (or
 * answered from the recorded results, or the journal), each handed to
 * `done` once its results are in, in order, its results kept in
 * x->record first.  0, BCW_STOPPED (the journal's time limit), or an
 * error. */
BCW_INTERNAL int bcw__executor_run(void *payload, bcw_job *jobs, size_t njobs,
                                   bcw_job_done done, void *ctx);

#endif
