/* bench_sandbox.c - what confining the code under test costs
 * (explorer/runtime/rt_sandbox.c: Landlock, a network namespace of its
 * own and a seccomp filter, set up once by each fork server), against
 * doing without, against the seccomp filter alone (issue 30's part: no
 * unix socket, io_uring or ptrace; a filter every system call of the
 * code under test passes) and against bubblewrap, the other way
 * considered (a process started inside a sandbox per server):
 *
 *   start    fork a child that sets up the sandbox and exits, against a
 *            child that only exits: the cost per fork server start
 *   bwrap    posix_spawn of `bwrap ... /bin/true` (user and network
 *            namespace, the file system bound) against /bin/true, if
 *            bwrap is installed
 *   files    open, write and close a file in the scratch folder, in a
 *            sandboxed child and a plain one: what Landlock and the
 *            filter add to the code under test's file calls
 *   syscall  getppid, the cheapest system call: what the filter adds to
 *            every one
 *   forks    fork, exit and wait in a sandboxed child and a plain one:
 *            a worker restart, which the fork server pays per crash
 *
 * usage: bench_sandbox [ROUNDS]; prints a markdown table (best of 5
 * rounds, each an average) for benchmarks/README.md. */
#define _GNU_SOURCE

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_sandbox.h"

extern char **environ;

static char scratch[256];

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void wait_for(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ;
}

/* What a child is confined by. */
enum confine { NONE, FILTER, SANDBOX };

/* Confines the calling process: 0, or -1 when that does not hold. */
static int confine(enum confine how)
{
    if (how == FILTER)
        return bcw_rt_refuse_syscalls();
    if (how == SANDBOX)
        return bcw_rt_sandbox(scratch, sizeof scratch) == 0 ? -1 : 0;
    return 0;
}

/* Microseconds per fork of a child that confines itself `how` and
 * exits. */
static double start_us(int how, int n)
{
    double t = now_us();
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            confine((enum confine)how);
            _exit(0);
        }
        wait_for(pid);
    }
    return (now_us() - t) / n;
}

/* Microseconds per posix_spawn and wait of argv. */
static double spawn_us(char *const argv[], int n)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    double t = now_us();
    for (int i = 0; i < n; i++) {
        pid_t pid;
        if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0)
            return -1;
        int st;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return -1;
    }
    posix_spawn_file_actions_destroy(&fa);
    return (now_us() - t) / n;
}

/* In a child confined `how`, `work(n)`'s microseconds per round, sent
 * back through a pipe. */
static double in_child(int how, double (*work)(int), int n)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        if (confine((enum confine)how) != 0)
            _exit(1);
        double us = work(n);
        _exit(write(p[1], &us, sizeof us) == sizeof us ? 0 : 1);
    }
    close(p[1]);
    double us = -1;
    if (read(p[0], &us, sizeof us) != sizeof us)
        us = -1;
    close(p[0]);
    wait_for(pid);
    return us;
}

static double files(int n)
{
    double t = now_us();
    for (int i = 0; i < n; i++) {
        int fd = open("bench.tmp", O_CREAT | O_WRONLY | O_TRUNC, 0600);
        if (fd < 0 || write(fd, "sixteen bytes...", 16) != 16)
            return -1;
        close(fd);
    }
    unlink("bench.tmp");
    return (now_us() - t) / n;
}

static double syscalls(int n)
{
    double t = now_us();
    for (int i = 0; i < n; i++)
        if (getppid() <= 0)
            return -1;
    return (now_us() - t) / n;
}

static double forks(int n)
{
    return start_us(NONE, n);
}

static double best(double (*f)(int, int), int how, int n)
{
    double b = -1;
    for (int r = 0; r < 5; r++) {
        double us = f(how, n);
        if (us >= 0 && (b < 0 || us < b))
            b = us;
    }
    return b;
}

static double m_start(int how, int n)
{
    return start_us(how, n);
}

static double m_files(int how, int n)
{
    return in_child(how, files, n);
}

static double m_syscalls(int how, int n)
{
    return in_child(how, syscalls, n);
}

static double m_forks(int how, int n)
{
    return in_child(how, forks, n);
}

static double m_spawn(int bwrap, int n)
{
    char *plain[] = {"/bin/true", NULL};
    char *wrapped[] = {"/usr/bin/bwrap",
                       "--dev-bind",
                       "/",
                       "/",
                       "--bind",
                       scratch,
                       scratch,
                       "--unshare-user",
                       "--unshare-net",
                       "--die-with-parent",
                       "/bin/true",
                       NULL};
    return spawn_us(bwrap ? wrapped : plain, n);
}

static void row(const char *what, double (*f)(int, int), int n,
                const char *unit)
{
    double plain = best(f, NONE, n), filter = best(f, FILTER, n),
           boxed = best(f, SANDBOX, n);
    if (plain < 0 || filter < 0 || boxed < 0) {
        printf("| %s | %s |\n", what,
               plain < 0 ? "could not run" : "no sandbox here");
        return;
    }
    printf("| %s | %.3f %s | %.3f %s (%+.3f) | %.3f %s (%+.3f) | %.2fx |\n",
           what, plain, unit, filter, unit, filter - plain, boxed, unit,
           boxed - plain, boxed / plain);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/bench-sandbox.XXXXXX",
             tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
    if (n <= 0 || mkdtemp(scratch) == NULL) {
        fprintf(stderr, "usage: bench_sandbox [ROUNDS > 0]\n");
        return 2;
    }
    if (chdir(scratch) != 0)
        return 1;
    printf("| measure | without | seccomp filter alone (cost) | whole "
           "sandbox (cost) | ratio |\n");
    printf("|---|---:|---:|---:|---:|\n");
    row("fork server start: fork, set up, exit", m_start, n, "us");
    if (access("/usr/bin/bwrap", X_OK) == 0)
        printf("| bubblewrap instead: spawn /bin/true in bwrap | %.3f us | "
               "| %.3f us | |\n",
               best(m_spawn, 0, n), best(m_spawn, 1, n));
    else
        printf("| bubblewrap instead | not installed |\n");
    row("a file call of the code: open, write, close", m_files, 20 * n, "us");
    row("a system call of the code: getppid", m_syscalls, 5000 * n, "us");
    row("a worker restart: fork, exit, wait", m_forks, 5 * n, "us");
    rmdir(scratch);
    return 0;
}
