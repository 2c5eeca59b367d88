/* exec.c - what a walk's jobs run on (exec.h). */
#include "exec.h"

/* A job finished: its results kept for the replay section, then
 * handed to the walk. */
typedef struct finishing {
    bcw_executor *x;
    bcw_job_done done;
    void *ctx;
} finishing;

static int finished(void *ctx, bcw_job *job)
{
    finishing *f = ctx;
    int err = 0;
    for (uint32_t i = 0; err == 0 && f->x->record != NULL && i < job->nseq; i++)
        err = bcw__record_put(f->x->record, job, i);
    return err == 0 ? f->done(f->ctx, job) : err;
}

int bcw__executor_run(void *payload, bcw_job *jobs, size_t njobs,
                      bcw_job_done done, void *ctx)
{
    bcw_executor *x = payload;
    finishing f = {x, done, ctx};
    if (x->recorded != NULL) {
        int err = bcw__replay_exec(x->recorded, jobs, njobs);
        for (size_t k = 0; err == 0 && k < njobs; k++)
            err = finished(&f, &jobs[k]);
        return err;
    }
    return x->journal != NULL
               ? bcw__journal_exec(x->journal, x->pool, jobs, njobs, finished,
                                   &f)
               : bcw__pool_run_each(x->pool, jobs, njobs, finished, &f);
}
