/* worker.h - the pool's state (pool.h's bcw_pool), shared by its two
 * files, and its workers as processes: what they start with (their
 * environment, a scratch folder, the sealed plan, each slot's batch
 * memory), each slot's fork server started and its HELLO awaited,
 * workers forked from it, killed and reaped (worker.c).  pool.c sends
 * them the jobs and reads their results. */
#ifndef BCW_WORKER_H
#define BCW_WORKER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "errors.h"
#include "plan.h"
#include "proto.h"

struct bcw_job;
typedef struct bcw_pool bcw_pool; /* pool.h's, defined here */

/* A worker's life, as the parent sees it. */
enum bcw_worker_state { BCW_WORKER_DOWN, BCW_WORKER_IDLE, BCW_WORKER_BUSY };

/* A job slot: its processes and pipes (worker.c's), and the run in
 * flight on it (pool.c's). */
typedef struct bcw_worker {
    enum bcw_worker_state state;
    pid_t pid;    /* the worker, forked by the server */
    pid_t server; /* its fork server, -1 when down */
    int batch_fd, cmd_fd, status_fd, srv_cmd_fd, srv_status_fd;
    bcw_batch *batch;
    struct bcw_job *job; /* the job in flight when busy */
    /* The run in flight, the parent's own (shared memory is not
     * trusted): the job's sequences first..end-1, a sequence run again
     * alone, and the nonce the worker's results check with. */
    uint32_t first, end;
    bool alone;
    uint64_t nonce;
    uint8_t slot; /* the batch's results slot it writes (proto.h) */
    /* What is left of the job: redo[redone..nredo-1] to run again alone,
     * then resume..nseq-1. */
    uint32_t *redo;
    uint32_t nredo, redone, resume;
    uint64_t last_at; /* (cur, cur_call) seen at last_progress */
    double last_progress;
    double deadline;  /* the run's, by the parent's clock */
    double hang_sent; /* when BCW_HANG_SIGNAL was sent, or 0 */
    bool has_last;    /* `last` holds the worker's BCW_MSG_LAST */
    bcw_wire_last last;
} bcw_worker;

/* The pool: its workers, and the runs it sends them. */
struct bcw_pool {
    /* the workers, worker.c's */
    char *path;
    char *scratch; /* the workers' scratch folder, removed at the end */
    char **env;    /* the workers' environment: bcwalk's, or a copy with
                      AddressSanitizer's options */
    unsigned n;
    int plan_fd; /* the plan, sealed, every worker's */
    bcw_worker *w;
    /* coverage: the flags (bcw_shm.ncov), and where their hits go
     * (coverage.h; NULL: not kept) */
    uint32_t ncov;
    uint8_t *hits;
    /* the runs, pool.c's */
    unsigned timeout_ms;
    uint64_t restarts;
    uint64_t runs; /* sent so far: each run's nonce */
    /* bcw__pool_run_each's jobs: which are finished, and the first not
     * yet handed to its callback */
    struct bcw_job *jobs;
    bool *finished;
    size_t capfinished, handed;
    /* how many jobs, the next to send, and those to send again first (a
     * job started on a worker that turned out spoiled) */
    size_t njobs, next;
    struct bcw_job **returned;
    size_t nreturned, capreturned;
};

/* Makes the workers' part of `pool` for `jobs` slots (0: one per core)
 * of the executable `path`, built with `sanitize`: their environment,
 * scratch folder, the sealed plan and each slot's batch memory; no
 * process is started yet.  0 or an error; either way what was made is
 * freed by bcw__workers_close. */
BCW_INTERNAL int bcw__workers_open(bcw_pool *pool, const char *path,
                                   const bcw_plan *plan, unsigned jobs,
                                   unsigned sanitize);

/* Stops every slot's worker and fork server and frees what
 * bcw__workers_open made, the scratch folder removed. */
BCW_INTERNAL void bcw__workers_close(bcw_pool *pool);

/* Has w's fork server fork a fresh worker, which is then idle: the
 * server is started first if w has none, and again, once, if it is gone
 * (the code under test ended it some way bcwalk does not intercept).
 * 0, BCW_EINPUT when the library's setup function ended the server
 * before its HELLO, or BCW_ERROR. */
BCW_INTERNAL int bcw__worker_start(bcw_pool *pool, bcw_worker *w);

/* Kills (if asked) w's worker and returns its wait status, which its
 * server reports; a server gone too is taken down and its own status
 * returned.  w is down after it. */
BCW_INTERNAL int bcw__worker_reap(bcw_worker *w, bool kill_it);

/* Sends w's worker the command `cmd`: 0, or -1 when it is gone. */
BCW_INTERNAL int bcw__worker_send(bcw_worker *w, uint32_t cmd);

/* Reads a message of w's worker that has arrived, without waiting: 1
 * read, 0 none, -1 EOF or error (the worker is gone). */
BCW_INTERNAL int bcw__worker_recv(bcw_worker *w, uint32_t *msg);

/* Takes the coverage flags w's worker handed over into the pool's hits
 * (if kept), each flag's hit at most `len`. */
BCW_INTERNAL void bcw__worker_cov(bcw_pool *pool, bcw_worker *w, unsigned len);

#endif
