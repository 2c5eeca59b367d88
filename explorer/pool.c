/* pool.c - the parent side of the worker protocol (core/wire/proto.h):
 * start a fork server per job slot, have it fork workers, hand them
 * batches, notice crashes and hangs by the parent's own clock, replace
 * dead workers and resume after the sequence that killed them. */
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "bcwalk/explore.h"

extern char **environ;

#define HELLO_TIMEOUT_MS 10000
#define TICK_MS 20

/* A worker's life, as the parent sees it. */
enum worker_state { W_DOWN, W_IDLE, W_BUSY };

typedef struct worker {
    enum worker_state state;
    pid_t pid;    /* the worker, forked by the server */
    pid_t server; /* its fork server, -1 when down */
    int shm_fd, cmd_fd, status_fd, srv_cmd_fd, srv_status_fd;
    bcw_shm *shm;
    bcw_job *job;     /* the job in flight when busy */
    uint32_t first;   /* its first sequence this worker runs: the
                         parent's own, shared memory is not trusted */
    uint64_t last_at; /* (cur, cur_call) seen at last_progress */
    double last_progress;
    double deadline; /* the batch's, by the parent's clock */
} worker;

struct bcw_pool {
    char *path;
    char *scratch; /* the workers' scratch folder, removed at the end */
    char **env;    /* the workers' environment: bcwalk's, or a copy with
                      AddressSanitizer's options */
    unsigned n;
    unsigned timeout_ms;
    uint64_t restarts;
    worker *w;
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
    posix_spawn_file_actions_adddup2(&fa, w->shm_fd, BCW_FD_SHM);
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
    int rc = posix_spawn(&w->server, pool->path, &fa, &attr, argv, pool->env);
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
                              w->shm->cur < BCW_MAX_BATCH
                                  ? w->shm->results[w->shm->cur].signo
                                  : 0);
        return bcw__error(BCW_ERROR,
                          "worker %s did not start (hello 0x%08x, expected "
                          "0x%08x; exit status %d): rebuild it by removing "
                          "the cache folder",
                          pool->path, hello, BCW_MSG_HELLO | BCW_PROTO_VERSION,
                          code);
    }
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
    const char *tmp = getenv("TMPDIR");
    char *dir = bcw__sprintf("%s/bcwalk-scratch.XXXXXX",
                             tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
    if (dir == NULL)
        return BCW_ENOMEM;
    bool too_long = strlen(dir) >= sizeof pool->w->shm->scratch;
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
    pool->n = jobs ? jobs : 1;
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
    for (unsigned i = 0; i < pool->n; i++) {
        worker *w = &pool->w[i];
        w->pid = w->server = -1;
        w->cmd_fd = w->status_fd = w->srv_cmd_fd = w->srv_status_fd = -1;
        w->shm = MAP_FAILED;
        w->shm_fd = memfd_create("bcwalk-shm", MFD_CLOEXEC);
        if (w->shm_fd < 0 || ftruncate(w->shm_fd, sizeof(bcw_shm)) < 0 ||
            (w->shm = mmap(NULL, sizeof(bcw_shm), PROT_READ | PROT_WRITE,
                           MAP_SHARED, w->shm_fd, 0)) == MAP_FAILED) {
            err = bcw__error(BCW_ERROR, "shared memory: %s", strerror(errno));
            bcw__pool_free(pool);
            return err;
        }
        w->shm->magic = BCW_SHM_MAGIC;
        w->shm->version = BCW_PROTO_VERSION;
        w->shm->nfuncs = plan->nfuncs;
        w->shm->unit_size = plan->unit_size;
        w->shm->ndestructors = plan->ndestructors;
        memcpy(w->shm->destructors, plan->destructors,
               sizeof plan->destructors);
        w->shm->use_ffi = plan->use_ffi;
        w->shm->memory_mb = plan->memory_mb;
        memcpy(w->shm->funcs, plan->funcs, sizeof plan->funcs);
        w->shm->npool = plan->npool;
        memcpy(w->shm->pool, plan->pool, sizeof plan->pool);
        w->shm->nstrings = plan->nstrings;
        memcpy(w->shm->strings, plan->strings, plan->nstrings);
        w->shm->npreds = plan->npreds;
        w->shm->state_flags = plan->state_flags;
        memcpy(w->shm->preds, plan->preds, sizeof plan->preds);
        w->shm->nfills = plan->nfills;
        memcpy(w->shm->fills, plan->fills, sizeof plan->fills);
        memcpy(&w->shm->gen, &plan->gen, sizeof plan->gen);
        snprintf(w->shm->scratch, sizeof w->shm->scratch, "%s", pool->scratch);
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

static int send_job(bcw_pool *pool, worker *w, bcw_job *job, uint32_t first)
{
    int perr = bcw__job_prepare(job);
    if (perr < 0)
        return perr;
    if (w->state == W_DOWN) {
        int err = start(pool, w);
        if (err < 0)
            return err;
    }
    bcw_shm *s = w->shm;
    if (first == 0) {
        uint32_t words = 0;
        for (uint32_t i = 0; i < job->nseq; i++) {
            const uint16_t *q = &job->words[job->off[i]];
            uint32_t n = (uint32_t)(q[0] & BCW_SEQ_LEN_MASK) + 2;
            BCW_ASSERT(words + n <= BCW_MAX_SEQ_WORDS);
            memcpy(&s->seqs[words], q, n * sizeof *q);
            s->off[i] = words;
            words += n;
        }
    }
    s->nseq = job->nseq;
    s->first = first;
    s->cur = first;
    s->cur_call = 0;
    w->job = job;
    w->first = first;
    w->last_at = (uint64_t)first << 32;
    w->last_progress = now_ms();
    /* the batch's deadline: four times the limit for each call its
     * sequences make, so a worker whose progress is forged (shared
     * memory written by the code under test) still ends */
    double calls = 0;
    for (uint32_t i = first; i < job->nseq; i++)
        calls += (job->words[job->off[i]] & BCW_SEQ_LEN_MASK) + 2;
    w->deadline = w->last_progress + 4.0 * pool->timeout_ms * calls;
    if (write32(w->cmd_fd, BCW_CMD_RUN) < 0) {
        reap(w, true);
        return bcw__error(BCW_ERROR, "worker %s stopped taking commands",
                          pool->path);
    }
    w->state = W_BUSY;
    return 0;
}

static void collect(worker *w, uint32_t first, uint32_t end)
{
    memcpy(&w->job->results[first], &w->shm->results[first],
           (end - first) * sizeof(bcw_wire_result));
    for (uint32_t i = first; i < end; i++)
        if (w->job->results[i].flags & BCW_RESULT_CAUSE)
            w->job->causes[i] = w->shm->causes[i];
}

/* Has the busy worker w hung, by the parent's clock at t?  (cur,
 * cur_call), checked against the batch, must move within the time
 * limit, and the batch end by its deadline. */
static bool past_deadline(const bcw_pool *pool, worker *w, double t)
{
    uint32_t cur = w->shm->cur, call = w->shm->cur_call;
    uint64_t at = (uint64_t)cur << 32 | call;
    if (cur >= w->first && cur < w->job->nseq && at > w->last_at) {
        w->last_at = at;
        w->last_progress = t;
    }
    return t - w->last_progress > pool->timeout_ms || t > w->deadline;
}

/* The worker died during a job, or is to be killed (`kill_it`: hung, or
 * it said something out of protocol): classify how (one place for it),
 * keep what it finished, and resume the job on a fresh worker. */
static int worker_died(bcw_pool *pool, worker *w, bool hung, bool kill_it)
{
    /* the sequence in flight, as the worker says: a value outside the
     * batch (code under test scribbling on shared memory) is taken as
     * the batch's first */
    uint32_t first = w->first;
    uint32_t cur = w->shm->cur;
    if (cur < first || cur >= w->job->nseq)
        cur = first;
    int status = reap(w, kill_it);
    bcw_wire_result *r = &w->shm->results[cur];
    int code = !hung && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    /* the worker recorded a fatal signal itself, or finished a sequence
     * that left the process changed */
    bool said = code == BCW_EXIT_FAULT || code == BCW_EXIT_RESTART;
    if (!said) {
        r->halted_at = (uint16_t)w->shm->cur_call;
        r->calls = w->shm->cur_call + 1;
        r->flags &= ~BCW_RESULT_CAUSE; /* nothing the worker could say */
    }
    if (hung) {
        /* no progress within the time limit: the worker was killed */
        r->outcome = BCW_RUN_HANG;
        r->signo = SIGKILL;
    } else if (!said && WIFSIGNALED(status)) {
        /* killed from outside (the OOM killer, a stray signal) */
        r->outcome = BCW_RUN_CRASH;
        r->signo = (uint8_t)WTERMSIG(status);
    } else if (!said) {
        /* the code under test ended the worker some way bcwalk does not
         * intercept (closing its descriptors, a raw exit system call) */
        r->outcome = BCW_RUN_ABORT;
        r->signo = 0;
        r->flags |= BCW_RESULT_CAUSE;
        memset(&w->shm->causes[cur], 0, sizeof w->shm->causes[cur]);
        w->shm->causes[cur].kind = BCW_CAUSE_DIED;
        w->shm->causes[cur].size = (uint32_t)code;
    }
    pool->restarts++;
    collect(w, first, cur + 1);
    bcw_job *job = w->job;
    w->job = NULL;
    if (cur + 1 >= job->nseq)
        return 0;
    return send_job(pool, w, job, cur + 1);
}

int bcw__pool_run(bcw_pool *pool, bcw_job *jobs, size_t njobs)
{
    size_t next = 0;
    unsigned busy = 0;
    int err = 0;
    for (;;) {
        for (unsigned i = 0; i < pool->n && next < njobs && err == 0; i++) {
            worker *w = &pool->w[i];
            if (w->state == W_BUSY)
                continue;
            if ((err = send_job(pool, w, &jobs[next], 0)) == 0) {
                next++;
                busy++;
            }
        }
        if (err < 0 || busy == 0)
            break;
        /* the next job is made ready while the workers run */
        if (next < njobs && (err = bcw__job_prepare(&jobs[next])) < 0)
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
                    collect(w, w->first, w->job->nseq);
                    w->state = W_IDLE;
                    w->job = NULL;
                    busy--;
                    continue;
                }
                /* anything but DONE is a worker gone wrong: its
                 * sequence in flight crashed, the walk goes on */
                err = worker_died(pool, w, false, true);
            } else if (pfd[2 * k + 1].revents != 0) {
                err = worker_died(pool, w, false, false);
            } else if (past_deadline(pool, w, t)) {
                err = worker_died(pool, w, true, true);
            } else {
                continue;
            }
            if (err == 0 && w->state != W_BUSY)
                busy--;
        }
        if (err < 0)
            break;
    }
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
        if (w->shm != MAP_FAILED && w->shm != NULL)
            munmap(w->shm, sizeof(bcw_shm));
        if (w->shm_fd >= 0)
            close(w->shm_fd);
    }
    free(pool->w);
    free(pool->path);
    if (pool->scratch != NULL)
        nftw(pool->scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    free(pool->scratch);
    if (pool->env != environ)
        free(pool->env);
    free(pool);
}
