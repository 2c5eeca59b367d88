/* pool.c - the parent side of the worker protocol (core/wire/proto.h):
 * hand the workers (worker.c) batches, notice crashes and hangs by the
 * parent's own clock, replace dead workers and resume after the
 * sequence that killed them.
 *
 * Nothing a worker writes is taken on trust: each result must check
 * (bcw_wire_check) and be in range.  One that does not was written over
 * by the code under test, and its sequence runs again alone on a fresh
 * worker; so does a sequence that killed its worker after others ran in
 * it, which might have left the process broken.  A sequence run alone
 * starts from a clean process with nothing before it: what happens to
 * it is its own. */
#define _GNU_SOURCE
#include "pool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "worker.h"

#define TICK_MS 20

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int bcw__pool_new(bcw_pool **out, const char *path, const bcw_plan *plan,
                  unsigned jobs, unsigned timeout_ms, unsigned sanitize)
{
    *out = NULL;
    /* a worker that dies makes writes to its pipe fail with EPIPE; the
     * signal would end bcwalk instead */
    signal(SIGPIPE, SIG_IGN);
    /* the workers' code cannot open bcwalk's descriptors (the other
     * workers' batches, the outputs) through /proc/<pid>/fd: only a
     * process privileged over bcwalk may, and the workers' user
     * namespace is not (rt_sandbox.c) */
    prctl(PR_SET_DUMPABLE, 0);
    bcw_pool *pool = bcw__calloc(1, sizeof *pool);
    if (pool == NULL)
        return BCW_ENOMEM;
    pool->timeout_ms = timeout_ms ? timeout_ms : 1000;
    int err = bcw__workers_open(pool, path, plan, jobs, sanitize);
    if (err < 0) {
        bcw__pool_free(pool);
        return err;
    }
    *out = pool;
    return 0;
}

void bcw__pool_cover(bcw_pool *pool, uint8_t *hits)
{
    pool->hits = hits;
}

int bcw__job_prepare(bcw_job *job)
{
    int (*prepare)(bcw_job *) = job->prepare;
    job->prepare = NULL;
    return prepare != NULL ? prepare(job) : 0;
}

static uint32_t len_of(const bcw_job *job, uint32_t i)
{
    return job->words[job->off[i]] & BCW_SEQ_LEN_MASK;
}

/* Sends w the run of its job's sequences first..end-1 (`alone`: one
 * sequence run again by itself), starting a worker if w has none. */
static int send_run(bcw_pool *pool, bcw_worker *w, uint32_t first, uint32_t end,
                    bool alone)
{
    if (w->state == BCW_WORKER_DOWN) {
        int err = bcw__worker_start(pool, w);
        if (err < 0)
            return err;
    }
    bcw_job *job = w->job;
    bcw_batch *b = w->batch;
    /* the words again, every run: the code under test may have written
     * over them in the run before */
    uint32_t words = 0;
    double calls = 0;
    for (uint32_t i = first; i < end; i++) {
        const uint16_t *q = &job->words[job->off[i]];
        uint32_t n = bcw_wire_seq_words(q, BCW_MAX_SEQ_WORDS);
        BCW_ASSERT(n != 0 && words + n <= BCW_MAX_SEQ_WORDS);
        memcpy(&b->seqs[words], q, n * sizeof *q);
        b->off[i] = words;
        words += n;
        calls += (q[0] & BCW_SEQ_LEN_MASK) + 2;
    }
    w->first = first;
    w->end = end;
    w->alone = alone;
    w->nonce = ++pool->runs * 0x9e3779b97f4a7c15u;
    b->nonce = b->tail = w->nonce;
    b->slot = w->slot;
    b->nseq = end;
    b->first = first;
    b->cur = first;
    b->cur_call = 0;
    w->last_at = (uint64_t)first << 32;
    w->last_progress = now_ms();
    w->hang_sent = 0;
    w->has_last = false;
    /* the run's deadline: four times the limit for each call its
     * sequences make, however the worker seems to progress */
    w->deadline = w->last_progress + 4.0 * pool->timeout_ms * calls;
    if (bcw__worker_send(w, BCW_CMD_RUN) < 0) {
        bcw__worker_reap(w, true);
        return bcw__error(BCW_ERROR, "worker %s stopped taking commands",
                          pool->path);
    }
    w->state = BCW_WORKER_BUSY;
    return 0;
}

/* Starts job on the idle or down worker w. */
static int send_job(bcw_pool *pool, bcw_worker *w, bcw_job *job)
{
    int err = bcw__job_prepare(job);
    if (err < 0)
        return err;
    w->job = job;
    w->nredo = w->redone = 0;
    w->resume = job->nseq;
    return send_run(pool, w, 0, job->nseq, false);
}

/* Job done: marked finished, for bcw__pool_run_each to hand over. */
static void job_finished(bcw_pool *pool, const bcw_job *job)
{
    if (pool->finished != NULL)
        pool->finished[job - pool->jobs] = true;
}

/* The next job to send, the ones sent back first; NULL: none left. */
static bcw_job *next_job(bcw_pool *pool)
{
    if (pool->nreturned > 0)
        return pool->returned[--pool->nreturned];
    return pool->next < pool->njobs ? &pool->jobs[pool->next++] : NULL;
}

/* What is left of w's job once a run ended: the sequences to run again
 * alone, then the rest; or nothing, and w is no longer busy. */
static int next_run(bcw_pool *pool, bcw_worker *w)
{
    if (w->redone < w->nredo) {
        uint32_t i = w->redo[w->redone++];
        return send_run(pool, w, i, i + 1, true);
    }
    w->nredo = w->redone = 0;
    if (w->resume < w->job->nseq)
        return send_run(pool, w, w->resume, w->job->nseq, false);
    job_finished(pool, w->job);
    w->job = NULL;
    if (w->state == BCW_WORKER_BUSY)
        w->state = BCW_WORKER_IDLE;
    return 0;
}

/* Is r (with its cause c) what a worker wrote for sequence i of job in
 * the run of `nonce`: its check word right, every field the parent
 * reads in range? */
static bool result_ok(const bcw_job *job, uint64_t nonce, uint32_t i,
                      const bcw_wire_result *r, const bcw_wire_cause *c)
{
    bool caused = r->flags & (BCW_RESULT_CAUSE | BCW_RESULT_LEAK);
    return r->check == bcw_wire_check(r, c, i, nonce) &&
           r->outcome <= BCW_RUN_FAILURE && r->ntext <= BCW_TEXT_MAX &&
           r->text_of <= BCW_MAX_PARAMS && r->halted_at <= len_of(job, i) + 2 &&
           (!caused ||
            (c->kind <= BCW_CAUSE_LAST && c->access <= BCW_ACCESS_WRITE &&
             c->where <= BCW_WHERE_STACK));
}

/* Sequence i's result and cause in results slot `slot` of w's batch,
 * copied out once and checked as job's in the run of `nonce`.  false:
 * written over. */
static bool read_result(const bcw_worker *w, const bcw_job *job, uint64_t nonce,
                        unsigned slot, uint32_t i, bcw_wire_result *r,
                        bcw_wire_cause *c)
{
    bcw_wire_result_copy(r, &w->batch->results[slot][i], 1);
    if (r->flags & (BCW_RESULT_CAUSE | BCW_RESULT_LEAK))
        *c = w->batch->causes[slot][i];
    return result_ok(job, nonce, i, r, c);
}

/* r and c into the job as sequence i's. */
static void store_result(bcw_worker *w, uint32_t i, const bcw_wire_result *r,
                         const bcw_wire_cause *c)
{
    w->job->results[i] = *r;
    if (r->flags & BCW_RESULT_CAUSE)
        w->job->causes[i] = *c;
}

/* The rest of a BCW_MSG_LAST whose first word was read: written in one
 * piece, it is all in the pipe. */
static void read_last(bcw_worker *w)
{
    char *p = (char *)&w->last + sizeof w->last.msg;
    size_t want = sizeof w->last - sizeof w->last.msg;
    while (want > 0) {
        struct pollfd pfd = {.fd = w->status_fd, .events = POLLIN};
        ssize_t n = poll(&pfd, 1, 100) == 1 ? read(w->status_fd, p, want) : 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        p += n;
        want -= (size_t)n;
    }
    w->last.msg = BCW_MSG_LAST;
    w->has_last = true;
}
/* Sequence i's result into the job: true if it checks; if not, the
 * job's entry is left to be written again. */
static bool take_result(bcw_worker *w, uint32_t i)
{
    return read_result(w, w->job, w->nonce, w->slot, i, &w->job->results[i],
                       &w->job->causes[i]);
}

/* Sequence i's result as the parent words it: `outcome` and `signo` at
 * the call in flight, `call` (out of range: the last), with a cause of
 * `kind` (BCW_CAUSE_NONE: none) whose size is `size`. */
static void put_result(bcw_worker *w, uint32_t i, enum bcw_outcome outcome,
                       int signo, uint32_t call, enum bcw_cause_kind kind,
                       uint32_t size)
{
    uint32_t last = len_of(w->job, i) + 1;
    bcw_wire_result *r = &w->job->results[i];
    memset(r, 0, sizeof *r);
    r->outcome = (uint8_t)outcome;
    r->signo = (uint8_t)signo;
    r->halted_at = (uint16_t)(call <= last ? call : last);
    r->calls = r->halted_at + 1u;
    if (kind != BCW_CAUSE_NONE) {
        r->flags = BCW_RESULT_CAUSE;
        bcw_wire_cause *c = &w->job->causes[i];
        memset(c, 0, sizeof *c);
        c->kind = (uint8_t)kind;
        c->size = size;
    }
}

/* w answered DONE to a run that ended its job, and another job waits: w
 * starts it at once on the other results slot, and the run's results
 * are read while it runs.  Any that does not check spoils the worker:
 * it is killed, the job it started goes back to be sent again, and the
 * ended job's results that do not check run again alone. */
static int run_done_early(bcw_pool *pool, bcw_worker *w, bcw_job *next)
{
    bcw_job *job = w->job;
    uint32_t first = w->first, end = w->end;
    uint64_t nonce = w->nonce;
    unsigned slot = w->slot;
    w->slot ^= 1;
    int err = send_job(pool, w, next);
    if (err < 0)
        return err;
    uint32_t nredo = 0;
    for (uint32_t i = first; i < end; i++)
        if (!read_result(w, job, nonce, slot, i, &job->results[i],
                         &job->causes[i]))
            w->redo[nredo++] = i;
    if (nredo == 0) {
        job_finished(pool, job);
        return 0;
    }
    bcw__worker_reap(w, true);
    pool->restarts++;
    pool->returned[pool->nreturned++] = w->job;
    w->job = job;
    w->nredo = nredo;
    w->redone = 0;
    w->resume = job->nseq;
    return next_run(pool, w);
}

/* w answered DONE: its results, those that do not check to run again
 * alone; run alone, a result that does not check was written over by
 * the sequence itself after it ended (a thread or process it left). */
static int run_done(bcw_pool *pool, bcw_worker *w)
{
    bool spoiled = false;
    bcw__worker_cov(pool, w, len_of(w->job, w->first));
    if (!w->alone && w->end == w->job->nseq && w->redone == w->nredo) {
        bcw_job *next = next_job(pool);
        if (next != NULL)
            return run_done_early(pool, w, next);
    }
    for (uint32_t i = w->first; i < w->end; i++) {
        if (take_result(w, i))
            continue;
        spoiled = true;
        if (w->alone)
            put_result(w, i, BCW_RUN_CRASH, BCW_SIG_SCRIBBLE,
                       w->batch->cur_call, BCW_CAUSE_SCRIBBLE, 1);
        else
            w->redo[w->nredo++] = i;
    }
    if (!w->alone)
        w->resume = w->end;
    w->state = BCW_WORKER_IDLE;
    /* a worker whose shared memory was written over is not used again */
    if (spoiled) {
        bcw__worker_reap(w, true);
        pool->restarts++;
    }
    return next_run(pool, w);
}

/* Has the busy worker w hung, by the parent's clock at t?  (cur,
 * cur_call) must move within the time limit, and the run end by its
 * deadline.  A move counts when it stays in the run and the call in the
 * sequence, and the sequences it passed have results that check: a
 * thread writing shared memory cannot fake one. */
static bool past_deadline(const bcw_pool *pool, bcw_worker *w, double t)
{
    uint32_t cur = __atomic_load_n(&w->batch->cur, __ATOMIC_ACQUIRE);
    uint32_t call = w->batch->cur_call;
    uint64_t at = (uint64_t)cur << 32 | call;
    if (cur >= w->first && cur < w->end && call <= len_of(w->job, cur) + 1 &&
        at > w->last_at) {
        bool real = true;
        bcw_wire_result r;
        bcw_wire_cause c;
        for (uint32_t i = (uint32_t)(w->last_at >> 32); i < cur && real; i++)
            real = read_result(w, w->job, w->nonce, w->slot, i, &r, &c);
        if (real) {
            w->last_at = at;
            w->last_progress = t;
        }
    }
    return t - w->last_progress > pool->timeout_ms || t > w->deadline;
}

/* The worker died during a run, or is to be killed (`kill_it`: hung, or
 * it said something out of protocol).  The sequence in flight is the one
 * its last words (BCW_MSG_LAST) name, else the batch's cur.  The
 * sequences before it keep their results that check, the others run
 * again alone; so does the one in flight when others ran before it in
 * the same process.  Otherwise (run alone, or first) the death is its
 * outcome, classified here (one place for it).  The job resumes after it
 * on a fresh worker. */
static int worker_died(bcw_pool *pool, bcw_worker *w, bool hung, bool kill_it)
{
    uint32_t first = w->first;
    uint32_t cur = __atomic_load_n(&w->batch->cur, __ATOMIC_ACQUIRE);
    uint32_t call = w->batch->cur_call;
    uint32_t msg;
    if (!w->has_last && bcw__worker_recv(w, &msg) == 1 && msg == BCW_MSG_LAST)
        read_last(w);
    const bcw_wire_last *last = &w->last;
    bool said =
        w->has_last && last->seq >= first && last->seq < w->end &&
        result_ok(w->job, w->nonce, last->seq, &last->result, &last->cause);
    if (said)
        cur = last->seq;
    /* a value outside the run was written by the code under test */
    bool known = said || (cur >= first && cur < w->end);
    /* the batch's header, which only the parent writes, written over */
    bool scribbled =
        w->batch->nonce != w->nonce || w->batch->tail != w->nonce || !known;
    if (!known)
        cur = first;
    uint32_t len = len_of(w->job, cur);
    if (call > len + 1) {
        /* written over too: the last call the parent saw the sequence
         * make, at least its last method (its prefix, a sequence a walk
         * runs first, ended normally) */
        bool seen = (uint32_t)(w->last_at >> 32) == cur;
        call = seen && (uint32_t)w->last_at > len ? len + 1 : len;
    }
    int status = bcw__worker_reap(w, kill_it);
    pool->restarts++;
    bcw__worker_cov(pool, w, len_of(w->job, first));
    bool clean = known;
    for (uint32_t i = first; i < cur; i++)
        if (!take_result(w, i)) {
            w->redo[w->nredo++] = i;
            clean = false;
        }
    if (!w->alone)
        w->resume = cur + 1;
    int code = said                         ? (int)last->exit
               : !hung && WIFEXITED(status) ? WEXITSTATUS(status)
                                            : -1;
    /* the sequence ended and left the process changed: its result
     * stands as any other's */
    if (code == BCW_EXIT_RESTART && said) {
        store_result(w, cur, &last->result, &last->cause);
        return next_run(pool, w);
    }
    if (code == BCW_EXIT_RESTART && take_result(w, cur))
        return next_run(pool, w);
    if (!w->alone && (cur > first || !clean)) {
        w->redo[w->nredo++] = cur;
        return next_run(pool, w);
    }
    if (scribbled && !hung) {
        /* it wrote over bcwalk's shared memory and died: however it
         * died (a fault, an abort, its last words written over too, as
         * the bytes it wrote decide), the call's outcome is that, the
         * same in every run */
        put_result(w, cur, BCW_RUN_CRASH, BCW_SIG_SCRIBBLE, call,
                   BCW_CAUSE_SCRIBBLE, 0);
    } else if (said) {
        /* the worker recorded a fatal signal, or the hang it was told
         * of, itself */
        store_result(w, cur, &last->result, &last->cause);
    } else if (hung) {
        /* no progress within the time limit: the worker was killed */
        put_result(w, cur, BCW_RUN_HANG, SIGKILL, call, BCW_CAUSE_NONE, 0);
    } else if (code == BCW_EXIT_FAULT && take_result(w, cur)) {
        /* its last words lost, the batch still has them */
    } else if (WIFSIGNALED(status)) {
        /* killed from outside (the OOM killer, a stray signal) */
        put_result(w, cur, BCW_RUN_CRASH, WTERMSIG(status), call,
                   BCW_CAUSE_NONE, 0);
    } else {
        /* the code under test ended the worker some way bcwalk does not
         * intercept (closing its descriptors, a raw exit system call),
         * or its last words do not check */
        put_result(w, cur, BCW_RUN_ABORT, 0, call, BCW_CAUSE_DIED,
                   (uint32_t)code);
    }
    return next_run(pool, w);
}

/* Sends the jobs not sent yet to the workers that are not busy, while
 * there are both; *busy counts the workers it made busy. */
static int send_jobs(bcw_pool *pool, unsigned *busy)
{
    int err = 0;
    for (unsigned i = 0; i < pool->n && err == 0; i++) {
        bcw_worker *w = &pool->w[i];
        if (w->state == BCW_WORKER_BUSY)
            continue;
        bcw_job *job = next_job(pool);
        if (job == NULL)
            break;
        if ((err = send_job(pool, w, job)) == 0)
            (*busy)++;
    }
    return err;
}

/* Attends to the busy worker w at t, by the parent's clock: to its
 * reply (`replied`: one came), its server's word that it ended
 * (`ended`), or else the hang it may be in. */
static int attend(bcw_pool *pool, bcw_worker *w, bool replied, bool ended,
                  double t)
{
    if (replied) {
        uint32_t msg = 0;
        int got = bcw__worker_recv(w, &msg);
        if (got == 1 && msg == BCW_MSG_DONE)
            return run_done(pool, w);
        /* its last words, or anything else: a worker gone wrong, its
         * sequence in flight crashed */
        if (got == 1 && msg == BCW_MSG_LAST)
            read_last(w);
        return worker_died(pool, w, w->hang_sent > 0, true);
    }
    if (ended)
        return worker_died(pool, w, w->hang_sent > 0, false);
    if (w->hang_sent > 0) {
        /* told of its hang: it records it, or is killed */
        if (t - w->hang_sent <= BCW_HANG_GRACE_MS)
            return 0;
        return worker_died(pool, w, true, true);
    }
    if (past_deadline(pool, w, t)) {
        /* the main thread, which runs the sequence */
        syscall(SYS_tgkill, w->pid, w->pid, BCW_HANG_SIGNAL);
        w->hang_sent = t;
    }
    return 0;
}

/* Waits a tick for each busy worker's replies, and its server's word
 * that it ended, and attends to every one; *busy less those no longer
 * busy. */
static int collect(bcw_pool *pool, unsigned *busy)
{
    struct pollfd pfd[2 * pool->n];
    unsigned idx[pool->n], np = 0;
    for (unsigned i = 0; i < pool->n; i++) {
        if (pool->w[i].state != BCW_WORKER_BUSY)
            continue;
        pfd[2 * np] =
            (struct pollfd){.fd = pool->w[i].status_fd, .events = POLLIN};
        pfd[2 * np + 1] =
            (struct pollfd){.fd = pool->w[i].srv_status_fd, .events = POLLIN};
        idx[np++] = i;
    }
    int r;
    while ((r = poll(pfd, 2 * np, TICK_MS)) < 0 && errno == EINTR)
        ;
    double t = now_ms();
    int err = 0;
    for (unsigned k = 0; k < np && err == 0; k++) {
        bcw_worker *w = &pool->w[idx[k]];
        err = attend(pool, w, pfd[2 * k].revents != 0,
                     pfd[2 * k + 1].revents != 0, t);
        if (err == 0 && w->state != BCW_WORKER_BUSY)
            (*busy)--;
    }
    return err;
}

/* Hands the jobs finished, in order, to `done` from the first not
 * handed yet. */
static int hand_over(bcw_pool *pool, size_t njobs, bcw_job_done done, void *ctx)
{
    int err = 0;
    while (err == 0 && done != NULL && pool->handed < njobs &&
           pool->finished[pool->handed])
        err = done(ctx, &pool->jobs[pool->handed++]);
    return err;
}

int bcw__pool_run(bcw_pool *pool, bcw_job *jobs, size_t njobs)
{
    return bcw__pool_run_each(pool, jobs, njobs, NULL, NULL);
}

int bcw__pool_run_each(bcw_pool *pool, bcw_job *jobs, size_t njobs,
                       bcw_job_done done, void *ctx)
{
    unsigned busy = 0;
    int err = 0;
    pool->jobs = jobs;
    pool->njobs = njobs;
    pool->next = 0;
    pool->nreturned = 0;
    pool->handed = 0;
    if (bcw__grow(&pool->returned, &pool->capreturned, pool->n,
                  sizeof *pool->returned) < 0)
        return BCW_ENOMEM;
    if (done != NULL) {
        if (bcw__grow(&pool->finished, &pool->capfinished, njobs,
                      sizeof *pool->finished) < 0)
            return BCW_ENOMEM;
        memset(pool->finished, 0, njobs * sizeof *pool->finished);
    }
    bool *finished = pool->finished;
    if (done == NULL)
        pool->finished = NULL; /* nothing to mark */
    for (;;) {
        err = send_jobs(pool, &busy);
        if (err < 0 || busy == 0)
            break;
        /* the next job is made ready, and the finished ones handed over,
         * while the workers run */
        if (pool->next < njobs &&
            (err = bcw__job_prepare(&jobs[pool->next])) < 0)
            break;
        if ((err = hand_over(pool, njobs, done, ctx)) < 0)
            break;
        if ((err = collect(pool, &busy)) < 0)
            break;
    }
    if (err == 0)
        err = hand_over(pool, njobs, done, ctx);
    pool->finished = finished;
    pool->jobs = NULL;
    return err;
}

unsigned bcw__pool_workers(const bcw_pool *pool)
{
    return pool->n;
}

uint64_t bcw__pool_restarts(const bcw_pool *pool)
{
    return pool->restarts;
}

void bcw__pool_free(bcw_pool *pool)
{
    if (pool == NULL)
        return;
    bcw__workers_close(pool);
    free(pool->finished);
    free(pool->returned);
    free(pool);
}
