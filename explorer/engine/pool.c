/* pool.c - the parent side of the worker protocol (core/wire/proto.h):
 * start a fork server per job slot, have it fork workers, hand them
 * batches, notice crashes and hangs by the parent's own clock, replace
 * dead workers and resume after the sequence that killed them.
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
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "bcwalk/explore.h"
#include "file.h"

extern char **environ;

#define HELLO_TIMEOUT_MS 10000
#define TICK_MS 20

/* A worker's life, as the parent sees it. */
enum worker_state { W_DOWN, W_IDLE, W_BUSY };

typedef struct worker {
    enum worker_state state;
    pid_t pid;    /* the worker, forked by the server */
    pid_t server; /* its fork server, -1 when down */
    int batch_fd, cmd_fd, status_fd, srv_cmd_fd, srv_status_fd;
    bcw_batch *batch;
    bcw_job *job; /* the job in flight when busy */
    /* The run in flight, the parent's own (shared memory is not
     * trusted): the job's sequences first..end-1, a sequence run again
     * alone, and the nonce the worker's results check with. */
    uint32_t first, end;
    bool alone;
    uint64_t nonce;
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
} worker;

struct bcw_pool {
    char *path;
    char *scratch; /* the workers' scratch folder, removed at the end */
    char **env;    /* the workers' environment: bcwalk's, or a copy with
                      AddressSanitizer's options */
    unsigned n;
    unsigned timeout_ms;
    uint64_t restarts;
    uint64_t runs; /* sent so far: each run's nonce */
    int plan_fd;   /* the plan, sealed, every worker's */
    worker *w;
    /* bcw__pool_run_each's jobs: which are finished, and the first not
     * yet handed to its callback */
    bcw_job *jobs;
    bool *finished;
    size_t capfinished, handed;
    /* coverage: the flags (bcw_shm.ncov), and where their hits go
     * (coverage.h; NULL: not kept) */
    uint32_t ncov;
    uint8_t *hits;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int write32(int fd, uint32_t v)
{
    for (;;) {
        ssize_t n = write(fd, &v, sizeof v);
        if (n == sizeof v)
            return 0;
        if (n < 0 && errno == EINTR)
            continue;
        return -1;
    }
}

/* Reads one 4-byte message, waiting at most `ms`: 1 read, 0 timeout,
 * -1 EOF or error (the worker is gone). */
static int read32(int fd, uint32_t *v, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r;
    while ((r = poll(&p, 1, ms)) < 0 && errno == EINTR)
        ;
    if (r == 0)
        return 0;
    if (r < 0)
        return -1;
    ssize_t n;
    while ((n = read(fd, v, sizeof *v)) < 0 && errno == EINTR)
        ;
    return n == sizeof *v ? 1 : -1;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Reads what arrived on fd and was not asked for (a dead worker's last
 * words), so the next worker's replies are read from their start. */
static void drain(int fd)
{
    uint32_t stale;
    while (fd >= 0 && read32(fd, &stale, 0) == 1)
        ;
}

/* Stops a fork server (EOF on its commands, or SIGKILL) and reaps it;
 * returns its wait status.  Its worker, if any, dies with it. */
static int server_down(worker *w, bool kill_it)
{
    int status = 0;
    close_fd(&w->srv_cmd_fd);
    if (w->server > 0) {
        if (kill_it)
            kill(w->server, SIGKILL);
        while (waitpid(w->server, &status, 0) < 0 && errno == EINTR)
            ;
    }
    w->server = -1;
    w->pid = -1;
    close_fd(&w->srv_status_fd);
    close_fd(&w->cmd_fd);
    close_fd(&w->status_fd);
    w->state = W_DOWN;
    return status;
}

/* Kills (if asked) the worker and returns its wait status, which its
 * server reports; a server gone too is taken down and its own status
 * returned. */
static int reap(worker *w, bool kill_it)
{
    int status = 0;
    if (w->pid > 0) {
        if (kill_it)
            kill(w->pid, SIGKILL);
        uint32_t st;
        if (read32(w->srv_status_fd, &st, HELLO_TIMEOUT_MS) != 1)
            return server_down(w, true);
        status = (int)st;
        drain(w->status_fd);
    }
    w->pid = -1;
    w->state = W_DOWN;
    return status;
}

/* Starts the fork server of worker slot w and waits for its HELLO. */
/* A worker's batch memory: the batch, then the coverage bytes. */
static size_t batch_size(const bcw_pool *pool)
{
    return sizeof(bcw_batch) + pool->ncov;
}

/* The coverage flags w's worker handed over, hits at most `len`. */
static void take_cov(bcw_pool *pool, worker *w, unsigned len)
{
    if (pool->hits != NULL)
        bcw__cov_take(pool->hits, bcw_batch_cov(w->batch), pool->ncov, len);
}

void bcw__pool_cover(bcw_pool *pool, uint8_t *hits)
{
    pool->hits = hits;
}

static int spawn_server(bcw_pool *pool, worker *w)
{
    int cmd[2] = {-1, -1}, st[2] = {-1, -1}, scmd[2] = {-1, -1},
        sst[2] = {-1, -1};
    if (pipe2(cmd, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0 ||
        pipe2(scmd, O_CLOEXEC) < 0 || pipe2(sst, O_CLOEXEC) < 0) {
        int err = bcw__error(BCW_ERROR, "pipe: %s", strerror(errno));
        int *fds[] = {&cmd[0],  &cmd[1],  &st[0],  &st[1],
                      &scmd[0], &scmd[1], &sst[0], &sst[1]};
        for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
            close_fd(fds[i]);
        return err;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pool->plan_fd, BCW_FD_SHM);
    posix_spawn_file_actions_adddup2(&fa, w->batch_fd, BCW_FD_BATCH);
    posix_spawn_file_actions_adddup2(&fa, cmd[0], BCW_FD_CMD);
    posix_spawn_file_actions_adddup2(&fa, st[1], BCW_FD_STATUS);
    posix_spawn_file_actions_adddup2(&fa, scmd[0], BCW_FD_SRV_CMD);
    posix_spawn_file_actions_adddup2(&fa, sst[1], BCW_FD_SRV_STATUS);
    /* the code under test's own output would interleave with reports */
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    /* a session of its own: what the code under test signals as its
     * process group is the worker and what it forked, never bcwalk */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
    char *argv[] = {pool->path, NULL};
    /* every worker laid out alike, run after run: addresses the code
     * under test keeps (an mmap's) are then the same in every job and
     * every run, and so are the states they are part of */
    int persona = personality(0xffffffff);
    bool fixed = persona != -1 && !(persona & ADDR_NO_RANDOMIZE) &&
                 personality((unsigned long)persona | ADDR_NO_RANDOMIZE) != -1;
    int rc = posix_spawn(&w->server, pool->path, &fa, &attr, argv, pool->env);
    if (fixed)
        personality((unsigned long)persona);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(cmd[0]);
    close(st[1]);
    close(scmd[0]);
    close(sst[1]);
    w->cmd_fd = cmd[1];
    w->status_fd = st[0];
    w->srv_cmd_fd = scmd[1];
    w->srv_status_fd = sst[0];
    if (rc != 0) {
        w->server = -1;
        server_down(w, false);
        return bcw__error(BCW_ERROR, "cannot start worker %s: %s", pool->path,
                          strerror(rc));
    }
    uint32_t hello = 0;
    if (read32(w->srv_status_fd, &hello, HELLO_TIMEOUT_MS) != 1 ||
        hello != (BCW_MSG_HELLO | BCW_PROTO_VERSION)) {
        int status = server_down(w, true);
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        /* before HELLO, only the library's setup function runs code under
         * test: the user's input to blame */
        if (code == BCW_EXIT_UNIT_SETUP)
            return bcw__error(BCW_EINPUT,
                              "setup function: it aborted (abort, a failed "
                              "assert or exit) in the worker, before any "
                              "sequence");
        if (code == BCW_EXIT_FAULT)
            return bcw__error(BCW_EINPUT,
                              "setup function: it crashed (signal %d) in the "
                              "worker, before any sequence",
                              w->batch->results[0].signo);
        return bcw__error(BCW_ERROR,
                          "worker %s did not start (hello 0x%08x, expected "
                          "0x%08x; exit status %d): rebuild it by removing "
                          "the cache folder",
                          pool->path, hello, BCW_MSG_HELLO | BCW_PROTO_VERSION,
                          code);
    }
    /* what the library's setup function covered, before any sequence */
    take_cov(pool, w, 0);
    return 0;
}

/* Has the fork server fork a fresh worker; a server that is gone (the
 * code under test ended it some way bcwalk does not intercept) is
 * started again, once. */
static int start(bcw_pool *pool, worker *w)
{
    for (int attempt = 0;; attempt++) {
        int err = w->server > 0 ? 0 : spawn_server(pool, w);
        if (err < 0)
            return err;
        uint32_t pid = 0;
        if (write32(w->srv_cmd_fd, BCW_CMD_FORK) == 0 &&
            read32(w->srv_status_fd, &pid, HELLO_TIMEOUT_MS) == 1 && pid > 0 &&
            pid <= INT32_MAX) {
            w->pid = (pid_t)pid;
            w->state = W_IDLE;
            return 0;
        }
        int status = server_down(w, true);
        if (attempt > 0)
            return bcw__error(BCW_ERROR,
                              "worker %s: its fork server stopped (wait "
                              "status 0x%x)",
                              pool->path, (unsigned)status);
    }
}

/* AddressSanitizer's options in workers built with it: the worker's
 * own handlers keep the fatal signals, a report ends the worker (the
 * runtime records it: rt_ub.c) with no leak check, no symbolizer (the
 * parent names the code) and no core file. */
#define ASAN_OPTIONS                                                           \
    "ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0:"               \
    "handle_sigfpe=0:handle_sigill=0:handle_abort=0:"                          \
    "allow_user_segv_handler=1:symbolize=0:halt_on_error=1:"                   \
    "abort_on_error=0:disable_coredump=1:detect_stack_use_after_return=0"

/* The environment workers built with `sanitize` get, into pool->env:
 * bcwalk's, with ASAN_OPTIONS in place of the user's for ASan. */
static int worker_env(bcw_pool *pool, unsigned sanitize)
{
    if (!(sanitize & BCW_SANITIZE_ADDRESS)) {
        pool->env = environ;
        return 0;
    }
    size_t n = 0;
    while (environ[n] != NULL)
        n++;
    pool->env = bcw__calloc(n + 2, sizeof *pool->env);
    if (pool->env == NULL)
        return BCW_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "ASAN_OPTIONS=", 13) != 0)
            pool->env[k++] = environ[i];
    pool->env[k] = (char *)ASAN_OPTIONS;
    return 0;
}

/* A new scratch folder for the workers, in $TMPDIR or /tmp, into
 * pool->scratch: 0, BCW_ENOMEM or BCW_ERROR. */
static int make_scratch(bcw_pool *pool)
{
    char *dir = bcw__sprintf("%s/bcwalk-scratch.XXXXXX", bcw__tmp_dir());
    if (dir == NULL)
        return BCW_ENOMEM;
    bool too_long = strlen(dir) >= sizeof(((bcw_shm *)0)->scratch);
    if (too_long || mkdtemp(dir) == NULL) {
        int err = bcw__error(BCW_ERROR, "scratch folder %s: %s", dir,
                             too_long ? "path too long" : strerror(errno));
        free(dir);
        return err;
    }
    pool->scratch = dir;
    return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

/* The plan into a memfd every worker maps, sealed so that none can write
 * it (no writable mapping of it can be made, nor a read-only one made
 * writable): the code under test cannot change what later sequences
 * run.  A kernel without the seals gets the memfd unsealed. */
static int write_plan(bcw_pool *pool, const bcw_plan *plan)
{
    bcw_shm *shm = MAP_FAILED;
    pool->plan_fd =
        memfd_create("bcwalk-plan", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (pool->plan_fd < 0 || ftruncate(pool->plan_fd, sizeof(bcw_shm)) < 0 ||
        (shm = mmap(NULL, sizeof(bcw_shm), PROT_READ | PROT_WRITE, MAP_SHARED,
                    pool->plan_fd, 0)) == MAP_FAILED)
        return bcw__error(BCW_ERROR, "shared memory: %s", strerror(errno));
    shm->magic = BCW_SHM_MAGIC;
    shm->version = BCW_PROTO_VERSION;
    shm->nfuncs = plan->nfuncs;
    shm->unit_size = plan->unit_size;
    shm->ndestructors = plan->ndestructors;
    memcpy(shm->destructors, plan->destructors, sizeof plan->destructors);
    shm->use_ffi = plan->use_ffi;
    shm->memory_mb = plan->memory_mb;
    shm->cpu_s = plan->cpu_s;
    memcpy(shm->funcs, plan->funcs, sizeof plan->funcs);
    shm->npool = plan->npool;
    memcpy(shm->pool, plan->pool, sizeof plan->pool);
    shm->nstrings = plan->nstrings;
    memcpy(shm->strings, plan->strings, plan->nstrings);
    shm->npreds = plan->npreds;
    shm->state_flags = plan->state_flags;
    memcpy(shm->preds, plan->preds, sizeof plan->preds);
    shm->invariant = plan->invariant;
    shm->nfills = plan->nfills;
    memcpy(shm->fills, plan->fills, sizeof plan->fills);
    memcpy(&shm->gen, &plan->gen, sizeof plan->gen);
    snprintf(shm->scratch, sizeof shm->scratch, "%s", pool->scratch);
    shm->ncov = plan->ncov;
    munmap(shm, sizeof(bcw_shm));
    int seals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL;
    if (fcntl(pool->plan_fd, F_ADD_SEALS, seals | F_SEAL_FUTURE_WRITE) < 0)
        fcntl(pool->plan_fd, F_ADD_SEALS, seals);
    return 0;
}

int bcw__pool_new(bcw_pool **out, const char *path, const bcw_plan *plan,
                  unsigned jobs, unsigned timeout_ms, unsigned sanitize)
{
    *out = NULL;
    /* a worker that dies makes writes to its pipe fail with EPIPE; the
     * signal would end bcwalk instead */
    signal(SIGPIPE, SIG_IGN);
    bcw_pool *pool = bcw__calloc(1, sizeof *pool);
    if (pool == NULL)
        return BCW_ENOMEM;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    pool->n = jobs ? jobs : cores > 0 ? (unsigned)cores : 1;
    pool->plan_fd = -1;
    pool->ncov = plan->ncov;
    pool->timeout_ms = timeout_ms ? timeout_ms : 1000;
    pool->path = bcw__strdup(path);
    pool->w = bcw__calloc(pool->n, sizeof *pool->w);
    if (pool->path == NULL || pool->w == NULL ||
        worker_env(pool, sanitize) < 0) {
        bcw__pool_free(pool);
        return BCW_ENOMEM;
    }
    int err = make_scratch(pool);
    if (err < 0) {
        bcw__pool_free(pool);
        return err;
    }
    if ((err = write_plan(pool, plan)) < 0) {
        bcw__pool_free(pool);
        return err;
    }
    for (unsigned i = 0; i < pool->n; i++) {
        worker *w = &pool->w[i];
        w->pid = w->server = -1;
        w->batch_fd = w->cmd_fd = w->status_fd = w->srv_cmd_fd =
            w->srv_status_fd = -1;
        w->batch = MAP_FAILED;
    }
    for (unsigned i = 0; i < pool->n; i++) {
        worker *w = &pool->w[i];
        w->redo = bcw__calloc(BCW_MAX_BATCH, sizeof *w->redo);
        w->batch_fd = memfd_create("bcwalk-batch", MFD_CLOEXEC);
        if (w->redo == NULL || w->batch_fd < 0 ||
            ftruncate(w->batch_fd, batch_size(pool)) < 0 ||
            (w->batch = mmap(NULL, batch_size(pool), PROT_READ | PROT_WRITE,
                             MAP_SHARED, w->batch_fd, 0)) == MAP_FAILED) {
            err = w->redo == NULL ? BCW_ENOMEM
                                  : bcw__error(BCW_ERROR, "shared memory: %s",
                                               strerror(errno));
            bcw__pool_free(pool);
            return err;
        }
    }
    *out = pool;
    return 0;
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
static int send_run(bcw_pool *pool, worker *w, uint32_t first, uint32_t end,
                    bool alone)
{
    if (w->state == W_DOWN) {
        int err = start(pool, w);
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
        uint32_t n = (uint32_t)(q[0] & BCW_SEQ_LEN_MASK) + 2;
        BCW_ASSERT(words + n <= BCW_MAX_SEQ_WORDS);
        memcpy(&b->seqs[words], q, n * sizeof *q);
        b->off[i] = words;
        words += n;
        calls += n;
    }
    w->first = first;
    w->end = end;
    w->alone = alone;
    w->nonce = ++pool->runs * 0x9e3779b97f4a7c15u;
    b->nonce = b->tail = w->nonce;
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
    if (write32(w->cmd_fd, BCW_CMD_RUN) < 0) {
        reap(w, true);
        return bcw__error(BCW_ERROR, "worker %s stopped taking commands",
                          pool->path);
    }
    w->state = W_BUSY;
    return 0;
}

/* Starts job on the idle or down worker w. */
static int send_job(bcw_pool *pool, worker *w, bcw_job *job)
{
    int err = bcw__job_prepare(job);
    if (err < 0)
        return err;
    w->job = job;
    w->nredo = w->redone = 0;
    w->resume = job->nseq;
    return send_run(pool, w, 0, job->nseq, false);
}

/* What is left of w's job once a run ended: the sequences to run again
 * alone, then the rest; or nothing, and w is no longer busy. */
static int next_run(bcw_pool *pool, worker *w)
{
    if (w->redone < w->nredo) {
        uint32_t i = w->redo[w->redone++];
        return send_run(pool, w, i, i + 1, true);
    }
    w->nredo = w->redone = 0;
    if (w->resume < w->job->nseq)
        return send_run(pool, w, w->resume, w->job->nseq, false);
    if (pool->finished != NULL)
        pool->finished[w->job - pool->jobs] = true;
    w->job = NULL;
    if (w->state == W_BUSY)
        w->state = W_IDLE;
    return 0;
}

/* Is r (with its cause c) what w's worker wrote for sequence i: its
 * check word for this run right, every field the parent reads in
 * range? */
static bool result_ok(const worker *w, uint32_t i, const bcw_wire_result *r,
                      const bcw_wire_cause *c)
{
    bool caused = r->flags & (BCW_RESULT_CAUSE | BCW_RESULT_LEAK);
    return r->check == bcw_wire_check(r, c, i, w->nonce) &&
           r->outcome <= BCW_RUN_FAILURE && r->ntext <= BCW_TEXT_MAX &&
           r->text_of <= BCW_MAX_PARAMS &&
           r->halted_at <= len_of(w->job, i) + 2 &&
           (!caused ||
            (c->kind <= BCW_CAUSE_LAST && c->access <= BCW_ACCESS_WRITE &&
             c->where <= BCW_WHERE_STACK));
}

/* Sequence i's result and cause in w's batch, copied out once and
 * checked.  false: written over. */
static bool read_result(const worker *w, uint32_t i, bcw_wire_result *r,
                        bcw_wire_cause *c)
{
    *r = w->batch->results[i];
    if (r->flags & (BCW_RESULT_CAUSE | BCW_RESULT_LEAK))
        *c = w->batch->causes[i];
    return result_ok(w, i, r, c);
}

/* r and c into the job as sequence i's. */
static void store_result(worker *w, uint32_t i, const bcw_wire_result *r,
                         const bcw_wire_cause *c)
{
    w->job->results[i] = *r;
    if (r->flags & BCW_RESULT_CAUSE)
        w->job->causes[i] = *c;
}

/* The rest of a BCW_MSG_LAST whose first word was read: written in one
 * piece, it is all in the pipe. */
static void read_last(worker *w)
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
static bool take_result(worker *w, uint32_t i)
{
    return read_result(w, i, &w->job->results[i], &w->job->causes[i]);
}

/* Sequence i's result as the parent words it: `outcome` and `signo` at
 * the call in flight, `call` (out of range: the last), with a cause of
 * `kind` (BCW_CAUSE_NONE: none) whose size is `size`. */
static void put_result(worker *w, uint32_t i, enum bcw_outcome outcome,
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

/* w answered DONE: its results, those that do not check to run again
 * alone; run alone, a result that does not check was written over by
 * the sequence itself after it ended (a thread or process it left). */
static int run_done(bcw_pool *pool, worker *w)
{
    bool spoiled = false;
    take_cov(pool, w, len_of(w->job, w->first));
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
    w->state = W_IDLE;
    /* a worker whose shared memory was written over is not used again */
    if (spoiled)
        reap(w, true);
    return next_run(pool, w);
}

/* Has the busy worker w hung, by the parent's clock at t?  (cur,
 * cur_call) must move within the time limit, and the run end by its
 * deadline.  A move counts when it stays in the run and the call in the
 * sequence, and the sequences it passed have results that check: a
 * thread writing shared memory cannot fake one. */
static bool past_deadline(const bcw_pool *pool, worker *w, double t)
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
            real = read_result(w, i, &r, &c);
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
static int worker_died(bcw_pool *pool, worker *w, bool hung, bool kill_it)
{
    uint32_t first = w->first;
    uint32_t cur = __atomic_load_n(&w->batch->cur, __ATOMIC_ACQUIRE);
    uint32_t call = w->batch->cur_call;
    uint32_t msg;
    if (!w->has_last && read32(w->status_fd, &msg, 0) == 1 &&
        msg == BCW_MSG_LAST)
        read_last(w);
    const bcw_wire_last *last = &w->last;
    bool said = w->has_last && last->seq >= first && last->seq < w->end &&
                result_ok(w, last->seq, &last->result, &last->cause);
    if (said)
        cur = last->seq;
    /* a value outside the run was written by the code under test */
    bool known = said || (cur >= first && cur < w->end);
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
    int status = reap(w, kill_it);
    pool->restarts++;
    take_cov(pool, w, len_of(w->job, first));
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
    if (said) {
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
    size_t next = 0;
    unsigned busy = 0;
    int err = 0;
    pool->jobs = jobs;
    pool->handed = 0;
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
        for (unsigned i = 0; i < pool->n && next < njobs && err == 0; i++) {
            worker *w = &pool->w[i];
            if (w->state == W_BUSY)
                continue;
            if ((err = send_job(pool, w, &jobs[next])) == 0) {
                next++;
                busy++;
            }
        }
        if (err < 0 || busy == 0)
            break;
        /* the next job is made ready, and the finished ones handed over,
         * while the workers run */
        if (next < njobs && (err = bcw__job_prepare(&jobs[next])) < 0)
            break;
        if ((err = hand_over(pool, njobs, done, ctx)) < 0)
            break;
        /* each busy worker's replies, and its server's word that it
         * ended */
        struct pollfd pfd[2 * pool->n];
        unsigned idx[pool->n], np = 0;
        for (unsigned i = 0; i < pool->n; i++) {
            if (pool->w[i].state != W_BUSY)
                continue;
            pfd[2 * np] =
                (struct pollfd){.fd = pool->w[i].status_fd, .events = POLLIN};
            pfd[2 * np + 1] = (struct pollfd){.fd = pool->w[i].srv_status_fd,
                                              .events = POLLIN};
            idx[np++] = i;
        }
        int r;
        while ((r = poll(pfd, 2 * np, TICK_MS)) < 0 && errno == EINTR)
            ;
        double t = now_ms();
        for (unsigned k = 0; k < np && err == 0; k++) {
            worker *w = &pool->w[idx[k]];
            if (pfd[2 * k].revents != 0) {
                uint32_t msg = 0;
                int got = read32(w->status_fd, &msg, 0);
                if (got == 1 && msg == BCW_MSG_DONE) {
                    err = run_done(pool, w);
                } else {
                    /* its last words, or anything else: a worker gone
                     * wrong, its sequence in flight crashed */
                    if (got == 1 && msg == BCW_MSG_LAST)
                        read_last(w);
                    err = worker_died(pool, w, w->hang_sent > 0, true);
                }
            } else if (pfd[2 * k + 1].revents != 0) {
                err = worker_died(pool, w, w->hang_sent > 0, false);
            } else if (w->hang_sent > 0) {
                /* told of its hang: it records it, or is killed */
                if (t - w->hang_sent <= BCW_HANG_GRACE_MS)
                    continue;
                err = worker_died(pool, w, true, true);
            } else if (past_deadline(pool, w, t)) {
                /* the main thread, which runs the sequence */
                syscall(SYS_tgkill, w->pid, w->pid, BCW_HANG_SIGNAL);
                w->hang_sent = t;
                continue;
            } else {
                continue;
            }
            if (err == 0 && w->state != W_BUSY)
                busy--;
        }
        if (err < 0)
            break;
    }
    if (err == 0)
        err = hand_over(pool, njobs, done, ctx);
    pool->finished = finished;
    pool->jobs = NULL;
    return err;
}

uint64_t bcw__pool_restarts(const bcw_pool *pool)
{
    return pool->restarts;
}

void bcw__pool_free(bcw_pool *pool)
{
    if (pool == NULL)
        return;
    for (unsigned i = 0; pool->w != NULL && i < pool->n; i++) {
        worker *w = &pool->w[i];
        if (w->state != W_DOWN) {
            write32(w->cmd_fd, BCW_CMD_QUIT);
            reap(w, w->state == W_BUSY);
        }
        server_down(w, false);
        if (w->batch != MAP_FAILED && w->batch != NULL)
            munmap(w->batch, batch_size(pool));
        if (w->batch_fd >= 0)
            close(w->batch_fd);
        free(w->redo);
    }
    if (pool->plan_fd >= 0)
        close(pool->plan_fd);
    free(pool->w);
    free(pool->finished);
    free(pool->path);
    if (pool->scratch != NULL)
        nftw(pool->scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    free(pool->scratch);
    if (pool->env != environ)
        free(pool->env);
    free(pool);
}
