/* bench_stack.c - what a runaway recursion's crash costs a worker at
 * each stack limit: a forked child recurses until its stack overflows,
 * its SIGSEGV handler (on an alternate stack, as the worker's) exits,
 * the parent waits; milliseconds per crash, for the worker's 1 MiB
 * (explorer/runtime/rt_main.c, WORKER_STACK) against Linux's usual
 * 8 MiB.  The pages the recursion touches are the cost. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void on_segv(int signo)
{
    (void)signo;
    _exit(3);
}

__attribute__((noinline)) static int recurse(volatile int *p)
{
    volatile char frame[64];
    frame[0] = (char)*p;
    int next = *p + 1;
    return recurse(&next) + frame[0];
}

/* ms per overflow crash with the stack limited to `kib` KiB */
static double crash_ms(long kib, int n)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_STACK, &r) != 0)
        return -1;
    double t0 = now_s();
    for (int i = 0; i < n; i++) {
        pid_t p = fork();
        if (p == 0) {
            r.rlim_cur = (rlim_t)kib << 10;
            if (r.rlim_max != RLIM_INFINITY && r.rlim_cur > r.rlim_max)
                r.rlim_cur = r.rlim_max;
            setrlimit(RLIMIT_STACK, &r);
            static char alt[1 << 16];
            stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
            sigaltstack(&ss, NULL);
            struct sigaction sa = {.sa_handler = on_segv,
                                   .sa_flags = SA_ONSTACK};
            sigaction(SIGSEGV, &sa, NULL);
            int zero = 0;
            recurse(&zero);
            _exit(0);
        }
        int st;
        if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) ||
            WEXITSTATUS(st) != 3)
            return -1;
    }
    return (now_s() - t0) / n * 1e3;
}

int main(void)
{
    const long kib[] = {8192, 4096, 2048, 1024};
    printf("Stack overflow crash of a forked child, by its stack limit "
           "(200 each)\n\n| stack | ms per crash |\n|---|---:|\n");
    for (size_t i = 0; i < sizeof kib / sizeof *kib; i++) {
        double ms = crash_ms(kib[i], 200);
        if (ms < 0) {
            fprintf(stderr, "bench_stack: the child did not crash as "
                            "expected\n");
            return 1;
        }
        printf("| %ld KiB%s | %.2f |\n", kib[i],
               kib[i] == 1024 ? " (a worker's)" : "", ms);
    }
    return 0;
}
