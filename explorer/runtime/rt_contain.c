/* rt_contain.c - what the code under test may not do to the worker
 * (rt_contain.h).  bcwalk renames these libc functions in the unit's
 * bitcode to the bcw_rt_ ones below:
 *   - replacing the process (exec*, system) halts the sequence instead,
 *     with its cause (ending it, _exit and kin, is rt_halt.c's exit);
 *   - fork makes a child that runs the unit's code but never returns
 *     into the runtime (it exits when the call would return, and is
 *     killed with its own children when the sequence ends); kill only
 *     reaches the worker, its group and those children, never bcwalk;
 *   - close, dup2 and dup3 cannot touch bcwalk's descriptors, and the
 *     worker is replaced after a sequence that closed or replaced a
 *     standard one;
 *   - changing the process's state (signal dispositions and masks,
 *     timers, resource limits, threads, the working directory, umask,
 *     the environment) is done, and the worker is replaced after the
 *     sequence, so the next one starts from a clean process.  The
 *     handlers of the fatal signals the runtime records stay bcwalk's.
 */
#define _GNU_SOURCE
#include "rt_contain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"
#include "rt_halt.h"

int bcw_rt_tainted;

/* Children the code under test forked in this sequence: killed, with
 * their process groups, when it ends. */
#define MAX_CHILDREN 64
static pid_t children[MAX_CHILDREN];
static unsigned nchildren;

static uint64_t site(void *ret)
{
    return (uint64_t)(uintptr_t)ret - 1;
}

int bcw_rt_exec(const char *path)
{
    bcw_wire_cause *c = bcw_rt_cause(BCW_CAUSE_EXEC);
    c->pc = site(__builtin_return_address(0));
    if (path != NULL) {
        strncpy(c->text, path, sizeof c->text - 1);
        c->text[sizeof c->text - 1] = '\0';
    }
    bcw_rt_halt(BCW_RUN_ABORT, 0);
}

pid_t bcw_rt_fork(void)
{
    pid_t worker = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        bcw_rt_in_child = 1;
        /* its own group, which the worker kills; dies with the worker,
         * which may be gone already (its next call ended it) */
        setpgid(0, 0);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != worker)
            _exit(0);
        return 0;
    }
    if (pid > 0) {
        setpgid(pid, pid);
        if (nchildren < MAX_CHILDREN)
            children[nchildren++] = pid;
        else
            bcw_rt_tainted = 1; /* too many to track: start afresh */
    }
    return pid;
}

void bcw_rt_contain_end(void)
{
    for (unsigned i = 0; i < nchildren; i++) {
        kill(-children[i], SIGKILL);
        kill(children[i], SIGKILL);
        while (waitpid(children[i], NULL, 0) < 0 && errno == EINTR)
            ;
    }
    nchildren = 0;
}

/* SIGKILL to every child of the process, as /proc lists each thread's
 * (a child forked by the raw system call, or one orphaned below it
 * and given to this subreaper). */
static void kill_children(void)
{
    DIR *tasks = opendir("/proc/self/task");
    for (struct dirent *t; tasks != NULL && (t = readdir(tasks)) != NULL;) {
        if (t->d_name[0] == '.')
            continue;
        char path[64], buf[4096];
        snprintf(path, sizeof path, "/proc/self/task/%.16s/children",
                 t->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        if (fd >= 0)
            close(fd);
        buf[n > 0 ? n : 0] = '\0';
        for (char *p = buf, *end; *p != '\0'; p = end) {
            long pid = strtol(p, &end, 10);
            if (end == p)
                break;
            if (pid > 0)
                kill((pid_t)pid, SIGKILL);
        }
    }
    if (tasks != NULL)
        closedir(tasks);
}

void bcw_rt_reap_strays(void)
{
    /* none: one system call, the common case */
    for (unsigned round = 0; round < 4096; round++) {
        siginfo_t si;
        si.si_pid = 0;
        if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG) < 0) {
            if (errno == EINTR)
                continue;
            return; /* ECHILD: no child left */
        }
        if (si.si_pid != 0)
            continue; /* one reaped */
        kill_children();
        /* until one of them ends (a SIGKILL is not refused) */
        while (waitid(P_ALL, 0, &si, WEXITED) < 0 && errno == EINTR)
            ;
    }
}

/* bcwalk's descriptors (proto.h's BCW_FD_*): the code under test cannot
 * close them or put others in their place. */
static int ours(int fd)
{
    return fd == BCW_FD_SHM || fd == BCW_FD_CMD || fd == BCW_FD_STATUS;
}

/* The standard descriptors closed or replaced change the process for
 * the sequences after: the next file opened would take their place, and
 * what prints would go there.  The worker is replaced after this one. */
static void standard(int fd)
{
    if (fd >= 0 && fd <= 2)
        bcw_rt_tainted = 1;
}

int bcw_rt_close(int fd)
{
    if (ours(fd)) {
        errno = EBADF;
        return -1;
    }
    standard(fd);
    return close(fd);
}

int bcw_rt_dup2(int fd, int to)
{
    if (ours(to)) {
        errno = EBADF;
        return -1;
    }
    standard(to);
    return dup2(fd, to);
}

int bcw_rt_dup3(int fd, int to, int flags)
{
    if (ours(to)) {
        errno = EBADF;
        return -1;
    }
    standard(to);
    return dup3(fd, to, flags);
}

int bcw_rt_kill(pid_t pid, int signo)
{
    /* the worker itself, its process group (its own, made when the fork
     * server forked it) and the children it forked; never the server or
     * bcwalk */
    pid_t self = getpid();
    int allowed = pid == self || pid == 0 || pid == -self;
    for (unsigned i = 0; i < nchildren && !allowed; i++)
        allowed = pid == children[i] || pid == -children[i];
    if (!allowed) {
        errno = EPERM;
        return -1;
    }
    return kill(pid, signo);
}

/* The fatal signals the runtime records and the parent's word of a hang
 * (rt_halt.c): their handlers stay bcwalk's, whatever the code under
 * test asks. */
static int runtime_signal(int signo)
{
    return signo == SIGSEGV || signo == SIGBUS || signo == SIGFPE ||
           signo == SIGILL || signo == SIGTRAP || signo == SIGABRT ||
           signo == SIGSYS || signo == BCW_HANG_SIGNAL;
}

bcw_rt_sighandler bcw_rt_signal(int signo, bcw_rt_sighandler handler)
{
    if (runtime_signal(signo))
        return SIG_DFL;
    bcw_rt_tainted = 1;
    return signal(signo, handler);
}

int bcw_rt_sigaction(int signo, const struct sigaction *act,
                     struct sigaction *old)
{
    if (runtime_signal(signo) && act != NULL) {
        if (old != NULL) {
            memset(old, 0, sizeof *old);
            old->sa_handler = SIG_DFL;
        }
        return 0;
    }
    bcw_rt_tainted |= act != NULL;
    return sigaction(signo, act, old);
}

int bcw_rt_sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    bcw_rt_tainted |= set != NULL;
    return sigprocmask(how, set, old);
}

int bcw_rt_pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    bcw_rt_tainted |= set != NULL;
    return pthread_sigmask(how, set, old);
}

unsigned bcw_rt_alarm(unsigned seconds)
{
    bcw_rt_tainted = 1;
    return alarm(seconds);
}

int bcw_rt_setitimer(int which, const struct itimerval *value,
                     struct itimerval *old)
{
    bcw_rt_tainted = 1;
    return setitimer(which, value, old);
}

int bcw_rt_timer_create(clockid_t clock, struct sigevent *ev, timer_t *t)
{
    bcw_rt_tainted = 1;
    return timer_create(clock, ev, t);
}

int bcw_rt_setrlimit(int resource, const struct rlimit *limit)
{
    bcw_rt_tainted = 1;
    return setrlimit(resource, limit);
}

int bcw_rt_prlimit(pid_t pid, int resource, const struct rlimit *limit,
                   struct rlimit *old)
{
    bcw_rt_tainted |= limit != NULL;
    return prlimit(pid, resource, limit, old);
}

int bcw_rt_pthread_create(pthread_t *t, const pthread_attr_t *attr,
                          void *(*fn)(void *), void *arg)
{
    bcw_rt_tainted = 1;
    return pthread_create(t, attr, fn, arg);
}

int bcw_rt_chdir(const char *path)
{
    bcw_rt_tainted = 1;
    return chdir(path);
}

int bcw_rt_fchdir(int fd)
{
    bcw_rt_tainted = 1;
    return fchdir(fd);
}

mode_t bcw_rt_umask(mode_t mask)
{
    bcw_rt_tainted = 1;
    return umask(mask);
}

int bcw_rt_setenv(const char *name, const char *value, int overwrite)
{
    bcw_rt_tainted = 1;
    return setenv(name, value, overwrite);
}

int bcw_rt_unsetenv(const char *name)
{
    bcw_rt_tainted = 1;
    return unsetenv(name);
}

int bcw_rt_putenv(char *string)
{
    bcw_rt_tainted = 1;
    return putenv(string);
}
