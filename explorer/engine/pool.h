/* pool.h - worker processes that run batches of sequences (proto.h). */
#ifndef BCW_POOL_H
#define BCW_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "build.h"
#include "errors.h"
#include "plan.h"
#include "proto.h"

typedef struct bcw_pool bcw_pool;

/* A batch of at most BCW_MAX_BATCH sequences, encoded as in bcw_shm:
 * sequence i is words[off[i]]: length L, constructor, L methods.  The
 * pool fills results[0..nseq-1], and causes[i] where results[i] has the
 * flag BCW_RESULT_CAUSE (the other entries are left as they were). */
typedef struct bcw_job {
    const uint16_t *words;
    const uint32_t *off;
    uint32_t nseq;
    bcw_wire_result *results;
    bcw_wire_cause *causes;
    /* If not NULL, fills words and off (and may set results and causes,
     * which then stay the job's until it is handed over): the pool calls
     * it before the job
     * is sent, and ahead of time, while workers run the jobs before it,
     * so preparing overlaps running.  It clears itself. */
    int (*prepare)(struct bcw_job *job);
    void *ctx;
} bcw_job;

/* Runs job->prepare if the job has one; 0 or its error. */
BCW_INTERNAL int bcw__job_prepare(bcw_job *job);

/* Starts `jobs` workers of the executable `worker` with `plan`; built
 * with `sanitize` (BCW_SANITIZE_*), their AddressSanitizer's options are
 * bcwalk's.  *out is the caller's, freed with bcw__pool_free(). */
BCW_INTERNAL int bcw__pool_new(bcw_pool **out, const char *worker,
                               const bcw_plan *plan, unsigned jobs,
                               unsigned timeout_ms, unsigned sanitize);

/* Runs all `njobs` jobs on the workers and returns when every result is
 * in.  Crashes and hangs of the code under test are results; a worker
 * that cannot be (re)started is an error. */
BCW_INTERNAL int bcw__pool_run(bcw_pool *pool, bcw_job *jobs, size_t njobs);

/* Called with each job of a run once its results are all in, in the
 * jobs' order, while the workers run the jobs after it: 0 or an error,
 * which ends the run. */
typedef int (*bcw_job_done)(void *ctx, bcw_job *job);

/* bcw__pool_run, each job handed to `done` (if not NULL) as it
 * finishes, in order. */
BCW_INTERNAL int bcw__pool_run_each(bcw_pool *pool, bcw_job *jobs, size_t njobs,
                                    bcw_job_done done, void *ctx);

/* Keeps the hits of the coverage flags (plan->ncov of them) the
 * workers set in `hits` (coverage.h): each the shortest length of the
 * sequences in a run that set it, 0 for the library's setup function.
 * The caller's, until the pool is freed. */
BCW_INTERNAL void bcw__pool_cover(bcw_pool *pool, uint8_t *hits);

/* The workers the pool runs jobs on. */
BCW_INTERNAL unsigned bcw__pool_workers(const bcw_pool *pool);

/* Workers replaced so far after a fatal outcome. */
BCW_INTERNAL uint64_t bcw__pool_restarts(const bcw_pool *pool);

/* Stops the workers and frees the pool; NULL is accepted. */
BCW_INTERNAL void bcw__pool_free(bcw_pool *pool);

#endif
