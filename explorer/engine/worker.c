/* worker.c - the pool's workers started and stopped (worker.h): a fork
 * server per job slot, spawned with the sealed plan, the slot's batch
 * memory and its pipes on the protocol's descriptors
 * (core/wire/proto.h), each worker forked by it on command, killed and
 * reaped through it; a server that is gone is started again. */
#define _GNU_SOURCE
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "build.h"
#include "file.h"

extern char **environ;

#define HELLO_TIMEOUT_MS 10000

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

int bcw__worker_send(bcw_worker *w, uint32_t cmd)
{
    return write32(w->cmd_fd, cmd);
}

int bcw__worker_recv(bcw_worker *w, uint32_t *msg)
{
    return read32(w->status_fd, msg, 0);
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
static int server_down(bcw_worker *w, bool kill_it)
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
    w->state = BCW_WORKER_DOWN;
    return status;
}

int bcw__worker_reap(bcw_worker *w, bool kill_it)
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
    w->state = BCW_WORKER_DOWN;
    return status;
}

/* A worker's batch memory: the batch, then the coverage bytes. */
static size_t batch_size(const bcw_pool *pool)
{
    return sizeof(bcw_batch) + pool->ncov;
}

void bcw__worker_cov(bcw_pool *pool, bcw_worker *w, unsigned len)
{
    if (pool->hits != NULL)
        bcw__cov_take(pool->hits, bcw_batch_cov(w->batch), pool->ncov, len);
}

/* Waits for the HELLO of w's fork server, just spawned: without it the
 * server is taken down, and the library's setup function blamed when it
 * is what ended it. */
static int await_hello(bcw_pool *pool, bcw_worker *w)
{
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
                              w->batch->results[0][0].signo);
        if (code == BCW_EXIT_SETUP)
            return bcw__error(BCW_ERROR,
                              "worker %s refused its plan (exit status %d): "
                              "the unit passes a limit of the worker that "
                              "bcwalk did not check first; please report it",
                              pool->path, code);
        return bcw__error(BCW_ERROR,
                          "worker %s did not start (hello 0x%08x, expected "
                          "0x%08x; exit status %d): rebuild it by removing "
                          "the cache folder",
                          pool->path, hello, BCW_MSG_HELLO | BCW_PROTO_VERSION,
                          code);
    }
    /* what the library's setup function covered, before any sequence */
    bcw__worker_cov(pool, w, 0);
    return 0;
}

/* Starts the fork server of worker slot w and waits for its HELLO. */
static int spawn_server(bcw_pool *pool, bcw_worker *w)
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
    return await_hello(pool, w);
}

int bcw__worker_start(bcw_pool *pool, bcw_worker *w)
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
            w->state = BCW_WORKER_IDLE;
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
    memcpy(shm->dtor_forms, plan->dtor_forms, sizeof plan->dtor_forms);
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

/* Each slot's batch memory and redo list. */
static int open_slots(bcw_pool *pool)
{
    for (unsigned i = 0; i < pool->n; i++) {
        bcw_worker *w = &pool->w[i];
        w->redo = bcw__calloc(BCW_MAX_BATCH, sizeof *w->redo);
        w->batch_fd = memfd_create("bcwalk-batch", MFD_CLOEXEC);
        if (w->redo == NULL || w->batch_fd < 0 ||
            ftruncate(w->batch_fd, batch_size(pool)) < 0 ||
            (w->batch = mmap(NULL, batch_size(pool), PROT_READ | PROT_WRITE,
                             MAP_SHARED, w->batch_fd, 0)) == MAP_FAILED)
            return w->redo == NULL ? BCW_ENOMEM
                                   : bcw__error(BCW_ERROR, "shared memory: %s",
                                                strerror(errno));
    }
    return 0;
}

int bcw__workers_open(bcw_pool *pool, const char *path, const bcw_plan *plan,
                      unsigned jobs, unsigned sanitize)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    pool->n = jobs ? jobs : cores > 0 ? (unsigned)cores : 1;
    pool->plan_fd = -1;
    pool->ncov = plan->ncov;
    pool->path = bcw__strdup(path);
    pool->w = bcw__calloc(pool->n, sizeof *pool->w);
    /* no slot holds a descriptor yet, before anything can fail: a pool
     * that failed to open closes none of another's (fd 0 least of all) */
    for (unsigned i = 0; pool->w != NULL && i < pool->n; i++) {
        bcw_worker *w = &pool->w[i];
        w->pid = w->server = -1;
        w->batch_fd = w->cmd_fd = w->status_fd = w->srv_cmd_fd =
            w->srv_status_fd = -1;
        w->batch = MAP_FAILED;
    }
    if (pool->path == NULL || pool->w == NULL || worker_env(pool, sanitize) < 0)
        return BCW_ENOMEM;
    int err = make_scratch(pool);
    if (err == 0)
        err = write_plan(pool, plan);
    return err < 0 ? err : open_slots(pool);
}

void bcw__workers_close(bcw_pool *pool)
{
    for (unsigned i = 0; pool->w != NULL && i < pool->n; i++) {
        bcw_worker *w = &pool->w[i];
        if (w->state != BCW_WORKER_DOWN) {
            write32(w->cmd_fd, BCW_CMD_QUIT);
            bcw__worker_reap(w, w->state == BCW_WORKER_BUSY);
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
    free(pool->path);
    if (pool->scratch != NULL)
        bcw__remove_tree(pool->scratch);
    free(pool->scratch);
    if (pool->env != environ)
        free(pool->env);
}
