/* trace_exec.c - the traced program run (trace_exec.h): a process per
 * run, its records into a file, its time and memory limited; after a
 * halt, again from the next test. */
#define _GNU_SOURCE
#include "trace_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "file.h"
#include "trace_read.h"

#define MAX_RUNS 100000 /* restarts after halts, at most */
#define TRACE_LIMIT ((size_t)1 << 30)

static const char *const env_names[] = {"BCW_TRACE_FD", "BCW_TRACE_FROM",
                                        "BCW_TRACE_LIMIT", "BCW_TRACE_ALARM",
                                        "BCW_TRACE_PER_SITE"};

/* Runs the program once, from test run `from` on, its records into
 * `file`; *status is its wait status.  0, or BCW_ERROR. */
static int run_once(const char *prog, const char *file, unsigned from,
                    const bcw_trace_opts *o, unsigned ntests, int *status)
{
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return bcw__error(BCW_ERROR, "cannot create %s: %s", file,
                          strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fd);
        return bcw__error(BCW_ERROR, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        setpgid(0, 0);
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (fd == 3)
            fcntl(fd, F_SETFD, 0); /* kept across exec */
        else
            dup2(fd, 3);
        char v[5][24];
        snprintf(v[0], sizeof v[0], "3");
        snprintf(v[1], sizeof v[1], "%u", from);
        snprintf(v[2], sizeof v[2], "%u", o->limit);
        snprintf(v[3], sizeof v[3], "%u", o->time_s);
        snprintf(v[4], sizeof v[4], "%u", o->per_site);
        for (int i = 0; i < 5; i++)
            setenv(env_names[i], v[i], 1);
        if (o->memory_mb > 0) {
            struct rlimit rl;
            rl.rlim_cur = rl.rlim_max = (rlim_t)o->memory_mb << 20;
            setrlimit(RLIMIT_AS, &rl);
        }
        execl(prog, prog, (char *)NULL);
        _exit(127);
    }
    close(fd);
    /* the runtime's alarm ends a test over its time; this ends a
     * program that blocks it */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double limit = (double)o->time_s * (ntests + 2) + 5;
    for (;;) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return bcw__error(BCW_ERROR, "waitpid: %s", strerror(errno));
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - t0.tv_sec) +
                (double)(now.tv_nsec - t0.tv_nsec) / 1e9 >
            limit)
            kill(-pid, SIGKILL), kill(pid, SIGKILL);
        struct timespec nap = {0, 5000000};
        nanosleep(&nap, NULL);
    }
    kill(-pid, SIGKILL); /* what the tests started */
    return 0;
}

int bcw__trace_exec(bcw_trace *t, const char *prog, const char *dir,
                    const bcw_trace_opts *o)
{
    char *file = bcw__sprintf("%s/records", dir);
    if (file == NULL)
        return BCW_ENOMEM;
    bcw_trace_parse ps = {.t = t, .cur = -1, .outside = -1};
    unsigned from = 0;
    int err = 0;
    for (t->runs = 0; err == 0 && t->runs < MAX_RUNS;) {
        int status = 0;
        if ((err = run_once(prog, file, from, o, t->nfound, &status)) < 0)
            break;
        t->runs++;
        char *data = NULL;
        size_t len = 0;
        if ((err = bcw__read_file(&data, &len, file, TRACE_LIMIT)) < 0)
            break;
        ps.cur = -1;
        ps.halted = false;
        ps.last_run = ps.halted_run = UINT32_MAX;
        ps.nflight = 0;
        err = bcw__trace_read_run(&ps, (const unsigned char *)data, len,
                                  o->limit);
        free(data);
        if (err < 0)
            break;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && t->runs == 1) {
            err = bcw__error(BCW_ERROR, "%s: could not be run", prog);
            break;
        }
        /* the program itself ended in a halt (not one of its children):
         * it runs again from the test after the one it halted in */
        uint32_t halted_in = UINT32_MAX;
        if (WIFEXITED(status) && WEXITSTATUS(status) == TR_EXIT_HALT &&
            ps.halted)
            halted_in = ps.halted_run;
        if (WIFEXITED(status) && WEXITSTATUS(status) == TR_EXIT_HALT &&
            !ps.halted && ps.cur >= 0) {
            /* its record of how was lost: the test halted all the same */
            bcw_trace_test *x = &t->tests[ps.cur];
            x->end = BCW_TRACE_HALTED;
            x->halt = TR_HALT_UNKNOWN;
            if (x->made < x->ncalls)
                x->made = x->ncalls;
            halted_in = ps.last_run;
        }
        if (WIFSIGNALED(status) && ps.cur >= 0) {
            /* a death the tracer did not see: the limit's SIGKILL, the
             * kernel's out-of-memory killer */
            int ti = bcw__trace_read_target(&ps);
            if (ti < 0) {
                err = ti;
                break;
            }
            t->tests[ti].end = BCW_TRACE_KILLED;
            t->tests[ti].made = t->tests[ti].ncalls; /* at least */
            t->tests[ti].code = WTERMSIG(status);
            halted_in = ps.last_run;
        } else if (WIFSIGNALED(status)) {
            /* killed outside any test */
            int ti = bcw__trace_read_target(&ps);
            if (ti < 0) {
                err = ti;
                break;
            }
            t->tests[ti].end = BCW_TRACE_KILLED;
            t->tests[ti].code = WTERMSIG(status);
        }
        t->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        /* a halt outside a test ends the program for good */
        if (halted_in == UINT32_MAX)
            break;
        from = halted_in + 1;
    }
    free(file);
    return err;
}
