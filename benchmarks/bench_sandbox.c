/* bench_sandbox.c - what confining the code under test costs
 * (explorer/runtime/rt_sandbox.c: Landlock and a network namespace of
 * its own, set up once by each fork server), against doing without and
 * against bubblewrap, the other way considered (a process started
 * inside a sandbox per server):
 *
 *   start    fork a child that sets up the sandbox and exits, against a
 *            child that only exits: the cost per fork server start
 *   bwrap    posix_spawn of `bwrap ... /bin/true` (user and network
 *            namespace, the file system bound) against /bin/true, if
 *            bwrap is installed
 *   files    open, write and close a file in the scratch folder, in a
 *            sandboxed child and a plain one: what Landlock adds to the
 *            code under test's file calls
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

/* Microseconds per fork of a child that sets up the sandbox (or not)
 * and exits. */
static double start_us(int sandbox, int n)
{
    double t = now_us();
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            if (sandbox)
                bcw_rt_sandbox(scratch, sizeof scratch);
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

/* In a child, sandboxed or not, `work(n)`'s microseconds per round, sent
 * back through a pipe. */
static double in_child(int sandbox, double (*work)(int), int n)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        if (sandbox && bcw_rt_sandbox(scratch, sizeof scratch) == 0)
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

static double forks(int n)
{
    return start_us(0, n);
}

typedef double (*measure)(int sandbox, int n);

static double best(double (*f)(int, int), int sandbox, int n)
{
    double b = -1;
    for (int r = 0; r < 5; r++) {
        double us = f(sandbox, n);
        if (us >= 0 && (b < 0 || us < b))
            b = us;
    }
    return b;
}

static double m_start(int sandbox, int n)
{
    return start_us(sandbox, n);
}

static double m_files(int sandbox, int n)
{
    return in_child(sandbox, files, n);
}

static double m_forks(int sandbox, int n)
{
    return in_child(sandbox, forks, n);
}

static double m_spawn(int bwrap, int n)
{
    char *plain[] = {"/bin/true", NULL};
    char *wrapped[] = {"/usr/bin/bwrap", "--dev-bind", "/", "/",
                       "--bind",         scratch,     scratch,
                       "--unshare-user", "--unshare-net",
                       "--die-with-parent", "/bin/true", NULL};
    return spawn_us(bwrap ? wrapped : plain, n);
}

static void row(const char *what, double plain, double boxed,
                const char *unit)
{
    if (plain < 0 || boxed < 0) {
        printf("| %s | %s |\n", what,
               plain < 0 ? "could not run" : "no sandbox here");
        return;
    }
    printf("| %s | %.2f %s | %.2f %s | %+.2f %s | %.2fx |\n", what, plain,
           unit, boxed, unit, boxed - plain, unit, boxed / plain);
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
    printf("| measure | without | with the sandbox | cost | ratio |\n");
    printf("|---|---:|---:|---:|---:|\n");
    row("fork server start: fork, set up, exit", best(m_start, 0, n),
        best(m_start, 1, n), "us");
    if (access("/usr/bin/bwrap", X_OK) == 0)
        row("bubblewrap instead: spawn /bin/true in bwrap",
            best(m_spawn, 0, n), best(m_spawn, 1, n), "us");
    else
        printf("| bubblewrap instead | not installed |\n");
    row("a file call of the code: open, write, close", best(m_files, 0, 20 * n),
        best(m_files, 1, 20 * n), "us");
    row("a worker restart: fork, exit, wait", best(m_forks, 0, 5 * n),
        best(m_forks, 1, 5 * n), "us");
    rmdir(scratch);
    return 0;
}
